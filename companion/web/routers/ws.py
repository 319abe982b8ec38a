"""The live WebSockets: one per seat (its private view) and a public one for displays."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from fastapi import APIRouter, WebSocket

from companion.core.errors import CompanionError, MalformedAction, NotAllowed
from companion.core.seats import HOST, Seat
from companion.web import edge
from companion.web.deps import HubDep, SettingsDep
from companion.web.edge import parse_id
from companion.web.hub import Connection, Hub, LiveSession, RateLimited, Source, TokenBucket, dumps, why
from companion.web.routers.api import with_seat
from companion.web.settings import Settings

router = APIRouter()

# Close codes in the application range: the client stops reconnecting and says why.
CLOSE_CODES = {"no_token": 4401, "not_allowed": 4403, "unknown_session": 4404, "too_many": 4429}


class TooManyDisplays(CompanionError):
    """Public sockets need no token, so each session takes only a few (its displays and host pages)."""

    code = "too_many"


@router.websocket("/ws/sessions/{sid}/seat")
async def seat_socket(websocket: WebSocket, sid: str, hub: HubDep, settings: SettingsDep) -> None:
    """A phone: its private view on connect and after every change; actions and undo; heartbeat."""
    await websocket.accept()
    token = websocket.query_params.get("token")
    try:
        live, actor = await hub.authorise(parse_id(sid), token)
        if not isinstance(actor, int):
            raise NotAllowed("this link is the host's; open the host page instead")
    except CompanionError as exc:
        await refuse(websocket, exc)
        return
    await serve(websocket, live, hub, settings, viewer=actor, actor=actor, token=token or "", source="phone")


@router.websocket("/ws/sessions/{sid}/public")
async def public_socket(websocket: WebSocket, sid: str, hub: HubDep, settings: SettingsDep) -> None:
    """A display: the public view and every action's feedback; it may act only with a token in the message."""
    await websocket.accept()
    try:
        live = await hub.live(parse_id(sid))
        if sum(1 for c in live.connections if c.viewer is None) >= settings.max_public_sockets:
            raise TooManyDisplays("this game already has {limit} displays connected",
                                  limit=settings.max_public_sockets)
    except CompanionError as exc:
        await refuse(websocket, exc)
        return
    await serve(websocket, live, hub, settings, viewer=None, actor=None, token="", source="display")


async def refuse(websocket: WebSocket, exc: CompanionError) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(dumps({"type": "error", "code": exc.code, "text": exc.reason, **why(exc)}))
        await websocket.close(code=CLOSE_CODES.get(exc.code, 4400), reason=exc.reason[:100])


async def serve(
    websocket: WebSocket,
    live: LiveSession,
    hub: Hub,
    settings: Settings,
    *,
    viewer: int | None,
    actor: Seat | None,
    token: str,
    source: Source,
) -> None:
    """Run one connection: its sender, its heartbeat and its reader, until any of them ends it."""

    async def close(code: int, reason: str) -> None:
        await websocket.close(code=code, reason=reason)

    connection = Connection(viewer, websocket.send_text, close, queue_size=settings.queue_size,
                            send_timeout=settings.send_timeout_seconds)
    sender = asyncio.create_task(connection.run_sender())
    heart = asyncio.create_task(heartbeat(connection, settings))
    reader = asyncio.create_task(read(websocket, connection, live, hub, settings, actor, token, source))
    ended = asyncio.create_task(connection.closed.wait())
    try:
        await live.attach(connection)
        await asyncio.wait({reader, ended}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        live.detach(connection)
        connection.shut(connection.close_reason or "closed")
        for task in (heart, reader, ended):
            task.cancel()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(sender, settings.send_timeout_seconds)
        for task in (heart, reader, ended, sender):
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await task


async def heartbeat(connection: Connection, settings: Settings) -> None:
    """A ping every few seconds; a client silent for too long is disconnected (its socket may be dead)."""
    ping = dumps({"type": "ping"})
    while not connection.closed.is_set():
        await asyncio.sleep(settings.heartbeat_seconds)
        if time.monotonic() - connection.last_heard > settings.idle_timeout_seconds:
            connection.shut("no answer to pings")
            return
        connection.offer("ping", ping)


async def read(
    websocket: WebSocket,
    connection: Connection,
    live: LiveSession,
    hub: Hub,
    settings: Settings,
    actor: Seat | None,
    token: str,
    source: Source,
) -> None:
    """Handle the client's messages one at a time until it disconnects."""
    # Every message costs the server something (a refresh computes a view): a flood is refused per connection.
    flood = TokenBucket(2 * settings.actions_per_second, 2 * settings.action_burst)
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        connection.last_heard = time.monotonic()
        if not flood.take("messages"):
            reply(connection, RateLimited("too many messages at once; wait a moment"))
            continue
        text: str | bytes = message.get("text") or message.get("bytes") or b""
        if len(text) > settings.max_message_bytes:
            reply(connection, MalformedAction("a message may be at most {limit} bytes",
                                                   limit=settings.max_message_bytes))
            continue
        try:
            await handle(text, connection, live, hub, actor, token, source)
        except CompanionError as exc:
            reply(connection, exc)
        except Exception as exc:  # whatever a message does, it must not end this connection or reach another
            hub.errors.append(f"session {live.id}: a message failed: {exc!r}"[:300])
            reply(connection, MalformedAction("that message could not be read"))


def reply(connection: Connection, exc: CompanionError) -> None:
    """A refusal that only this connection hears (malformed input, bad token, rate limit)."""
    connection.offer("feedback", dumps({"type": "feedback", "ok": False, "code": exc.code, "seat": connection.viewer,
                                        "source": "phone" if connection.viewer is not None else "display",
                                        "text": exc.reason, **why(exc), "action": None}))


# The fields each kind of message may carry; anything else is refused, so a typo never goes unnoticed.
FIELDS = {
    "pong": {"type"}, "ping": {"type"}, "refresh": {"type"},
    "board": {"type", "event", "token"},
    "action": {"type", "state_id", "action", "token"},
    "undo": {"type", "state_id", "token"},
}


async def handle(
    text: str | bytes, connection: Connection, live: LiveSession, hub: Hub, actor: Seat | None, token: str,
    source: Source,
) -> None:
    data: Any = edge.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise MalformedAction('a message is a JSON object with a "type"')
    kind = data["type"]
    allowed = FIELDS.get(kind)
    if allowed is None:
        raise MalformedAction("unknown message type (action, undo, board, refresh, pong)")
    if not set(data) <= allowed:
        raise MalformedAction("unexpected field(s) in a {kind} message", kind=kind)
    if kind == "pong":
        return
    if kind == "ping":
        connection.offer("pong", dumps({"type": "pong"}))
        return
    if kind == "refresh":
        await live.refresh(connection)
        return
    if kind == "board":
        await board(data, live, hub)
        return
    state_id = data.get("state_id")
    if not isinstance(state_id, int) or isinstance(state_id, bool) or state_id < 0:
        raise MalformedAction("an action needs the state_id of the view it was chosen in")
    if actor is None:  # the public socket acts only with a token, as whoever holds it
        given = data.get("token")
        if not isinstance(given, str):
            raise NotAllowed("the public stream is read-only; an action needs a token")
        _, actor = await hub.authorise(live.id, given)
        token = given
    hub.check_rate(token)
    if kind == "undo":
        await live.undo(actor, state_id, source, connection)
        return
    action = data.get("action")
    if not isinstance(action, dict):
        raise MalformedAction("an action message needs an \"action\" object")
    await live.submit(with_seat(action, actor), actor, state_id, source, connection)


async def board(data: dict[str, Any], live: LiveSession, hub: Hub) -> None:
    """The host's simulated controller event (the display's development keys): only with the host token."""
    given = data.get("token")
    if not isinstance(given, str):
        raise NotAllowed("a controller event needs the host token")
    _, actor = await hub.authorise(live.id, given)
    if actor != HOST:
        raise NotAllowed("only the host may press the controller's buttons from here")
    event = data.get("event")
    if not isinstance(event, dict):
        raise MalformedAction('a board message needs an "event" object')
    hub.check_rate(given)
    await hub.board_event(live.id, event)
