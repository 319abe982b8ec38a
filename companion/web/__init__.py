"""The web side of the companion: phone pages, the host page, and the JSON + WebSocket API (FastAPI)."""

from companion.web.app import create_app
from companion.web.hub import Hub
from companion.web.settings import Settings, get_settings

__all__ = ["Hub", "Settings", "create_app", "get_settings"]
