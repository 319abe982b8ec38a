"""Scores: the points of scored cards, +3 for the most 1-point cards (every tied player), shared wins, solo."""

from __future__ import annotations

from typing import Any

from companion.core.log import LogMessage, msg
from companion.games.shifting_stones.patterns import ONE_POINT_BONUS, PATTERNS
from companion.games.shifting_stones.state import StonesState


def points(state: StonesState, seat: int) -> int:
    """Points of the cards the player has scored, plus any host correction."""
    player = state.players[seat]
    return sum(PATTERNS[c].points for c in player.scored) + player.correction


def one_point_cards(state: StonesState, seat: int) -> int:
    return sum(1 for c in state.players[seat].scored if PATTERNS[c].points == 1)


def bonuses(state: StonesState) -> list[int]:
    """+3 to every player tied for the most 1-point cards; nobody earns it with none (and not in the solo game)."""
    if state.solo:
        return [0]
    counts = [one_point_cards(state, s) for s in range(len(state.players))]
    most = max(counts)
    return [ONE_POINT_BONUS if most > 0 and n == most else 0 for n in counts]


def totals(state: StonesState) -> list[int]:
    bonus = bonuses(state)
    return [points(state, s) + bonus[s] for s in range(len(state.players))]


def winners(state: StonesState) -> list[int]:
    """The players with the highest total share the win; in the solo game, the player if the game was won."""
    if state.solo:
        return [0] if state.result == "won" else []
    scores = totals(state)
    best = max(scores)
    return [s for s, v in enumerate(scores) if v == best]


def summary(state: StonesState) -> dict[str, Any]:
    out: dict[str, Any] = {
        "scores": totals(state),
        "winners": winners(state),
        "points": [points(state, s) for s in range(len(state.players))],
        "bonus": bonuses(state),
        "one_point_cards": [one_point_cards(state, s) for s in range(len(state.players))],
        "scored_cards": [len(p.scored) for p in state.players],
    }
    if state.solo:
        out["result"] = state.result or "playing"
        out["strikes"] = state.strikes
    return out


def final_messages(state: StonesState) -> list[LogMessage]:
    log: list[LogMessage] = []
    for seat, bonus in enumerate(bonuses(state)):
        if bonus:
            log.append(msg("{player} earned {bonus} bonus points for the most 1-point cards", player=seat, bonus=bonus))
    won = winners(state)
    scores = totals(state)
    if len(won) == 1:
        log.append(msg("{player} won with {count} points", player=won[0], count=scores[won[0]]))
    else:
        log.append(msg("{players} shared the win with {score} points", players=tuple(won), score=scores[won[0]]))
    return log
