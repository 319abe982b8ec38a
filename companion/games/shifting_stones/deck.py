"""The pattern deck: dealing, drawing, reshuffling the discards, and the table's reveals of real cards."""

from __future__ import annotations

import random

from companion.core.errors import IllegalAction
from companion.core.game import chance_rng
from companion.core.log import LogMessage, msg
from companion.games.shifting_stones.patterns import ALL_CARDS_BY_POINTS, HAND_SIZE, PATTERNS, SOLO_DECK
from companion.games.shifting_stones.state import (
    DeckMode,
    PlayerState,
    StonesState,
    deck_size,
    evolve,
    place,
    possible_draws,
)


def composition(players: int) -> tuple[tuple[int, int], ...]:
    """The cards in play by point value: all 72, or the solo deck (8×1, 4×2, 3×3, 1×5 points)."""
    return tuple(sorted((SOLO_DECK if players == 1 else ALL_CARDS_BY_POINTS).items()))


def shuffled_deck(players: int, rng: random.Random) -> list[str]:
    """The digital deck: every card, or for the solo game a random deck of the solo composition."""
    if players == 1:
        cards = []
        for points, count in sorted(SOLO_DECK.items()):
            cards += rng.sample(sorted(c for c, p in PATTERNS.items() if p.points == points), count)
    else:
        cards = list(PATTERNS)
    rng.shuffle(cards)
    return cards


def deal(
    players: int, mode: DeckMode, rng: random.Random
) -> tuple[tuple[PlayerState, ...], tuple[str, ...], tuple[int, ...]]:
    """(players with their hands, the digital deck, the seats owed a card by the physical deck)."""
    if mode == "physical":
        owed = tuple(s for s in range(players) for _ in range(HAND_SIZE))
        return tuple(PlayerState(()) for _ in range(players)), (), owed
    deck = shuffled_deck(players, rng)
    hands = tuple(PlayerState(tuple(deck[s * HAND_SIZE : (s + 1) * HAND_SIZE])) for s in range(players))
    return hands, tuple(deck[players * HAND_SIZE :]), ()


def _with_hand(state: StonesState, seat: int, hand: tuple[str, ...]) -> StonesState:
    players = list(state.players)
    players[seat] = evolve(players[seat], hand=hand)
    return evolve(state, players=tuple(players))


def _reshuffle(state: StonesState) -> tuple[StonesState, list[LogMessage]]:
    """An empty deck takes the discard pile, shuffled (digital: by the session's seed; physical: at the table)."""
    count = len(state.discard)
    if state.deck_mode == "digital":
        cards = list(state.discard)
        chance_rng(state.seed, "reshuffle", state.reshuffles).shuffle(cards)
        state = evolve(state, deck=tuple(cards), discard=(), reshuffles=state.reshuffles + 1)
    else:
        state = evolve(
            state, returned=state.returned | frozenset(state.discard), discard=(), reshuffles=state.reshuffles + 1
        )
    return state, [msg("The {count} discarded cards were shuffled into a new deck", count=count)]


def draw(state: StonesState, seat: int, count: int) -> tuple[StonesState, list[LogMessage]]:
    """Draw `count` cards for `seat`: at once from a digital deck, or owed until the table reveals them."""
    log: list[LogMessage] = []
    if count <= 0:
        return state, log
    if state.deck_mode == "physical":
        state = evolve(state, pending=state.pending + (seat,) * count)
        return settle(state, log)
    drawn: list[str] = []
    for _ in range(count):
        if not state.deck:
            if not state.discard:
                break
            state, more = _reshuffle(state)
            log += more
        drawn.append(state.deck[0])
        state = evolve(state, deck=state.deck[1:])
    state = _with_hand(state, seat, (*state.players[seat].hand, *drawn))
    log.append(msg("{player} drew {count} cards", player=seat, count=len(drawn)))
    if drawn:
        log.append(msg("{player} drew {cards}", visible_to=(seat,), player=seat, cards=tuple(drawn)))
    return state, log


def settle(state: StonesState, log: list[LogMessage]) -> tuple[StonesState, list[LogMessage]]:
    """Physical deck: reshuffle when a card is owed and the deck is empty; forget draws nothing can satisfy."""
    while state.pending and deck_size(state) == 0:
        if state.discard:
            state, more = _reshuffle(state)
            log += more
        else:
            log.append(msg("No cards were left to draw"))
            state = evolve(state, pending=())
    return state, log


def reveal(state: StonesState, card: str) -> tuple[StonesState, list[LogMessage]]:
    """The table shows the card drawn from the real deck; it goes to the first seat owed a card."""
    if not state.pending:
        raise IllegalAction("no card is being drawn now: tap a card only when the table draws one")
    if card not in PATTERNS:
        raise IllegalAction("there is no pattern card '{card}': tap the card just drawn", card=card)
    if card not in possible_draws(state):
        raise _not_in_deck(state, card)
    seat = state.pending[0]
    state = evolve(state, pending=state.pending[1:], returned=state.returned - {card})
    state = _with_hand(state, seat, (*state.players[seat].hand, card))
    log = [
        msg("{player} drew a card", player=seat),
        msg("{player} drew {card}", visible_to=(seat,), player=seat, card=card),
    ]
    return settle(state, log)


def _not_in_deck(state: StonesState, card: str) -> IllegalAction:
    """The refusal of a revealed card the deck cannot hold, saying where it is."""
    kind, owner = place(state, card)
    if kind == "unseen":
        points = PATTERNS[card].points
        return IllegalAction(
            "{card} cannot come from the deck: all {total} of its {points}-point cards have been seen; tap the card "
            "just drawn",
            card=card,
            total=dict(state.composition)[points],
            points=points,
        )
    if kind == "scored" and state.solo:
        return IllegalAction("{card} cannot come from the deck: it is already scored; tap the card just drawn",
                             card=card)
    if kind == "scored":
        return IllegalAction(
            "{card} cannot come from the deck: it is already scored by {player}; tap the card just drawn", card=card,
            player=owner
        )
    if kind == "hand":
        return IllegalAction("{card} cannot come from the deck: it is in {player}'s hand; tap the card just drawn",
                             card=card,
                             player=owner)
    # The rest is discarded: cards are drawn only from a physical deck, whose returned cards may all be drawn.
    return IllegalAction("{card} cannot come from the deck: it is in the discard pile; tap the card just drawn",
                         card=card)
