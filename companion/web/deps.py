"""Dependencies shared by the routers: the hub, the settings, and refusals turned into JSON answers."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection

from companion.core.errors import CompanionError
from companion.web.hub import Hub, why
from companion.web.settings import Settings, get_settings

# The HTTP status for each refusal code; everything refused changed nothing.
STATUS = {
    "malformed": 400,
    "bad_config": 400,
    "unknown_game": 400,
    "no_token": 401,
    "not_allowed": 403,
    "unknown_session": 404,
    "illegal": 409,
    "not_your_turn": 409,
    "stale": 409,
    "too_large": 413,
    "rate_limited": 429,
}


def get_hub(conn: HTTPConnection) -> Hub:
    """The hub the lifespan created."""
    return conn.app.state.hub


HubDep = Annotated[Hub, Depends(get_hub)]
SettingsDep = Annotated[Settings, Depends(get_settings)]


def refusal(exc: CompanionError) -> JSONResponse:
    """A refusal as a JSON answer: the English `error`, and its `template` and `params` for the page to translate."""
    return JSONResponse({"ok": False, "code": exc.code, "error": exc.reason, **why(exc)},
                        status_code=STATUS.get(exc.code, 400))



def base_url(settings: Settings, conn: HTTPConnection) -> str:
    """The address phones should use: the configured public one, else the one this request came to."""
    if settings.public_base_url:
        return settings.public_base_url.rstrip("/")
    return str(conn.base_url).rstrip("/")
