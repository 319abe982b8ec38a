"""Bench of the table display: full-frame render time per size and language, partial redraws, CPU while idle, memory.

A full frame repaints every panel (as after a change that touches all of them); the caches that outlive a frame
(rendered texts, the static layers: the panels' frames, the Power Grid map and income table; the sprites: cards,
fields, stones) are warm, as they are at the table after the first frame. "first" is a new screen's first frame,
every cache cold. A partial redraw is what the display does after a change: "one panel" changes one player's
figure (one panel drawn), "move" steps through real consecutive moves (the panels each changed), "toast" adds a
feedback line.

Run: .venv/bin/python bench/bench_display.py [--frames N] [--idle SECONDS] [--json FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import os
import resource
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import figures
import pygame

from companion.core.registry import all_games
from display.app import DisplayApp, Screen
from display.model import DisplayModel
from display.offline import play
from display.render.layout import SIZES
from display.scenes import SceneStack

# Representative tables: mid-game with the most players each game allows on screen at once.
TABLES = (("power_grid", 6, 3, 300), ("bohnanza", 7, 2, 120), ("shifting_stones", 5, 6, 60))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def bench_frames(model: DisplayModel, size: tuple[int, int], frames: int) -> tuple[float, float, float]:
    surface = pygame.Surface(size)
    screen = Screen(model, surface)
    screen.render(force=True)
    full = []
    for _ in range(frames):
        started = time.perf_counter()
        screen.render(force=True)
        full.append((time.perf_counter() - started) * 1000)
    toast = []
    for i in range(frames):
        model.add_feedback(i % 2 == 0, "it is not your turn", 0, "phone")
        started = time.perf_counter()
        screen.render()
        toast.append((time.perf_counter() - started) * 1000)
    return statistics.median(full), percentile(full, 0.95), statistics.median(toast)


class Recorder(DisplayModel):
    """A model that keeps every public envelope it was given (the table move by move)."""

    def __init__(self) -> None:
        super().__init__()
        self.envelopes: list[dict] = []

    def set_envelope(self, envelope: dict) -> set[str]:
        self.envelopes.append(copy.deepcopy(envelope))
        return super().set_envelope(envelope)


# The figure in one player's panel that "one panel" changes, by game.
ONE_PANEL = {"power_grid": "money", "bohnanza": "coins", "shifting_stones": "score"}


def bench_partial(game: str, players: int, seed: int, steps: int, frames: int) -> dict[str, float]:
    """Redraws at 1080p after one panel's change and after each of a run of real moves (ms, and panels drawn)."""
    model = Recorder()
    play(game, players, seed, steps + 12, model=model)
    moves = model.envelopes[-13:]
    surface = pygame.Surface((1920, 1080))
    screen = Screen(model, surface)
    stack: SceneStack = screen.stack
    base = moves[-1]
    changed = copy.deepcopy(base)
    changed["view"]["players"][1][ONE_PANEL[game]] = 987
    model.set_envelope(base)
    screen.render(force=True)
    panels = len(stack.last_drawn)
    one, one_cpu, one_drawn = [], [], 0
    for i in range(frames):
        model.set_envelope(changed if i % 2 == 0 else base)
        started, cpu_started = time.perf_counter(), time.thread_time()
        screen.render()
        one.append((time.perf_counter() - started) * 1000)
        one_cpu.append((time.thread_time() - cpu_started) * 1000)
        one_drawn = max(one_drawn, len(stack.last_drawn))
    move: list[float] = []
    move_cpu: list[float] = []
    drawn: list[int] = []
    for i in range(frames):
        envelope = moves[i % len(moves)]
        model.set_envelope(envelope)
        started, cpu_started = time.perf_counter(), time.thread_time()
        screen.render()
        move.append((time.perf_counter() - started) * 1000)
        move_cpu.append((time.thread_time() - cpu_started) * 1000)
        drawn.append(len(stack.last_drawn))
    return {"one_p50": statistics.median(one), "one_p95": percentile(one, 0.95), "one_drawn": one_drawn,
            "one_cpu_p95": percentile(one_cpu, 0.95), "move_p50": statistics.median(move),
            "move_p95": percentile(move, 0.95), "move_cpu_p95": percentile(move_cpu, 0.95),
            "move_drawn": statistics.mean(drawn), "panels": panels}


def bench_languages(frames: int) -> dict[str, float]:
    """Full frames at 1080p in every language with a catalog, each game: the p95 (ms) per language, worst game."""
    from companion.i18n import available
    from display.i18n import set_language

    print(f"full frames at 1920x1080 by language (p95 ms, wall / this thread's CPU; {frames} frames each)")
    print(f"{'lang':<6}" + "".join(f"{game:>24}" for game, *_ in TABLES) + f"{'first frame':>14}")
    out: dict[str, float] = {}
    for lang in available():
        set_language(lang, False)
        row, worst, worst_cpu, first = [], 0.0, 0.0, 0.0
        for game, players, seed, steps in TABLES:
            if game not in all_games():
                continue
            model = play(game, players, seed, steps)
            surface = pygame.Surface((1920, 1080))
            started = time.perf_counter()
            screen = Screen(model, surface)
            screen.render(force=True)
            first = max(first, (time.perf_counter() - started) * 1000)
            wall, cpu = [], []
            for _ in range(frames):
                started, cpu_started = time.perf_counter(), time.thread_time()
                screen.render(force=True)
                wall.append((time.perf_counter() - started) * 1000)
                cpu.append((time.thread_time() - cpu_started) * 1000)
            row.append(f"{percentile(wall, 0.95):>11.1f} / {percentile(cpu, 0.95):>8.1f}")
            worst, worst_cpu = max(worst, percentile(wall, 0.95)), max(worst_cpu, percentile(cpu, 0.95))
        print(f"{lang:<6}" + "".join(f"{cell:>24}" for cell in row) + f"{first:>14.1f}")
        out[f"display.full_p95_ms_{lang}"] = worst
        out[f"display.full_p95_cpu_ms_{lang}"] = worst_cpu
        out[f"display.first_frame_ms_{lang}"] = first
    set_language("en", False)
    return out


def bench_idle(seconds: float) -> tuple[float, int, float]:
    """CPU share of one core used by the real loop with nothing happening, how many frames it drew, and how often
    per second it asked SDL for input."""
    model = play("tiny", 3, 1, 4) if "tiny" in all_games() else DisplayModel()
    app = DisplayApp(model, (1280, 720))
    app.screen.render(force=True)
    app.frames = 0
    app.polls = 0
    cpu0, wall0 = time.process_time(), time.monotonic()
    while time.monotonic() - wall0 < seconds:
        app.step(timeout_ms=int(seconds * 1000))
    cpu = time.process_time() - cpu0
    wall = time.monotonic() - wall0
    pygame.display.quit()
    return 100 * cpu / wall, app.frames, app.polls / wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--idle", type=float, default=3.0)
    parser.add_argument("--json", metavar="FILE", help="add the figures under stable keys to this JSON file")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    with contextlib.suppress(ImportError):
        import tiny_game  # noqa: F401  (registers the tiny game for the idle bench)
    pygame.font.init()
    print(f"table display bench: {args.frames} frames per table and size (ms)")
    print(f"{'game':<18}{'size':>11}{'full p50':>10}{'full p95':>10}{'toast p50':>11}")
    toasts: list[float] = []
    for game, players, seed, steps in TABLES:
        if game not in all_games():
            print(f"{game:<18}  (not registered)")
            continue
        model = play(game, players, seed, steps)
        for size in SIZES:
            p50, p95, toast = bench_frames(model, size, args.frames)
            print(f"{game + f' {players}p':<18}{size[0]:>6}x{size[1]:<4}{p50:>10.1f}{p95:>10.1f}{toast:>11.2f}")
            if size == (1920, 1080):
                toasts.append(toast)
    print()
    print("partial redraws at 1920x1080 (ms, p95 wall / this thread's CPU; panels drawn of all)")
    print(f"{'game':<18}{'one panel p50':>14}{'p95':>14}{'drawn':>7}{'move p50':>10}{'p95':>14}{'drawn':>7}{'of':>5}")
    partial: dict[str, dict[str, float]] = {}
    for game, players, seed, steps in TABLES:
        if game not in all_games():
            continue
        r = partial[game] = bench_partial(game, players, seed, steps, args.frames)
        one95, move95 = f"{r['one_p95']:.2f} / {r['one_cpu_p95']:.2f}", f"{r['move_p95']:.2f} / {r['move_cpu_p95']:.2f}"
        print(f"{game + f' {players}p':<18}{r['one_p50']:>14.2f}{one95:>14}{r['one_drawn']:>7}"
              f"{r['move_p50']:>10.2f}{move95:>14}{r['move_drawn']:>7.1f}{r['panels']:>5}")
    print()
    out = bench_languages(args.frames)
    share, frames, polls = bench_idle(args.idle)
    print(f"idle: {share:.2f}% of one core over {args.idle:.0f} s, {frames} frames drawn, input looked for "
          f"{polls:.0f} times a second")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"memory: {rss / 1024:.0f} MiB peak resident (this process, all games and sizes)")
    shaped = [out[f"display.full_p95_ms_{lang}"] for lang in ("bn", "sd", "si") if f"display.full_p95_ms_{lang}" in out]
    figures.write(args.json, {
        "display.full_p95_ms": out.get("display.full_p95_ms_en", float("nan")),
        "display.full_p95_cpu_ms": out.get("display.full_p95_cpu_ms_en", float("nan")),
        "display.full_p95_ms_shaped": max(shaped) if shaped else float("nan"),
        "display.full_p95_cpu_ms_shaped": max((out[f"display.full_p95_cpu_ms_{lang}"] for lang in ("bn", "sd", "si")
                                               if f"display.full_p95_cpu_ms_{lang}" in out), default=float("nan")),
        "display.toast_p50_ms": max(toasts) if toasts else float("nan"),
        "display.partial_one_panel_p50_ms": max((r["one_p50"] for r in partial.values()), default=float("nan")),
        "display.partial_one_panel_p95_ms": max((r["one_p95"] for r in partial.values()), default=float("nan")),
        "display.partial_one_panel_p95_cpu_ms": max((r["one_cpu_p95"] for r in partial.values()),
                                                    default=float("nan")),
        "display.partial_move_p95_ms": max((r["move_p95"] for r in partial.values()), default=float("nan")),
        "display.partial_move_p95_cpu_ms": max((r["move_cpu_p95"] for r in partial.values()), default=float("nan")),
        "display.idle_cpu_percent": share,
        "display.idle_polls_per_s": polls,
        "display.rss_mb": rss / 1024,
        **out,
    })
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
