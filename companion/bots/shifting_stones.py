"""Shifting Stones bots: the majority-minded planner (normal), the hand planner and the search's hooks (strong)."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import time
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from companion.bots.base import Budget, canonical, outcome, squash
from companion.core import Action, Game
from companion.core.game import Bot
from companion.core.seats import TABLE, Seat
from companion.games.shifting_stones.actions import EndTurn, ScoreCard, SkipTurn
from companion.games.shifting_stones.best_turn import Plan, best_turn_checked
from companion.games.shifting_stones.bots import GreedyBot
from companion.games.shifting_stones.distance import Move, distance, route
from companion.games.shifting_stones.hints import move_action, spend_order, turn_plan
from companion.games.shifting_stones.patterns import CELLS, HAND_SIZE, NEIGHBOURS, PATTERNS, Pattern
from companion.games.shifting_stones.state import StonesState

# The most first steps toward other cards of the hand the search compares with the greedy move.
ROUTES = 3
# What the points the bot's next turn can score are worth now (the others may spoil the grid first).
NEXT_TURN_WEIGHT = 0.5
# While the +3 for the most 1-point cards is open to it, a 1-point card counts 1 + ONE_POINT_EXTRA / 2 points when
# the planner picks its turn (it decides the winner in about a quarter of greedy games). Open means it does not
# lead the other players' 1-point cards by BONUS_LEAD or more. Tuned in paired arena runs (600 games each):
# extra 2 or 3 with lead 1 won about 5 points of win share more than the greedy planner; 4, or a lead of 2, less.
ONE_POINT_EXTRA = 3
BONUS_LEAD = 1


@cache
def _weighted(card: str, value: int) -> Pattern:
    return dataclasses.replace(PATTERNS[card], points=value)


def _turn_actions(seat: int, hand: tuple[str, ...], plan: Plan, spend: Sequence[str]) -> tuple[Action, ...]:
    """A planned turn as the seat's actions: each step's scores, then its move paid with the next card of `spend`."""
    cards = iter(spend)
    actions: list[Action] = []
    for step in range(len(plan.moves) + 1):
        actions += [ScoreCard(seat, hand[i]) for t, i in plan.scores if t == step]
        if step < len(plan.moves):
            actions.append(move_action(seat, next(cards), plan.moves[step]))
    return tuple(actions)


@lru_cache(maxsize=512)
def _majority_plan(
    grid: tuple[int, ...], hand: tuple[str, ...], seat: int, extra: int
) -> tuple[int, tuple[Action, ...]]:
    # Points doubled, so that the 1-point card's extra half points stay whole numbers for the exact search.
    patterns = [_weighted(c, 2 * PATTERNS[c].points + (extra if PATTERNS[c].points == 1 else 0)) for c in hand]
    plan, _ = best_turn_checked(grid, patterns)
    return plan.points, _turn_actions(seat, hand, plan, spend_order(hand, {hand[i] for i in plan.cards}, grid))


def one_point_extra(state: StonesState, seat: int) -> int:
    """What a 1-point card is worth above its point to the seat now, in half points (0 once it leads clearly)."""
    ones = [sum(1 for c in p.scored if PATTERNS[c].points == 1) for p in state.players]
    others = max((n for i, n in enumerate(ones) if i != seat), default=0)
    return ONE_POINT_EXTRA if ones[seat] < others + BONUS_LEAD else 0


class MajorityPlanner(GreedyBot):
    """The greedy planner with an eye on the bonus: its best turn counts a 1-point card more while the +3 for the
    most 1-point cards is still open to it; otherwise it plays like the greedy planner."""

    def choose(self, game: Any, state: StonesState, seat: Seat, legal: Sequence[Action], rng: random.Random) -> Action:
        if seat == TABLE or not isinstance(seat, int):
            return super().choose(game, state, seat, legal, rng)
        return self.scoring_step(state, seat, legal) or super().choose(game, state, seat, legal, rng)

    def scoring_step(self, state: StonesState, seat: int, legal: Sequence[Action]) -> Action | None:
        """The next step of the best turn when this turn can still score, else None."""
        if state.phase != "play" or state.turn != seat:
            return None
        if len(state.players) < 2:
            points, plan, _ = turn_plan(state, seat)
        else:
            points, plan = _majority_plan(state.codes(), state.players[seat].hand, seat, one_point_extra(state, seat))
        return plan[0] if points > 0 and plan and plan[0] in legal else None


# The hand planner (strong's policy). Between two turns of a player the others shift and flip the grid a lot: a
# card kept one move away scores on its owner's next turn only about half the time, so planning the grid beyond the
# turn pays little, and what is left to plan is the hand. KEEP_CHANCE[points][d] is how often a card kept at
# distance d (fewest moves) when its owner's turn ended was scored on the owner's next turn (300 games between
# majority planners; the last figure stands for every longer distance).
KEEP_CHANCE: dict[int, tuple[float, ...]] = {
    1: (1.0, 0.6, 0.54, 0.45, 0.25, 0.15),
    2: (1.0, 0.45, 0.31, 0.18, 0.06, 0.03),
    3: (1.0, 0.7, 0.6, 0.38, 0.24, 0.09, 0.04, 0.03),
    5: (1.0, 0.6, 0.5, 0.22, 0.14, 0.06, 0.01, 0.0),
}
# Every card scored counts CARD_BONUS points more when the hand planner picks its turn: the player with the most
# scored cards wins about 72% of games between majority planners (more points, more 1-point cards, and the end
# comes on a lead). A kept card worth less than CYCLE times a fresh card is spent on a move after the turn's
# scoring, since the draw refills the hand to 4 for free. Both were tuned in paired runs (1000 games each).
CARD_BONUS = 1
CYCLE = 1.0
_MOVES: tuple[Move, ...] = (*(Move(a, b) for a, b in NEIGHBOURS), *(Move(c) for c in CELLS))


def keep_value(grid: tuple[int, ...], card: str) -> float:
    """What a card kept in hand is worth: its points times the chance it scores on the owner's next turn."""
    pattern = PATTERNS[card]
    chances = KEEP_CHANCE.get(pattern.points) or KEEP_CHANCE[max(KEEP_CHANCE)]
    return pattern.points * chances[min(distance(grid, pattern), len(chances) - 1)]


def fresh_value(state: StonesState, seat: int, grid: tuple[int, ...]) -> float:
    """What a card drawn now is worth on average: the cards the seat has not seen (its hand, the scored cards and
    the discard pile are seen; the others' hands are not)."""
    seen = set(state.discard) | set(state.players[seat].hand)
    for player in state.players:
        seen.update(player.scored)
    unseen = [c for c in PATTERNS if c not in seen]
    return sum(keep_value(grid, c) for c in unseen) / len(unseen) if unseen else 0.0


@lru_cache(maxsize=512)
def _hand_plan(grid: tuple[int, ...], hand: tuple[str, ...], seat: int) -> tuple[int, tuple[Action, ...]]:
    return _paid_plan(grid, hand, seat, [_weighted(c, PATTERNS[c].points + CARD_BONUS) for c in hand])


def _paid_plan(grid: tuple[int, ...], hand: tuple[str, ...], seat: int, patterns: list[Pattern]
               ) -> tuple[int, tuple[Action, ...]]:
    """The best turn for these weighted cards, its moves paid with the cards least worth keeping on the grid the
    turn leaves (not the fewest points)."""
    plan, _ = best_turn_checked(grid, patterns)
    final = grid
    for move in plan.moves:
        final = move.on(final)
    scored = {hand[i] for i in plan.cards}
    spend = sorted((c for c in hand if c not in scored), key=lambda c: (keep_value(final, c), c))
    return plan.points, _turn_actions(seat, hand, plan, spend)


class HandPlanner(GreedyBot):
    """The strong level's policy: the exact best turn counting each card scored a point more, then the hand's junk
    (cards worth less than a fresh draw) spent on the moves that bring its kept cards nearest; with nothing to
    score it plays like the greedy planner (skip when allowed)."""

    def choose(self, game: Any, state: StonesState, seat: Seat, legal: Sequence[Action], rng: random.Random) -> Action:
        if seat == TABLE or not isinstance(seat, int) or state.phase != "play" or state.turn != seat:
            return super().choose(game, state, seat, legal, rng)
        step = self.scoring_step(state, seat, legal)
        if step is not None:
            return step
        if state.acted > 0 or SkipTurn(seat) not in legal:
            step = self.cycle_step(state, seat, legal)
            if step is not None:
                return step
        return super().choose(game, state, seat, legal, rng)

    def scoring_step(self, state: StonesState, seat: int, legal: Sequence[Action]) -> Action | None:
        """The next step of the turn's plan while it can still score, else None."""
        if state.phase != "play" or state.turn != seat:
            return None
        points, plan = _hand_plan(state.codes(), state.players[seat].hand, seat)
        return plan[0] if points > 0 and plan and plan[0] in legal else None

    def cycle_step(self, state: StonesState, seat: int, legal: Sequence[Action]) -> Action | None:
        """Spend the least valuable card on a move when a fresh card is worth more, else None. Only while the
        draw refills the hand (at most 4 cards), and never the last card."""
        hand = state.players[seat].hand
        if not 1 < len(hand) <= HAND_SIZE:
            return None
        grid = state.codes()
        values = {c: keep_value(grid, c) for c in hand}
        junk = min(hand, key=lambda c: (values[c], c))
        if values[junk] >= CYCLE * fresh_value(state, seat, grid):
            return None
        keep = [c for c in hand if c != junk]
        best = max(_MOVES, key=lambda m: sum(keep_value(m.on(grid), c) for c in keep))
        action = move_action(seat, junk, best)
        return action if action in legal else None


class StonesHooks:
    """The search's view of Shifting Stones: the hand planner decides every step of a turn that can score (its
    exact plan); otherwise the search compares its choice (a skip, ending the turn, or spending a junk card) with
    skipping, ending the turn and the first steps toward each card of the hand, playing on until the bot's next
    turn. The playouts and the `normal` level play the majority-minded planner."""

    def __init__(self) -> None:
        self._policy = MajorityPlanner()
        self._planner = HandPlanner()

    def policy(self) -> Bot:
        return self._policy

    def strong_bot(self, budget: Budget) -> TurnSearcher:
        """The strong level: the search over whole turns (below), not the generic root search."""
        return TurnSearcher(budget)

    def candidates(
        self, game: Game[Any], state: StonesState, seat: int, legal: Sequence[Action], rng: random.Random
    ) -> list[Action | None]:
        scoring = self._planner.scoring_step(state, seat, legal)
        if scoring is not None:
            return [scoring]  # the exact plan: no playout judges a scoring turn better than the planner does
        first = self._planner.choose(game, state, seat, legal, rng)
        if len(legal) <= 1 or state.phase != "play":
            return [first]
        out: list[Action | None] = [first]
        out += [a for a in legal if isinstance(a, SkipTurn | EndTurn)]
        hand = state.players[seat].hand
        if len(hand) >= 2:
            grid = state.codes()
            targets = sorted(hand, key=lambda c: (distance(grid, PATTERNS[c]), -PATTERNS[c].points, c))
            for target in targets[:ROUTES]:
                moves = route(grid, PATTERNS[target])
                if moves:
                    out.append(move_action(seat, spend_order(hand, {target}, grid)[0], moves[0]))
        unique: list[Action | None] = []
        for a in out:
            if a in legal and a not in unique:
                unique.append(a)
        return unique

    def determinize(self, game: Game[Any], state: StonesState, seat: int, rng: random.Random) -> StonesState:
        return game.indistinguishable(state, seat, rng)

    def stop(self, start: StonesState, state: StonesState, seat: int) -> bool:
        return state.turns_taken > start.turns_taken and state.turn == seat and state.acted == 0

    def evaluate(self, game: Game[Any], state: StonesState, seat: int) -> float:
        if game.is_over(state):
            return outcome(game, state, seat)
        scores = game.scores(state)["scores"]
        best_other = max(s for i, s in enumerate(scores) if i != seat) if len(scores) > 1 else 0
        # The playout stops as the bot's next turn begins: what that turn can score (exactly) counts, half weighted.
        ahead = turn_plan(state, seat)[0] if state.phase == "play" and state.turn == seat else 0
        return squash(scores[seat] + NEXT_TURN_WEIGHT * ahead - best_other, 3.0)


class _Allowed:
    """What the planners ask of `legal` inside a rollout, without listing every action: a skip is allowed at the
    start of a turn after a turn that did not skip, anything else the planners propose is (they pay with hand
    cards and score only what shows)."""

    def __init__(self, state: StonesState, seat: int) -> None:
        self.skip = state.acted == 0 and not state.players[seat].skipped_last_turn

    def __contains__(self, action: object) -> bool:
        return self.skip if isinstance(action, SkipTurn) else True

    def __iter__(self) -> Any:
        return iter(())

    def __len__(self) -> int:
        return 2


def _play_turn(game: Game[Any], state: StonesState, bot: GreedyBot, rng: random.Random) -> StonesState:
    """The rest of the current player's turn as the planner plays it, then the table's draws (physical deck)."""
    seat, turn = state.turn, state.turns_taken
    while state.phase == "play" and state.turn == seat and state.turns_taken == turn:
        action = bot.choose(game, state, seat, _Allowed(state, seat), rng)  # type: ignore[arg-type]
        state = game.apply(state, action)[0]
    while state.phase == "draw":
        state = game.apply(state, rng.choice(game.legal_actions(state, TABLE)))[0]
    return state


# The turn search (strong): a turn's candidates are whole turns, each the scoring part of the best turn under
# another weighting of the cards (TURN_WEIGHTS: points per card point, points per card, points per 1-point card)
# or aimed at another set of the hand's cards (below), then the hand planner's play of the rest of the turn.
TURN_WEIGHTS: tuple[tuple[int, int, int], ...] = ((1, 1, 0), (1, 0, 0), (1, 3, 0), (2, 0, 3), (1, 2, 1), (0, 1, 0))
# A candidate must beat the hand planner's own turn by this much of a win, and by MARGIN_SE standard errors of
# the paired differences, to be played. The looser rule (0.01, one standard error) won 44.3% of 900 arena games
# where the stricter one (0.02, two) won 41.9% of 300 (docs/bots.md); no other rule did better in the oracle
# replay there.
TURN_MARGIN = 0.01
MARGIN_SE = 1.0


def evidence_choice(results: Sequence[Sequence[float]]) -> int:
    """Which candidate to play, from each one's rollout results in the same worlds: the best by its sum when it beats
    the first (the hand planner's turn) by more than TURN_MARGIN and MARGIN_SE standard errors of the paired
    differences, else the first (also with fewer than two worlds: no spread to judge by)."""
    worlds = len(results[0])
    if worlds < 2:
        return 0
    best = max(range(len(results)), key=lambda i: (sum(results[i]), -i))
    diffs = [a - b for a, b in zip(results[best], results[0], strict=True)]
    mean = sum(diffs) / worlds
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (worlds - 1))
    return best if mean > TURN_MARGIN and mean > MARGIN_SE * sd / math.sqrt(worlds) else 0


# Besides the weightings, a candidate for each set of the hand's cards (every set of a hand of up to HAND_SIZE
# cards, pairs and singles of a larger one): the best turn that scores as many of them as it can, the others not
# aimed at. An oracle of 200 rollouts a candidate on 109 turns of arena games (bench/oracle_stones.py,
# docs/bots.md) found that these sets hold about twice the weightings' gain over the hand planner's turn, even at
# the fewer worlds each that more candidates leave within the budget; in the arena they took the win share from
# 44.3% to 45.5% on the same 900 seeds (46.1% of 1200).
SET_BONUS = 10
SET_LARGE_HAND = 2


@lru_cache(maxsize=512)
def _set_plan(
    grid: tuple[int, ...], hand: tuple[str, ...], seat: int, members: frozenset[int]
) -> tuple[int, tuple[Action, ...]]:
    return _paid_plan(grid, hand, seat, [
        _weighted(c, SET_BONUS + PATTERNS[c].points if i in members else 0) for i, c in enumerate(hand)])


def _card_sets(size: int) -> list[frozenset[int]]:
    """The sets of a hand's cards (by index) the search tries to score: all of them for a hand of up to HAND_SIZE
    cards, pairs and singles for a larger one (a skipping player's hand grows; each set is an exact search)."""
    most = size if size <= HAND_SIZE else SET_LARGE_HAND
    return [frozenset(c) for r in range(1, most + 1) for c in itertools.combinations(range(size), r)]


@lru_cache(maxsize=512)
def _weighted_plan(
    grid: tuple[int, ...], hand: tuple[str, ...], seat: int, weights: tuple[int, int, int]
) -> tuple[int, tuple[Action, ...]]:
    per_point, per_card, per_one = weights
    return _paid_plan(grid, hand, seat, [
        _weighted(c, per_point * PATTERNS[c].points + per_card + (per_one if PATTERNS[c].points == 1 else 0))
        for c in hand])


# The rest of a turn the search chose, by what the seat sees before each step: a worker process that decides
# each step with a new bot (the server's) still plays the turn it chose. Only the seat's own view is in the key.
_NEXT: dict[tuple[Any, ...], Action] = {}


def _view_key(state: StonesState, seat: int) -> tuple[Any, ...]:
    return (state.turns_taken, seat, state.grid, state.players[seat].hand, state.acted)


class TurnSearcher:
    """The strong level for Shifting Stones: at the start of its turn it compares whole candidate turns (above)
    and the skip by playing each to the game's end in the same sampled worlds (the others' hands and the deck
    drawn from what the seat has not seen; the `normal` planner for the others, the hand planner for itself),
    and plays the turn that wins most, the hand planner's own unless another is clearly better."""

    def __init__(self, budget: Budget, level: str = "strong") -> None:
        self.budget = budget
        self.level = level
        self.last_iterations = 0
        self._planner = HandPlanner()
        self._others = MajorityPlanner()

    def choose(self, game: Game[Any], state: StonesState, seat: Seat, legal: Sequence[Action],
               rng: random.Random) -> Action | None:
        info: StonesState = canonical(game, state, seat)
        self.last_iterations = 0
        if not isinstance(seat, int) or info.phase != "play" or info.turn != seat or info.solo:
            return self._planner.choose(game, info, seat, legal, rng)
        planned = _NEXT.get(_view_key(info, seat))
        if planned is not None and planned in legal:
            return planned
        if info.acted > 0:
            return self._planner.choose(game, info, seat, legal, rng)
        turns = self.candidates(info, seat, legal)
        if len(turns) <= 1:
            return self._planner.choose(game, info, seat, legal, rng)
        best = self._search(game, info, seat, turns, rng)
        if best == 0:
            return self._planner.choose(game, info, seat, legal, rng)
        if len(_NEXT) > 1000:
            _NEXT.clear()
        after = info
        for action in turns[best]:
            _NEXT[_view_key(after, seat)] = action
            after = game.apply(after, action)[0]
        return turns[best][0]

    def candidates(self, state: StonesState, seat: int, legal: Sequence[Action]) -> list[tuple[Action, ...]]:
        """Whole turns' scoring parts worth comparing, the hand planner's first (empty: it does not score)."""
        grid, hand = state.codes(), state.players[seat].hand
        out: list[tuple[Action, ...]] = []
        for weights in TURN_WEIGHTS:
            points, actions = _weighted_plan(grid, hand, seat, weights)
            turn = actions if points > 0 else ()
            if turn not in out:
                out.append(turn)
        # A large hand's sets are many exact searches: they stop at a tenth of the budget, the rest is the search's.
        began = time.perf_counter()
        for members in _card_sets(len(hand)):
            if self.budget.seconds is not None and time.perf_counter() - began > 0.1 * self.budget.seconds:
                break
            points, actions = _set_plan(grid, hand, seat, members)
            if points > 0 and actions not in out:
                out.append(actions)
        skip = SkipTurn(seat)
        if skip in legal and (skip,) not in out:
            out.append((skip,))
        return out

    def _search(self, game: Game[Any], info: StonesState, seat: int, turns: list[tuple[Action, ...]],
                rng: random.Random) -> int:
        n = len(turns)
        results: list[list[float]] = [[] for _ in range(n)]
        began = time.perf_counter()
        # A tenth of the budget kept back: the plans of the candidates, and a loaded machine's slower last world.
        deadline = None if self.budget.seconds is None else began + 0.9 * self.budget.seconds
        worlds = 0
        while True:
            if self.budget.iterations is not None and worlds >= self.budget.iterations:
                break
            if deadline is not None and worlds:
                now = time.perf_counter()
                if now + 1.5 * (now - began) / worlds >= deadline:
                    break
            if self.budget.iterations is None and deadline is None and worlds >= 30:
                break
            world = game.indistinguishable(info, seat, rng)
            seed = rng.random()
            for i, turn in enumerate(turns):
                results[i].append(self._rollout(game, world, seat, turn, random.Random(seed)))
            worlds += 1
        self.last_iterations = worlds
        return evidence_choice(results)

    def _rollout(self, game: Game[Any], world: StonesState, seat: int, turn: tuple[Action, ...],
                 rng: random.Random) -> float:
        state = world
        for action in turn:
            state = game.apply(state, action)[0]
        while not game.is_over(state):
            state = self._fast_turn(game, state, seat, rng)
        scores = game.scores(state)["scores"]
        margin = scores[seat] - max(s for i, s in enumerate(scores) if i != seat)
        return 0.8 * outcome(game, state, seat) + 0.2 * squash(margin, 3.0)

    def _fast_turn(self, game: Game[Any], state: StonesState, seat: int, rng: random.Random) -> StonesState:
        """A whole turn of the rollout: the planner's plan found once and played in one go (asked again at every
        step, as in a real game, it nearly always goes on with the same plan), then the rest as it plays it."""
        player = state.turn
        if state.phase == "play" and state.acted == 0:
            grid, hand = state.codes(), state.players[player].hand
            if player == seat:
                points, plan = _hand_plan(grid, hand, player)
            else:
                points, plan = _majority_plan(grid, hand, player, one_point_extra(state, player))
            if points > 0:
                for action in plan:
                    state = game.apply(state, action)[0]
                if player != seat:
                    state = game.apply(state, EndTurn(player))[0]
                    while state.phase == "draw":
                        state = game.apply(state, rng.choice(game.legal_actions(state, TABLE)))[0]
                    return state
        return _play_turn(game, state, self._planner if player == seat else self._others, rng)
