"""Shifting Stones for the table: the board jobs each action sets, who acts now, and the summary's figures."""

from __future__ import annotations

from companion.core import TABLE, Action, LogMessage
from companion.core.table import Now, now
from companion.games.shifting_stones import scoring
from companion.games.shifting_stones.actions import CorrectGrid, FlipStone, ScoreCard, ShiftStones
from companion.games.shifting_stones.patterns import CELL_NAMES, FACES
from companion.games.shifting_stones.state import StonesState

STRIKES_TO_LOSE = 4


def board_jobs(before: StonesState | None, action: Action | None, after: StonesState) -> list[LogMessage]:
    """Stones to lay out, swap or turn over on the real grid, and scored cards to lay face up."""
    if before is None:
        if after.grid:
            return [LogMessage("Lay out the stones row by row from the top left: {faces}", {"faces": after.grid})]
        return []
    if isinstance(action, ShiftStones):
        a, b = action.a, action.b
        return [LogMessage("Swap the {first} {first_face} with the {second} {second_face}",
                           {"first": CELL_NAMES[a], "first_face": before.grid[a], "second": CELL_NAMES[b],
                            "second_face": before.grid[b]})]
    if isinstance(action, FlipStone):
        cell = action.cell
        return [LogMessage("Flip the {cell} stone: {before} becomes {after}",
                           {"cell": CELL_NAMES[cell], "before": before.grid[cell], "after": after.grid[cell]})]
    if isinstance(action, ScoreCard):
        return [LogMessage("{player}: lay card {card} face up in front of you",
                           {"player": action.seat, "card": action.card})]
    if isinstance(action, CorrectGrid):
        return [LogMessage("Set the stones row by row from the top left: {faces}", {"faces": after.grid})]
    return []


def what_now(state: StonesState) -> Now:
    if state.phase == "over":
        if state.solo:
            if state.result == "won":
                return now("The game is over: {player} scored every card and won", (), player=0)
            return now("The game is over: {player} took {strikes} strikes and lost", (), player=0,
                       strikes=state.strikes)
        return now("The game is over: {winners} won (see the scores)", (), winners=tuple(scoring.winners(state)))
    if not state.grid:
        return now("Table: enter the stones row by row from the top left — keys 1 {first} … 8 {last}, then OK",
                   (TABLE,), first=FACES[0], last=FACES[-1])
    if state.pending:
        seat = state.pending[0]
        count = sum(1 for s in state.pending if s == seat)
        if state.phase == "setup":
            return now("Tap the cards dealt to {player}, one at a time ({count} to go)", (TABLE,), player=seat,
                       count=count)
        return now("Table: tap each card {player} draws ({count} to go)", (TABLE,), player=seat, count=count)
    seat = state.turn
    if state.solo:
        return now("{player}: shift or flip stones (each costs a card) and score the cards on the grid; hold your "
                   "button to end the turn ({strikes} of {limit} strikes)", (seat,), player=seat,
                   strikes=state.strikes, limit=STRIKES_TO_LOSE)
    if state.final_round:
        return now("{player}: last round — shift or flip stones (each costs a card), score the cards on the grid, "
                   "then hold your button to end the turn", (seat,), player=seat)
    if state.acted or state.current.skipped_last_turn:
        return now("{player}: shift or flip stones (each costs a card), score the cards on the grid, then hold your "
                   "button to end the turn", (seat,), player=seat)
    return now("{player}: shift or flip stones (each costs a card), score the cards on the grid, then hold your "
               "button to end the turn — or press it twice to skip and draw 2", (seat,), player=seat)


def series(state: StonesState) -> dict[str, list[int]]:
    return {"points": scoring.totals(state) if state.phase == "over" else
            [scoring.points(state, s) for s in range(len(state.players))]}


def round_of(state: StonesState) -> int:
    return state.turns_taken // max(1, len(state.players))


def tie_break(state: StonesState) -> LogMessage | None:
    if state.solo:
        return None
    won = scoring.winners(state)
    if len(won) > 1:
        return LogMessage("{players} tied with {count} points: they share the win",
                          {"players": tuple(won), "count": scoring.totals(state)[won[0]]})
    bonus = scoring.bonuses(state)
    if any(bonus):
        return LogMessage("{players} earned {count} bonus points for the most 1-point cards",
                          {"players": tuple(s for s, b in enumerate(bonus) if b), "count": max(bonus)})
    return None
