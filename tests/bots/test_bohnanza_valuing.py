"""The valuing Bohnanza trader (the strong level's policy): fields worth their growth to come, forced harvests that
lose least, and trades judged by what they bring the bot against what they bring its partner."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from companion.bots.bohnanza import Outlook, ValueTrader
from companion.core import get_game
from companion.games.bohnanza.actions import AcceptOffer, EndTrading, Harvest, OfferTrade, RefuseOffer
from companion.games.bohnanza.beans import bean_of
from companion.games.bohnanza.state import BohnanzaState, Offer

GAME = get_game("bohnanza")


def arrange(state: BohnanzaState, seat: int, *, hand: Sequence[str] = (),
            fields: Sequence[Sequence[str]] | None = None, face_up: Sequence[str] = ()) -> BohnanzaState:
    """Move the named cards from wherever they are into the seat's hand and fields (or face up on the table)."""
    named = {*hand, *face_up, *(c for f in fields or () for c in f)}
    players = []
    for s, p in enumerate(state.players):
        kept = tuple(c for c in p.hand if c not in named)
        if s == seat:
            p = dataclasses.replace(p, hand=tuple(hand), fields=tuple(tuple(f) for f in fields) if fields is not None
                                    else p.fields)
        else:
            # Others keep as many cards as before: the gap is filled from the deck.
            p = dataclasses.replace(p, hand=kept)
        players.append(p)
    deck = [c for c in state.deck if c not in named]
    for s, p in enumerate(players):
        if s != seat and len(p.hand) < 5:
            players[s] = dataclasses.replace(p, hand=(*p.hand, *deck[: 5 - len(p.hand)]))
            deck = deck[5 - len(p.hand):]
    return dataclasses.replace(state, players=tuple(players), deck=tuple(deck),
                               face_up=tuple(face_up) or state.face_up)


def start() -> BohnanzaState:
    return GAME.setup(GAME.make_config(4, "digital"), random.Random(3))


def choose(state: BohnanzaState, seat: int) -> object:
    return ValueTrader().choose(GAME, state, seat, GAME.legal_actions(state, seat), random.Random(0))


def blues(n: int) -> list[str]:
    return [f"blue-{i:02d}" for i in range(1, n + 1)]


def test_a_field_is_worth_more_while_its_beans_are_still_to_come() -> None:
    state = arrange(start(), 0, hand=["wax-01"], fields=[blues(5), []])
    rich = Outlook(state, 0).worth("blue", 5)
    # Every other blue bean in sight (in the second player's field): nothing more can come.
    others = list(state.players)
    gone = blues(20)[5:]
    others[1] = dataclasses.replace(others[1], fields=(tuple(gone), ()),
                                    hand=tuple(c for c in others[1].hand if c not in gone))
    dry = dataclasses.replace(state, players=tuple(others), deck=tuple(c for c in state.deck if c not in gone))
    assert Outlook(dry, 0).worth("blue", 5) == 1  # what it pays now (4 blue beans pay 1)
    assert rich > 1.3


def test_a_forced_harvest_gives_up_the_field_with_least_to_come() -> None:
    # Seven blue beans pay 2 and the eighth (next in hand) makes 3; three stink beans pay 1 and the fifth is far.
    stinks = [f"stink-{i:02d}" for i in range(1, 4)]
    state = arrange(start(), 0, hand=["wax-01", "blue-08", "soy-01"], fields=[blues(7), stinks])
    state = dataclasses.replace(state, step="plant", active=0, planted=0)
    harvests = [a for a in GAME.legal_actions(state, 0) if isinstance(a, Harvest)]
    assert {a.field for a in harvests} == {0, 1}  # the trader would harvest the blue field: it pays most now
    assert choose(state, 0) == Harvest(0, 1)


def test_it_accepts_a_gift_it_grows_and_refuses_one_that_would_uproot_a_field() -> None:
    state = arrange(start(), 1, hand=["soy-01", "soy-02", "red-01"], fields=[blues(5), ["chili-01", "chili-02"]],
                    face_up=["green-01", "green-02"])
    state = dataclasses.replace(state, step="trade", active=0)
    # The active player gives away a face-up blue bean, then a face-up green one.
    gift = Offer(50, 0, 1, ("blue-20",), (), ())
    assert bean_of("blue-20") == "blue"
    state_gift = dataclasses.replace(state, face_up=("blue-20", "green-01"), offers=(gift,), next_offer=51)
    assert choose(state_gift, 1) == AcceptOffer(1, 50, ())
    weed = Offer(51, 0, 1, ("green-01",), (), ())
    state_weed = dataclasses.replace(state, face_up=("blue-20", "green-01"), offers=(weed,), next_offer=52)
    assert choose(state_weed, 1) == RefuseOffer(1, 51)


def test_the_active_player_offers_a_face_up_bean_it_cannot_use_to_one_who_grows_it() -> None:
    # Its fields grow blue and chili; the face-up green bean would uproot one of them. The second player grows green.
    state = arrange(start(), 0, hand=["blue-06", "chili-03"], fields=[blues(5), ["chili-01", "chili-02"]],
                    face_up=["green-01"])
    others = list(state.players)
    others[1] = dataclasses.replace(others[1], fields=(("green-02", "green-03"), ()))
    state = dataclasses.replace(state, players=tuple(others), step="trade", active=0,
                                deck=tuple(c for c in state.deck if c not in ("green-02", "green-03")))
    action = choose(state, 0)
    assert isinstance(action, OfferTrade) and action.to == 1 and action.give_face_up == ("green-01",)
    # Once nobody will take it, it ends trading and plants it.
    done = dataclasses.replace(state, offers_made=10)
    assert choose(done, 0) == EndTrading(0)
