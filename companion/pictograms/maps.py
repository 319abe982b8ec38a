"""Where each Power Grid city is drawn (the phones' map and the table display's): one layout for both."""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from typing import Any


@cache
def _geo() -> dict[str, dict[str, list[float]]]:
    text = resources.files("companion.pictograms").joinpath("power_grid_maps.json").read_text(encoding="utf-8")
    return {k: v for k, v in json.loads(text).items() if isinstance(v, dict)}


@cache
def city_positions(map_id: str, ids: tuple[str, ...]) -> tuple[tuple[float, float], ...]:
    """City positions in 0..1, projected from latitude/longitude and pushed apart where they would overlap."""
    geo = _geo().get(map_id, {})
    raw = []
    for i, c in enumerate(ids):
        lat, lon = geo.get(c, (0.0, float(i)))
        raw.append((lon * math.cos(math.radians(lat)), -lat))
    xs, ys = [p[0] for p in raw], [p[1] for p in raw]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    pts = [[(x - min(xs)) / span, (y - min(ys)) / span] for x, y in raw]
    # A few rounds of repulsion so no two cities sit closer than a city's own size.
    near = 0.085
    for _round in range(60):
        moved = False
        for i in range(len(pts)):
            for j in range(i + 1, len(pts)):
                dx, dy = pts[j][0] - pts[i][0], pts[j][1] - pts[i][1]
                d = math.hypot(dx, dy)
                if d < near:
                    if d < 1e-6:
                        dx, dy, d = 1.0, 0.0, 1.0
                    push = (near - d) / 2
                    pts[i][0] -= dx / d * push
                    pts[i][1] -= dy / d * push
                    pts[j][0] += dx / d * push
                    pts[j][1] += dy / d * push
                    moved = True
        if not moved:
            break
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    w, h = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    return tuple(((x - min(xs)) / w, (y - min(ys)) / h) for x, y in pts)


def aspect(map_id: str) -> float:
    """The board's height over its width, from the cities' real places (a map drawn at any width keeps its shape)."""
    geo = _geo().get(map_id, {})
    raw = [(lon * math.cos(math.radians(lat)), -lat) for lat, lon in geo.values()]
    if len(raw) < 2:
        return 1.0
    w = max(x for x, _ in raw) - min(x for x, _ in raw)
    h = max(y for _, y in raw) - min(y for _, y in raw)
    return round(h / w, 3) if w else 1.0


def board(map_id: str) -> dict[str, Any] | None:
    """A map for the phones: cities (id, printed name, region, x, y in 0..1), connections by id, the regions."""
    from companion.games.power_grid.data import MAPS

    m = MAPS.get(map_id)
    if m is None:
        return None
    ids = tuple(m.city_ids)
    pos = city_positions(m.id, ids)
    return {
        "id": m.id,
        "title": m.title,
        "aspect": aspect(m.id),
        "cities": [{"id": c, "name": n, "region": r, "x": round(x, 4), "y": round(y, 4)}
                   for c, n, r, (x, y) in zip(m.city_ids, m.city_names, m.city_region, pos)],
        "connections": [[ids[a], ids[b], cost] for a, b, cost in m.connections],
        "regions": [{"id": r.id, "name": r.name, "colour": r.colour} for r in m.regions],
    }
