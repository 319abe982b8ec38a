"""The one look of the games for the pages: the shared pictograms as SVG, and each game's names and board data."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import Response

from companion import pictograms
from companion.pictograms import maps

router = APIRouter(include_in_schema=False)

_CACHE = {"Cache-Control": "public, max-age=86400"}
_FILL = re.compile(r"#[0-9a-fA-F]{6}")


@router.get("/pictograms/{kind}/{name}.svg")
async def pictogram(kind: str, name: str, fill: str | None = Query(default=None, max_length=7)) -> Response:
    """One pictogram; `fill=#rrggbb` colours a house or a city in a player's colour."""
    if fill is not None and not _FILL.fullmatch(fill):
        raise HTTPException(400, "fill is a colour #rrggbb")
    try:
        text = pictograms.svg(kind, name, fill.lower() if fill else None)
    except KeyError:
        raise HTTPException(404, "no such pictogram") from None
    return Response(text, media_type="image/svg+xml", headers=_CACHE)


@cache
def look(game: str) -> dict[str, Any]:
    """What a game's pages draw things with: the pictograms, and its cards or maps by id."""
    out: dict[str, Any] = {"pictograms": pictograms.manifest()}
    if game == "shifting_stones":
        from companion.games.shifting_stones.patterns import PATTERNS

        out["cards"] = {c.id: {"points": c.points, "rows": c.to_json()["rows"]} for c in PATTERNS.values()}
    elif game == "power_grid":
        from companion.games.power_grid.data import MAPS

        out["maps"] = {m: maps.board(m) for m in MAPS}
    elif game == "bohnanza":
        from companion.games.bohnanza.beans import BEANS

        out["beans"] = {b.id: {"name": b.name, "beanometer": [list(rung) for rung in b.beanometer]}
                        for b in BEANS.values()}
    return out


@router.get("/look/{game}.json")
async def game_look(game: str) -> Response:
    if not re.fullmatch(r"[a-z0-9_]{1,40}", game):
        raise HTTPException(404, "no such game")
    return Response(json.dumps(look(game), ensure_ascii=False), media_type="application/json", headers=_CACHE)
