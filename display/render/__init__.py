"""Renderers: each game's table as panels (a rectangle, the data it shows, how to draw it), plus the shared ones."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pygame

from display.i18n import _, notice
from display.model import DisplayModel
from display.render.layout import Layout
from display.render.widgets import (
    ACCENT,
    BAD,
    GOOD,
    MUTED,
    PANEL_FRAME,
    PLAIN_FRAME,
    TEXT,
    Frame,
    Painter,
    draw_frame,
    framed,
    panel,
    parse_colour,
    seat_marker,
)

Draw = Callable[[pygame.Surface, pygame.Rect, "Context", Any], None]


@dataclasses.dataclass
class Context:
    """What a panel may use while drawing: the painter, the layout and the model (read only)."""

    painter: Painter
    layout: Layout
    model: DisplayModel

    def name(self, seat: Any) -> str:
        return self.model.player_name(seat)

    def colour(self, seat: Any) -> tuple[int, int, int]:
        return parse_colour(self.model.player_colour(seat))


@dataclasses.dataclass
class Panel:
    """A part of the screen redrawn only when `data` (its signature) changes."""

    name: str
    rect: pygame.Rect
    data: Any
    draw: Draw

    @property
    def frame(self) -> Frame | None:
        """The frame the draw function paints first (`@framed`), which the frames layer then paints instead."""
        return getattr(self.draw, "frame", None)


class GameRenderer:
    """Turns a game's public view into panels; subclasses draw one game. Missing view keys draw nothing."""

    game = ""

    def status(self, view: dict[str, Any], ctx: Context) -> list[str]:
        """Short facts for the header (step, round, phase)."""
        out = []
        if isinstance(view.get("phase"), str):
            out.append(_(phase_label(view["phase"])))
        return out

    def panels(self, view: dict[str, Any], rect: pygame.Rect, ctx: Context) -> list[Panel]:
        return [Panel("generic", rect, view, draw_generic)]


def phase_label(phase: str) -> str:
    return phase.replace("_", " ").capitalize()


@framed(PANEL_FRAME)
def draw_generic(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, view: Any) -> None:
    """Any game without its own renderer: its view as a list of facts."""
    inner = panel(surface, rect, ctx.painter, _("Table"))
    if not isinstance(view, dict):
        return
    lh = ctx.painter.line_height(16)
    y = inner.y
    key_w = inner.width // 3
    for key, value in view.items():
        if y + lh > inner.bottom:
            break
        if key in ("current_seats",):
            continue
        ctx.painter.text(surface, _(phase_label(str(key))), pygame.Rect(inner.x, y, key_w - 8, lh), 16, MUTED)
        ctx.painter.text(surface, _short(value), pygame.Rect(inner.x + key_w, y, inner.width - key_w, lh), 16, TEXT,
                         ellipsis=True)
        y += lh


def _short(value: Any) -> str:
    if isinstance(value, list):
        return "  ".join(_short(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_short(v)}" for k, v in value.items())
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


# -- the parts every game scene shares --------------------------------------------------------------

def header_data(model: DisplayModel, renderer: GameRenderer, ctx: Context) -> dict[str, Any]:
    env = model.envelope or {}
    return {
        "title": env.get("title") or model.game,
        "status": renderer.status(model.view, ctx),
        "current": [[s, model.player_name(s), model.player_colour(s)] for s in model.current_seats()],
        "connection": model.connection,
        "mode": env.get("mode"),
    }


@framed(PLAIN_FRAME)
def draw_header(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    draw_frame(surface, rect, p, PLAIN_FRAME)
    inner = rect.inflate(-p.px(16), 0)
    title_w = min(inner.width // 4, p.px(260))
    p.text(surface, _(str(data["title"])), pygame.Rect(inner.x, inner.y, title_w, inner.height), 22, ACCENT, bold=True)
    conn_w = p.px(110) if data["connection"] != "live" else 0
    status = "  ·  ".join(data["status"])
    status_w = min(p.px(420), (inner.width - title_w - conn_w) // 2)
    p.text(surface, status, pygame.Rect(inner.x + title_w, inner.y, status_w, inner.height), 17, TEXT, ellipsis=True)
    x = inner.x + title_w + status_w + p.px(8)
    turn_rect = pygame.Rect(x, inner.y, inner.right - conn_w - x, inner.height)
    if data["current"]:
        label = _("Now:")
        lw = p.font(17 * p.scale, True).size(label)[0] + p.px(8)
        p.text(surface, label, pygame.Rect(turn_rect.x, turn_rect.y, lw, turn_rect.height), 17, MUTED, bold=True)
        cx = turn_rect.x + lw
        for seat, name, colour in data["current"]:
            w = min(p.px(190), turn_rect.right - cx)
            if w < p.px(40):
                break
            r = max(4, p.px(10))
            if isinstance(seat, int):
                seat_marker(surface, (cx + r, turn_rect.centery), r, parse_colour(colour), seat)
                cx += 2 * r + p.px(4)
                w -= 2 * r + p.px(4)
            drawn = p.text(surface, name, pygame.Rect(cx, turn_rect.y, w, turn_rect.height), 18, TEXT, bold=True,
                           ellipsis=True)
            cx = drawn.right + p.px(14)
    if data["connection"] != "live":
        p.text(surface, _(data["connection"]), pygame.Rect(inner.right - conn_w, inner.y, conn_w, inner.height), 15,
               BAD, bold=True, align="right")


def ticker_data(model: DisplayModel) -> list[str]:
    # A language the display could not show (no font for its script) is said on the newest line, in English.
    warning = notice()
    return [*model.ticker(), warning] if warning else model.ticker()


@framed(PANEL_FRAME)
def draw_ticker(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, lines: list[str]) -> None:
    p = ctx.painter
    inner = panel(surface, rect, p)
    if not lines:
        p.text(surface, _("Nothing has happened yet."), inner, 14, MUTED)
        return
    coloured = [(line, MUTED) for line in lines[:-1]] + [(lines[-1], TEXT)]
    p.lines(surface, coloured, inner, 14)


def feedback_data(model: DisplayModel) -> list[list[Any]]:
    return [[f.ok, model.feedback_line(f)] for f in model.live_feedback()]


@framed(PANEL_FRAME)
def draw_feedback(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, items: list[list[Any]]) -> None:
    p = ctx.painter
    inner = panel(surface, rect, p)
    if not items:
        p.text(surface, _("Taps and presses are answered here."), inner, 13, MUTED)
        return
    lh = p.line_height(15, True)
    room = max(1, inner.height // lh)
    for i, (ok, line) in enumerate(items[-room:]):
        y = inner.y + i * lh
        mark = pygame.Rect(inner.x, y + lh // 6, lh * 2 // 3, lh * 2 // 3)
        draw_verdict(surface, mark, bool(ok))
        p.text(surface, line, pygame.Rect(mark.right + p.px(6), y, inner.right - mark.right - p.px(6), lh), 15,
               GOOD if ok else BAD, bold=True, ellipsis=True)


def draw_verdict(surface: pygame.Surface, rect: pygame.Rect, ok: bool) -> None:
    """A tick in a green circle or a cross in a red square: the shape tells, not only the colour."""
    w = max(2, rect.width // 6)
    if ok:
        pygame.draw.circle(surface, GOOD, rect.center, rect.width // 2)
        pts = [(rect.x + rect.width * 0.25, rect.centery),
               (rect.x + rect.width * 0.45, rect.bottom - rect.height * 0.28),
               (rect.right - rect.width * 0.22, rect.y + rect.height * 0.28)]
        pygame.draw.lines(surface, (255, 255, 255), False, pts, w)
    else:
        pygame.draw.rect(surface, BAD, rect, border_radius=2)
        m = rect.inflate(-rect.width // 2, -rect.height // 2)
        pygame.draw.line(surface, (255, 255, 255), m.topleft, m.bottomright, w)
        pygame.draw.line(surface, (255, 255, 255), m.topright, m.bottomleft, w)


def renderer_for(game: str) -> GameRenderer:
    """The renderer of `game`, or the generic one (which draws any view as facts)."""
    from display.render import bohnanza, power_grid, shifting_stones

    table: dict[str, type[GameRenderer]] = {
        "power_grid": power_grid.PowerGridRenderer,
        "bohnanza": bohnanza.BohnanzaRenderer,
        "shifting_stones": shifting_stones.ShiftingStonesRenderer,
    }
    return table.get(game, GameRenderer)()
