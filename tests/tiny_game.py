"""A tiny card game that exercises the engine core and the shared harness: hidden hands, draws, reveals."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from companion.core import (
    HOST,
    TABLE,
    Action,
    ChanceEvent,
    Game,
    GameConfig,
    IllegalAction,
    LogMessage,
    NotYourTurn,
    OptionSpec,
    Seat,
    msg,
    register,
)

CARDS = tuple(range(1, 13))


@dataclasses.dataclass(frozen=True)
class PlayCard(Action):
    """Play a card from your hand: its value is added to your score, then you draw."""

    card: int
    summary = "play a card from your hand"


@dataclasses.dataclass(frozen=True)
class RevealCard(Action):
    """TABLE: the card the current player drew from the real deck."""

    card: int


@dataclasses.dataclass(frozen=True)
class AdjustScore(Action):
    """HOST: correct a player's score."""

    target: int
    delta: int
    host_only = True


@dataclasses.dataclass(frozen=True)
class TinyState:
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]  # digital: the order; physical: empty (unknown)
    unseen: frozenset[int]  # physical: cards not yet seen
    deck_size: int
    scores: tuple[int, ...]
    turn: int
    turns_taken: int
    awaiting_reveal: bool
    hand_size: int


class TinyGame(Game[TinyState]):
    name = "tiny"
    title = "Tiny"
    min_players = 2
    max_players = 4
    options = (OptionSpec("hand_size", int, 2, "cards in each hand", choices=(1, 2, 3)),)
    action_kinds = (PlayCard, RevealCard, AdjustScore)
    state_type = TinyState
    chance_events = (ChanceEvent("draw", "a card is drawn from the deck", RevealCard),)

    def setup(self, config: GameConfig, rng: random.Random) -> TinyState:
        n, size = config.players, config.option("hand_size")
        deck = list(CARDS)
        rng.shuffle(deck)
        hands = tuple(tuple(deck[i * size : (i + 1) * size]) for i in range(n))
        rest = tuple(deck[n * size :])
        if config.chance_mode("draw") == "physical":
            # The real deck is shuffled at the table; only the dealt hands are known (entered at setup).
            return TinyState(hands, (), frozenset(rest), len(rest), (0,) * n, 0, 0, False, size)
        return TinyState(hands, rest, frozenset(), len(rest), (0,) * n, 0, 0, False, size)

    def current_seats(self, state: TinyState) -> tuple[Seat, ...]:
        if self.is_over(state):
            return ()
        return (TABLE,) if state.awaiting_reveal else (state.turn,)

    def legal_actions(self, state: TinyState, seat: Seat) -> list[Action]:
        if seat not in self.current_seats(state):
            return []
        if seat == TABLE:
            return [RevealCard(TABLE, c) for c in sorted(state.unseen)]
        assert isinstance(seat, int)
        return [PlayCard(seat, c) for c in state.hands[seat]]

    def apply(self, state: TinyState, action: Action) -> tuple[TinyState, list[LogMessage]]:
        if isinstance(action, AdjustScore):
            if action.seat != HOST:
                raise IllegalAction("only the host corrects scores")
            if not 0 <= action.target < len(state.scores):
                raise IllegalAction(f"there is no seat {action.target}")
            scores = list(state.scores)
            scores[action.target] += action.delta
            return dataclasses.replace(state, scores=tuple(scores)), [
                msg("The host corrected {player}'s score by {delta}", player=action.target, delta=action.delta)
            ]
        if action.seat not in self.current_seats(state):
            raise NotYourTurn(f"it is not {action.seat}'s turn")
        if isinstance(action, RevealCard):
            if action.card not in state.unseen:
                raise IllegalAction(f"card {action.card} is not in the deck")
            return self._draw_into(state, action.card, state.unseen - {action.card})
        if isinstance(action, PlayCard):
            seat = action.seat
            assert isinstance(seat, int)
            hand = state.hands[seat]
            if action.card not in hand:
                raise IllegalAction(f"card {action.card} is not in your hand")
            hands = list(state.hands)
            hands[seat] = tuple(c for c in hand if c != action.card)
            scores = list(state.scores)
            scores[seat] += action.card
            state = dataclasses.replace(state, hands=tuple(hands), scores=tuple(scores))
            log = [msg("{player} played {card}", player=seat, card=action.card)]
            if state.deck_size == 0:
                return self._next_turn(state), log
            if state.deck:
                state, more = self._draw_into(state, state.deck[0], state.unseen)
                return state, log + more
            return dataclasses.replace(state, awaiting_reveal=True), log
        raise IllegalAction(f"{action.kind} is not an action of this game")

    def _draw_into(self, state: TinyState, card: int, unseen: frozenset[int]) -> tuple[TinyState, list[LogMessage]]:
        seat = state.turn
        hands = list(state.hands)
        hands[seat] = (*hands[seat], card)
        deck = state.deck[1:] if state.deck else ()
        state = dataclasses.replace(
            state, hands=tuple(hands), deck=deck, unseen=unseen, deck_size=state.deck_size - 1, awaiting_reveal=False
        )
        return self._next_turn(state), [msg("{player} drew {card}", visible_to=(seat,), player=seat, card=card)]

    def _next_turn(self, state: TinyState) -> TinyState:
        n = len(state.hands)
        turn = state.turn
        for step in range(1, n + 1):
            turn = (state.turn + step) % n
            if state.hands[turn]:
                break
        return dataclasses.replace(state, turn=turn, turns_taken=state.turns_taken + 1)

    def is_over(self, state: TinyState) -> bool:
        return not state.awaiting_reveal and all(not h for h in state.hands)

    def scores(self, state: TinyState) -> dict[str, Any]:
        best = max(state.scores)
        return {"scores": list(state.scores), "winners": [i for i, s in enumerate(state.scores) if s == best]}

    def view(self, state: TinyState, seat: Seat | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "scores": list(state.scores),
            "hand_sizes": [len(h) for h in state.hands],
            "deck_size": state.deck_size,
            "turn": state.turn,
            "awaiting_reveal": state.awaiting_reveal,
        }
        if isinstance(seat, int):
            out["hand"] = list(state.hands[seat])
        return out

    def indistinguishable(self, state: TinyState, seat: Seat | None, rng: random.Random) -> TinyState:
        hidden = [c for i, h in enumerate(state.hands) if i != seat for c in h] + list(state.deck)
        rng.shuffle(hidden)
        hands = []
        for i, h in enumerate(state.hands):
            if i == seat:
                hands.append(h)
            else:
                hands.append(tuple(hidden[: len(h)]))
                hidden = hidden[len(h) :]
        deck = tuple(hidden) if state.deck else ()
        return dataclasses.replace(state, hands=tuple(hands), deck=deck)

    def turn_id(self, state: TinyState) -> int:
        return state.turns_taken

    def reveals_information(self, before: TinyState, action: Action, after: TinyState) -> bool:
        return action.seat == TABLE or (bool(before.deck) and after.deck != before.deck)


GAME = register(TinyGame())
