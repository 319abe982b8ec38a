"""Fixtures for the web tests: a store with sessions, the app under TestClient, a real server in a thread."""

from __future__ import annotations

import dataclasses
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from companion.store import Session, Store
from companion.web import Settings, create_app

SERVER_TOKEN = "server-token-for-the-tests"


@dataclasses.dataclass(frozen=True)
class Seated:
    """A stored session as a test sees it: its id and the secrets of its links."""

    id: int
    host: str
    tokens: tuple[str, ...]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "companion.sqlite3"


@pytest.fixture
def new_session(db_path: Path) -> Callable[..., Seated]:
    """Create a session in the store (before the app loads it) and return its tokens."""

    def make(game: str = "tiny", players: int = 3, **kwargs: object) -> Seated:
        store = Store(db_path)
        try:
            kwargs.setdefault("seed", 7)
            session = Session.create(store, game, players, **kwargs)  # type: ignore[arg-type]
            return Seated(session.id, session.host_token, tuple(r.token for r in store.seats(session.id)))
        finally:
            store.close()

    return make


@pytest.fixture
def settings(db_path: Path) -> Settings:
    return Settings(db_path=db_path, server_token=SERVER_TOKEN, heartbeat_seconds=30, idle_timeout_seconds=60)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client


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
