"""The host's corrections of a bean field and of a hand: cards come from and go to the piles, so all 154 stay
accounted for; a hand correction tells the table only the hand's size."""

from __future__ import annotations

import random

from bohnanza_table import GAME, Table, cards, conserved, dealt, digital, move

from companion.core import HOST
from companion.games.bohnanza.actions import CorrectField, CorrectHand
from companion.games.bohnanza.beans import bean_of, beans_in_play


def test_a_field_correction_takes_cards_from_the_discard_pile_first_then_the_deck():
    table = digital(4, seed=3)
    table.state = move(table.state, cards("red", 1, 2), "discard")
    red_in_deck = [c for c in table.state.deck if bean_of(c) == "red"]
    table.do(CorrectField(HOST, player=1, field=0, bean="red", count=3))
    field = table.players[1].fields[0]
    assert field[:2] == ("red-02", "red-01") and field[2] == red_in_deck[-1]
    assert not [c for c in table.state.discard if bean_of(c) == "red"]
    assert "The host set field 1 of 1 to red × 3" in table.texts()


def test_a_field_correction_sends_cards_taken_off_to_the_discard_pile():
    table = digital(4, seed=3)
    table.state = move(table.state, cards("chili", 1, 4), "field", seat=2, field=1)
    table.do(CorrectField(HOST, player=2, field=1, bean="chili", count=1))
    assert table.players[2].fields[1] == ("chili-01",)
    assert table.state.discard[-3:] == ("chili-02", "chili-03", "chili-04")
    # Another bean: every card of the old one goes, the new ones come.
    table.do(CorrectField(HOST, player=2, field=1, bean="stink", count=2))
    assert [bean_of(c) for c in table.players[2].fields[1]] == ["stink", "stink"]
    assert table.state.discard[-1] == "chili-01"
    table.do(CorrectField(HOST, player=2, field=1, bean="stink", count=0))
    assert table.players[2].fields[1] == ()
    assert "The host emptied field 2 of 2" in table.texts()


def test_field_corrections_refuse_what_cannot_be():
    table = digital(4, seed=3)
    table.refuses(CorrectField(0, player=0, field=0, bean="red", count=1),
                  "only the host corrects fields: ask the host")
    table.refuses(CorrectField(HOST, player=0, field=2, bean="red", count=1), "seat 1 has no field 3: only 2")
    table.refuses(CorrectField(HOST, player=0, field=0, bean="red", count=0), "field 1 of seat 1 is empty already")
    table.refuses(CorrectField(HOST, player=0, field=0, bean="coffee", count=1),
                  "coffee beans are not played with 4 players")
    table.refuses(CorrectField(HOST, player=0, field=0, bean="tofu", count=1), "there is no bean called tofu")
    table.refuses(CorrectField(HOST, player=0, field=0, bean="red", count=-2), "fewer than 0")
    table.refuses(CorrectField(HOST, player=9, field=0, bean="red", count=1), "there is no player 10: the players "
                                                                              "are 1 to 4")
    # There are 8 red beans: with two in hands (or fields) elsewhere, asking for all 8 runs out.
    table.state = move(table.state, cards("red", 1, 2), "field", seat=3, field=0)
    table.refuses(CorrectField(HOST, player=0, field=0, bean="red", count=8),
                  "only 6 more red cards are on the discard pile and in the deck, not 8")
    table.do(CorrectField(HOST, player=0, field=0, bean="red", count=2))
    table.refuses(CorrectField(HOST, player=0, field=0, bean="red", count=2), "holds 2 red cards already")


def test_a_hand_correction_adds_from_the_deck_to_the_back_and_returns_to_the_deck():
    table = digital(4, seed=3)
    hand = table.hand(1)
    size = len(table.state.deck)
    wanted = next(c for c in reversed(table.state.deck) if bean_of(c) == "garden")
    log = table.do(CorrectHand(HOST, player=1, bean="garden", change="add"))
    assert table.hand(1) == (*hand, wanted) and len(table.state.deck) == size - 1
    public = [m.render() for m in log if m.visible_to is None]
    assert public == ["The host corrected the hand of 1: 6 cards now"]
    assert [m.visible_to for m in log if m.visible_to is not None] == [(1,)]
    table.do(CorrectHand(HOST, player=1, bean="garden", change="remove"))
    assert table.hand(1) == hand and table.state.deck[-1] == wanted  # digital: back under the deck
    table.refuses(CorrectHand(HOST, player=1, bean="garden", change="remove"), "seat 2 has no garden card in hand")
    table.refuses(CorrectHand(0, player=1, bean="garden", change="add"), "only the host corrects hands: ask the host")


def test_a_hand_correction_shows_the_table_neither_the_bean_nor_the_field_of_the_action():
    table = digital(4, seed=3)
    action = CorrectHand(HOST, player=2, bean="soy", change="add")
    before = table.state
    after, log = GAME.apply(before, action)
    public = GAME.public_action(action, log)
    assert public == {"seat": "host", "action": "correct_hand"}
    assert "soy" not in str(GAME.view(after, None)) or "soy" in str(GAME.view(before, None))
    # The forms list beans in play, never the beans a hand holds.
    forms = GAME.correction_forms(after)
    hand_form = str(forms["correct_hand"])
    assert all(card not in hand_form for p in after.players for card in p.hand)
    assert [c["value"] for c in forms["correct_hand"]["fields"][1]["choices"]] == list(beans_in_play(4))


def test_a_hand_is_not_corrected_while_the_real_table_deals():
    config = GAME.make_config(3, "physical")
    table = Table(GAME.setup(config, random.Random(0)))
    table.refuses(CorrectHand(HOST, player=0, bean="red", change="add"), "the table is still dealing")


def test_a_correction_that_takes_the_last_card_of_the_deck_exhausts_it():
    table = digital(4, seed=3)
    last = table.state.deck[-1]
    table.state = move(table.state, [c for c in table.state.deck if c != last], "discard")
    table.state = move(table.state, [c for c in table.state.discard if bean_of(c) == bean_of(last)], "removed")
    exhaustions = table.state.exhaustions
    table.do(CorrectHand(HOST, player=0, bean=bean_of(last), change="add"))
    assert table.state.exhaustions == exhaustions + 1 and table.state.deck and not table.state.discard


def test_random_corrections_keep_every_card_accounted_for():
    rng = random.Random(7)
    for players in (2, 3, 5, 7):
        table = digital(players, seed=players)
        in_play = beans_in_play(players)
        for _ in range(300):
            seat = rng.randrange(players)
            if rng.random() < 0.5:
                action = CorrectField(HOST, player=seat, field=rng.randrange(3), bean=rng.choice(in_play),
                                      count=rng.randrange(0, 6))
            else:
                action = CorrectHand(HOST, player=seat, bean=rng.choice(in_play), change=rng.choice(["add", "remove"]))
            try:
                table.state, _ = GAME.apply(table.state, action)
            except Exception as exc:  # a refusal, which must leave everything where it was
                assert type(exc).__name__ == "IllegalAction", exc
            conserved(table.state)


def test_a_real_deck_takes_a_hand_card_back_among_its_unknown_cards():
    table = dealt(3, [cards("chili", 1, 5), cards("stink", 1, 5), cards("green", 1, 5)])
    table.do(CorrectHand(HOST, player=0, bean="chili", change="remove"))
    assert table.hand(0) == tuple(cards("chili", 1, 4))
    assert "chili-05" in table.state.deck and list(table.state.deck) == sorted(table.state.deck)
    table.do(CorrectHand(HOST, player=2, bean="chili", change="add"))
    assert bean_of(table.hand(2)[-1]) == "chili" and list(table.state.deck) == sorted(table.state.deck)
