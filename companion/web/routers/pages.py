"""The HTML pages: the phone page of a seat, the host page, the lobby; plain files filled with the language."""

from __future__ import annotations

import asyncio
import html
import json
import re
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse
from starlette.requests import Request

from companion.core.errors import CompanionError
from companion.i18n import Catalog, catalog, for_browser, negotiate
from companion.web.deps import HubDep

router = APIRouter(include_in_schema=False)

STATIC = Path(__file__).resolve().parent.parent / "static"
_PLACEHOLDER = re.compile(r"\{\{(t:)?([^{}]+)\}\}")


@cache
def _template(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def render(name: str, cat: Catalog, **values: str) -> str:
    """Fill `{{name}}` with a value and `{{t:English text}}` with its translation, both HTML-escaped."""

    def fill(match: re.Match[str]) -> str:
        if match.group(1):
            return html.escape(cat.gettext(match.group(2)))
        return html.escape(values.get(match.group(2), ""), quote=True)

    page = _PLACEHOLDER.sub(fill, _template(name))
    # The catalog goes in as data (a script of type application/json is never run); "</" cannot end it early.
    data = json.dumps(for_browser(cat.lang), ensure_ascii=False).replace("</", "<\\/").replace("<!--", "<\\u0021--")
    return page.replace("<!--catalog-->", data)


def renderer_for(game: str) -> str:
    """The game's own phone renderer, when it has one (otherwise the generic one draws everything)."""
    path = STATIC / "games" / f"{game}.js"
    return f"/static/games/{game}.js" if re.fullmatch(r"[a-z0-9_]+", game) and path.exists() else ""


def page(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers={"Cache-Control": "no-store"})


def choose_language(request: Request, lang: str | None, seat_lang: str | None = None) -> Catalog:
    """?lang= first, then a language the host chose for the seat, then the browser's, then English."""
    requested = lang or (seat_lang if seat_lang and seat_lang != "en" else None)
    return catalog(negotiate(requested, request.headers.get("accept-language")))


@router.get("/")
async def index(request: Request, lang: str | None = Query(default=None, max_length=20)) -> HTMLResponse:
    cat = choose_language(request, lang)
    return page(render("index.html", cat, lang=cat.lang, dir=cat.dir))


@router.get("/join/{sid}")
async def phone_page(sid: int, request: Request, hub: HubDep, t: str | None = Query(default=None, max_length=200),
                     lang: str | None = Query(default=None, max_length=20)) -> HTMLResponse:
    seat_lang = None
    try:
        live = await hub.live(sid)
    except CompanionError:
        cat = choose_language(request, lang)
        return page(render("missing.html", cat, lang=cat.lang, dir=cat.dir), 404)
    if t:
        try:
            seat = live.session.seat_for_token(t)
            rows = await asyncio.to_thread(hub.store.seats, sid)
            seat_lang = next((r.lang for r in rows if r.seat == seat), None)
        except CompanionError:
            seat_lang = None  # the page itself says the link is not valid, once it has asked
    cat = choose_language(request, lang, seat_lang)
    return page(render("phone.html", cat, lang=cat.lang, dir=cat.dir, session=str(sid),
                       game=live.session.game.name, title=live.session.game.title,
                       renderer=renderer_for(live.session.game.name)))


@router.get("/host")
async def lobby_page(request: Request, lang: str | None = Query(default=None, max_length=20)) -> HTMLResponse:
    cat = choose_language(request, lang)
    return page(render("host.html", cat, lang=cat.lang, dir=cat.dir, session="", game="", renderer=""))


@router.get("/host/{sid}")
async def host_page(sid: int, request: Request, hub: HubDep,
                    lang: str | None = Query(default=None, max_length=20)) -> HTMLResponse:
    cat = choose_language(request, lang)
    try:
        live = await hub.live(sid)
    except CompanionError:
        return page(render("missing.html", cat, lang=cat.lang, dir=cat.dir), 404)
    return page(render("host.html", cat, lang=cat.lang, dir=cat.dir, session=str(sid), game=live.session.game.name,
                       renderer=renderer_for(live.session.game.name)))
