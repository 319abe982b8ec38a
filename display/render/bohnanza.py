"""The Bohnanza table: every player's fields with what a harvest pays now, the face-up cards, trades and the deck."""

from __future__ import annotations

from typing import Any

import pygame

from companion import pictograms
from display.i18n import N_, _
from display.render import Context, GameRenderer, Panel, phase_label
from display.render.layout import grid_cells, split_columns, split_rows
from display.render.pictograms import draw_pictogram
from display.render.widgets import (
    ACCENT,
    MUTED,
    PANEL,
    PANEL_FRAME,
    PLAIN_FRAME,
    TEXT,
    Colour,
    badge,
    draw_frame,
    framed,
    mix,
    panel,
    readable_on,
    seat_marker,
)

# Card colours after the printed beans; the bean's name is always written on it as well. The display writes the
# short names ("Stink", not "Stink Bean") where room is tight: on cards, fields and in the trades' lists.
BEAN_COLOURS: dict[str, Colour] = dict(pictograms.BEAN_COLOURS)
BEAN_NAMES: dict[str, str] = dict(pictograms.SHORT_LABELS["bean"])
PHASES = {
    "deal": N_("Dealing"), "duel_offer": N_("Offer from the last turn"), "plant": N_("Planting from the hand"),
    "turn_up": N_("Turning up cards"), "trade": N_("Trading"), "duel_plant": N_("Planting turned-up cards"),
    "plant_set_aside": N_("Planting traded cards"), "draw": N_("Drawing"), "over": N_("Game over"),
}


def bean_name(bean: Any) -> str:
    return _(BEAN_NAMES.get(str(bean), str(bean).replace("_", " ").capitalize()))


def bean_colour(bean: Any) -> Colour:
    return BEAN_COLOURS.get(str(bean), (150, 150, 150))


def draw_bean_card(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, bean: Any, size: float = 13) -> None:
    """A small bean card on a panel: its colour, a bean shape and the name (a sprite: drawn once per bean and
    size)."""
    ctx.painter.sprite(surface, rect, ("bohnanza.card", str(bean), size),
                       lambda target, box: _bean_card(target, box, ctx, bean, size), backdrop=PANEL)


def _bean_card(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, bean: Any, size: float) -> None:
    p = ctx.painter
    colour = bean_colour(bean)
    pygame.draw.rect(surface, colour, rect, border_radius=p.px(5))
    pygame.draw.rect(surface, (20, 20, 20), rect, width=1, border_radius=p.px(5))
    name = bean_name(bean)
    # Room for the name as its script draws it (Bengali and Sinhala stand taller than a Latin line).
    name_h = min(rect.height // 2, max(p.line_height(size, True), p.font(size * p.scale, True).size(name)[1]))
    # The shared pictogram on a light disc, so dark beans (cocoa, coffee) still stand out on their own colour.
    art_side = max(4, min(rect.width - 4, rect.height - name_h - 4))
    art = pygame.Rect(0, 0, art_side, art_side)
    art.center = (rect.centerx, rect.y + (rect.height - name_h) // 2)
    if art_side >= 8:
        pygame.draw.circle(surface, mix(colour, (255, 255, 255), 0.7), art.center, art_side // 2)
        draw_pictogram(surface, art.inflate(-art_side // 6, -art_side // 6), "bean", str(bean))
    p.text(surface, name, pygame.Rect(rect.x + 2, rect.bottom - name_h - 2, rect.width - 4, name_h), size,
           readable_on(colour), bold=True, align="center", ellipsis=True)


class BohnanzaRenderer(GameRenderer):
    game = "bohnanza"

    def status(self, view: dict[str, Any], ctx: Context) -> list[str]:
        out = []
        if isinstance(view.get("turn"), int) and view["turn"] > 0:  # the engine counts turns from 1 (0: the deal)
            out.append(_("Turn {n}", n=view["turn"]))
        phase = view.get("phase")
        if isinstance(phase, str):
            out.append(_(PHASES.get(phase, phase_label(phase))))
        if view.get("last_turn"):
            out.append(_("Last turn"))
        return out

    def panels(self, view: dict[str, Any], rect: pygame.Rect, ctx: Context) -> list[Panel]:
        gap = ctx.layout.gap
        players = [p for p in view.get("players") or [] if isinstance(p, dict)]
        left, right = split_columns(rect, [3, 1.05], gap)
        table_r, trades_r = split_rows(right, [1, 1.15], gap)
        out = [
            Panel("table", table_r, _table_data(view), _draw_table),
            Panel("trades", trades_r, {"offers": view.get("offers") or [], "left": view.get("offers_left"),
                                       "duel": view.get("duel")}, _draw_trades),
        ]
        for player, cell in zip(players, grid_cells(left, len(players), gap, min_aspect=1.6)):
            out.append(Panel(f"player{player.get('seat')}", cell,
                             {"p": player, "current": _is_turn(player, view, ctx)}, _draw_player))
        return out


def _is_turn(player: dict[str, Any], view: dict[str, Any], ctx: Context) -> bool:
    """The active player's panel is outlined; while trading everyone may act, so only they are."""
    if "active" in player:
        return bool(player["active"])
    return player.get("seat") in ctx.model.current_seats()


def _table_data(view: dict[str, Any]) -> dict[str, Any]:
    keys = ("deck_size", "discard_size", "discard_top", "out_of_game", "exhaustions", "exhaustions_to_end",
            "face_up", "awaiting_table", "third_field_cost", "mode")
    return {k: view.get(k) for k in keys}


@framed(PANEL_FRAME)
def _draw_table(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    inner = panel(surface, rect, p, _("Deck and face-up cards"))
    lh = p.line_height(16)
    facts = []
    if data.get("deck_size") is not None:
        facts.append((_("Deck"), str(data["deck_size"])))
    if data.get("discard_size") is not None:
        top = data.get("discard_top")
        shown = str(data["discard_size"]) + (f" ({bean_name(top)})" if top else "")
        facts.append((_("Discard"), shown))
    if data.get("exhaustions") is not None:
        end = data.get("exhaustions_to_end")
        facts.append((_("Deck ran out"), f"{data['exhaustions']} / {end}" if end else str(data["exhaustions"])))
    if data.get("out_of_game") is not None:
        facts.append((_("Out of the game"), str(data["out_of_game"])))
    y = inner.y
    for label, value in facts:
        p.text(surface, label, pygame.Rect(inner.x, y, inner.width * 3 // 5, lh), 16, MUTED)
        p.text(surface, value, pygame.Rect(inner.x + inner.width * 3 // 5, y, inner.width * 2 // 5, lh), 16, TEXT,
               bold=True, align="right")
        y += lh
    waiting = data.get("awaiting_table")
    if isinstance(waiting, dict):
        p.text(surface, _("Waiting for the table to reveal {n} card(s)", n=waiting.get("remaining", "?")),
               pygame.Rect(inner.x, y, inner.width, lh), 15, ACCENT, bold=True)
        y += lh
    face_up = [c for c in data.get("face_up") or [] if isinstance(c, dict)]
    area = pygame.Rect(inner.x, y + p.px(4), inner.width, inner.bottom - y - p.px(4))
    if not face_up or area.height < p.px(20):
        return
    card_w = min(p.px(90), (area.width - p.px(6) * (len(face_up) - 1)) // len(face_up))
    card_h = min(area.height, round(card_w * 1.3))
    for i, card in enumerate(face_up):
        draw_bean_card(surface, pygame.Rect(area.x + i * (card_w + p.px(6)), area.y, card_w, card_h), ctx,
                       card.get("bean"))


@framed(PANEL_FRAME)
def _draw_trades(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    left = data.get("left")
    title = _("Open trades") if left is None else _("Open trades ({n} offers left)", n=left)
    inner = panel(surface, rect, p, title)
    offers = [o for o in data.get("offers") or [] if isinstance(o, dict)]
    if data.get("duel"):
        p.text(surface, _("No trading in the duel."), pygame.Rect(inner.x, inner.y, inner.width, p.line_height(14)),
               14, MUTED)
        return
    if not offers:
        p.text(surface, _("No open offers."), pygame.Rect(inner.x, inner.y, inner.width, p.line_height(14)), 14, MUTED)
        return
    lh = p.line_height(14)
    y = inner.y
    for o in offers:
        if y + 2 * lh > inner.bottom:
            more = len(offers) - offers.index(o)
            p.text(surface, _("and {n} more", n=more), pygame.Rect(inner.x, y, inner.width, lh), 14, MUTED)
            break
        who = _("{a} → {b}", a=ctx.name(o.get("from")), b=ctx.name(o.get("to")))
        r = max(3, p.px(6))
        if isinstance(o.get("from"), int):
            seat_marker(surface, (inner.x + r, y + lh // 2), r, ctx.colour(o.get("from")), o["from"])
        p.text(surface, who, pygame.Rect(inner.x + 2 * r + p.px(4), y, inner.width - 2 * r - p.px(4), lh), 14, TEXT,
               bold=True, ellipsis=True)
        gives = ", ".join(bean_name(b) for b in (o.get("give") or [])) or _("nothing")
        wants = ", ".join(bean_name(b) for b in (o.get("want") or [])) or _("nothing")
        line = _("gives {gives}", gives=gives) if o.get("gift") else _("gives {gives}; wants {wants}", gives=gives,
                                                                         wants=wants)
        p.text(surface, line, pygame.Rect(inner.x + p.px(10), y + lh, inner.width - p.px(10), lh), 14, MUTED,
               ellipsis=True)
        y += 2 * lh + p.px(3)


@framed(PLAIN_FRAME)
def _draw_player(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    p = ctx.painter
    player = data["p"]
    seat = player.get("seat")
    colour = ctx.colour(seat)
    edge = ACCENT if data["current"] else None
    draw_frame(surface, rect, p, PLAIN_FRAME)
    if edge:
        pygame.draw.rect(surface, edge, rect, width=max(2, p.px(3)), border_radius=p.px(8))
    inner = rect.inflate(-p.px(12), -p.px(12))
    head_h = p.line_height(17, True) + p.px(4)
    name = f"{(seat if isinstance(seat, int) else 0) + 1}  {ctx.name(seat)}"
    name_w = inner.width * 11 // 20
    badge(surface, pygame.Rect(inner.x, inner.y, name_w, head_h), p, name, colour, 16, outline=edge)
    facts = _("{count} coin · {hand} in hand", count=player.get("coins", 0), hand=player.get("hand_size", 0))
    p.text(surface, facts, pygame.Rect(inner.x + name_w + p.px(6), inner.y, inner.width - name_w - p.px(6), head_h),
           15, TEXT, bold=True, align="right")
    fields = [f for f in player.get("fields") or [] if isinstance(f, dict)]
    aside = [c for c in player.get("set_aside") or [] if isinstance(c, dict)]
    aside_h = p.line_height(13) + p.px(4) if aside else 0
    area = pygame.Rect(inner.x, inner.y + head_h + p.px(6), inner.width,
                       inner.height - head_h - p.px(6) - aside_h)
    if fields and area.height > p.px(20):
        for f, cell in zip(fields, split_columns(area, [1] * len(fields), p.px(6))):
            _draw_field(surface, cell, ctx, f)
    if aside:
        text = _("To plant: {beans}", beans=", ".join(bean_name(c.get("bean")) for c in aside))
        p.text(surface, text, pygame.Rect(inner.x, inner.bottom - aside_h, inner.width, aside_h), 13, ACCENT,
               bold=True, ellipsis=True)


def _draw_field(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, field: dict[str, Any]) -> None:
    """A field: its bean, count, what it pays now and the next step (a sprite, as a field looks the same each
    time it holds the same)."""
    nxt = field.get("next")
    key = ("bohnanza.field", str(field.get("bean") or ""), field.get("count", 0), field.get("pays_now", 0),
           (nxt.get("beans"), nxt.get("coins")) if isinstance(nxt, dict) else None)
    ctx.painter.sprite(surface, rect, key, lambda target, box: _field(target, box, ctx, field), backdrop=PANEL)


def _field(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, field: dict[str, Any]) -> None:
    p = ctx.painter
    bean = field.get("bean")
    if not bean:
        pygame.draw.rect(surface, mix(PANEL, (0, 0, 0), 0.25), rect, border_radius=p.px(6))
        pygame.draw.rect(surface, MUTED, rect, width=1, border_radius=p.px(6))
        p.text(surface, _("empty field"), rect, 13, MUTED, align="center")
        return
    colour = bean_colour(bean)
    ink = readable_on(colour)
    pygame.draw.rect(surface, colour, rect, border_radius=p.px(6))
    pygame.draw.rect(surface, (20, 20, 20), rect, width=1, border_radius=p.px(6))
    inner = rect.inflate(-p.px(6), -p.px(4))
    rows = split_rows(inner, [1, 1.6, 1, 1], 0)
    p.text(surface, bean_name(bean), rows[0], 14, ink, bold=True, align="center")
    p.text(surface, str(field.get("count", 0)), rows[1], 30, ink, bold=True, align="center")
    p.text(surface, _("pays {n} now", n=field.get("pays_now", 0)), rows[2], 13, ink, align="center")
    nxt = field.get("next")
    if isinstance(nxt, dict):
        p.text(surface, _("{beans} beans: {coins}", beans=nxt.get("beans"), coins=nxt.get("coins")), rows[3], 13, ink,
               align="center")
