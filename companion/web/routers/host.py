"""The host's API: create and resume sessions, names and colours, undo, corrections, table reveals, tags, end."""

from __future__ import annotations

import asyncio
import hmac
from typing import Any

from fastapi import APIRouter, Query
from starlette.requests import Request

from companion.core.errors import BadConfig, MalformedAction, NotAllowed
from companion.core.registry import get_game
from companion.core.seats import HOST, TABLE
from companion.i18n import available, catalog
from companion.store import Session, Store
from companion.store.db import COLOURS
from companion.web.deps import HubDep, SettingsDep, base_url
from companion.web.edge import is_plain_token
from companion.web.hub import Hub, LiveSession, MissingToken
from companion.web.models import (
    ActionRequest,
    Created,
    Done,
    EnrolmentStep,
    HostRequest,
    NewSession,
    SeatBot,
    SeatUpdate,
    SessionSummary,
    TagEnrollment,
    UndoRequest,
)
from companion.web.routers.api import REFUSALS
from companion.web.settings import Settings

router = APIRouter(prefix="/api/host", tags=["host"], responses=REFUSALS)

TokenQuery = Query(default=None, max_length=200, description="the host token (or the server token for the lobby)")


def check_server_token(settings: Settings, token: str | None) -> None:
    if not token:
        raise MissingToken("this needs the server token `companion serve` printed")
    if not is_plain_token(token) or not hmac.compare_digest(token.encode(), settings.server_token.encode()):
        raise NotAllowed("that is not this server's token")


async def host_session(hub: Hub, sid: int, token: str | None) -> LiveSession:
    live, actor = await hub.authorise(sid, token)
    if actor != HOST:
        raise NotAllowed("only the host may do this")
    return live


def host_url(base: str, sid: int, token: str) -> str:
    return f"{base}/host/{sid}?t={token}"


def summaries(store: Store, base: str) -> list[dict[str, Any]]:
    out = []
    for row in reversed(store.sessions()):
        try:
            title = get_game(row.game).title
        except Exception:  # a game no longer installed still lists its sessions
            title = row.game
        out.append({
            "id": row.id, "game": row.game, "title": title, "status": row.status,
            "players": [s.name for s in store.seats(row.id)],
            "actions": sum(1 for r in store.log(row.id) if r.kind == "action" and not r.undone),
            "host_url": host_url(base, row.id, row.host_token),
        })
    return out


@router.get("/sessions", response_model=list[SessionSummary], summary="Stored sessions, newest first (server token)")
async def list_sessions(request: Request, hub: HubDep, settings: SettingsDep,
                        token: str | None = TokenQuery) -> list[dict[str, Any]]:
    check_server_token(settings, token)
    return await asyncio.to_thread(summaries, hub.store, base_url(settings, request))


@router.post("/sessions", response_model=Created, summary="Create and start a new session (server token)")
async def create_session(body: NewSession, request: Request, hub: HubDep, settings: SettingsDep) -> dict[str, Any]:
    check_server_token(settings, body.token)
    colours = body.colours or None
    if colours is not None and len(colours) != body.players:
        raise BadConfig("{colours} colours for {players} players", colours=len(colours), players=body.players)
    if len(body.bots) > body.players:
        raise BadConfig("{bots} bot seats for {players} players", bots=len(body.bots), players=body.players)
    bots = {seat: level for seat, level in enumerate(body.bots) if level}
    session = await asyncio.to_thread(
        Session.create, hub.store, body.game, body.players, seed=body.seed, mode=body.mode,
        options=body.options, chance=dict(body.chance), names=body.names, colours=colours, bots=bots,
    )
    await hub.adopt(session)
    return {"ok": True, "id": session.id, "host_url": host_url(base_url(settings, request), session.id,
                                                                session.host_token)}


def host_view(live: LiveSession) -> dict[str, Any]:
    session = live.session
    game = session.game
    envelope = session.view(None)
    current = envelope["current_seats"]
    # What only the host can do now: reveal for the table (physical mode), or a setup choice the game asks of it.
    table_legal = [a.to_json() for a in session.legal_actions(TABLE)] if TABLE in current else []
    host_legal = [a.to_json() for a in session.legal_actions(HOST)] if HOST in current else []
    corrections = game.correction_forms(session.state)
    return {
        "envelope": envelope,
        "seats": [{"seat": s.seat, "name": s.name, "colour": s.colour, "lang": s.lang, "bot": s.bot}
                  for s in session.store.seats(session.id)],
        "config": session.config.to_json(),
        "table_legal": table_legal,
        "host_legal": host_legal,
        "corrections": corrections,
        "languages": [{"lang": lang, "name": catalog(lang).name} for lang in available()],
        "colours": list(COLOURS),
        "has_cards": bool(game.cards()),
        # Seats with a phone connected now (the others may need the host to act for them).
        "connected": sorted({c.viewer for c in live.connections if isinstance(c.viewer, int)}),
    }


@router.get("/sessions/{sid}", summary="Everything the host page shows: the public view, seats, table reveals, "
            "correction forms")
async def get_host_view(sid: int, hub: HubDep, token: str | None = TokenQuery) -> dict[str, Any]:
    live = await host_session(hub, sid, token)
    return await asyncio.to_thread(host_view, live)


@router.patch("/sessions/{sid}/seats/{seat}", response_model=Done, summary="Rename a seat, change its colour or "
              "its phone's language")
async def update_seat(sid: int, seat: int, body: SeatUpdate, hub: HubDep) -> dict[str, Any]:
    live = await host_session(hub, sid, body.token)
    seats = [s.seat for s in hub.store.seats(sid)]
    if seat not in seats:
        # The URL carries the 0-based seat; the host reads seats numbered from 1.
        raise MalformedAction("there is no seat {number}: this table's seats are 1 to {last}", number=seat + 1,
                              last=len(seats))
    if body.lang is not None and body.lang not in available():
        raise MalformedAction("no catalog for language {lang} (have: {langs})", lang=repr(body.lang),
                              langs=", ".join(available()))
    await asyncio.to_thread(hub.store.update_seat, sid, seat, name=body.name, colour=body.colour, lang=body.lang)
    live.touch()
    return {"ok": True, "state_id": live.session.state_id}


@router.put("/sessions/{sid}/seats/{seat}/bot", response_model=Done, summary="Hand a seat to a bot (easy, normal, "
            "strong) or take it back for a person (level null); the bot plays as soon as the seat is to act")
async def set_seat_bot(sid: int, seat: int, body: SeatBot, hub: HubDep) -> dict[str, Any]:
    live = await host_session(hub, sid, body.token)
    async with live.lock:  # a bot move already on its way is applied before, or not at all
        await asyncio.to_thread(live.session.set_bot, seat, body.level, HOST)
    live.bots.wake()
    return {"ok": True, "state_id": live.session.state_id}


@router.post("/sessions/{sid}/actions", response_model=Done, summary="Act as the host: a correction, a table "
             "reveal, or a move for a player without a phone")
async def host_act(sid: int, body: ActionRequest, hub: HubDep) -> dict[str, Any]:
    live = await host_session(hub, sid, body.token)
    hub.check_rate(body.token or "")
    outcome = await live.submit(body.action, HOST, body.state_id, "host")
    if outcome.error is not None:
        raise outcome.error
    return {"ok": True, "state_id": outcome.state_id}


@router.post("/sessions/{sid}/undo", response_model=Done, summary="Undo the last action, whoever made it")
async def host_undo(sid: int, body: UndoRequest, hub: HubDep) -> dict[str, Any]:
    live = await host_session(hub, sid, body.token)
    hub.check_rate(body.token or "")
    outcome = await live.undo(HOST, body.state_id, "host")
    if outcome.error is not None:
        raise outcome.error
    return {"ok": True, "state_id": outcome.state_id}


@router.post("/sessions/{sid}/end", response_model=Done, summary="End the game (it will not be resumed)")
async def end_session(sid: int, body: HostRequest, hub: HubDep) -> dict[str, Any]:
    live = await host_session(hub, sid, body.token)
    await asyncio.to_thread(live.session.end)
    return {"ok": True, "state_id": live.session.state_id}


@router.get("/sessions/{sid}/tags", summary="The game's physical cards and which have a tag enrolled")
async def list_tags(sid: int, hub: HubDep, token: str | None = TokenQuery) -> dict[str, Any]:
    live = await host_session(hub, sid, token)
    game = live.session.game
    enrolled = await asyncio.to_thread(hub.store.tags, game.name)
    by_card = {card: uid for uid, card in enrolled.items()}
    # `label` in English, `words` for the page to say in its language.
    return {"cards": [{"card": c, "label": game.card_label(c), "words": game.card_words(c).to_json(),
                       "uid": by_card.get(c)} for c in game.cards()]}


@router.post("/sessions/{sid}/tags", response_model=Done, summary="Enroll an NFC tag (its UID) as a card")
async def enroll_tag(sid: int, body: TagEnrollment, hub: HubDep) -> dict[str, Any]:
    live = await host_session(hub, sid, body.token)
    game = live.session.game
    if body.card not in game.cards():
        raise MalformedAction("{game} has no card {card}", game=game.title, card=repr(body.card))
    await asyncio.to_thread(hub.store.enroll_tag, body.uid, game.name, body.card)
    return {"ok": True, "state_id": live.session.state_id}


@router.get("/sessions/{sid}/enrolment", summary="The guided enrolment of the game's deck in progress, if any")
async def get_enrolment(sid: int, hub: HubDep, token: str | None = TokenQuery) -> dict[str, Any]:
    from companion.store.enrolment import Enrolment

    live = await host_session(hub, sid, token)
    found = await asyncio.to_thread(Enrolment.resume, hub.store, live.session.game.name)
    # `active`: the controller's taps go to it now (after a restart the walk is in the store, but taps go to the
    # game until the host continues it).
    return {"enrolment": None if found is None else found.view(), "controller": hub.board_input is not None,
            "active": found is not None and hub.enrolling == found.game.name, "said": None}


@router.post("/sessions/{sid}/enrolment", summary="Start, step or stop the guided enrolment of the game's deck")
async def step_enrolment(sid: int, body: EnrolmentStep, hub: HubDep) -> dict[str, Any]:
    """While an enrolment is on, the controller's taps (and OK, BACK, UNDO) go to it instead of the game."""
    from companion.store.enrolment import Enrolment

    live = await host_session(hub, sid, body.token)
    game = live.session.game.name

    def run() -> tuple[Enrolment | None, Any]:
        if body.do == "start":
            return Enrolment.start(hub.store, game, write=body.write, restart=body.restart), None
        found = Enrolment.resume(hub.store, game)
        if found is None:
            raise NotAllowed("no enrolment is going on; start one first")
        if body.do == "stop":
            found.stop()
            return None, None
        if body.do == "tap":
            if body.uid is None:
                raise MalformedAction("a tap needs the tag's uid")
            return found, found.tap(body.uid)
        return found, {"skip": found.skip, "undo": found.undo, "reassign": found.reassign}[body.do]()

    async with hub.enrolling_lock:
        enrolment, said = await asyncio.to_thread(run)
        hub.enrolling = None if enrolment is None or enrolment.done else game
    return {"enrolment": None if enrolment is None else enrolment.view(), "controller": hub.board_input is not None,
            "active": hub.enrolling is not None, "said": None if said is None else said.to_json()}
