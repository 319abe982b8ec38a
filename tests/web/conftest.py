"""Fixtures for the web tests: a store with sessions, the app under TestClient, and headless Chromium."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import ARGS, CHROMIUM, SERVER_TOKEN, Seated

from companion.store import Session, Store
from companion.web import Settings, create_app


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


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for a module's tests (each test opens its own pages or contexts in it)."""
    if not shutil.which(CHROMIUM):
        pytest.skip("Debian's chromium is not installed")
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield instance
        instance.close()
