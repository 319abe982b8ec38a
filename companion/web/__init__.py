"""The web side of the companion: phone pages, the host page, and the JSON + WebSocket API (FastAPI)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.web.app import create_app
    from companion.web.hub import Hub
    from companion.web.settings import Settings, get_settings

__all__ = ["Hub", "Settings", "create_app", "get_settings"]

# Imported on first use: a hint or bot worker process imports `companion.web.hints`, and loading FastAPI there
# (half a second of CPU) would only compete with the server starting up.
_WHERE = {"create_app": "companion.web.app", "Hub": "companion.web.hub", "Settings": "companion.web.settings",
          "get_settings": "companion.web.settings"}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'companion.web' has no attribute {name!r}")
    return getattr(importlib.import_module(where), name)
