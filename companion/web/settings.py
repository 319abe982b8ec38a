"""The web server's settings: where the store is, what to bind, the public address, and the safety limits."""

from __future__ import annotations

import dataclasses
import os
import secrets
from pathlib import Path

from starlette.requests import HTTPConnection

from companion.store.db import default_path


@dataclasses.dataclass(frozen=True)
class Settings:
    """Everything `create_app` needs; tests and `companion serve` build one, handlers get it as a dependency."""

    db_path: Path = dataclasses.field(default_factory=default_path)
    # The session `companion serve` opened (its host page is printed); others can still be served by id.
    session_id: int | None = None
    # All interfaces of this machine by default; the host may choose one LAN address.
    host: str = "0.0.0.0"
    port: int = 8765
    # What phones should open, e.g. "http://192.168.1.20:8765"; None: the address the request came to.
    public_base_url: str | None = None
    # Creates and lists sessions from the host page (the lobby); printed by `companion serve`.
    server_token: str = dataclasses.field(default_factory=lambda: secrets.token_urlsafe(24))
    # Safety limits: a request body, a WebSocket message, and per-token action rate (token bucket).
    max_body_bytes: int = 64 * 1024
    max_message_bytes: int = 16 * 1024
    actions_per_second: float = 10.0
    action_burst: int = 20
    # Live connections: a ping every `heartbeat_seconds`; a connection silent for `idle_timeout_seconds` is closed.
    heartbeat_seconds: float = 10.0
    idle_timeout_seconds: float = 35.0
    # Messages waiting for one connection; a phone that falls this far behind is disconnected (it reconnects).
    queue_size: int = 64
    send_timeout_seconds: float = 10.0
    # Processes computing the phones' hints off the views' path (0: one thread instead); None: sized for the machine.
    hint_workers: int | None = None
    # Public sockets need no token: each session takes this many (its displays and host pages), no more.
    max_public_sockets: int = 8
    # uvicorn's limits for the whole server: open connections (then 503) and waiting TCP connections.
    limit_concurrency: int = 256
    backlog: int = 128
    # Bot seats: the pause before a bot moves (so people can follow), how long it waits for answers to its offers,
    # where it thinks (`process`: a worker process, `thread`), and per level a thinking time overriding the default.
    bot_pause_seconds: float = 1.0
    bot_patience_seconds: float = 20.0
    bot_workers: str = "process"
    bot_think: dict[str, float] = dataclasses.field(default_factory=dict)
    # Python's full garbage collections wait for a quiet moment at the table (companion/web/collector.py).
    idle_collections: bool = True
    # The table's Wi-Fi, shown as a code phones scan (`--wifi SSID:PASSWORD`, else the Pi's own configuration).
    wifi_ssid: str | None = None
    wifi_password: str = ""
    # The server announces itself as companion.local (mDNS) and the links use that name.
    mdns: bool = False

    @classmethod
    def from_env(cls) -> Settings:
        """Defaults, with `$COMPANION_DB` honoured (through default_path)."""
        return cls(db_path=Path(os.environ["COMPANION_DB"]) if os.environ.get("COMPANION_DB") else default_path())


def get_settings(conn: HTTPConnection) -> Settings:
    """The settings the app was created with; override with `app.dependency_overrides[get_settings]`."""
    return conn.app.state.settings
