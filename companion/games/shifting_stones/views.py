"""What the table display and each phone see: the public table, and a player's own hand with where cards score."""

from __future__ import annotations

from typing import Any

from companion.core.seats import TABLE, Seat
from companion.games.shifting_stones import scoring
from companion.games.shifting_stones.patterns import (
    CELL_NAMES,
    HAND_SIZE,
    PATTERNS,
    SOLO_STRIKES_TO_LOSE,
    placements_on,
    rows_of,
)
from companion.games.shifting_stones.state import StonesState, deck_size, end_target


def current_seats(state: StonesState) -> tuple[Seat, ...]:
    if state.phase == "over":
        return ()
    if state.phase in ("setup", "draw"):
        return (TABLE,)
    return (state.turn,)


def card(card_id: str) -> dict[str, Any]:
    return PATTERNS[card_id].to_json()


def _player(state: StonesState, seat: int, total: int) -> dict[str, Any]:
    p = state.players[seat]
    return {
        "seat": seat,
        "hand_size": len(p.hand),
        "scored": [card(c) for c in p.scored],
        "scored_count": len(p.scored),
        "points": scoring.points(state, seat),
        "one_point_cards": scoring.one_point_cards(state, seat),
        "score": total,
        "skipped_last_turn": p.skipped_last_turn,
        "may_skip_next": not p.skipped_last_turn,
        "correction": p.correction,
    }


def public(state: StonesState) -> dict[str, Any]:
    over = state.phase == "over"
    out: dict[str, Any] = {
        "phase": state.phase,
        "current_seats": list(current_seats(state)),
        "turn": state.turn,
        "turns_taken": state.turns_taken,
        "grid": {"faces": list(state.grid), "rows": rows_of(state.grid)} if state.grid else None,
        "cell_names": list(CELL_NAMES),
        "last_move": list(state.last_cells),
        "players": [_player(state, s, total) for s, total in enumerate(scoring.totals(state))],
        "deck_size": deck_size(state),
        "discard_size": len(state.discard),
        "discard_top": card(state.discard[-1]) if state.discard else None,
        "hand_limit": HAND_SIZE,
        "this_turn": {
            "actions": state.acted,
            "scored": state.scored_this_turn,
            "may_skip": state.phase == "play" and not state.acted and not state.current.skipped_last_turn,
        },
        "awaiting": {
            "grid": not state.grid,
            "draws_for": list(state.pending),
        },
        "mode": {"deck": state.deck_mode},
        "over": over,
    }
    target = end_target(state)
    if target is not None:
        out["end_trigger"] = target
        out["most_scored"] = max(len(p.scored) for p in state.players)
        out["final_round"] = state.final_round
    else:
        solo_cards = sum(n for _, n in state.composition)
        out["solo"] = {
            "strikes": state.strikes,
            "strikes_to_lose": SOLO_STRIKES_TO_LOSE,
            "scored": len(state.players[0].scored),
            "cards": solo_cards,
            "result": state.result or "playing",
        }
    if over:
        out["scores"] = scoring.summary(state)
    return out


def private(state: StonesState, seat: int) -> dict[str, Any]:
    """The public table plus the seat's hand, each card with the places its pattern shows now."""
    out = public(state)
    codes = state.codes() if state.grid else ()
    hand = []
    for c in state.players[seat].hand:
        entry = card(c)
        places = placements_on(codes, PATTERNS[c]) if codes else []
        entry["scores_now"] = bool(places)
        entry["where"] = [p.to_json() for p in places]
        hand.append(entry)
    out["seat"] = seat
    out["hand"] = hand
    out["your_turn"] = state.phase == "play" and state.turn == seat
    return out


def view(state: StonesState, seat: Seat | None) -> dict[str, Any]:
    if isinstance(seat, int) and 0 <= seat < len(state.players):
        return private(state, seat)
    return public(state)
