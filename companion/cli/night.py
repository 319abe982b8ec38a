"""`companion summary` (a finished game's summary as PNG or HTML) and `companion history` (the finished games)."""

from __future__ import annotations

import argparse
import datetime
import html
import json
import os
from pathlib import Path
from typing import Any

from companion.i18n import cli_text

from .sessions import _store, add_db_argument

WIDTH = 1000
CHART_HEIGHT = 260


def register(sub: Any) -> None:
    p = sub.add_parser("summary", help="a game's summary (scores, tie-break, per-round charts), from its action log")
    p.add_argument("id", type=int, help="the session id (`companion history` lists finished games)")
    p.add_argument("--out", metavar="FILE", help="write it as FILE.png (a chart) or FILE.html; else print JSON")
    add_db_argument(p)
    p.set_defaults(func=cmd_summary)
    p = sub.add_parser("history", help="the finished games: date, game, players, scores and winner")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_db_argument(p)
    p.set_defaults(func=cmd_history)


def cmd_summary(args: argparse.Namespace) -> int:
    from companion.store import Session
    from companion.store.history import summary

    tr = cli_text()
    store = _store(args)
    try:
        try:
            data = summary(Session(store, args.id))
        except KeyError:
            print(tr("there is no game {id}", id=str(args.id)))
            return 1
    finally:
        store.close()
    if not args.out:
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return 0
    out = Path(args.out)
    if out.suffix.lower() == ".png":
        write_png(data, out)
    elif out.suffix.lower() in (".html", ".htm"):
        out.write_text(to_html(data), encoding="utf-8")
    else:
        print(tr("--out ends in .png or .html, not {name}", name=out.name))
        return 2
    print(tr("summary of game {id} written to {file}", id=str(args.id), file=str(out)))
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    from companion.store.history import finished

    store = _store(args)
    try:
        games = finished(store)
    finally:
        store.close()
    tr = cli_text()
    if args.json:
        print(json.dumps(games, indent=1, ensure_ascii=False))
        return 0
    if not games:
        print(tr("No finished games yet."))
        return 0
    for g in games:
        when = datetime.datetime.fromtimestamp(g["date"]).strftime("%Y-%m-%d %H:%M")
        scores = ", ".join(f"{name} {score}" for name, score in zip(g["players"], g["scores"]))
        winner = ", ".join(g["winners"]) or "—"
        print(tr("{id}  {date}  {game}: {scores}; won: {winner}", id=str(g["id"]), date=when, game=tr(g["title"]),
                 scores=scores, winner=winner))
    return 0


def _rgb(colour: str) -> tuple[int, int, int]:
    text = colour.lstrip("#")
    if len(text) != 6:
        return (120, 120, 120)
    return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))


def write_png(data: dict[str, Any], path: Path) -> None:
    """The summary drawn headless with pygame: the ranking, then one line chart per series."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    pygame.font.init()
    series = list(data["series"].items())
    ranking = data["ranking"]
    top = 70 + 34 * len(ranking) + (30 if data.get("tie_break") else 0)
    surface = pygame.Surface((WIDTH, top + (CHART_HEIGHT + 40) * len(series) + 20))
    surface.fill((250, 248, 242))
    big, font, small = (pygame.font.Font(None, size) for size in (44, 30, 22))
    ink = (30, 30, 30)
    surface.blit(big.render(f"{data['title']}: {'final' if data['over'] else 'so far'}", True, ink), (24, 18))
    y = 66
    for row in ranking:
        pygame.draw.circle(surface, _rgb(row["colour"]), (38, y + 11), 10)
        mark = "  (winner)" if row["winner"] else ""
        surface.blit(font.render(f"{row['rank']}. {row['name']}  {row['score']}{mark}", True, ink), (58, y))
        y += 34
    if data.get("tie_break"):
        surface.blit(small.render(data["tie_break"]["text"], True, ink), (24, y + 4))
        y += 30
    colours = [_rgb(p["colour"]) for p in data["players"]]
    for _key, chart in series:
        y += 30
        surface.blit(font.render(chart["title"], True, ink), (24, y - 26))
        _chart(surface, pygame.Rect(70, y, WIDTH - 100, CHART_HEIGHT), chart["values"], colours, small)
        y += CHART_HEIGHT + 10
    pygame.image.save(surface, str(path))


def _chart(surface: Any, box: Any, values: list[list[int]], colours: list[tuple[int, int, int]], font: Any) -> None:
    import pygame

    pygame.draw.rect(surface, (255, 255, 255), box)
    pygame.draw.rect(surface, (180, 180, 180), box, 1)
    rounds = max((len(v) for v in values), default=0)
    high = max((max(v) for v in values if v), default=1) or 1
    low = min(0, min((min(v) for v in values if v), default=0))
    for tick in (low, (low + high) // 2, high):
        ty = box.bottom - (tick - low) / (high - low or 1) * box.height
        surface.blit(font.render(str(tick), True, (90, 90, 90)), (box.left - 50, ty - 8))
    for seat, series in enumerate(values):
        points = [(box.left + (i / max(1, rounds - 1)) * box.width,
                   box.bottom - (v - low) / (high - low or 1) * box.height) for i, v in enumerate(series)]
        if len(points) >= 2:
            pygame.draw.lines(surface, colours[seat % len(colours)], False, points, 3)
        for p in points:
            pygame.draw.circle(surface, colours[seat % len(colours)], (int(p[0]), int(p[1])), 3)
    for i in range(rounds):
        x = box.left + (i / max(1, rounds - 1)) * box.width
        if rounds <= 20 or i % 5 == 0:
            surface.blit(font.render(str(i + 1), True, (90, 90, 90)), (x - 4, box.bottom + 4))


def to_html(data: dict[str, Any]) -> str:
    """The summary as one self-contained HTML page (inline SVG charts, no scripts)."""
    esc = html.escape
    rows = "".join(
        f"<li><span style='color:{esc(r['colour'])}'>●</span> {esc(r['name'])}: <b>{r['score']}</b>"
        f"{' ★' if r['winner'] else ''}</li>" for r in data["ranking"])
    tie = f"<p>{esc(data['tie_break']['text'])}</p>" if data.get("tie_break") else ""
    charts = []
    for chart in data["series"].values():
        values = chart["values"]
        rounds = max((len(v) for v in values), default=0)
        high = max((max(v) for v in values if v), default=1) or 1
        low = min(0, min((min(v) for v in values if v), default=0))
        lines = []
        for seat, series in enumerate(values):
            pts = " ".join(f"{20 + i * 560 / max(1, rounds - 1):.1f},{220 - (v - low) * 200 / (high - low or 1):.1f}"
                           for i, v in enumerate(series))
            colour = esc(data["players"][seat]["colour"])
            lines.append(f"<polyline fill='none' stroke='{colour}' stroke-width='3' points='{pts}'/>")
        charts.append(f"<h2>{esc(chart['title'])}</h2><svg viewBox='0 0 600 240' width='600' height='240' role='img' "
                      f"aria-label='{esc(chart['title'])}'><rect x='20' y='20' width='560' height='200' fill='#fff' "
                      f"stroke='#bbb'/>{''.join(lines)}<text x='0' y='25' font-size='12'>{high}</text>"
                      f"<text x='0' y='220' font-size='12'>{low}</text></svg>")
    state = "final" if data["over"] else "so far"
    return (f"<!doctype html><html lang='en'><meta charset='utf-8'><title>{esc(data['title'])}</title>"
            f"<body style='font-family:sans-serif;background:#faf8f2'><h1>{esc(data['title'])}: {state}</h1>"
            f"<ol>{rows}</ol>{tie}{''.join(charts)}</body></html>\n")
