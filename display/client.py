"""The public WebSocket client: a background thread that keeps a connection to the server and reconnects."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import threading
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any

import websockets

# Reconnection waits grow from the first to the last, then stay there.
BACKOFF = (0.25, 0.5, 1.0, 2.0, 4.0)
HTTP_TIMEOUT = 5.0

Listener = Callable[[dict[str, Any]], None]


def public_ws_url(base: str, session: int) -> str:
    """http://host:port + session -> ws://host:port/ws/sessions/{id}/public."""
    parts = urllib.parse.urlsplit(base)
    scheme = {"https": "wss", "wss": "wss"}.get(parts.scheme, "ws")
    path = parts.path.rstrip("/")
    return urllib.parse.urlunsplit((scheme, parts.netloc, f"{path}/ws/sessions/{session}/public", "", ""))


def compression_for(url: str) -> str | None:
    """permessage-deflate for a server across the network; none for one on this machine (the usual display, on the
    table's own computer): deflating the public view (some 25 kB in a 7-player Bohnanza) cost the server a tenth
    of a millisecond of every change, and this client as much to inflate, for bytes that never leave the machine."""
    host = urllib.parse.urlsplit(url).hostname or ""
    try:
        local = ipaddress.ip_address(host).is_loopback
    except ValueError:
        local = host == "localhost"
    return None if local else "deflate"


def http_url(base: str, path: str, **query: Any) -> str:
    parts = urllib.parse.urlsplit(base)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    q = urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
    return urllib.parse.urlunsplit((scheme, parts.netloc, parts.path.rstrip("/") + path, q, ""))


class PublicClient:
    """Listens to the public stream and hands every message to `listener` (from the client's thread).

    Besides the server's messages ("view", "feedback") the listener gets {"type": "connection", "state": ...}
    on every connect and disconnect, {"type": "join_codes", ...} and {"type": "choices", ...} for host requests.
    It reads only the public stream and, with the host token, the join codes and the host's public choices: a
    shared screen never asks for a seat's view.
    """

    def __init__(self, base_url: str, session: int, listener: Listener, host_token: str | None = None) -> None:
        self.base_url = base_url
        self.session = session
        self.listener = listener
        self.host_token = host_token
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stop: asyncio.Event | None = None
        self._outbox: asyncio.Queue[dict[str, Any]] | None = None
        self._ready = threading.Event()
        self.connects = 0
        # Whether the last connection's messages are compressed (see `compression_for`); None before one.
        self.compressed: bool | None = None
        self._summary_for: Any = None

    # -- life --------------------------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="display-client", daemon=True)
        self._thread.start()
        self._ready.wait(5)

    def stop(self) -> None:
        if self._loop and self._stop:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread:
            self._thread.join(5)

    def _run(self) -> None:
        self._loop = asyncio.new_event_loop()
        try:
            self._loop.run_until_complete(self._main())
        finally:
            self._loop.close()

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        self._outbox = asyncio.Queue()
        self._ready.set()
        url = public_ws_url(self.base_url, self.session)
        attempt = 0
        while not self._stop.is_set():
            try:
                async with websockets.connect(url, open_timeout=HTTP_TIMEOUT, ping_interval=None,
                                              compression=compression_for(url)) as ws:
                    attempt = 0
                    self.connects += 1
                    answer = ws.response.headers if ws.response is not None else {}
                    self.compressed = "permessage-deflate" in (answer.get("Sec-WebSocket-Extensions") or "")
                    self.listener({"type": "connection", "state": "live"})
                    if self.host_token:
                        self._loop_run(self._fetch_join_codes)
                        self._loop_run(self._fetch_network)
                    await self._serve(ws)
            except (TimeoutError, OSError, websockets.WebSocketException):
                pass
            if self._stop.is_set():
                break
            self.listener({"type": "connection", "state": "reconnecting"})
            delay = BACKOFF[min(attempt, len(BACKOFF) - 1)]
            attempt += 1
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._stop.wait(), delay)
        self.listener({"type": "connection", "state": "offline"})

    async def _serve(self, ws: Any) -> None:
        assert self._stop is not None and self._outbox is not None
        stop = asyncio.ensure_future(self._stop.wait())
        try:
            while True:
                recv = asyncio.ensure_future(ws.recv())
                send = asyncio.ensure_future(self._outbox.get())
                done, _ = await asyncio.wait({recv, send, stop}, return_when=asyncio.FIRST_COMPLETED)
                if send in done:
                    await ws.send(json.dumps(send.result()))
                else:
                    send.cancel()
                if stop in done:
                    recv.cancel()
                    await ws.close()
                    return
                if recv in done:
                    self._receive(ws, recv.result())
                else:
                    recv.cancel()
        finally:
            stop.cancel()

    def _receive(self, ws: Any, raw: str | bytes) -> None:
        try:
            message = json.loads(raw)
        except ValueError:
            return
        if not isinstance(message, dict):
            return
        if message.get("type") == "ping":
            assert self._outbox is not None
            self._outbox.put_nowait({"type": "pong"})
            return
        if message.get("type") == "phones":
            # A phone came or went: ask which seats have one now (the host's to know; the message says nothing).
            if self.host_token:
                self._loop_run(self._fetch_phones)
            return
        self.listener(message)
        if message.get("type") == "view" and isinstance(message.get("view"), dict):
            self._after_view(message["view"])

    def _after_view(self, envelope: dict[str, Any]) -> None:
        """Ask for what the view does not carry: which seats have a phone (host), the summary of a finished game."""
        if self.host_token:
            self._loop_run(self._fetch_phones)
        if envelope.get("over") and self._summary_for != envelope.get("state_id"):
            self._summary_for = envelope.get("state_id")
            self._loop_run(self._fetch_summary)

    def _fetch_phones(self) -> None:
        data = self._get_quiet(f"/api/host/sessions/{self.session}/phones", token=self.host_token)
        if isinstance(data, dict) and isinstance(data.get("connected"), list):
            self.listener({"type": "phones", "seats": data["connected"]})

    def _fetch_summary(self) -> None:
        # Built by the server from the action log, so a display that joined late still shows every round.
        data = self._get_quiet(f"/api/sessions/{self.session}/summary")
        if isinstance(data, dict):
            self.listener({"type": "summary", "summary": data})

    def _fetch_network(self) -> None:
        data = self._get_quiet(f"/api/host/sessions/{self.session}/network", token=self.host_token)
        if isinstance(data, dict):
            self.listener({"type": "network", "network": data})

    def _get_quiet(self, path: str, **query: Any) -> Any:
        """A GET whose failure shows nothing (an older server without that endpoint)."""
        try:
            with urllib.request.urlopen(http_url(self.base_url, path, **query), timeout=HTTP_TIMEOUT) as reply:
                return json.loads(reply.read())
        except (OSError, ValueError):
            return None

    def _loop_run(self, blocking: Callable[[], None]) -> None:
        assert self._loop is not None
        self._loop.run_in_executor(None, blocking)

    # -- requests from the display (called from the UI thread) ------------------------------------------
    def send(self, message: dict[str, Any]) -> None:
        if self._loop and self._outbox:
            self._loop.call_soon_threadsafe(self._outbox.put_nowait, message)

    def send_action(self, action: dict[str, Any], state_id: int | None) -> None:
        """The host tapped a choice on the display: act with the host's token over the public socket."""
        self.send({"type": "action", "state_id": state_id, "action": action, "token": self.host_token})

    def undo(self, state_id: int | None) -> None:
        """The host's undo, over the public socket like its actions; the server answers with feedback."""
        self.send({"type": "undo", "state_id": state_id, "token": self.host_token})

    def press(self, event: dict[str, Any]) -> None:
        """A development key as the controller: a simulated board event for the server's input router (host token)."""
        self.send({"type": "board", "event": event, "token": self.host_token})

    def request_host_choices(self) -> None:
        """What the host may do from the shared screen: the table's reveals and the host's own moves (public).

        Never a seat's legal actions: those come from that seat's private view, which no shared screen may fetch.
        """
        def fetch() -> None:
            data = self._get(f"/api/host/sessions/{self.session}", token=self.host_token)
            if not isinstance(data, dict):
                return
            table = [a for a in data.get("table_legal") or [] if isinstance(a, dict)]
            host = [a for a in data.get("host_legal") or [] if isinstance(a, dict)]
            envelope = data.get("envelope")
            state_id = envelope.get("state_id") if isinstance(envelope, dict) else None
            self.listener({"type": "choices", "seat": "table" if table and not host else "host",
                           "legal": table + host, "state_id": state_id})
        self._background(fetch)

    def _fetch_join_codes(self) -> None:
        codes = self._get(f"/api/sessions/{self.session}/join-codes", token=self.host_token)
        if isinstance(codes, list):
            host = http_url(self.base_url, f"/host/{self.session}", t=self.host_token)
            self.listener({"type": "join_codes", "codes": codes, "host_url": host})

    def _background(self, job: Callable[[], None]) -> None:
        if self._loop:
            self._loop.call_soon_threadsafe(self._loop_run, job)

    def _get(self, path: str, **query: Any) -> Any:
        try:
            with urllib.request.urlopen(http_url(self.base_url, path, **query), timeout=HTTP_TIMEOUT) as reply:
                return json.loads(reply.read())
        except (OSError, ValueError) as exc:
            self.listener({"type": "feedback", "ok": False, "seat": None, "source": "display",
                           "text": f"the server did not answer ({exc})", "action": None})
            return None
