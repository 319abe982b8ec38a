"""The Shifting Stones table: the 3×3 grid of stones, each player's scored cards, progress to the end, solo strikes."""

from __future__ import annotations

from functools import cache, partial
from typing import Any

import pygame

from display.i18n import N_, _
from display.render import Context, GameRenderer, Panel, phase_label
from display.render.layout import grid_cells, split_columns, split_rows
from display.render.stones import FACE_COLOURS, draw_face, draw_pattern
from display.render.widgets import (
    ACCENT,
    BAD,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PANEL_FRAME,
    PLAIN_FRAME,
    TEXT,
    badge,
    draw_frame,
    framed,
    mix,
    panel,
)

FACE_NAMES = {"sun": N_("Sun"), "moon": N_("Moon"), "fish": N_("Fish"), "bird": N_("Bird"), "horse": N_("Horse"),
              "boat": N_("Boat"), "seed": N_("Seed"), "tree": N_("Tree")}


def _first(d: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        if key in d and d[key] is not None:
            return d[key]
    return None


def grid_faces(view: dict[str, Any]) -> list[str]:
    """The nine faces, top-left first, from a flat list, rows, or cells with a face."""
    raw = _first(view, "grid", "stones", "board")
    if isinstance(raw, dict):
        raw = _first(raw, "faces", "cells", "rows")
    if not isinstance(raw, list):
        return []
    flat: list[Any] = []
    for item in raw:
        if isinstance(item, list):
            flat.extend(item)
        else:
            flat.append(item)
    out = []
    for item in flat:
        if isinstance(item, dict):
            item = _first(item, "face", "up", "name")
        out.append(str(item) if item is not None else "")
    return out


@cache
def _patterns() -> dict[str, dict[str, Any]]:
    """Pattern cards by id from the game package, for views that list scored cards by id only."""
    try:
        from companion.games.shifting_stones.patterns import DATA
    except Exception:  # without the game package the cards are drawn from what the view says
        return {}
    return {c["id"]: c for c in DATA.get("cards", [])}


def card_facts(card: Any) -> dict[str, Any]:
    """A pattern card's id, points and rows, whether the view gives an id or the whole card."""
    if isinstance(card, str):
        return dict(_patterns().get(card, {"id": card}))
    if isinstance(card, dict):
        cid = _first(card, "id", "card")
        facts = dict(_patterns().get(cid, {})) if isinstance(cid, str) else {}
        facts.update({k: v for k, v in card.items() if k in ("id", "points", "rows")})
        if "id" not in facts and isinstance(cid, str):
            facts["id"] = cid
        return facts
    return {}


def scored_cards(player: dict[str, Any]) -> list[dict[str, Any]]:
    raw = _first(player, "scored", "scored_cards", "cards")
    return [card_facts(c) for c in raw] if isinstance(raw, list) else []


def player_score(player: dict[str, Any], cards: list[dict[str, Any]]) -> Any:
    score = _first(player, "score", "points")
    if score is None and cards:
        score = sum(int(c.get("points") or 0) for c in cards)
    return score


class ShiftingStonesRenderer(GameRenderer):
    game = "shifting_stones"

    def status(self, view: dict[str, Any], ctx: Context) -> list[str]:
        out = []
        if isinstance(view.get("round"), int):
            out.append(_("Round {n}", n=view["round"]))
        phase = view.get("phase")
        if isinstance(phase, str):
            out.append(_(phase_label(phase)))
        if view.get("final_round") or view.get("last_round"):
            out.append(_("Final round"))
        return out

    def panels(self, view: dict[str, Any], rect: pygame.Rect, ctx: Context) -> list[Panel]:
        gap = ctx.layout.gap
        side = min(rect.height, rect.width * 45 // 100)
        grid_r = pygame.Rect(rect.x, rect.y, side, rect.height)
        rest = pygame.Rect(grid_r.right + gap, rect.y, rect.right - grid_r.right - gap, rect.height)
        players = [p for p in view.get("players") or [] if isinstance(p, dict)]
        for i, p in enumerate(players):
            p.setdefault("seat", i)
        info_r, players_r = split_rows(rest, [1, 4.2] if not ctx.layout.compact else [1.2, 4], gap)
        out = [
            Panel("grid", grid_r, {"faces": grid_faces(view), "last": _first(view, "last_move", "changed")},
                  _draw_grid),
            Panel("info", info_r, _info_data(view, players), _draw_info),
        ]
        current = ctx.model.current_seats()
        for player, cell in zip(players, grid_cells(players_r, len(players), gap, min_aspect=2.2)):
            out.append(Panel(f"player{player['seat']}", cell,
                             {"p": player, "current": player["seat"] in current,
                              "target": _first(view, "end_trigger", "target", "cards_to_end")}, _draw_player))
        return out


def _info_data(view: dict[str, Any], players: list[dict[str, Any]]) -> dict[str, Any]:
    solo = view.get("solo")
    strikes = _first(view, "strikes")
    max_strikes = _first(view, "strikes_to_lose", "max_strikes")
    if isinstance(solo, dict):
        strikes = _first(solo, "strikes") if strikes is None else strikes
        max_strikes = _first(solo, "strikes_to_lose", "max_strikes", "lose_at") if max_strikes is None else max_strikes
    target = _first(view, "end_trigger", "target", "cards_to_end")
    most = max((len(scored_cards(p)) for p in players), default=0)
    solo_cards = solo.get("cards") if isinstance(solo, dict) else None
    solo_scored = solo.get("scored") if isinstance(solo, dict) else None
    return {
        "solo_cards": solo_cards, "solo_scored": solo_scored,
        "deck": _first(view, "deck_size", "deck"), "discard": _first(view, "discard_size", "discard"),
        "target": target, "most": most, "strikes": strikes, "max_strikes": max_strikes,
        "solo": bool(solo) or len(players) == 1, "ending": bool(_first(view, "final_round", "last_round", "ending")),
        "skipped": _first(view, "skipped"),
    }


@framed(PANEL_FRAME)
def _draw_grid(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    inner = panel(surface, rect, p)
    faces = data.get("faces") or []
    if len(faces) != 9:
        # Physical setup: the real stones are laid out first, then entered (the sentence above says by whom).
        p.paragraph(surface, _("Lay the nine stones out at random, then enter them row by row: on the keypad "
                               "(sun, moon, fish, bird, horse, boat, seed, tree) or on the host page."),
                    inner.inflate(-p.px(8), -p.px(8)), 16, TEXT)
        return
    side = min(inner.width, inner.height)
    box = pygame.Rect(0, 0, side, side)
    box.center = inner.center
    cells = grid_cells(box, 9, p.px(8))
    show_names = cells[0].height >= p.px(90)
    moved = {c for c in data.get("last") or [] if isinstance(c, int)}
    for index, (face, cell) in enumerate(zip(faces, cells)):
        if index in moved:
            # The stones the last action changed, so the table can check the real grid.
            pygame.draw.rect(surface, ACCENT, cell.inflate(p.px(8), p.px(8)), width=max(2, p.px(4)),
                             border_radius=p.px(10))
        name_h = p.line_height(13, True) if show_names else 0
        art = pygame.Rect(cell.x, cell.y, cell.width, cell.height - name_h)
        # The stone: a sprite the size of its tile. With the names shown the tile stands clear of the cell's corners
        # (where the outline of a moved stone reaches in), so it is painted on the panel's colour and blitted
        # without alpha; without them the tile fills the cell, and its corners must stay see-through.
        side = min(art.width, art.height)
        tile = pygame.Rect(0, 0, side, side)
        tile.center = art.center
        p.sprite(surface, tile, ("shifting_stones.face", face), partial(draw_face, face=face),
                 backdrop=PANEL if show_names else None)
        if show_names:
            colour = mix(FACE_COLOURS.get(face, TEXT), (255, 255, 255), 0.45)
            p.text(surface, _(FACE_NAMES.get(face) or face), pygame.Rect(cell.x, art.bottom, cell.width, name_h), 13,
                   colour, bold=True, align="center")


@framed(PANEL_FRAME)
def _draw_info(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    inner = panel(surface, rect, p)
    left, right = split_columns(inner, [1, 1.2], p.px(10))
    lh = p.line_height(15)
    facts = []
    if data.get("deck") is not None:
        facts.append(_("Deck: {n}", n=data["deck"]))
    if data.get("discard") is not None:
        facts.append(_("Discards: {n}", n=data["discard"]))
    for i, fact in enumerate(facts):
        p.text(surface, fact, pygame.Rect(left.x, left.y + i * lh, left.width, lh), 15, TEXT)
    if data.get("solo"):
        strikes = data.get("strikes") or 0
        most = data.get("max_strikes") or 4
        if data.get("solo_cards"):
            p.text(surface, _("Scored {n} of {total}", n=data.get("solo_scored") or 0, total=data["solo_cards"]),
                   pygame.Rect(left.x, left.y + len(facts) * lh, left.width, lh), 15, ACCENT, bold=True)
        p.text(surface, _("Strikes"), pygame.Rect(right.x, right.y, right.width, lh), 14, MUTED, bold=True)
        size = min(lh * 2, right.width // max(1, most) - p.px(4))
        for k in range(most):
            box = pygame.Rect(right.x + k * (size + p.px(4)), right.y + lh + p.px(2), size, size)
            if k < strikes:
                pygame.draw.rect(surface, BAD, box, border_radius=p.px(3))
                m = box.inflate(-size // 3, -size // 3)
                pygame.draw.line(surface, (255, 255, 255), m.topleft, m.bottomright, max(2, size // 8))
                pygame.draw.line(surface, (255, 255, 255), m.topright, m.bottomleft, max(2, size // 8))
            else:
                pygame.draw.rect(surface, PANEL_EDGE, box, width=max(1, p.px(2)), border_radius=p.px(3))
        return
    target = data.get("target")
    if isinstance(target, int) and target > 0:
        most = min(int(data.get("most") or 0), target)
        label = _("Final round!") if data.get("ending") else _("End at {n} scored cards", n=target)
        p.text(surface, label, pygame.Rect(right.x, right.y, right.width, lh), 14, ACCENT if data.get("ending") else
               MUTED, bold=True)
        bar = pygame.Rect(right.x, right.y + lh + p.px(4), right.width, max(6, lh * 2 // 3))
        pygame.draw.rect(surface, mix(PANEL, (0, 0, 0), 0.3), bar, border_radius=p.px(4))
        filled = pygame.Rect(bar.x, bar.y, round(bar.width * most / target), bar.height)
        pygame.draw.rect(surface, ACCENT, filled, border_radius=p.px(4))
        p.text(surface, f"{most} / {target}", pygame.Rect(bar.x, bar.bottom + p.px(2), bar.width, lh), 13, TEXT,
               align="right")


@framed(PLAIN_FRAME)
def _draw_player(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    player = data["p"]
    seat = player["seat"]
    current = data.get("current")
    draw_frame(surface, rect, p, PLAIN_FRAME)
    if current:
        pygame.draw.rect(surface, ACCENT, rect, width=max(2, p.px(3)), border_radius=p.px(8))
    inner = rect.inflate(-p.px(12), -p.px(10))
    cards = scored_cards(player)
    score = player_score(player, cards)
    head_h = p.line_height(17, True) + p.px(4)
    name_w = inner.width * (45 if not ctx.layout.compact else 40) // 100
    badge(surface, pygame.Rect(inner.x, inner.y, name_w, head_h), p, f"{seat + 1}  {ctx.name(seat)}",
          ctx.colour(seat), 16, outline=ACCENT if current else None)
    facts = [_("Score {n}", n=score if score is not None else 0), _("scored {n}", n=len(cards))]
    hand = _first(player, "hand_size", "hand")
    if isinstance(hand, int) and not ctx.layout.compact:
        facts.append(_("hand {n}", n=hand))
    p.text(surface, " · ".join(facts), pygame.Rect(inner.x + name_w + p.px(6), inner.y, inner.width - name_w - p.px(6),
                                                   head_h), 15, TEXT, bold=True, align="right")
    area = pygame.Rect(inner.x, inner.y + head_h + p.px(6), inner.width, inner.height - head_h - p.px(6))
    if not cards:
        p.text(surface, _("No cards scored yet."), pygame.Rect(area.x, area.y, area.width, p.line_height(13)), 13,
               MUTED)
        return
    gap = p.px(4)
    best = (0, 1)
    for rows in range(1, len(cards) + 1):
        per_row = -(-len(cards) // rows)
        size = min(area.width // per_row - gap, area.height // rows - gap, p.px(110))
        if size > best[0]:
            best = (size, per_row)
    cell, per_row = max(8, best[0]), best[1]
    for k, card in enumerate(cards):
        x = area.x + (k % per_row) * (cell + gap)
        y = area.y + (k // per_row) * (cell + gap)
        _draw_card(surface, pygame.Rect(x, y, cell, cell), ctx, card)


def _draw_card(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, card: dict[str, Any]) -> None:
    """A scored pattern card (a sprite: drawn once per card and size)."""
    rows = card.get("rows")
    key = ("shifting_stones.card", card.get("id"), card.get("points"),
           tuple(tuple(map(str, r)) for r in rows) if isinstance(rows, list) else None)
    # On the player's panel, away from its outline: painted on the panel's colour, blitted without alpha.
    ctx.painter.sprite(surface, rect, key, lambda target, box: _card(target, box, ctx, card), backdrop=PANEL)


def _card(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, card: dict[str, Any]) -> None:
    p = ctx.painter
    pygame.draw.rect(surface, (245, 245, 240), rect, border_radius=max(2, rect.width // 12))
    points = card.get("points")
    mark_h = max(8, rect.height // 4)
    rows = card.get("rows")
    if isinstance(rows, list) and rows:
        draw_pattern(surface, pygame.Rect(rect.x + 2, rect.y + mark_h, rect.width - 4, rect.height - mark_h - 2),
                     rows)
    if points is not None:
        p.text(surface, str(points), pygame.Rect(rect.x + 2, rect.y, rect.width - 4, mark_h), max(7, mark_h / p.scale
               * 0.9), (30, 30, 30), bold=True, align="left")
