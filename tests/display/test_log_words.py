"""The table display's ticker says what happened in words: no offer by its number, no card id ("SS03"), no machine
name ("black_eyed"), beans and stones by their names as on the phones."""

from __future__ import annotations

import re

from companion.i18n import SHOWN_TEMPLATES, catalog, log_line
from display.model import DisplayModel
from display.offline import play


def test_the_ticker_names_no_offer_by_its_number_in_a_real_game():
    model = play("bohnanza", 4, 3, 60)
    offers = [e for e in model.envelope["log"] if "offer" in e.get("template", "")]
    assert offers, "no trade in the first 60 moves"
    ticker = model.ticker()
    assert ticker and not [line for line in ticker if re.search(r"offer \d|\(offer", line)], ticker


def test_each_template_naming_an_offer_number_has_words_with_the_same_other_placeholders():
    placeholder = re.compile(r"\{(\w+)\}")
    for template, shown in SHOWN_TEMPLATES.items():
        assert "offer" in template and not re.search(r"\{(offer|countered)\}", shown)
        assert set(placeholder.findall(shown)) <= set(placeholder.findall(template)), template
    assert log_line("{player} withdrew offer {offer}", {"player": 0, "offer": 60}, catalog("en"), ["Ann"]) == \
        "Ann withdrew an offer"


def test_the_display_and_the_server_word_an_offer_alike():
    model = DisplayModel()
    entry = {"template": "{player} refused offer {offer} from {partner}", "args": {"player": 1, "offer": 7,
                                                                                   "partner": 0}}
    model.set_envelope({"state_id": 1, "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Ben"}],
                        "log": [entry], "view": {}, "game": "bohnanza"})
    assert model.ticker() == ["Ben refused the offer of Ann"]
    assert log_line(entry["template"], entry["args"], catalog("en"), ["Ann", "Ben"]) == model.ticker()[0]


# What a player must never read in the ticker: ids, machine names, empty values, a bean named twice.
MACHINE = re.compile(r"\bNone\b|\bnull\b|\b[a-z]+_[a-z_]+\b|\bSS\d\d\b|\b[a-z]+-\d\d\b|offer \d|Bean bean")


def test_each_games_ticker_names_cards_beans_and_stones_in_words():
    for game, players, seed, steps in (("shifting_stones", 3, 4, 200), ("bohnanza", 4, 3, 200),
                                       ("bohnanza", 2, 1, 200), ("power_grid", 3, 2, 300)):
        ticker = play(game, players, seed, steps).ticker()
        assert ticker and [line for line in ticker if MACHINE.search(line)] == [], (game, ticker)
    stones = play("shifting_stones", 3, 4, 200).ticker()
    assert any(re.search(r"\d-point card \(", line) for line in stones), stones
    beans = play("bohnanza", 2, 1, 200).ticker()
    assert any(re.search(r"planted an? [A-Z][a-z-]+ bean", line) for line in beans), beans


def test_the_stored_texts_and_the_cli_word_log_arguments_as_the_display_does():
    shifting = log_line("{player} discarded {card} and flipped the {cell} stone from {before} to {after}",
                        {"player": 0, "card": "SS05", "cell": "left", "before": "horse", "after": "boat"},
                        catalog("en"), ["Ann"], "shifting_stones")
    assert not MACHINE.search(shifting) and "-point card (" in shifting and "Horse" in shifting, shifting
    beans = log_line("{player} asked {partner} for {want} as a gift (offer {offer})",
                     {"player": 0, "partner": 1, "want": ["black_eyed"], "offer": 3}, catalog("sd"), ["Ann", "Bo"],
                     "bohnanza")
    assert not MACHINE.search(beans) and catalog("sd").gettext("Black-eyed Bean") in beans, beans


def test_english_plurals_on_the_display_and_in_the_log_say_one_coin():
    from display.i18n import _

    assert _("{count} coin · {hand} in hand", count=1, hand=5) == "1 coin · 5 in hand"
    assert _("{count} coin · {hand} in hand", count=2, hand=1) == "2 coins · 1 in hand"
    line = log_line("{player} harvested {count} {bean} beans from field {field} for 1 coin",
                    {"player": 0, "count": 3, "bean": "chili", "field": 2, "coins": 1}, catalog("en"), ["Ann"],
                    "bohnanza")
    assert line == "Ann harvested 3 Chili beans from field 2 for 1 coin"


def test_a_winner_with_one_coin_or_one_point_reads_in_the_singular():
    english = catalog("en")
    assert log_line("{player} won with {count} coins", {"player": 0, "count": 1}, english, ["Ann"],
                    "bohnanza") == "Ann won with 1 coin"
    assert log_line("{player} won with {count} coins", {"player": 0, "count": 4}, english, ["Ann"],
                    "bohnanza") == "Ann won with 4 coins"
    assert log_line("{player} won with {count} points", {"player": 1, "count": 1}, english, ["Ann", "Bo"],
                    "shifting_stones") == "Bo won with 1 point"
    refusal = english.gettext("{player} has only {count} coins, so {amount} cannot be taken away: take away at most "
                              "{count}", player="Ann", count=1, amount=3)
    assert refusal == "Ann has only 1 coin, so 3 cannot be taken away: take away at most 1"
