"""Helpers shared by the web tests: seated sessions, free ports, the app served by uvicorn in a thread, and the
headless Chromium phone the browser tests open (the `browser` fixture itself is in conftest.py)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import socket
import threading
import time
import urllib.request
from typing import Any

from companion.web import Settings, create_app

SERVER_TOKEN = "server-token-for-the-tests"

# Debian's Chromium, started without anything that would reach the internet or a GPU.
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PHONE = {"width": 360, "height": 740}


def phone_page(browser: Any, errors: list[str], **context_options: Any) -> Any:
    """A new 360×740 touch phone page (its own context) that records every fault it meets in `errors`."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  **context_options)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # The console says only "404"; the address tells which request it was.
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status == 404 else None)
    # A reconnecting socket logs its refused attempts while the server restarts; anything else is a fault.
    page.on("console", lambda msg: errors.append(msg.text)
            if (msg.type == "error" and "WebSocket connection to" not in msg.text)
            or (msg.type == "warning" and "renderer failed" in msg.text) else None)
    # Nothing may be fetched from anywhere but this server (the table is offline).
    page.on("request", lambda request: errors.append(f"external request {request.url}")
            if not request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:")) else None)
    return page


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as reply:
        return json.loads(reply.read())


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as reply:
        return json.loads(reply.read())


@dataclasses.dataclass(frozen=True)
class Seated:
    """A stored session as a test sees it: its id and the secrets of its links."""

    id: int
    host: str
    tokens: tuple[str, ...]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ThreadServer:
    """uvicorn serving the app in a thread on 127.0.0.1 (the in-process games, the tiny one included)."""

    def __init__(self, settings: Settings) -> None:
        import uvicorn

        from companion.web.deflate import ws_protocol

        self.settings = settings
        self.base = f"http://127.0.0.1:{settings.port}"
        # The table's own WebSocket protocol (deflate at level 1), so the browser tests read what phones read.
        config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=settings.port, log_level="warning",
                                lifespan="on", ws=ws_protocol())
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    # `with ThreadServer(settings) as server:` starts it and stops it however the block ends.
    def __enter__(self) -> ThreadServer:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()


async def wait_for(condition: Any, timeout: float = 5.0) -> None:
    """Until `condition()` holds, polled while the event loop runs on; an AssertionError after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.005)
