"""What the table is told beside the game: the sentence of who acts now, the board jobs checklist, the join codes."""

from __future__ import annotations

import dataclasses
from typing import Any

import pygame

from display.i18n import _
from display.render import Context, Panel
from display.render.layout import grid_cells, split_columns
from display.render.widgets import (
    ACCENT,
    GOOD,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PANEL_FRAME,
    TEXT,
    Frame,
    Painter,
    badge,
    draw_frame,
    framed,
    mix,
    panel,
    parse_colour,
    qr_code,
    seat_marker,
)

NOW_SIZE = 19
NOW_SMALL = 15
JOB_SIZE = 15


# -- the sentence ------------------------------------------------------------------------------------------
def now_lines(p: Painter, text: str, width: int) -> tuple[list[str], float]:
    """The sentence in one line at the large size, or wrapped at the small one (never cut)."""
    lines = p.wrap(text, width, NOW_SIZE, True)
    if len(lines) <= 1:
        return lines, NOW_SIZE
    return p.wrap(text, width, NOW_SMALL, True), NOW_SMALL


def now_height(ctx: Context, text: str, width: int) -> int:
    p = ctx.painter
    lines, size = now_lines(p, text, width - 2 * p.px(10) - p.px(30))
    return max(1, len(lines)) * p.line_height(size, True) + 2 * p.px(6)


def now_data(ctx: Context) -> dict[str, Any]:
    model = ctx.model
    acting = [[s, model.player_colour(s)] for s in model.acting_seats() if isinstance(s, int)]
    return {"text": model.now_text(), "acting": acting}


NOW_FRAME = Frame(mix(PANEL, ACCENT, 0.18), ACCENT, 8, 2, scaled=True)


@framed(NOW_FRAME)
def draw_now(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    draw_frame(surface, rect, p, NOW_FRAME)
    inner = rect.inflate(-2 * p.px(10), -2 * p.px(6))
    marker_w = p.px(30)
    if data["acting"]:
        seat, colour = data["acting"][0]
        r = max(5, p.px(11))
        seat_marker(surface, (inner.x + r, inner.centery), r, parse_colour(colour), seat)
    text_r = pygame.Rect(inner.x + marker_w, inner.y, inner.width - marker_w, inner.height)
    lines, size = now_lines(p, data["text"], text_r.width)
    lh = p.line_height(size, True)
    for i, line in enumerate(lines):
        p.text(surface, line, pygame.Rect(text_r.x, text_r.y + i * lh, text_r.width, lh), size, TEXT, bold=True)


# -- the checklist ---------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class JobRow:
    """One job as laid out: its id, where it is (also where a tap marks it done) and its wrapped lines."""

    job: Any
    rect: tuple[int, int, int, int]
    lines: tuple[str, ...]
    done: bool


@dataclasses.dataclass(frozen=True)
class JobsLayout:
    rows: tuple[JobRow, ...]
    page: int
    pages: int
    open: int
    more: tuple[int, int, int, int] | None  # the "next page" button


def jobs_layout(ctx: Context, rect: pygame.Rect, jobs: list[dict[str, Any]], page: int) -> JobsLayout:
    """Open jobs first, then the ticked ones; as many whole jobs per page as fit (a long one wraps, never cut)."""
    p = ctx.painter
    pad = p.px(8)
    title_h = p.line_height(15, True) + p.px(2)
    inner = rect.inflate(-2 * pad, -2 * pad)
    inner = pygame.Rect(inner.x, inner.y + title_h, inner.width, inner.height - title_h)
    box = p.line_height(JOB_SIZE)
    text_w = inner.width - box - p.px(8)
    lh = p.line_height(JOB_SIZE)
    ordered = [j for j in jobs if not j["done"]] + [j for j in jobs if j["done"]]
    pages: list[list[tuple[dict[str, Any], list[str], int]]] = [[]]
    foot_h = p.line_height(13, True) + p.px(6)
    used = 0
    for job in ordered:
        lines = p.wrap(job["text"], max(10, text_w), JOB_SIZE) or [""]
        h = len(lines) * lh + p.px(6)
        # Room for the "more" line at the bottom is kept on every page but the last.
        if pages[-1] and used + h > inner.height - foot_h:
            pages.append([])
            used = 0
        pages[-1].append((job, lines, h))
        used += h
    count = len(pages)
    page = page % count
    rows = []
    y = inner.y
    for job, lines, h in pages[page]:
        rows.append(JobRow(job["id"], (inner.x, y, inner.width, h - p.px(2)), tuple(lines), job["done"]))
        y += h
    more = None
    if count > 1:
        more = (inner.x, inner.bottom - foot_h + p.px(4), inner.width, foot_h - p.px(4))
    return JobsLayout(tuple(rows), page, count, sum(1 for j in jobs if not j["done"]), more)


def jobs_data(ctx: Context, rect: pygame.Rect) -> dict[str, Any]:
    lay = jobs_layout(ctx, rect, ctx.model.board_jobs(), ctx.model.jobs_page)
    return {"rows": [[r.job, list(r.rect), list(r.lines), r.done] for r in lay.rows], "page": lay.page,
            "pages": lay.pages, "open": lay.open, "more": list(lay.more) if lay.more else None}


@framed(PANEL_FRAME)
def draw_jobs(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    title = _("On the board: {count} left", count=data["open"]) if data["open"] else _("On the board")
    inner = panel(surface, rect, p, title)
    if not data["rows"]:
        p.text(surface, _("Nothing to do on the board."), pygame.Rect(inner.x, inner.y, inner.width,
                                                                       p.line_height(14)), 14, MUTED)
        return
    lh = p.line_height(JOB_SIZE)
    box_w = lh
    for _job, (x, y, w, h), lines, done in data["rows"]:
        row = pygame.Rect(x, y, w, h)
        if not done:
            pygame.draw.rect(surface, mix(PANEL, TEXT, 0.05), row, border_radius=p.px(4))
        box = pygame.Rect(x + p.px(2), y + p.px(3), box_w - p.px(4), box_w - p.px(4))
        pygame.draw.rect(surface, GOOD if done else TEXT, box, width=max(1, p.px(2)), border_radius=p.px(3))
        if done:
            w3 = max(2, box.width // 6)
            pygame.draw.lines(surface, GOOD, False, [(box.x + box.width * 0.2, box.centery),
                                                     (box.x + box.width * 0.42, box.bottom - box.height * 0.22),
                                                     (box.right - box.width * 0.15, box.y + box.height * 0.2)], w3)
        colour = MUTED if done else TEXT
        for i, line in enumerate(lines):
            line_r = pygame.Rect(x + box_w + p.px(6), y + p.px(3) + i * lh, w - box_w - p.px(8), lh)
            drawn = p.text(surface, line, line_r, JOB_SIZE, colour)
            if done:
                pygame.draw.line(surface, MUTED, (drawn.x, drawn.centery), (drawn.right, drawn.centery), 1)
    if data["more"]:
        more = pygame.Rect(*data["more"])
        pygame.draw.rect(surface, mix(PANEL, ACCENT, 0.25), more, border_radius=p.px(4))
        text = _("Page {page} of {pages}: tap for more", page=data["page"] + 1, pages=data["pages"])
        p.text(surface, text, more.inflate(-p.px(6), 0), 13, TEXT, bold=True, align="center")


# -- the join codes of seats without a phone ------------------------------------------------------------------------
def join_data(ctx: Context) -> dict[str, Any]:
    model = ctx.model
    codes = [[c.seat, c.name or model.player_name(c.seat), model.player_colour(c.seat), c.url]
             for c in model.missing_phones()]
    wifi = model.wifi()
    return {"codes": codes, "wifi": list(wifi) if wifi else None}


@framed(PANEL_FRAME)
def draw_join_strip(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    inner = panel(surface, rect, p, _("No phone yet? Scan your code"))
    cells: list[tuple[str, tuple[int, int, int], str]] = []
    if data["wifi"]:
        ssid, payload = data["wifi"]
        cells.append((_("Wi-Fi: {name}", name=ssid), PANEL_EDGE, payload))
    for seat, name, colour, url in data["codes"]:
        cells.append((f"{seat + 1}  {name}", parse_colour(colour), url))
    for (label, colour, payload), cell in zip(cells, grid_cells(inner, len(cells), p.px(6), min_aspect=0.8)):
        label_h = p.line_height(13, True) + p.px(4)
        badge(surface, pygame.Rect(cell.x, cell.y, cell.width, label_h), p, label, colour, 13)
        qr_code(surface, pygame.Rect(cell.x, cell.y + label_h + p.px(3), cell.width,
                                     cell.height - label_h - p.px(3)), payload)


def side_panels(ctx: Context, rect: pygame.Rect) -> list[Panel]:
    """The side column: the checklist, and below it the codes of seats without a phone (when there are any)."""
    model = ctx.model
    join = join_data(ctx)
    has_join = bool(join["codes"])
    gap = ctx.layout.gap
    if not has_join:
        return [Panel("jobs", rect, jobs_data(ctx, rect), draw_jobs)]
    if not model.board_jobs():
        return [Panel("joinstrip", rect, join, draw_join_strip)]
    share = 0.5 if len(join["codes"]) + (1 if join["wifi"] else 0) > 1 else 0.42
    jobs_h = round((rect.height - gap) * (1 - share))
    jobs_r = pygame.Rect(rect.x, rect.y, rect.width, jobs_h)
    join_r = pygame.Rect(rect.x, jobs_r.bottom + gap, rect.width, rect.height - jobs_h - gap)
    return [Panel("jobs", jobs_r, jobs_data(ctx, jobs_r), draw_jobs),
            Panel("joinstrip", join_r, join, draw_join_strip)]


def needs_side(ctx: Context) -> bool:
    model = ctx.model
    return bool(model.board_jobs()) or bool(model.missing_phones())


def game_areas(ctx: Context, body: pygame.Rect) -> tuple[pygame.Rect | None, pygame.Rect, pygame.Rect | None]:
    """The body cut into the sentence strip (top), the game, and the side column (right) when needed."""
    gap = ctx.layout.gap
    text = ctx.model.now_text()
    now_r = None
    if text:
        h = now_height(ctx, text, body.width)
        now_r = pygame.Rect(body.x, body.y, body.width, h)
        body = pygame.Rect(body.x, now_r.bottom + gap, body.width, body.bottom - now_r.bottom - gap)
    if not needs_side(ctx):
        return now_r, body, None
    game_r, side_r = split_columns(body, [3.1, 1] if not ctx.layout.compact else [2.2, 1], gap)
    return now_r, game_r, side_r
