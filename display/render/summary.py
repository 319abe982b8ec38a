"""The end-of-game summary: the winners, the score breakdown as stacked bars, and each series by round."""

from __future__ import annotations

from typing import Any

import pygame

from display.i18n import N_, _
from display.model import DisplayModel
from display.render import Context, Panel
from display.render.layout import split_columns, split_rows
from display.render.widgets import (
    ACCENT,
    MUTED,
    PANEL_FRAME,
    TEXT,
    bar_chart,
    framed,
    line_chart,
    panel,
    parse_colour,
)

# Segment colours of the score breakdown: a colour-blind-safe qualitative palette (Okabe–Ito).
PARTS_PALETTE = ((230, 159, 0), (86, 180, 233), (0, 158, 115), (240, 228, 66), (0, 114, 178), (213, 94, 0),
                 (204, 121, 167))

# Series drawn by round when the game reports them (Power Grid).
SERIES = (("money", N_("Money by round")), ("cities", N_("Cities by round")))
# Parts of a score a game may list per seat (Shifting Stones: card points plus the one-point bonus).
STACKED = (("points", "bonus"), (N_("Cards"), N_("Bonus")))
# What a game's score counts, for the chart's title.
SCORE_TITLES = {"power_grid": N_("Cities powered"), "bohnanza": N_("Coins"), "shifting_stones": N_("Points")}
# Per-seat figures a game may give beside the score (tie-breaks), with how to show them.
NOTES = (("money", N_("{n} Elektro")), ("cities", N_("{n} cities")), ("hand_sizes", N_("{n} in hand")),
         ("one_point_cards", N_("{n} one-point cards")))


def scores_of(model: DisplayModel) -> dict[str, Any]:
    env = model.envelope or {}
    scores = env.get("scores")
    if isinstance(scores, dict):
        return scores
    given = model.view.get("scores")
    return given if isinstance(given, dict) else {}


def breakdown(model: DisplayModel) -> tuple[list[str], list[list[float]], list[str]]:
    """Per seat: the parts of the score (a game's "breakdown"), or just the total; with the part names."""
    scores = scores_of(model)
    seats = len(model.players())
    parts_by_seat = scores.get("breakdown")
    totals = scores.get("scores") if isinstance(scores.get("scores"), list) else None
    if totals is None:
        points = model.view.get("scores")
        totals = points if isinstance(points, list) else None
    labels = [model.player_name(s) for s in range(seats)]
    if isinstance(parts_by_seat, list) and parts_by_seat and all(isinstance(b, dict) for b in parts_by_seat):
        names: list[str] = []
        for b in parts_by_seat:
            for k, v in b.items():
                if isinstance(v, int | float) and not isinstance(v, bool) and k not in names:
                    names.append(k)
        stacks = [[float(b.get(k) or 0) for k in names] for b in parts_by_seat]
        return labels[: len(stacks)], stacks, [_(n.replace("_", " ").capitalize()) for n in names]
    for keys, stacked_names in (STACKED,):
        columns = [scores.get(k) for k in keys]
        if all(isinstance(c, list) and len(c) == len(totals or c) for c in columns):
            stacks = [[float(c[s] or 0) for c in columns] for s in range(len(columns[0]))]  # type: ignore[index]
            return labels[: len(stacks)], stacks, [_(n) for n in stacked_names]
    if isinstance(totals, list):
        stacks = [[float(t)] for t in totals if isinstance(t, int | float)]
        return labels[: len(stacks)], stacks, [_("Score")]
    return [], [], []


def winners_text(model: DisplayModel) -> str:
    scores = scores_of(model)
    result = scores.get("result")
    if result in ("won", "lost") and len(model.players()) == 1:
        name = model.player_name(0)
        if result == "won":
            return _("{name} scored every card!", name=name)
        return _("{name} lost: {n} strikes", name=name, n=scores.get("strikes", "?"))
    winners = scores.get("winners")
    if not isinstance(winners, list) or not winners:
        return _("The game is over.")
    names = [model.player_name(w) for w in winners]
    if len(names) == 1:
        return _("{name} wins!", name=names[0])
    return _("Shared win: {names}", names=", ".join(names))


SERIES_TITLES = {"money": N_("Money by round"), "cities": N_("Cities by round"),
                 "powered": N_("Cities powered by round"), "coins": N_("Coins by round"),
                 "points": N_("Points by round"), "score": N_("Score by round")}


def server_series(model: DisplayModel) -> list[tuple[str, str, list[int], list[list[float]]]]:
    """The series of the server's summary (built from the log): per seat, one value per round."""
    summary = model.summary or {}
    given = summary.get("series")
    out: list[tuple[str, str, list[int], list[list[float]]]] = []
    if not isinstance(given, dict):
        return out
    seats = len(model.players())
    for key, data in given.items():
        title: str = SERIES_TITLES.get(key) or key.replace("_", " ").capitalize()
        if isinstance(data, dict):
            given_title = data.get("title")
            if isinstance(given_title, str):
                title = given_title
            data = data.get("values")
        if not isinstance(data, list) or not data or not all(isinstance(row, list) for row in data):
            continue
        per_seat = data if len(data) == seats else [list(col) for col in zip(*data, strict=False)]
        values = [[float(v) for v in row if isinstance(v, int | float)] for row in per_seat]
        rounds = list(range(1, max((len(v) for v in values), default=0) + 1))
        if len(rounds) >= 2:
            out.append((key, _(title), rounds, values))
    return out


def ranking_rows(model: DisplayModel) -> tuple[list[str], list[list[float]], list[str], list[int]]:
    """Scores best first from the server's summary: labels, bars, the tie-break words and the seats."""
    summary = model.summary or {}
    ranking = summary.get("ranking")
    if not isinstance(ranking, list):
        return [], [], [], []
    labels, stacks, notes_, seats = [], [], [], []
    for row in ranking:
        if not isinstance(row, dict) or not isinstance(row.get("seat"), int):
            continue
        seat = row["seat"]
        seats.append(seat)
        labels.append(f"{seat + 1}  {model.player_name(seat)}")
        score = row.get("score")
        stacks.append([float(score) if isinstance(score, int | float) else 0.0])
        tie = row.get("tie_break")
        if isinstance(tie, dict):
            notes_.append(model.log_line({"template": tie.get("template"), "args": tie.get("params"),
                                          "text": tie.get("text")}))
        else:
            notes_.append(_(tie) if isinstance(tie, str) and tie else "")
    return labels, stacks, notes_, seats


def _summary_areas(rect: pygame.Rect, ctx: Context, with_series: bool,
                   series_weight: float) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect | None]:
    """The winners' banner and the score chart on the left; the right column for the series, if there are any."""
    gap = ctx.layout.gap
    left, right = split_columns(rect, [1, series_weight], gap) if with_series else (rect, None)
    banner_h = ctx.painter.line_height(28, True) + ctx.painter.px(20)
    banner = pygame.Rect(left.x, left.y, left.width, banner_h)
    chart = pygame.Rect(left.x, banner.bottom + gap, left.width, left.bottom - banner.bottom - gap)
    return banner, chart, right


def _series_panels(right: pygame.Rect | None, series: list[Any], colours: list[Any], gap: int) -> list[Panel]:
    """One line chart per series (key, title already translated, rounds, values), stacked in the right column."""
    if right is None:
        return []
    rows = split_rows(right, [1] * len(series), gap)
    return [Panel(f"series_{key}", r, {"title": title, "rounds": rounds, "values": values, "colours": colours},
                  _draw_series) for (key, title, rounds, values), r in zip(series, rows)]


def summary_panels(model: DisplayModel, rect: pygame.Rect, ctx: Context) -> list[Panel]:
    if model.summary and isinstance(model.summary.get("ranking"), list):
        return _server_summary_panels(model, rect, ctx)
    gap = ctx.layout.gap
    series = []
    for key, title in SERIES:
        rounds, values = model.history_series(key)
        if len(rounds) >= 2 and values:
            series.append((key, title, rounds, values))
    banner, chart, right = _summary_areas(rect, ctx, bool(series), 1)
    labels, stacks, parts = breakdown(model)
    colours = [parse_colour(model.player_colour(s)) for s in range(len(model.players()))]
    out = [
        Panel("winners", banner, {"text": winners_text(model), "reason": scores_of(model).get("reason")},
              _draw_banner),
        Panel("scores", chart, {"labels": labels, "stacks": stacks, "parts": parts, "notes": notes(model),
                                "title": _(SCORE_TITLES.get(model.game, "Score"))}, _draw_scores),
    ]
    return out + _series_panels(right, [(key, _(title), rounds, values) for key, title, rounds, values in series],
                                colours, gap)


def notes(model: DisplayModel) -> list[str]:
    """Each seat's tie-break figures (money and cities in Power Grid, cards in hand in Bohnanza)."""
    scores = scores_of(model)
    seats = len(model.players())
    out = []
    for seat in range(seats):
        parts = []
        for key, template in NOTES:
            values = scores.get(key)
            if isinstance(values, list) and len(values) == seats and isinstance(values[seat], int | float):
                parts.append(_(template, n=values[seat]))
        out.append(" · ".join(parts))
    return out


@framed(PANEL_FRAME)
def _draw_banner(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    inner = panel(surface, rect, ctx.painter)
    ctx.painter.text(surface, data["text"], inner, 28, ACCENT, bold=True, align="center")


@framed(PANEL_FRAME)
def _draw_scores(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    inner = panel(surface, rect, ctx.painter, data.get("title") or _("Score"))
    if not data["labels"]:
        ctx.painter.text(surface, _("No scores to show."), inner, 16, MUTED)
        return
    bar_chart(surface, inner, ctx.painter, data["labels"], data["stacks"], data["parts"], PARTS_PALETTE,
              data.get("notes") or ())


@framed(PANEL_FRAME)  # line_chart's panel
def _draw_series(surface: pygame.Surface, rect: pygame.Rect, ctx: Context, data: dict[str, Any]) -> None:
    colours = [tuple(c) for c in data["colours"]] or [TEXT]
    line_chart(surface, rect, ctx.painter, data["title"], data["rounds"], data["values"], colours)  # type: ignore[arg-type]


def _server_summary_panels(model: DisplayModel, rect: pygame.Rect, ctx: Context) -> list[Panel]:
    """The summary the server built from the log: the ranking with tie-breaks and every series by round."""
    gap = ctx.layout.gap
    series = server_series(model)[:3]
    banner, chart, right = _summary_areas(rect, ctx, bool(series), 1.1)
    labels, stacks, tie_notes, seats = ranking_rows(model)
    colours = [parse_colour(model.player_colour(s)) for s in range(len(model.players()))]
    out = [
        Panel("winners", banner, {"text": winners_text(model), "reason": None}, _draw_banner),
        Panel("scores", chart, {"labels": labels, "stacks": stacks, "parts": [_("Score")], "notes": tie_notes,
                                "title": _(SCORE_TITLES.get(model.game, "Score")),
                                "colours": [list(colours[s]) for s in seats if s < len(colours)]}, _draw_scores),
    ]
    return out + _series_panels(right, series, colours, gap)
