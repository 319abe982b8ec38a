"""Bench of the languages: catalog lookups, shaped text per script, and a whole table drawn in each language.

Run: .venv/bin/python bench/bench_i18n.py [--frames N]
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from companion.i18n import available, catalog, log_line
from display import i18n as display_i18n
from display.app import Screen
from display.offline import play
from display.render.scripttext import ShapedFont
from display.render.widgets import Painter

LINE = "{player} bought {count} {resource} for {cost} Elektro onto plant {plant}"


def per_call(fn, repeat: int) -> float:
    started = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - started) / repeat * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description="catalog lookups, shaped text and full redraws per language")
    parser.add_argument("--frames", type=int, default=20, help="full redraws of the table per language")
    args = parser.parse_args()
    pygame.font.init()
    model = play("power_grid", 4, 2, 120)
    print(f"{'lang':4} {'gettext µs':>10} {'log line µs':>11} {'size µs (cached)':>16} {'render µs':>9} "
          f"{'full redraw ms':>14}")
    for lang in available():
        cat = catalog(lang)
        args_ = {"player": 0, "count": 2, "resource": "oil", "cost": 7, "plant": 13}
        gettext = per_call(lambda: cat.gettext("Your turn"), 20000)  # noqa: B023
        line = per_call(lambda: log_line(LINE, args_, cat, ["Ada", "Ben"]), 5000)  # noqa: B023
        display_i18n.set_language(lang)
        painter = Painter(1.0)
        text = log_line(LINE, args_, cat, ["Ada", "Ben"])
        font = painter.font(18)
        font.size(text)
        size = per_call(lambda: font.size(text), 5000)  # noqa: B023
        render = per_call(lambda: font.render(text, True, (255, 255, 255)), 300)  # noqa: B023
        surface = pygame.Surface((1280, 720))
        screen = Screen(model, surface)
        screen.render(force=True)
        started = time.perf_counter()
        for _ in range(args.frames):
            screen.render(force=True)
        redraw = (time.perf_counter() - started) / args.frames * 1000
        shaped = "shaped" if isinstance(font, ShapedFont) else "plain"
        print(f"{lang:4} {gettext:10.2f} {line:11.1f} {size:16.2f} {render:9.0f} {redraw:14.1f}   ({shaped})")
    display_i18n.set_language("en")


if __name__ == "__main__":
    main()
