"""The plant market and the deck: draws, removals, Step 3, and the real deck's unknown cards."""

from __future__ import annotations

import bisect
import dataclasses

from companion.core import IllegalAction, LogMessage, chance_rng, msg
from companion.games.power_grid import instructions as say
from companion.games.power_grid.data import STEP3
from companion.games.power_grid.state import Instruction, PowerGridState

AUCTION_PHASES = ("auction", "auction_close")


def insert(market: tuple[int, ...], plant: int) -> tuple[int, ...]:
    items = list(market)
    bisect.insort(items, plant)
    return tuple(items)


def without(items: tuple[int, ...], plant: int) -> tuple[int, ...]:
    out = list(items)
    out.remove(plant)
    return tuple(out)


def row_of(state: PowerGridState, plant: int) -> str:
    return "current" if plant in state.current_market() else "future"


def remove_from_game(state: PowerGridState, plant: int, replace: bool) -> tuple[PowerGridState, list[Instruction]]:
    """Take a plant out of the market and out of the game; `replace` asks for a draw to fill its place."""
    state = dataclasses.replace(
        state,
        market=without(state.market, plant),
        removed=(*state.removed, plant),
        draws=state.draws + (1 if replace else 0),
    )
    return state, [say.remove_plant(plant)]


def remove_small_plants(state: PowerGridState) -> tuple[PowerGridState, list[Instruction], list[LogMessage]]:
    """Plants numbered at most the most cities anyone has leave the game at once and are replaced."""
    most = state.most_cities()
    todo: list[Instruction] = []
    log: list[LogMessage] = []
    for plant in [p for p in state.market if p <= most]:
        state, more = remove_from_game(state, plant, replace=True)
        todo += more
        log.append(msg("Plant {plant} left the game: a player has {cities} cities", plant=plant, cities=most))
    return state, todo, log


def next_card(state: PowerGridState) -> int:
    """The top card of the deck as far as the companion knows it (0: a card it cannot know yet)."""
    return state.deck[0]


def reveal_candidates(state: PowerGridState) -> tuple[int, ...]:
    """Physical deck: what the next card may be (STEP3 for the Step 3 card)."""
    if not state.deck:
        return ()
    top = state.deck[0]
    if top:
        return (top,)
    return tuple(sorted(state.pool))


def check_reveal(state: PowerGridState, card: int) -> None:
    candidates = reveal_candidates(state)
    if card in candidates:
        return
    if len(candidates) == 1:
        top = candidates[0]
        if top == STEP3:
            raise IllegalAction(
                "the next card of the deck is the Step 3 card, not plant {plant}: tap the Step 3 card",
                plant=card
            )
        if card == STEP3:
            raise IllegalAction(
                "the next card of the deck is plant {top}, not the Step 3 card: tap plant {top}",
                top=top
            )
        raise IllegalAction(
            "the next card of the deck is plant {top}, not plant {plant}: tap plant {top}",
            top=top, plant=card
        )
    raise not_available(state, card)


def not_available(state: PowerGridState, card: int) -> IllegalAction:
    """The refusal saying where a card is when it cannot be revealed or used ("plant 5 is already in the market")."""
    if card == STEP3:
        if STEP3 in state.market:
            return IllegalAction("the Step 3 card is already in the market and is never sold: tap the top card of the "
                                 "deck or a plant")
        if state.step3_out:
            return IllegalAction("the Step 3 card was already removed from the game: tap the top card of the deck or "
                                 "a plant of the market")
        return IllegalAction("the Step 3 card is still in the deck: it comes up only as the top card; tap the top "
                             "card of the deck")
    if card in state.market:
        if row_of(state, card) == "current":
            return IllegalAction("plant {plant} is already in the current market: auction it on your turn, or tap the "
                                 "top card of the deck to draw", plant=card)
        return IllegalAction("plant {plant} is already in the future market: it is sold once it moves to the current "
                             "market; tap the top card of the deck", plant=card)
    for seat, p in enumerate(state.players):
        if p.holding(card) is not None:
            return IllegalAction("plant {plant} belongs to {player} and is not for sale: choose a plant of the "
                                 "current market or the top card of the deck", plant=card, player=seat)
    if card in state.removed:
        return IllegalAction("plant {plant} was removed from the game and never returns: choose a plant of the market "
                             "or the top card of the deck", plant=card)
    if card in state.setup_removed:
        return IllegalAction("plant {plant} was removed from the game at setup and is out of this game: tap the top "
                             "card of the deck", plant=card)
    if card in state.deck:
        return IllegalAction(
            "plant {plant} is in the deck but not on top: only the top card is drawn; tap that one",
            plant=card
        )
    if card in state.pool:
        return IllegalAction("plant {plant} has not been drawn yet: it is hidden in the deck; tap the top card of the "
                             "deck or a plant of the market", plant=card)
    return IllegalAction(
        "plant {plant} is not a plant of this game: choose a number printed on one of its plant cards",
        plant=card
    )


def shuffle_deck(state: PowerGridState) -> PowerGridState:
    """The Step 3 reshuffle: digital decks are shuffled by the session seed; a real deck becomes unknown order."""
    if state.digital:
        deck = list(state.deck)
        chance_rng(state.seed, "step3", state.round, state.drawn).shuffle(deck)
        return dataclasses.replace(state, deck=tuple(deck))
    known = [c for c in state.deck if c]
    # Every unknown card above the Step 3 card has been drawn, so the unseen plants left were removed at setup.
    return dataclasses.replace(
        state,
        deck=(0,) * len(known),
        pool=frozenset(known),
        setup_removed=tuple(sorted(state.pool)),
    )


def step3_out(state: PowerGridState, lowest_too: bool = True) -> tuple[PowerGridState, list[Instruction]]:
    """The Step 3 card and the lowest plant leave the game without replacement, and the deck is shuffled."""
    market = tuple(p for p in state.market if p != STEP3)
    lowest = market[0] if (market and lowest_too) else None
    if lowest is not None:
        market = market[1:]
    gone = (STEP3, lowest) if lowest is not None else (STEP3,)
    state = dataclasses.replace(state, market=market, removed=(*state.removed, *gone), step3_out=True)
    state = shuffle_deck(state)
    return state, list(say.step3_begins(lowest))


def resolve_draw(state: PowerGridState, card: int) -> tuple[PowerGridState, list[Instruction], list[LogMessage]]:
    """One plant comes off the deck (the digital top card, or the card the table revealed)."""
    top = state.deck[0]
    pool = state.pool - {card} if top == 0 else state.pool
    state = dataclasses.replace(state, deck=state.deck[1:], pool=pool, draws=state.draws - 1, drawn=state.drawn + 1)
    if card == STEP3:
        if state.phase in AUCTION_PHASES:
            state = dataclasses.replace(state, market=(*state.market, STEP3))
            return state, [say.step3_in_market()], [msg("The Step 3 card was drawn")]
        state, todo = step3_out(state)
        if state.phase == "round_end":
            # Drawn in phase 5 while replacing the top plant, after the resupply: Step 3 from the next round.
            state = dataclasses.replace(state, step3_next=True)
            return state, [*todo, say.step3_next_round()], [
                msg("The Step 3 card was drawn: Step 3 begins next round")
            ]
        if state.phase == "bureaucracy":
            # Drawn while phase 4 turned into phase 5 (Step 2's replacement), before anyone fired or the market
            # was resupplied: this phase 5 is already Step 3.
            state = dataclasses.replace(state, step=3)
            return state, [*todo, say.step3_houses()], [msg("The Step 3 card was drawn: Step 3 began")]
        # Drawn in phase 4: the rest of it keeps the old step; Step 3 begins with phase 5.
        state = dataclasses.replace(state, step3_next=True)
        return state, [*todo, say.step3_next_phase()], [
            msg("The Step 3 card was drawn: Step 3 begins with phase 5")
        ]
    state = dataclasses.replace(state, market=insert(state.market, card))
    todo = [say.put_in_market(card, row_of(state, card))]
    log = [msg("Plant {plant} was drawn", plant=card)]
    state, more_todo, more_log = remove_small_plants(state)
    return state, todo + more_todo, log + more_log
