"""Helpers shared by the web tests: seated sessions, free ports, and the app served by uvicorn in a thread."""

from __future__ import annotations

import dataclasses
import socket
import threading
import time

from companion.web import Settings, create_app

SERVER_TOKEN = "server-token-for-the-tests"


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

        self.settings = settings
        self.base = f"http://127.0.0.1:{settings.port}"
        config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=settings.port, log_level="warning",
                                lifespan="on")
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
