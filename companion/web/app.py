"""Assembles the web app: settings, the hub owned by the lifespan, the routers, limits and security headers."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from companion import __version__
from companion.core.errors import CompanionError
from companion.store import Store
from companion.web import edge
from companion.web.deps import refusal
from companion.web.hub import Hub
from companion.web.routers import api, host, look, night, pages, ws
from companion.web.routers.pages import STATIC
from companion.web.settings import Settings


def create_app(settings: Settings | None = None) -> FastAPI:
    """The FastAPI app for one store; `app.state.hub` holds the live sessions while it runs."""
    settings = settings or Settings.from_env()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db_path)
        hub = Hub(store, actions_per_second=settings.actions_per_second, action_burst=settings.action_burst,
                  hint_workers=settings.hint_workers,
                  bot_pause=settings.bot_pause_seconds, bot_patience=settings.bot_patience_seconds,
                  bot_workers=settings.bot_workers, bot_think=settings.bot_think)
        app.state.hub = hub
        try:
            if settings.session_id is not None:
                await hub.live(settings.session_id)
            if settings.idle_collections:
                hub.collector.start()
            yield
        finally:
            await hub.collector.stop()
            await hub.close()
            store.close()

    app = FastAPI(
        title="Table companion",
        version=__version__,
        description="Phones, the host page and displays talk to the companion through this API. Every action "
        "carries the state_id it was chosen in; a refusal is a 4xx with a reason and changes nothing. "
        "Live views: WebSocket /ws/sessions/{id}/seat?token=T (a seat) and /ws/sessions/{id}/public (displays).",
        lifespan=lifespan,
        # The interactive docs load scripts from a CDN and the table is offline; /openapi.json documents the API.
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.include_router(api.router)
    app.include_router(host.router)
    app.include_router(night.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.include_router(look.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(CompanionError)
    async def refused(request: Request, exc: CompanionError) -> JSONResponse:
        return refusal(exc)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        reason = validation_reason(exc.errors())
        return JSONResponse({"ok": False, "code": "malformed", "error": reason, "template": reason, "params": {}},
                            status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_refused(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # FastAPI's own answers (no such path, a body it could not read) in the same shape as every refusal.
        code = HTTP_CODES.get(exc.status_code, "malformed" if exc.status_code < 500 else "error")
        reason = str(exc.detail) if isinstance(exc.detail, str) else "the request was refused"
        return JSONResponse({"ok": False, "code": code, "error": reason, "template": reason, "params": {}},
                            status_code=exc.status_code, headers=getattr(exc, "headers", None))

    @app.get("/api/health", tags=["play"], summary="Whether the server is up")
    async def health() -> dict[str, Any]:
        return {"ok": True, "version": __version__}

    app.add_middleware(Guard, max_body_bytes=settings.max_body_bytes)
    return app


HTTP_CODES = {404: "not_found", 405: "bad_method", 413: "too_large", 429: "rate_limited"}


def validation_reason(errors: Any) -> str:
    """Pydantic's errors as one sentence: where, and what is wrong (never the value sent, which may be huge)."""
    parts = []
    for error in list(errors)[:3]:
        where = ".".join(str(p)[:40] for p in error.get("loc", ()) if p != "body")
        what = str(error.get("msg", "invalid"))[:200]
        parts.append(f"{where}: {what}" if where else what)
    return "; ".join(parts) or "the request is not valid"


class Guard:
    """Refuses oversized request bodies and adds the security headers to every HTTP answer.

    The pages may load only this server's own scripts, styles and images (no CDN, no inline script), and no
    page of this server may be framed or leak its URL (which carries a token) as a referrer.
    """

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        host_header = headers.get(b"host", b"").decode("latin-1")
        extra = security_headers(host_header)
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or len(length) > 12 or int(length) > self.max_body_bytes):
            await self._too_large(send, extra)
            return
        # The API's bodies are small: read the whole body first, so an oversized one never reaches a handler.
        body = b""
        more = scope.get("method", "GET") in ("POST", "PUT", "PATCH", "DELETE")
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if len(body) > self.max_body_bytes:
                await self._too_large(send, extra)
                return
            more = message.get("more_body", False)

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        if body:
            # Every body is JSON: checked here, once for every endpoint (UTF-8, depth, sizes of numbers, text).
            try:
                edge.loads(body)
            except CompanionError as exc:
                await refusal(exc)(scope, replay, send_with_headers)
                return
        replayed = False
        await self.app(scope, replay, send_with_headers)

    async def _too_large(self, send: Send, extra: list[tuple[bytes, bytes]]) -> None:
        body = json.dumps({"ok": False, "code": "too_large", "error": "the request is too large",
                           "template": "the request is too large", "params": {}}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                *extra]})
        await send({"type": "http.response.body", "body": body})


def security_headers(host_header: str) -> list[tuple[bytes, bytes]]:
    socket_origins = ""
    if host_header and all(c.isalnum() or c in ".:-[]" for c in host_header):
        socket_origins = f" ws://{host_header} wss://{host_header}"
    policy = (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
        f"connect-src 'self'{socket_origins}; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; "
        "object-src 'none'"
    )
    return [
        (b"content-security-policy", policy.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
        (b"cross-origin-opener-policy", b"same-origin"),
    ]
