"""The game night's calls: history with undo to here, a seat's view for the host, regions, phones and network,
the end-of-game summary (public) and the rematch."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Query
from pydantic import Field
from starlette.requests import Request

from companion.core.errors import MalformedAction
from companion.store import history
from companion.web.deps import HubDep, SettingsDep, base_url
from companion.web.edge import MAX_INT
from companion.web.models import Created, Done, Strict, Token
from companion.web.network import Wifi, describe
from companion.web.routers.api import REFUSALS, qr_svg
from companion.web.routers.host import host_session, host_url

router = APIRouter(prefix="/api", tags=["game night"], responses=REFUSALS)

TokenQuery = Query(default=None, max_length=200, description="the host token")

# The map's colour names as the pages draw them.
REGION_COLOURS = {"green": "#3c9a4a", "brown": "#8b5a2b", "red": "#d0403a", "yellow": "#e0b020", "blue": "#4678c8",
                  "purple": "#965ab4", "cyan": "#3caabe", "orange": "#dc8232"}


class UndoTo(Strict):
    token: Token | None = None
    state_id: int = Field(ge=0, le=MAX_INT)
    seq: int = Field(ge=1, le=MAX_INT, description="the history entry to undo, with everything after it")


@router.get("/host/sessions/{sid}/history", summary="Every action of the game in words, oldest first (host)")
async def get_history(sid: int, hub: HubDep, token: str | None = TokenQuery) -> dict[str, Any]:
    live = await host_session(hub, sid, token)
    return {"entries": await asyncio.to_thread(history.entries, live.session)}


@router.get("/host/sessions/{sid}/history/{seq}/undo", summary="What undo to here would take back (a preview; "
            "changes nothing)")
async def preview_undo(sid: int, seq: int, hub: HubDep, token: str | None = TokenQuery) -> dict[str, Any]:
    live = await host_session(hub, sid, token)
    undone = await asyncio.to_thread(history.undo_preview, live.session, seq)
    return {"seq": seq, "state_id": live.session.state_id, "undone": undone}


@router.post("/host/sessions/{sid}/undo-to", response_model=Done, summary="Undo an action and everything after it "
             "(after the preview, against the state id it showed)")
async def undo_to(sid: int, body: UndoTo, hub: HubDep) -> dict[str, Any]:
    live = await host_session(hub, sid, body.token)
    hub.check_rate(body.token or "")
    async with live.lock:
        await asyncio.to_thread(history.undo_to, live.session, body.seq, body.state_id)
    live.touch()
    return {"ok": True, "state_id": live.session.state_id}


@router.get("/host/sessions/{sid}/seats/{seat}/view", summary="A seat's own view with its legal actions, so the "
            "host can act for a player whose phone is not there")
async def seat_view(sid: int, seat: int, hub: HubDep, token: str | None = TokenQuery) -> dict[str, Any]:
    live = await host_session(hub, sid, token)
    seats = [s.seat for s in hub.store.seats(sid)]
    if seat not in seats:
        # The URL carries the 0-based seat; the host reads seats numbered from 1.
        raise MalformedAction("there is no seat {number}: this table's seats are 1 to {last}", number=seat + 1,
                              last=len(seats))
    return await live.seat_envelope(seat)


@router.get("/host/sessions/{sid}/regions", summary="Power Grid: the map's regions with colours and names, and the "
            "companion's proposal")
async def regions(sid: int, hub: HubDep, token: str | None = TokenQuery) -> dict[str, Any]:
    live = await host_session(hub, sid, token)
    if live.session.game.name != "power_grid":
        return {"regions": [], "proposal": []}
    from companion.games.power_grid.data import MAPS
    from companion.pictograms.maps import board

    state = live.session.state
    game_map = MAPS[state.map]
    drawn = board(game_map.id) or {"cities": [], "connections": [], "aspect": 1.0}
    return {
        # The small map: each city's place (0..1, the phones' layout) and region, and the connections.
        "cities": drawn["cities"], "connections": drawn["connections"], "aspect": drawn["aspect"],
        "map": game_map.id,
        "count": state.counts.regions,
        "regions": [{"id": r.id, "name": f"{r.colour} ({r.name})", "colour": REGION_COLOURS.get(r.colour, "#888"),
                     "colour_name": r.colour, "place": r.name, "adjacent": list(r.adjacent),
                     "cities": [game_map.city_names[i] for i in game_map.cities_in((r.id,))]}
                    for r in game_map.regions],
        "proposal": list(state.proposed_regions),
        "chosen": list(state.regions),
    }


def connected(live: Any) -> list[int]:
    return sorted({c.viewer for c in live.connections if isinstance(c.viewer, int)})


@router.get("/host/sessions/{sid}/phones", summary="Which seats have a phone connected now")
async def phones(sid: int, hub: HubDep, token: str | None = TokenQuery) -> dict[str, Any]:
    live = await host_session(hub, sid, token)
    seats = [s.seat for s in hub.store.seats(sid)]
    on = connected(live)
    return {"connected": on, "missing": [s for s in seats if s not in on]}


@router.get("/host/sessions/{sid}/network", summary="How phones get on: the Wi-Fi code, the links by name "
            "(companion.local) and by address")
async def network(sid: int, request: Request, hub: HubDep, settings: SettingsDep,
                  token: str | None = TokenQuery) -> dict[str, Any]:
    await host_session(hub, sid, token)
    wifi = Wifi(settings.wifi_ssid, settings.wifi_password) if settings.wifi_ssid else None
    return await asyncio.to_thread(describe, base_url(settings, request), settings.port, wifi, settings.mdns, qr_svg)


@router.get("/sessions/{sid}/summary", summary="The end-of-game summary, rebuilt from the action log: scores in "
            "rank order with the tie-break in words, and per-round series (no token)")
async def summary(sid: int, hub: HubDep, token: str | None = None) -> dict[str, Any]:
    live = await hub.live(sid)
    if not live.session.game.is_over(live.session.state):
        # Mid-game the series carry what the table may not know (Power Grid's hidden Elektro): the host only.
        live = await host_session(hub, sid, token)
    return await asyncio.to_thread(history.summary, live.session)


class RematchRequest(Strict):
    token: Token | None = None


@router.post("/host/sessions/{sid}/rematch", response_model=Created, summary="A new game with the same players, "
             "colours and options (one call)")
async def rematch(sid: int, body: RematchRequest, request: Request, hub: HubDep,
                  settings: SettingsDep) -> dict[str, Any]:
    live = await host_session(hub, sid, body.token)
    session = await asyncio.to_thread(history.rematch, live.session)
    await hub.adopt(session)
    return {"ok": True, "id": session.id, "host_url": host_url(base_url(settings, request), session.id,
                                                                session.host_token)}
