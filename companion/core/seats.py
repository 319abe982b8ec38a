"""Who acts: numbered player seats, the TABLE (physical reveals) and the HOST (corrections, undo)."""

from __future__ import annotations

from typing import Final, Literal

TABLE: Final = "table"
HOST: Final = "host"

# A player seat is its index from 0; the table and the host are named.
Seat = int | Literal["table", "host"]


def parse_seat(raw: object) -> Seat:
    """Turn a JSON or command-line seat into a Seat, or raise ValueError."""
    if isinstance(raw, bool):
        raise ValueError(f"not a seat: {raw!r}")
    if isinstance(raw, int):
        if raw < 0:
            raise ValueError(f"not a seat: {raw!r}")
        return raw
    if isinstance(raw, str):
        if raw in (TABLE, HOST):
            return raw  # type: ignore[return-value]
        if raw.isdigit():
            return int(raw)
    raise ValueError(f"not a seat: {raw!r} (a seat number from 0, 'table' or 'host')")


def seat_label(seat: Seat) -> str:
    return seat if isinstance(seat, str) else f"seat {seat}"
