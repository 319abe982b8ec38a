"""The JSON API for phones and displays: views, actions, undo, join codes."""

from __future__ import annotations

import asyncio
import io
from typing import Any

from fastapi import APIRouter, Query
from starlette.requests import Request

from companion.core.errors import NotAllowed
from companion.core.registry import all_games
from companion.core.seats import HOST, Seat
from companion.store import Session
from companion.web.deps import HubDep, SettingsDep, base_url
from companion.web.hub import Source
from companion.web.models import ActionRequest, Done, Envelope, JoinCode, Refusal, SeatHints, UndoRequest

router = APIRouter(prefix="/api", tags=["play"])

REFUSALS: dict[int | str, dict[str, Any]] = {
    code: {"model": Refusal, "description": text}
    for code, text in (
        (400, "malformed input (the reason says what is wrong)"),
        (401, "no token"),
        (403, "the token is not valid here, or may not do this"),
        (404, "no such game"),
        (409, "refused by the rules, not your turn, or stale (the game moved on)"),
        (413, "the request is too large"),
        (429, "too many actions from this token"),
    )
}

TokenQuery = Query(default=None, max_length=200, description="the secret token from the join link")


@router.get("/games", summary="The games this server knows, with their player counts and options")
async def games() -> list[dict[str, Any]]:
    return [game.describe() for game in all_games().values()]


@router.get("/sessions/{sid}/public", response_model=Envelope, responses=REFUSALS,
            summary="The public table (what a display shows); no token needed")
async def public_view(sid: int, hub: HubDep) -> dict[str, Any]:
    live = await hub.live(sid)
    return await asyncio.to_thread(live.session.view, None)


@router.get("/sessions/{sid}/view", response_model=Envelope, responses=REFUSALS,
            summary="A seat's private view (its hand, its legal actions, and its hints when they are ready); "
                    "the host token gets the public one")
async def seat_view(sid: int, hub: HubDep, token: str | None = TokenQuery) -> dict[str, Any]:
    live, actor = await hub.authorise(sid, token)
    if not isinstance(actor, int):
        return await asyncio.to_thread(live.session.view, None)
    # The view never waits for a hint search: hints already computed for this state come with it; otherwise they
    # are started in the hint pool (as for a phone's WebSocket) and `GET .../hints` gives them.
    return await live.seat_envelope(actor)


@router.get("/sessions/{sid}/hints", response_model=SeatHints, responses=REFUSALS,
            summary="A seat's hints for the current state, once the hint pool has them")
async def seat_hints(sid: int, hub: HubDep, token: str | None = TokenQuery) -> dict[str, Any]:
    live, actor = await hub.authorise(sid, token)
    if not isinstance(actor, int):
        raise NotAllowed("only a player's own join link gets hints")
    state_id, hints = await live.hints_for(actor)
    return {"state_id": state_id, "seat": actor, "hints": hints}


def with_seat(action: dict[str, Any], actor: Seat) -> dict[str, Any]:
    """A phone may leave out its own seat."""
    if "seat" not in action and isinstance(actor, int):
        return {**action, "seat": actor}
    return action


@router.post("/sessions/{sid}/actions", response_model=Done, responses=REFUSALS,
             summary="Make an action against the state you saw")
async def act(sid: int, body: ActionRequest, hub: HubDep) -> dict[str, Any]:
    live, actor = await hub.authorise(sid, body.token)
    hub.check_rate(body.token or "")
    source: Source = "host" if actor == HOST else "phone"
    outcome = await live.submit(with_seat(body.action, actor), actor, body.state_id, source)
    if outcome.error is not None:
        raise outcome.error
    return {"ok": True, "state_id": outcome.state_id}


@router.post("/sessions/{sid}/undo", response_model=Done, responses=REFUSALS,
             summary="Undo your last action (within your turn, unless it revealed cards); the host may undo any")
async def undo(sid: int, body: UndoRequest, hub: HubDep) -> dict[str, Any]:
    live, actor = await hub.authorise(sid, body.token)
    hub.check_rate(body.token or "")
    outcome = await live.undo(actor, body.state_id, "host" if actor == HOST else "phone")
    if outcome.error is not None:
        raise outcome.error
    return {"ok": True, "state_id": outcome.state_id}


def qr_svg(url: str) -> str:
    """The URL as a standalone SVG QR code, dark on white so it scans on any screen."""
    import segno  # on first use: the table starts without it

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, svgns=True, scale=4, border=2, light="#fff",
                                    svgclass=None, lineclass=None)
    return out.getvalue().decode()


def join_codes(session: Session, base: str) -> list[dict[str, Any]]:
    codes = []
    for row in session.store.seats(session.id):
        url = f"{base}/join/{session.id}?t={row.token}"
        codes.append({"seat": row.seat, "name": row.name, "colour": row.colour, "url": url, "qr_svg": qr_svg(url)})
    return codes


@router.get("/sessions/{sid}/join-codes", response_model=list[JoinCode], responses=REFUSALS,
            summary="Every seat's join link and QR code (host token only)")
async def get_join_codes(sid: int, request: Request, hub: HubDep, settings: SettingsDep,
                         token: str | None = TokenQuery) -> list[dict[str, Any]]:
    live, actor = await hub.authorise(sid, token)
    if actor != HOST:
        raise NotAllowed("only the host may see the join codes")
    return await asyncio.to_thread(join_codes, live.session, base_url(settings, request))
