"""A player's turn: shift, flip and score while cards last, then end the turn (drawing up to 4) or skip."""

from __future__ import annotations

from companion.core.errors import IllegalAction
from companion.core.log import LogMessage, msg
from companion.games.shifting_stones import scoring
from companion.games.shifting_stones.actions import FlipStone, ScoreCard, ShiftStones
from companion.games.shifting_stones.deck import draw
from companion.games.shifting_stones.patterns import (
    CELL_NAMES,
    CELLS,
    FACES,
    HAND_SIZE,
    NEIGHBOUR_SET,
    PATTERNS,
    SKIP_DRAW,
    SOLO_STRIKES_TO_LOSE,
    flipped,
    matches,
)
from companion.games.shifting_stones.state import StonesState, end_target, evolve, place


def _update_player(state: StonesState, seat: int, **changes: object) -> StonesState:
    players = list(state.players)
    players[seat] = evolve(players[seat], **changes)
    return evolve(state, players=tuple(players))


def _check_in_hand(state: StonesState, seat: int, card: str) -> None:
    if card in state.players[seat].hand:
        return
    if card not in PATTERNS:
        raise IllegalAction("there is no pattern card '{card}': use a card of your hand", card=card)
    # Another player's hand is a secret; only public places are named.
    kind, owner = place(state, card)
    if kind == "scored" and state.solo:
        raise IllegalAction("{card} is not in your hand: it is already scored; use a card of your hand", card=card)
    if kind == "scored":
        raise IllegalAction("{card} is not in your hand: it is already scored by {player}; use a card of your hand",
                            card=card, player=owner)
    if kind == "discard":
        raise IllegalAction("{card} is not in your hand: it is in the discard pile; use a card of your hand", card=card)
    raise IllegalAction("{card} is not in your hand: use a card of your hand, or skip", card=card)


def _check_cell(cell: int) -> None:
    if cell not in CELLS:
        raise IllegalAction(
            "there is no stone {cell}: the stones are 1 (top left) to 9 (bottom right), row by row", cell=cell + 1
        )


def _spend(state: StonesState, seat: int, card: str) -> StonesState:
    """A shift or flip costs a hand card, discarded face up."""
    hand = list(state.players[seat].hand)
    hand.remove(card)
    state = _update_player(state, seat, hand=tuple(hand))
    return evolve(state, discard=(*state.discard, card), acted=state.acted + 1)


def shift(state: StonesState, action: ShiftStones) -> tuple[StonesState, list[LogMessage]]:
    seat = int(action.seat)
    _check_in_hand(state, seat, action.card)
    _check_cell(action.a)
    _check_cell(action.b)
    a, b = sorted((action.a, action.b))
    if a == b:
        raise IllegalAction("a shift swaps two different stones: choose two side by side, or flip one stone")
    if (a, b) not in NEIGHBOUR_SET:
        raise IllegalAction(
            "the {first} and {second} stones are not side by side: a shift swaps two stones next to each other in a "
            "row or a column",
            first=CELL_NAMES[a],
            second=CELL_NAMES[b],
        )
    grid = list(state.grid)
    grid[a], grid[b] = grid[b], grid[a]
    state = evolve(_spend(state, seat, action.card), grid=tuple(grid), last_cells=(a, b))
    return state, [
        msg(
            "{player} discarded {card} and swapped the {first} {first_face} with the {second} {second_face}",
            player=seat,
            card=action.card,
            first=CELL_NAMES[a],
            first_face=grid[b],
            second=CELL_NAMES[b],
            second_face=grid[a],
        )
    ]


def flip(state: StonesState, action: FlipStone) -> tuple[StonesState, list[LogMessage]]:
    seat = int(action.seat)
    _check_in_hand(state, seat, action.card)
    _check_cell(action.cell)
    grid = list(state.grid)
    before = grid[action.cell]
    grid[action.cell] = FACES[flipped(FACES.index(before))]
    state = evolve(_spend(state, seat, action.card), grid=tuple(grid), last_cells=(action.cell,))
    return state, [
        msg(
            "{player} discarded {card} and flipped the {cell} stone from {before} to {after}",
            player=seat,
            card=action.card,
            cell=CELL_NAMES[action.cell],
            before=before,
            after=grid[action.cell],
        )
    ]


def score(state: StonesState, action: ScoreCard) -> tuple[StonesState, list[LogMessage]]:
    seat = int(action.seat)
    _check_in_hand(state, seat, action.card)
    pattern = PATTERNS[action.card]
    if not matches(state.codes(), pattern):
        raise IllegalAction(
            "pattern {card} ({pattern}) does not match the grid: shift or flip stones first",
            card=action.card, pattern=pattern.text()
        )
    player = state.players[seat]
    hand = tuple(c for c in player.hand if c != action.card)
    scored = (*player.scored, action.card)
    state = _update_player(state, seat, hand=hand, scored=scored)
    state = evolve(state, acted=state.acted + 1, scored_this_turn=state.scored_this_turn + 1)
    log = [msg("{player} scored {card} for {points}", player=seat, card=action.card, points=pattern.points)]
    target = end_target(state)
    if state.solo and len(scored) == sum(n for _, n in state.composition):
        state = evolve(state, phase="over", result="won")
        log.append(msg("{player} scored all {count} cards and won the solo game", player=seat, count=len(scored)))
    elif target is not None and len(scored) >= target and not state.final_round:
        state = evolve(state, final_round=True)
        log.append(
            msg(
                "{player} has scored {count} cards: the round is finished, then the game ends",
                player=seat,
                count=len(scored),
            )
        )
    return state, log


def end_turn(state: StonesState, skipped: bool) -> tuple[StonesState, list[LogMessage]]:
    """End the current turn: solo strike, the end of the game, or the draw (which may wait for the table)."""
    seat = state.turn
    if skipped:
        if state.acted:
            raise IllegalAction("you have already acted this turn and a skip replaces every action: end the turn "
                                "instead")
        if state.current.skipped_last_turn:
            raise IllegalAction("you skipped your last turn and never two skips in a row: make a move or end the turn")
        log = [msg("{player} skipped the turn", player=seat)]
    else:
        log = [msg("{player} ended the turn", player=seat)]
    state = _update_player(state, seat, skipped_last_turn=skipped)
    if state.solo and state.scored_this_turn == 0:
        strikes = state.strikes + 1
        state = evolve(state, strikes=strikes)
        log.append(
            msg(
                "{player} scored nothing this turn: strike {strikes} of {most}",
                player=seat,
                strikes=strikes,
                most=SOLO_STRIKES_TO_LOSE,
            )
        )
        if strikes >= SOLO_STRIKES_TO_LOSE:
            log.append(msg("{player} lost the solo game", player=seat))
            return evolve(state, phase="over", result="lost"), log
    if state.final_round and seat == len(state.players) - 1:
        state = evolve(state, phase="over")
        return state, log + scoring.final_messages(state)
    count = SKIP_DRAW if skipped else max(0, HAND_SIZE - len(state.current.hand))
    state, more = draw(state, seat, count)
    log += more
    if state.pending:
        return evolve(state, phase="draw"), log
    return next_turn(state), log


def next_turn(state: StonesState) -> StonesState:
    return evolve(
        state,
        phase="play",
        turn=(state.turn + 1) % len(state.players),
        turns_taken=state.turns_taken + 1,
        acted=0,
        scored_this_turn=0,
    )
