"""The scenes: the lobby (join codes), the game table, the end-of-game summary and the host's choices overlay."""

from __future__ import annotations

from typing import Any

import pygame

from display.i18n import _
from display.keys import HELP
from display.model import action_label
from display.render import (
    Context,
    Panel,
    draw_feedback,
    draw_header,
    draw_ticker,
    feedback_data,
    header_data,
    renderer_for,
    ticker_data,
)
from display.render.layout import grid_cells, split_columns, split_rows
from display.render.summary import summary_panels
from display.render.tabletalk import draw_now, game_areas, jobs_layout, now_data, side_panels
from display.render.widgets import (
    ACCENT,
    BACKGROUND,
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
    parse_colour,
    qr_code,
)
from display.scenes import Scene

Command = tuple[str, Any]


def _tap_point(event: Any, ctx: Context) -> tuple[int, int] | None:
    """Where a mouse click or a finger touched, in screen pixels."""
    if event.type == pygame.MOUSEBUTTONUP and getattr(event, "button", 1) == 1:
        return event.pos
    if event.type == pygame.FINGERUP:
        w, h = ctx.layout.size
        return (round(event.x * w), round(event.y * h))
    return None


def header_buttons(ctx: Context) -> list[tuple[str, pygame.Rect, str]]:
    """Touch buttons at the right of the header, for the host (only when the display has the host's token)."""
    if not ctx.model.host_url:
        return []
    p = ctx.painter
    h = ctx.layout.header
    w = p.px(84)
    out = []
    x = h.right - p.px(6)
    for command, label in (("undo", _("Undo")), ("join", _("Join")), ("choices", _("Act"))):
        x -= w
        out.append((command, pygame.Rect(x, h.y + p.px(5), w - p.px(6), h.height - p.px(10)), label))
    return out


def draw_buttons(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: list[list[Any]]) -> None:
    p = ctx.painter
    for _command, (x, y, w, h), label in data:
        r = pygame.Rect(x, y, w, h)
        pygame.draw.rect(surface, mix(PANEL, TEXT, 0.15), r, border_radius=p.px(6))
        pygame.draw.rect(surface, PANEL_EDGE, r, width=1, border_radius=p.px(6))
        p.text(surface, label, r.inflate(-p.px(6), 0), 15, TEXT, bold=True, align="center")


class LobbyScene(Scene):
    """Before the first move: a QR code per seat to join from a phone, and how to start."""

    name = "lobby"

    def panels(self, ctx: Context) -> list[Panel]:
        lay = ctx.layout
        model = ctx.model
        top = pygame.Rect(lay.header.x, lay.header.y, lay.header.width, lay.header.height)
        body = pygame.Rect(lay.body.x, lay.body.y, lay.body.width, lay.body.height)
        env = model.envelope or {}
        title = {"title": env.get("title") or _("The table companion"), "connection": model.connection,
                 "players": len(model.players())}
        codes = [[c.seat, c.name or model.player_name(c.seat), model.player_colour(c.seat), c.url]
                 for c in model.join_codes]
        seats = [[p.get("seat"), model.player_name(p.get("seat")), p.get("colour")] for p in model.players()]
        return [
            Panel("title", top, title, _draw_lobby_title),
            Panel("codes", body, {"codes": codes, "seats": seats, "host": model.host_url,
                                  "wifi": list(model.wifi() or []) or None}, _draw_codes),
            Panel("ticker", lay.ticker, _lobby_hint(ctx), _draw_hint),
            Panel("feedback", lay.feedback, feedback_data(model), draw_feedback),
        ]

    def handle(self, event: Any, ctx: Context) -> list[Command]:
        if _tap_point(event, ctx) is not None:
            return [("start", None)]
        return []


class JoinOverlay(LobbyScene):
    """The lobby's join codes shown over the game (J, or the Join button)."""

    name = "join"
    overlay = True

    def panels(self, ctx: Context) -> list[Panel]:
        return [p for p in super().panels(ctx) if p.name == "codes"]

    def handle(self, event: Any, ctx: Context) -> list[Command]:
        if _tap_point(event, ctx) is not None:
            return [("close", None)]
        return []


def _lobby_hint(ctx: Context) -> str:
    if ctx.model.envelope is None:
        return _("Waiting for the server…")
    return _("Scan your seat's code with your phone. Tap the screen or press OK to begin.")


@framed(PANEL_FRAME)
def _draw_hint(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, text: str) -> None:
    inner = panel(surface, rect, ctx.painter)
    ctx.painter.text(surface, text, inner, 16, TEXT, ellipsis=True)


@framed(PLAIN_FRAME)
def _draw_lobby_title(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    draw_frame(surface, rect, p, PLAIN_FRAME)
    inner = rect.inflate(-p.px(16), 0)
    left, right = split_columns(inner, [3, 1], p.px(8))
    p.text(surface, _(str(data["title"])), left, 24, ACCENT, bold=True)
    p.text(surface, _(data["connection"]), right, 15, MUTED, align="right")


def _draw_codes(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    pygame.draw.rect(surface, BACKGROUND, rect)
    codes = data["codes"]
    if not codes:
        inner = panel(surface, rect, p, _("Players"))
        lh = p.line_height(20, True)
        for i, (seat, name, colour) in enumerate(data["seats"]):
            row = pygame.Rect(inner.x, inner.y + i * (lh + p.px(6)), min(inner.width, p.px(420)), lh)
            if row.bottom > inner.bottom:
                break
            badge(surface, row, p, f"{(seat or 0) + 1}  {name}", parse_colour(colour), 18)
        note_y = inner.y + len(data["seats"]) * (lh + p.px(6)) + p.px(10)
        if note_y + lh <= inner.bottom:
            p.paragraph(surface, _("Join links need the host token: start the display with --host-token."),
                        pygame.Rect(inner.x, note_y, inner.width, inner.bottom - note_y), 15, MUTED)
        return
    wifi = data.get("wifi")
    cells = grid_cells(rect, len(codes) + (1 if wifi else 0), p.px(10), min_aspect=0.8)
    if wifi:
        # The table's Wi-Fi first: a phone on mobile data cannot reach the companion.
        inner = panel(surface, cells[0], p)
        label_h = p.line_height(18, True) + p.px(6)
        badge(surface, pygame.Rect(inner.x, inner.y, inner.width, label_h), p, _("Wi-Fi: {name}", name=wifi[0]),
              PANEL_EDGE, 18)
        qr_code(surface, pygame.Rect(inner.x, inner.y + label_h + p.px(6), inner.width,
                                     inner.height - label_h - p.px(6)), wifi[1])
        cells = cells[1:]
    for (seat, name, colour, url), cell in zip(codes, cells):
        inner = panel(surface, cell, p)
        label_h = p.line_height(18, True) + p.px(6)
        badge(surface, pygame.Rect(inner.x, inner.y, inner.width, label_h), p, f"{seat + 1}  {name}",
              parse_colour(colour), 18)
        qr_code(surface, pygame.Rect(inner.x, inner.y + label_h + p.px(6), inner.width,
                                     inner.height - label_h - p.px(6)), url)


class GameScene(Scene):
    """The table during play: header, the game's panels, the ticker and the feedback."""

    name = "game"

    def panels(self, ctx: Context) -> list[Panel]:
        lay = ctx.layout
        model = ctx.model
        renderer = renderer_for(model.game)
        buttons = header_buttons(ctx)
        header = lay.header
        if buttons:
            header = pygame.Rect(header.x, header.y, min(b[1].x for b in buttons) - header.x - lay.gap, header.height)
        out = [Panel("header", header, header_data(model, renderer, ctx), draw_header)]
        if buttons:
            area = pygame.Rect(header.right, lay.header.y, lay.header.right - header.right, lay.header.height)
            out.append(Panel("buttons", area, [[c, tuple(r), label] for c, r, label in buttons], draw_buttons))
        now_r, game_r, side_r = game_areas(ctx, lay.body)
        if now_r is not None:
            out.append(Panel("now", now_r, now_data(ctx), draw_now))
        out += renderer.panels(model.view, game_r, ctx)
        if side_r is not None:
            out += side_panels(ctx, side_r)
        out.append(Panel("ticker", lay.ticker, ticker_data(model), draw_ticker))
        out.append(Panel("feedback", lay.feedback, feedback_data(model), draw_feedback))
        return out

    def handle(self, event: Any, ctx: Context) -> list[Command]:
        point = _tap_point(event, ctx)
        if point is None:
            return []
        for command, rect, _label in header_buttons(ctx):
            if rect.collidepoint(point):
                return [(command, None)]
        # A tap on a board job ticks it off; a tap on the page line turns the page.
        for p in self.panels(ctx):
            if p.name != "jobs" or not p.rect.collidepoint(point):
                continue
            lay = jobs_layout(ctx, p.rect, ctx.model.board_jobs(), ctx.model.jobs_page)
            if lay.more and pygame.Rect(lay.more).collidepoint(point):
                return [("jobs_page", lay.pages)]
            for row in lay.rows:
                if not row.done and pygame.Rect(row.rect).collidepoint(point):
                    return [("job_done", row.job)]
        return []


class SummaryScene(Scene):
    """The end of the game: who won, the score breakdown, and the charts by round."""

    name = "summary"

    def panels(self, ctx: Context) -> list[Panel]:
        lay = ctx.layout
        model = ctx.model
        renderer = renderer_for(model.game)
        out = [Panel("header", lay.header, header_data(model, renderer, ctx), draw_header)]
        out += summary_panels(model, lay.body, ctx)
        out.append(Panel("ticker", lay.ticker, ticker_data(model), draw_ticker))
        out.append(Panel("feedback", lay.feedback, feedback_data(model), draw_feedback))
        return out


class ChoicesOverlay(Scene):
    """What one seat may do now, for the host to pick by touch or with the development keys."""

    name = "choices"
    overlay = True
    PAGE = 9  # the 3×3 keypad picks among nine at a time

    def box(self, ctx: Context) -> pygame.Rect:
        body = ctx.layout.body
        return body.inflate(-body.width // 6, -body.height // 10)

    def rows(self, ctx: Context) -> list[tuple[int, pygame.Rect]]:
        """The visible choices (their index) and where each is drawn."""
        choices = ctx.model.choices
        if choices is None:
            return []
        p = ctx.painter
        inner = self.box(ctx).inflate(-p.px(16), -p.px(16))
        title_h = p.line_height(18, True) + p.px(6)
        help_h = p.line_height(13) + p.px(4)
        area = pygame.Rect(inner.x, inner.y + title_h, inner.width, inner.height - title_h - help_h)
        page = choices.index // self.PAGE
        first = page * self.PAGE
        shown = list(range(first, min(len(choices.items), first + self.PAGE)))
        row_h = min(p.px(44), area.height // self.PAGE)
        return [(i, pygame.Rect(area.x, area.y + k * row_h, area.width, row_h - p.px(3))) for k, i in enumerate(shown)]

    def panels(self, ctx: Context) -> list[Panel]:
        choices = ctx.model.choices
        if choices is None:
            return []
        data = {"seat": choices.seat, "who": ctx.model.player_name(choices.seat), "index": choices.index,
                "items": [[i, choices.items[i][0], tuple(r)] for i, r in self.rows(ctx)],
                "count": len(choices.items)}
        return [Panel("box", self.box(ctx), data, _draw_choices)]

    def handle(self, event: Any, ctx: Context) -> list[Command]:
        point = _tap_point(event, ctx)
        if point is None:
            return []
        for i, rect in self.rows(ctx):
            if rect.collidepoint(point):
                return [("pick", i), ("ok", None)]
        if not self.box(ctx).collidepoint(point):
            return [("back", None)]
        return []


def _draw_choices(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    pygame.draw.rect(surface, mix(PANEL, BACKGROUND, 0.3), rect, border_radius=p.px(10))
    pygame.draw.rect(surface, ACCENT, rect, width=max(2, p.px(2)), border_radius=p.px(10))
    inner = rect.inflate(-p.px(16), -p.px(16))
    title_h = p.line_height(18, True) + p.px(6)
    p.text(surface, _("What {who} can do ({count})", who=data["who"], count=data["count"]),
           pygame.Rect(inner.x, inner.y, inner.width, title_h), 18, ACCENT, bold=True)
    pad = "QWEASDZXC"
    for k, (i, label, r) in enumerate(data["items"]):
        row = pygame.Rect(*r)
        selected = i == data["index"]
        pygame.draw.rect(surface, mix(PANEL, TEXT, 0.25 if selected else 0.06), row, border_radius=p.px(6))
        if selected:
            pygame.draw.rect(surface, ACCENT, row, width=max(2, p.px(2)), border_radius=p.px(6))
        key_w = p.px(34)
        p.text(surface, pad[k], pygame.Rect(row.x + p.px(6), row.y, key_w, row.height), 15, MUTED, bold=True)
        p.text(surface, label, pygame.Rect(row.x + key_w, row.y, row.width - key_w - p.px(6), row.height), 16, TEXT,
               ellipsis=True)
    help_h = p.line_height(13)
    hint = "   ".join(f"{k}: {_(v)}" for k, v in HELP[1:5])
    p.text(surface, hint, pygame.Rect(inner.x, inner.bottom - help_h, inner.width, help_h), 13, MUTED, ellipsis=True)


__all__ = ["ChoicesOverlay", "GameScene", "JoinOverlay", "LobbyScene", "SummaryScene", "action_label",
           "split_rows"]
