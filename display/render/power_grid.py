"""The Power Grid table: the map with houses, the plant and resource markets, the players, income and instructions."""

from __future__ import annotations

import math
from functools import cache, partial
from typing import Any

import pygame

from companion.pictograms.maps import city_positions
from display.i18n import N_, _
from display.model import signature
from display.render import Context, GameRenderer, Panel, phase_label
from display.render.layout import split_columns, split_rows
from display.render.pictograms import draw_pictogram
from display.render.widgets import (
    ACCENT,
    BACKGROUND,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PANEL_FRAME,
    TEXT,
    Colour,
    framed,
    mix,
    panel,
    panel_inner,
    readable_on,
    seat_marker,
)

RESOURCES = ("coal", "oil", "garbage", "uranium")
# Resource colours as on the board (brown coal, black oil, yellow garbage, red uranium), each with its own
# token shape too: square, drop, triangle, circle.
RESOURCE_COLOURS: dict[str, Colour] = {"coal": (139, 90, 43), "oil": (40, 40, 40), "garbage": (230, 190, 40),
                                        "uranium": (220, 50, 50)}
KIND_COLOURS: dict[str, Colour] = {
    "coal": (139, 90, 43), "oil": (60, 60, 60), "garbage": (200, 165, 30), "uranium": (200, 50, 50),
    "hybrid": (110, 75, 50), "ecological": (60, 150, 70), "eco": (60, 150, 70), "wind": (60, 150, 70),
    "fusion": (90, 110, 200), "step3": (120, 120, 120),
}
REGION_COLOURS: dict[str, Colour] = {
    "green": (80, 160, 80), "brown": (150, 105, 60), "red": (200, 70, 70), "yellow": (220, 190, 60),
    "blue": (70, 120, 200), "purple": (150, 90, 180), "cyan": (60, 170, 190), "orange": (220, 130, 50),
}
PHASES = {"regions": N_("Choosing regions"), "auction": N_("2 · Auction"), "auction_close": N_("2 · Auction"),
          "resources": N_("3 · Buying resources"), "building": N_("4 · Building"),
          "bureaucracy": N_("5 · Bureaucracy"), "round_end": N_("5 · Bureaucracy"), "over": N_("Game over")}
STEP3 = 99


# -- reading the view, whatever shape a key comes in ----------------------------------------------------

def _first(view: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        if key in view and view[key] is not None:
            return view[key]
    return None


def _plant_number(p: Any) -> int | None:
    if isinstance(p, bool):
        return None
    if isinstance(p, int):
        return p
    if p == "step3":
        return STEP3
    if isinstance(p, dict):
        return _plant_number(_first(p, "plant", "number", "id"))
    return None


@cache
def _plant_table() -> dict[int, dict[str, Any]]:
    """The plants' printed facts from the game package, for views that name plants by number only."""
    try:
        from companion.games.power_grid.data import PLANTS
    except Exception:  # the display draws numbers alone without the game package
        return {}
    return {n: {"kind": p.kind, "input": p.input, "cities": p.cities,
                "burns": [RESOURCES[r] for r in p.burns]} for n, p in PLANTS.items()}


def plant_facts(p: Any) -> dict[str, Any]:
    """Number, kind, input and cities of a plant given as a number or a dict."""
    number = _plant_number(p)
    facts = dict(_plant_table().get(number or -1, {}))
    if isinstance(p, dict):
        for key in ("kind", "input", "cities", "burns"):
            if key in p:
                facts[key] = p[key]
    facts["number"] = number
    if number == STEP3:
        facts["kind"] = "step3"
    return facts


def plant_stock(p: Any) -> dict[str, int]:
    """The resources stored on a player's plant."""
    if not isinstance(p, dict):
        return {}
    stock = _first(p, "stock", "resources", "stored")
    if isinstance(stock, list):
        return {RESOURCES[i]: int(v) for i, v in enumerate(stock[:4]) if isinstance(v, int) and v}
    if isinstance(stock, dict):
        return {str(k): int(v) for k, v in stock.items() if isinstance(v, int) and v}
    return {}


def markets(view: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    market = view.get("market")
    if isinstance(market, dict):
        return list(market.get("current") or []), list(market.get("future") or [])
    current = _first(view, "current_market", "current")
    future = _first(view, "future_market", "future")
    if isinstance(current, list):
        return current, list(future or [])
    if isinstance(market, list):
        return market[:4], market[4:]
    return [], []


def resource_spaces(view: dict[str, Any]) -> dict[str, list[tuple[int, int]]]:
    """Each resource's printed spaces (price, capacity): from the view, else from the game package."""
    raw = _first(view, "resource_market", "resources")
    out = dict(_tracks())
    if isinstance(raw, dict):
        for k, v in raw.items():
            spaces = v.get("spaces") if isinstance(v, dict) else None
            if isinstance(spaces, list):
                out[k] = [(int(s[0]), int(s[1])) for s in spaces if isinstance(s, list | tuple) and len(s) == 2]
    return out


def resource_counts(view: dict[str, Any]) -> dict[str, int]:
    raw = _first(view, "resource_market", "resources")
    if isinstance(raw, dict):
        out = {}
        for k, v in raw.items():
            if isinstance(v, int):
                out[k] = v
            elif isinstance(v, dict) and isinstance(_first(v, "count", "on_market", "tokens"), int):
                out[k] = _first(v, "count", "on_market", "tokens")
        return out
    if isinstance(raw, list):
        return {RESOURCES[i]: v for i, v in enumerate(raw[:4]) if isinstance(v, int)}
    return {}


@cache
def _tracks() -> dict[str, list[tuple[int, int]]]:
    try:
        from companion.games.power_grid.data import TRACKS
    except Exception:
        return {}
    return {RESOURCES[t.resource]: list(t.spaces) for t in TRACKS}


@cache
def _payout() -> tuple[int, ...]:
    try:
        from companion.games.power_grid.data import PAYOUT
    except Exception:
        return ()
    return tuple(PAYOUT)


@cache
def _game_map(map_id: str) -> dict[str, Any] | None:
    try:
        from companion.games.power_grid.data import MAPS
    except Exception:
        return None
    m = MAPS.get(map_id)
    if m is None:
        return None
    return {
        "id": m.id,
        "cities": [{"id": c, "name": n, "region": r} for c, n, r in zip(m.city_ids, m.city_names, m.city_region)],
        "connections": [[a, b, cost] for a, b, cost in m.connections],
        "regions": [{"id": r.id, "name": r.name, "colour": r.colour} for r in m.regions],
    }


def map_of(view: dict[str, Any]) -> dict[str, Any] | None:
    """The board: from the view if it carries one, else the game package's map of that name."""
    given = view.get("map")
    if isinstance(given, dict) and isinstance(given.get("cities"), list):
        return given
    map_id = given if isinstance(given, str) else view.get("map_id")
    return _game_map(map_id) if isinstance(map_id, str) else None


def houses_by_city(view: dict[str, Any], cities: list[dict[str, Any]]) -> list[list[int]]:
    """For each city (board order), the seats with a house there, from `houses` or from the players' cities."""
    ids = [c.get("id") for c in cities]
    names = [c.get("name") for c in cities]
    out: list[list[int]] = [[] for _ in cities]
    houses = _first(view, "houses", "cities")
    if isinstance(houses, list) and len(houses) == len(cities):
        return [[s for s in h if isinstance(s, int)] if isinstance(h, list) else [] for h in houses]
    if isinstance(houses, dict):
        for key, seats in houses.items():
            index = _city_index(key, ids, names)
            if index is not None and isinstance(seats, list):
                out[index] = [s for s in seats if isinstance(s, int)]
        return out
    for p in view.get("players") or []:
        if not isinstance(p, dict):
            continue
        seat = p.get("seat")
        built = _first(p, "network", "cities")
        if isinstance(seat, int) and isinstance(built, list):
            for c in built:
                index = _city_index(c, ids, names)
                if index is not None:
                    out[index].append(seat)
    return out


def _city_index(key: Any, ids: list[Any], names: list[Any]) -> int | None:
    if isinstance(key, int) and 0 <= key < len(ids):
        return key
    if isinstance(key, str):
        if key in ids:
            return ids.index(key)
        if key in names:
            return names.index(key)
        if key.isdigit() and int(key) < len(ids):
            return int(key)
    if isinstance(key, dict):
        return _city_index(_first(key, "id", "city", "name"), ids, names)
    return None


def players_in_order(view: dict[str, Any]) -> list[dict[str, Any]]:
    players = [p for p in view.get("players") or [] if isinstance(p, dict)]
    for i, p in enumerate(players):
        p.setdefault("seat", i)
    order = _first(view, "order", "turn_order")
    if isinstance(order, list) and all(isinstance(s, int) for s in order):
        by_seat = {p["seat"]: p for p in players}
        ordered = [by_seat[s] for s in order if s in by_seat]
        return ordered + [p for p in players if p not in ordered]
    return players


def city_count(p: dict[str, Any]) -> int | None:
    cities = _first(p, "cities", "network", "city_count")
    if isinstance(cities, list):
        return len(cities)
    if isinstance(cities, int):
        return cities
    return None


def instruction_lines(view: dict[str, Any], ctx: Context) -> list[str]:
    raw = _first(view, "instructions", "todo", "board")
    if not isinstance(raw, list):
        return []
    out = []
    for item in raw:
        if isinstance(item, str):
            out.append(_(item))
        elif isinstance(item, dict):
            out.append(ctx.model.log_line(item))
    return out


# -- the renderer -----------------------------------------------------------------------------------------

class PowerGridRenderer(GameRenderer):
    game = "power_grid"

    def status(self, view: dict[str, Any], ctx: Context) -> list[str]:
        out = []
        if isinstance(view.get("round"), int):
            out.append(_("Round {n}", n=view["round"]))
        if isinstance(view.get("step"), int):
            out.append(_("Step {n}", n=view["step"]))
        phase = view.get("phase")
        if isinstance(phase, str):
            out.append(_(PHASES.get(phase, phase_label(phase))))
        return out

    def panels(self, view: dict[str, Any], rect: pygame.Rect, ctx: Context) -> list[Panel]:
        gap = ctx.layout.gap
        compact = ctx.layout.compact
        left, right = split_columns(rect, [1.2, 1] if not compact else [1, 1.15], gap)
        board = map_of(view)
        houses = houses_by_city(view, board["cities"]) if board else []
        regions = _first(view, "regions", "regions_in_play") or []
        map_data = {"board": board, "houses": houses, "regions": regions,
                    "proposed": view.get("proposed_regions")}
        current, future = markets(view)
        map_r, info_r = split_rows(left, [3.2, 1] if not compact else [2.6, 1], gap)
        market_r, res_r, players_r = split_rows(right, [1.05, 0.85, 1.5] if not compact else [1.1, 0.9, 1.4], gap)
        players = players_in_order(view)
        auction = view.get("auction") if isinstance(view.get("auction"), dict) else None
        income = {"payout": _first(view, "payout", "income") or list(_payout()), "powered": _powered(players)}
        out = [
            Panel("map", map_r, map_data, _draw_map),
            Panel("market", market_r, {"current": current, "future": future, "auction": auction,
                                       "deck": _deck_size(view)}, _draw_market),
            Panel("players", players_r, {"players": players, "open": view.get("open_money"),
                                         "current": ctx.model.current_seats()}, _draw_players),
        ]
        # With the server's board jobs the checklist has its own column (display/render/tabletalk.py).
        checklist = "board_jobs" in (ctx.model.envelope or {}) or "board_jobs" in view
        if checklist:
            out += [
                Panel("resources", res_r, _resource_data(view), _draw_resources),
                Panel("income", info_r, income, _draw_income),
            ]
        elif compact:
            # The small screen has no room for both: the income table takes the resources' place in phase 5.
            if view.get("phase") in ("bureaucracy", "round_end", "over"):
                out.append(Panel("income", res_r, income, _draw_income))
            else:
                out.append(Panel("resources", res_r, _resource_data(view), _draw_resources))
            out.append(Panel("instructions", info_r, instruction_lines(view, ctx), _draw_instructions))
        else:
            income_r, todo_r = split_columns(info_r, [1, 1.6], gap)
            out += [
                Panel("resources", res_r, _resource_data(view), _draw_resources),
                Panel("income", income_r, income, _draw_income),
                Panel("instructions", todo_r, instruction_lines(view, ctx), _draw_instructions),
            ]
        return out


def _deck_size(view: dict[str, Any]) -> int | None:
    deck = _first(view, "deck_size", "deck")
    if isinstance(deck, dict):
        deck = deck.get("size")
    return deck if isinstance(deck, int) else None


def _powered(players: list[dict[str, Any]]) -> list[list[int]]:
    out = []
    for p in players:
        powered = p.get("powered")
        if isinstance(powered, int) and powered >= 0:
            out.append([p["seat"], powered])
    return out


# -- the map ----------------------------------------------------------------------------------------------

def _draw_map(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    board = data.get("board")
    if not board:
        inner = panel(surface, rect, p)
        p.text(surface, _("The map appears once the game has one."), inner, 16, MUTED, align="center")
        return
    geometry = _map_geometry(rect, ctx, data)
    # The map itself (frame, lines, costs, cities, names) changes only with the regions in play: it is a cached
    # layer, and a change of houses redraws only the houses over it.
    key = ("power_grid.map", str(board.get("id")), len(board["cities"]), tuple(sorted(map(str, data.get("regions")
           or []))), ctx.layout.compact)
    layer = p.layer(key, rect.size, lambda s: _draw_map_layer(s, ctx, data))
    surface.blit(layer, rect.topleft)
    points, radius = geometry
    offset = rect.topleft
    houses = data.get("houses") or []
    for i, (x, y) in enumerate(points):
        here = houses[i] if i < len(houses) else []
        x, y = x + offset[0], y + offset[1]
        for k, seat in enumerate(here[:3]):
            angle = -math.pi / 2 + k * 2 * math.pi / 3
            hx = round(x + math.cos(angle) * radius * 0.55) if len(here) > 1 else x
            hy = round(y + math.sin(angle) * radius * 0.55) if len(here) > 1 else y
            seat_marker(surface, (hx, hy), max(4, radius * (2 if len(here) == 1 else 1) // 2), ctx.colour(seat), seat)
    in_play = data.get("regions")
    if not in_play and data.get("proposed"):
        inner = rect.inflate(-2 * p.px(8), -2 * p.px(8))
        p.text(surface, _("Regions proposed: {regions}", regions=", ".join(map(str, data["proposed"]))),
               pygame.Rect(inner.x, inner.bottom - p.line_height(13), inner.width, p.line_height(13)), 13, ACCENT,
               ellipsis=True)


def _map_geometry(rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> tuple[list[tuple[int, int]], int]:
    """Where each city is drawn, relative to the panel's top left, and the cities' radius."""
    p = ctx.painter
    board = data["board"]
    pad = p.px(8)
    inner = pygame.Rect(0, 0, rect.width, rect.height).inflate(-2 * pad, -2 * pad)
    ids = tuple(str(c.get("id")) for c in board["cities"])
    pos = city_positions(str(board.get("id")), ids)
    radius = max(6, min(inner.width, inner.height) // 34)
    area = inner.inflate(-2 * radius - p.px(40), -2 * radius - p.px(16))
    area.y -= p.px(4)
    return [(round(area.x + x * area.width), round(area.y + y * area.height)) for x, y in pos], radius


def _draw_map_layer(surface: pygame.Surface, ctx: Context, data: dict[str, Any]) -> None:
    """The static map on a surface of the panel's size: frame, connections with costs, cities and names."""
    p = ctx.painter
    rect = surface.get_rect()
    panel(surface, rect, p)
    board = data["board"]
    cities = board["cities"]
    points, radius = _map_geometry(rect, ctx, data)
    in_play = set(data.get("regions") or [])
    colour_of = {r.get("id"): REGION_COLOURS.get(str(r.get("colour")), (140, 140, 140))
                 for r in board.get("regions") or [] if isinstance(r, dict)}

    def playing(i: int) -> bool:
        return not in_play or cities[i].get("region") in in_play

    for a, b, cost in board.get("connections") or []:
        if not (isinstance(a, int) and isinstance(b, int) and a < len(points) and b < len(points)):
            continue
        live = playing(a) and playing(b)
        colour = mix(PANEL, TEXT, 0.45 if live else 0.12)
        pygame.draw.line(surface, colour, points[a], points[b], max(1, p.px(2)))
        if live and cost:
            mid = ((points[a][0] + points[b][0]) // 2, (points[a][1] + points[b][1]) // 2)
            label = pygame.Rect(0, 0, p.px(22), p.line_height(11))
            label.center = mid
            pygame.draw.rect(surface, PANEL, label, border_radius=p.px(3))
            p.text(surface, str(cost), label, 11, MUTED, align="center")
    show_names = not ctx.layout.compact
    for i, (x, y) in enumerate(points):
        region = cities[i].get("region")
        base = colour_of.get(region, (140, 140, 140))
        live = playing(i)
        fill = base if live else mix(PANEL, base, 0.25)
        pygame.draw.circle(surface, fill, (x, y), radius)
        pygame.draw.circle(surface, BACKGROUND, (x, y), radius, max(1, radius // 5))
        if show_names and live:
            name_rect = pygame.Rect(x - p.px(50), y + radius, p.px(100), p.line_height(10))
            p.text(surface, str(cities[i].get("name") or ""), name_rect, 10, TEXT if live else MUTED, align="center",
                   ellipsis=True)


# -- plants -----------------------------------------------------------------------------------------------

def draw_plant(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, plant: Any, *, stock: dict[str, int] | None
               = None, highlight: bool = False, backdrop: Colour | None = None) -> None:
    """A plant card: number, what it burns (colour and name), how many it needs and how many cities it powers.

    A card is a sprite: drawn once per plant, stock, highlight and size, then blitted (without alpha when it
    always sits on the plain `backdrop` colour)."""
    facts = plant_facts(plant)
    key = ("power_grid.plant", facts.get("number"), str(facts.get("kind") or ""), facts.get("input"),
           facts.get("cities"), None if stock is None else tuple(stock.items()), highlight)
    ctx.painter.sprite(surface, rect, key, lambda target, box: _plant_card(target, box, ctx, facts, stock, highlight),
                       backdrop)


def _plant_card(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, facts: dict[str, Any],
                stock: dict[str, int] | None, highlight: bool) -> None:
    p = ctx.painter
    kind = str(facts.get("kind") or "")
    colour = KIND_COLOURS.get(kind, (110, 110, 120))
    ink = readable_on(colour)
    pygame.draw.rect(surface, colour, rect, border_radius=p.px(5))
    pygame.draw.rect(surface, ACCENT if highlight else (15, 15, 15), rect, width=max(1, p.px(3) if highlight else 1),
                     border_radius=p.px(5))
    number = facts.get("number")
    if number == STEP3:
        p.text(surface, _("Step 3"), rect.inflate(-p.px(4), 0), 14, ink, bold=True, align="center")
        return
    rows = split_rows(rect.inflate(-p.px(4), -p.px(2)), [1.3, 1, 1] if stock is not None else [1.4, 1], 0)

    def fit(size: float, row: pygame.Rect) -> float:
        # Cards shrink with crowded rows (six players): the text follows the card's height.
        return min(size, row.height / p.scale * 0.8)

    p.text(surface, str(number if number is not None else "?"), rows[0], fit(20, rows[0]), ink, bold=True,
           align="center")
    needs = facts.get("input")
    cities = facts.get("cities")
    kind_label = _("eco") if kind in ("ecological", "eco", "wind", "fusion") else _(kind)
    if isinstance(needs, int) and needs > 0:
        line = _("{n} {kind} → {cities}", n=needs, kind=kind_label, cities=cities)
    else:
        line = _("{kind} → {cities}", kind=kind_label, cities=cities if cities is not None else "?")
    p.text(surface, line, rows[1], fit(11, rows[1]), ink, align="center", ellipsis=True)
    if stock is not None and len(rows) > 2:
        text = " ".join(f"{v}{_(k)[0]}" for k, v in stock.items()) or "–"
        p.text(surface, text, rows[2], fit(11, rows[2]), ink, bold=True, align="center", ellipsis=True)


@framed(PANEL_FRAME)
def _draw_market(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    deck = data.get("deck")
    title = _("Power plants") + (f" · {_('deck')} {deck}" if isinstance(deck, int) else "")
    inner = panel(surface, rect, p, title)
    current, future = data.get("current") or [], data.get("future") or []
    auction = data.get("auction") or {}
    on_block = _plant_number(auction.get("plant")) if auction else None
    label_h = p.line_height(12)
    rows = [(_("Current"), current)] + ([(_("Future"), future)] if future else [])
    auction_h = p.line_height(14) if auction else 0
    room = pygame.Rect(inner.x, inner.y, inner.width, inner.height - auction_h)
    for (label, plants), row in zip(rows, split_rows(room, [1] * len(rows), p.px(4))):
        p.text(surface, label, pygame.Rect(row.x, row.y, row.width, label_h), 12, MUTED)
        cards = pygame.Rect(row.x, row.y + label_h, row.width, row.height - label_h)
        count = max(4, len(plants))
        for plant, cell in zip(plants, split_columns(cards, [1] * count, p.px(5))):
            draw_plant(surface, cell, ctx, plant, highlight=_plant_number(plant) == on_block, backdrop=PANEL)
    if auction:
        leader = auction.get("leader")
        text = _("Auction: plant {plant}, {price} Elektro by {who}", plant=on_block,
                 price=_first(auction, "price", "bid"), who=ctx.name(leader) if leader is not None else "–")
        p.text(surface, text, pygame.Rect(inner.x, inner.bottom - auction_h, inner.width, auction_h), 14, ACCENT,
               bold=True, ellipsis=True)


# -- resources --------------------------------------------------------------------------------------------

def draw_token(surface: pygame.Surface, rect: pygame.Rect, resource: str) -> None:
    """A resource token: the shared pictogram (its own shape and colour, so the four read apart without colour)."""
    if not draw_pictogram(surface, rect, "resource", resource):
        pygame.draw.circle(surface, (150, 150, 150), rect.center, min(rect.width, rect.height) // 2)


def _resource_data(view: dict[str, Any]) -> dict[str, Any]:
    return {"counts": resource_counts(view), "spaces": resource_spaces(view)}


@framed(PANEL_FRAME)
def _draw_resources(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    inner = panel(surface, rect, p, _("Resource market"))
    counts = data["counts"]
    tracks = data["spaces"]
    rows = split_rows(inner, [1, 1, 1, 1], p.px(3))
    label_w = p.px(92)
    for resource, row in zip(RESOURCES, rows):
        count = counts.get(resource)
        spaces = tracks.get(resource) or []
        slots = [price for price, capacity in spaces for _k in range(capacity)]
        cheapest = slots[len(slots) - count] if isinstance(count, int) and 0 < count <= len(slots) else None
        label = _(resource.capitalize())
        p.text(surface, label, pygame.Rect(row.x, row.y, label_w, row.height), 14, TEXT, bold=True)
        if not slots:
            p.text(surface, str(count if count is not None else "–"), pygame.Rect(row.x + label_w, row.y,
                   row.width - label_w, row.height), 14, TEXT)
            continue
        price_w = p.px(70)
        track = pygame.Rect(row.x + label_w, row.y, row.width - label_w - price_w, row.height)
        # The track is a sprite per resource and count: its price lines stand one pixel left of it and reach one
        # below it, so the sprite is that much larger.
        area = pygame.Rect(track.x - 1, track.y, track.width + 1, track.height + 1)
        p.sprite(surface, area, ("power_grid.track", resource, tuple(slots), count),
                 partial(_draw_track, resource=resource, slots=slots, count=count or 0), backdrop=PANEL)
        price = _("{price} each", price=cheapest) if cheapest else _("none left")
        p.text(surface, price, pygame.Rect(track.right + p.px(4), row.y, price_w - p.px(4), row.height), 11, MUTED,
               align="right")


def _draw_track(surface: pygame.Surface, area: pygame.Rect, *, resource: str, slots: list[int], count: int) -> None:
    """One resource's spaces: empty ones dark, the tokens on the market from the dearest end, a line between
    prices (`area` is the track with a pixel more to its left and below)."""
    track = pygame.Rect(area.x + 1, area.y, area.width - 1, area.height - 1)
    cell = track.width / max(1, len(slots))
    filled_from = len(slots) - count
    for k, price in enumerate(slots):
        box = pygame.Rect(track.x + round(k * cell), track.y + 1, max(2, round(cell) - 1), track.height - 2)
        if k >= filled_from:
            draw_token(surface, box, resource)
        else:
            pygame.draw.rect(surface, mix(PANEL, BACKGROUND, 0.5), box)
        if k == 0 or slots[k - 1] != price:
            pygame.draw.line(surface, PANEL_EDGE, (box.x - 1, track.y), (box.x - 1, track.bottom))


# -- players, income, instructions -------------------------------------------------------------------------

@framed(PANEL_FRAME)
def _draw_players(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    inner = panel(surface, rect, p, _("Players in turn order"))
    players = data.get("players") or []
    if not players:
        return
    row_h = min(p.px(64), inner.height // len(players))
    current = set(s for s in data.get("current") or [] if isinstance(s, int))
    for k, player in enumerate(players):
        seat = player.get("seat")
        row = pygame.Rect(inner.x, inner.y + k * row_h, inner.width, row_h - p.px(3))
        # A row is a sprite per what it shows: a move changes one or two players' rows, not all six.
        key = ("power_grid.player", signature([player, seat in current, ctx.name(seat), ctx.colour(seat)]))
        p.sprite(surface, row, key, partial(_player_row, ctx=ctx, player=player, current=seat in current),
                 backdrop=PANEL)


def _player_row(surface: pygame.Surface, row: pygame.Rect, *, ctx: Context, player: dict[str, Any],
                current: bool) -> None:
    """One player in the turn order: their disc, name, cities, money when open, and plants with their stock."""
    p = ctx.painter
    seat = player.get("seat")
    if current:
        pygame.draw.rect(surface, mix(PANEL, ACCENT, 0.18), row, border_radius=p.px(5))
        pygame.draw.rect(surface, ACCENT, row, width=max(1, p.px(2)), border_radius=p.px(5))
    r = max(5, min(row.height // 3, p.px(11)))
    if isinstance(seat, int):
        seat_marker(surface, (row.x + r + p.px(3), row.centery), r, ctx.colour(seat), seat)
    name_w = row.width * 27 // 100
    facts_w = row.width * 22 // 100
    name_x = row.x + 2 * r + p.px(8)
    halves = split_rows(pygame.Rect(name_x, row.y, name_w, row.height), [1, 1], 0)
    p.text(surface, ctx.name(seat), halves[0], min(14, halves[0].height / p.scale * 0.8), TEXT, bold=True,
           ellipsis=True)
    facts = []
    cities = city_count(player)
    if cities is not None:
        facts.append(_("{n} cities", n=cities))
    money = player.get("money")
    if isinstance(money, int):
        facts.append(_("{n} Elektro", n=money))
    powered = player.get("powered")
    if isinstance(powered, int) and powered >= 0:
        facts.append(_("powered {n}", n=powered))
    p.text(surface, " · ".join(facts[:1]), halves[1], min(12, halves[1].height / p.scale * 0.8), MUTED,
           ellipsis=True)
    extra = pygame.Rect(name_x + name_w, row.y, facts_w, row.height)
    p.text(surface, " · ".join(facts[1:]), extra, 12, ACCENT if money is not None else MUTED, bold=True,
           ellipsis=True)
    plants = [pl for pl in player.get("plants") or [] if _plant_number(pl) is not None]
    cards = pygame.Rect(extra.right + p.px(4), row.y + 1, row.right - extra.right - p.px(6), row.height - 2)
    slots = max(3, len(plants))
    for plant, cell in zip(plants, split_columns(cards, [1] * slots, p.px(4))):
        draw_plant(surface, cell, ctx, plant, stock=plant_stock(plant))


def _draw_income(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    """The income table is a static layer (frame, title and every cell), painted once per payout and size; the
    powered counts of phase 5 are highlighted over it."""
    p = ctx.painter
    payout = tuple(v for v in data.get("payout") or [] if isinstance(v, int))
    layer = p.layer(("power_grid.income", payout), rect.size, lambda s: _income_table(s, ctx, payout))
    surface.blit(layer, rect.topleft)
    powered = {n for _seat, n in data.get("powered") or []}
    for n, cell in enumerate(_income_cells(rect, ctx, len(payout))):
        if n in powered:
            pygame.draw.rect(surface, mix(PANEL, ACCENT, 0.35), cell, border_radius=p.px(3))
            _income_cell(surface, cell, ctx, n, payout[n], True)


def _income_table(surface: pygame.Surface, ctx: Context, payout: tuple[int, ...]) -> None:
    rect = surface.get_rect()
    panel(surface, rect, ctx.painter, _("Income: cities powered → Elektro"))
    for n, cell in enumerate(_income_cells(rect, ctx, len(payout))):
        _income_cell(surface, cell, ctx, n, payout[n], False)


def _income_cells(rect: pygame.Rect, ctx: Context, count: int) -> list[pygame.Rect]:
    """Where each count's cell of the income table is: seven to a row, under the title."""
    p = ctx.painter
    inner = panel_inner(rect, p, titled=True)
    cols = 7
    rows_n = -(-count // cols)
    cell_w = inner.width // cols
    cell_h = min(p.line_height(13) + p.px(4), inner.height // max(1, rows_n))
    return [pygame.Rect(inner.x + (n % cols) * cell_w, inner.y + (n // cols) * cell_h, cell_w - 2, cell_h - 1)
            for n in range(count)]


def _income_cell(surface: pygame.Surface, cell: pygame.Rect, ctx: Context, n: int, coins: int, powered: bool) -> None:
    p = ctx.painter
    halves = split_columns(cell, [1, 1.5], 1)
    p.text(surface, str(n), halves[0], 11, MUTED, align="right")
    p.text(surface, str(coins), halves[1], 13, TEXT, bold=powered, align="center")


@framed(PANEL_FRAME)
def _draw_instructions(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, lines: list[str]) -> None:
    p = ctx.painter
    inner = panel(surface, rect, p, _("On the board"))
    if not lines:
        p.text(surface, _("Nothing to do on the board."), pygame.Rect(inner.x, inner.y, inner.width,
                                                                       p.line_height(13)), 13, MUTED)
        return
    p.lines(surface, [(f"• {line}", TEXT) for line in lines], inner, 13)
