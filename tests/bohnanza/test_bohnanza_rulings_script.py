"""The Bohnanza rulings of issue 14 end to end: each scenario also goes through `companion script --state`."""

from __future__ import annotations

from bohnanza_table import GAME, cards, digital, move
from script_cli import script
from test_bohnanza_deck import thin_deck
from test_bohnanza_trading import trading

from companion.core import HOST
from companion.games.bohnanza.actions import CorrectCoins, OfferTrade, PlantBean, TurnUpCards


def test_script_the_deck_is_exhausted_with_its_last_card_and_an_empty_discard_pile_ends_the_game():
    table = digital(4, seed=2)
    thin_deck(table, [table.state.deck[0]])
    answers, final = script(GAME, table.state, 4, [PlantBean(0, table.hand(0)[0], 0), TurnUpCards(0)])
    assert [a["ok"] for a in answers] == [True, True]
    assert "The discard pile is empty, so no new draw deck can be made: the game ends" in answers[1]["log"]
    assert final["public"]["exhaustions"] == 1 and final["public"]["last_turn"] is True


def test_script_host_coin_corrections_take_from_the_discard_pile_else_from_the_deck():
    table = digital(4, seed=3)
    table.state = move(table.state, cards("red", 5, 6), "discard")
    deck = len(table.state.deck)
    answers, final = script(GAME, table.state, 4, [CorrectCoins(HOST, player=2, delta=4)])
    assert answers[0]["ok"], answers
    assert final["public"]["players"][2]["coins"] == 4
    assert (final["public"]["discard_size"], final["public"]["deck_size"]) == (0, deck - 2)


def test_script_trading_has_no_cap_and_the_duel_has_no_trading():
    table = trading()
    offers = [OfferTrade(0, to=to, give=(give,), want=("soy",) * k) for to in (1, 2, 3) for give in range(4)
              for k in (1, 2)]
    answers, _ = script(GAME, table.state, 4, offers, mode="physical")
    assert len(answers) == 24 and all(a["ok"] for a in answers)
    duel = digital(2, seed=4)
    answers, _ = script(GAME, duel.state, 2, [OfferTrade(1, to=0, want=("soy",))])
    assert answers[0]["error"] == "there is no trading in the two-player game"
