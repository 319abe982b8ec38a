"""Bench: action round trip and fan-out with 7 phones on real WebSockets to a uvicorn server on 127.0.0.1.

    .venv/bin/python bench/bench_web.py [--actions 300] [--pause 50] [--game bohnanza] [--players 7] [--db-dir DIR]

The server runs in a child process (as `companion serve` would, with the rate limit lifted). Each phone is its
own WebSocket (bench/phones.py), each message timed by when its bytes reached the phone's socket. After every
phone has an action's view the bench waits `--pause` milliseconds (50) before the next action, as players look
before they act: the hints the change started (searched in the hint workers once the views are out, 10-20 ms for
7 Bohnanza seats) are then done, as at a table whose actions are seconds apart.
`--pause 0` acts back to back, each action landing on a server still busy with the last one's hints (a stress
test). For every action the bench times:
  feedback  the acting phone sends an action → its feedback arrives (applied and on disk);
  own view  → the acting phone's new view arrives;
  fan-out   → the last of the phones has the new view.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import figures

ROOT = Path(__file__).resolve().parent.parent


def _stop(signum: int, frame: Any) -> None:
    raise SystemExit(0)


def serve(db: str, port: int) -> None:
    """The child: the app under uvicorn on 127.0.0.1."""
    from companion.cli.serve import build_server
    from companion.web import Settings

    settings = Settings(db_path=Path(db), host="127.0.0.1", port=port, actions_per_second=1e6, action_burst=10**6)
    # As `companion serve` does: uvicorn shuts down on the bench's SIGTERM and then raises it again, which would end
    # the process before its exit handlers stop the hint workers (their semaphores were reported leaked).
    signal.signal(signal.SIGTERM, _stop)
    build_server(settings).run()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


class Phone:
    """One seat's socket: the latest view, and when each state id's view and each feedback arrived."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.raw_view = ""
        self.view_at: dict[int, float] = {}
        self.feedback: list[tuple[float, dict]] = []

    @property
    def view(self) -> dict:
        return json.loads(self.raw_view)["view"] if self.raw_view else {}


def run(base: str, sid: int, tokens: list[str], actions: int, seed: int, pause: float = 0.05
        ) -> dict[str, list[float]]:
    """Plays `actions` actions from random phones; each message timed by when its bytes reached the phone's socket
    (bench/phones.py: the kernel's receive timestamp), as at the table, where each phone is a device of its own."""
    from phones import Phones, view_state

    ws_base = base.replace("http://", "ws://")
    ends = [Phone(seat) for seat in range(len(tokens))]
    heard = threading.Condition()

    def arrived(index: int, at: float, text: str) -> None:
        phone = ends[index]
        state_id = view_state(text)
        message = None if state_id is not None else json.loads(text)
        if message is not None and message["type"] == "view":
            state_id = message["view"]["state_id"]
        with heard:
            if state_id is not None:
                phone.raw_view = text
                phone.view_at.setdefault(state_id, at)
            elif message is not None and message["type"] == "feedback":
                phone.feedback.append((at, message))
            heard.notify_all()

    def wait(condition: Any) -> None:
        with heard:
            if not heard.wait_for(condition, 10):
                raise TimeoutError("the server did not answer in time")

    phones = Phones([f"{ws_base}/ws/sessions/{sid}/seat?token={token}" for token in tokens], arrived)
    threading.Thread(target=phones.read_forever, daemon=True, name="phones").start()
    wait(lambda: all(p.raw_view for p in ends))
    rng = random.Random(seed)
    timings: dict[str, list[float]] = {"feedback": [], "own view": [], "fan-out": []}
    refused = 0
    for _ in range(actions):
        if pause:
            time.sleep(pause)
        with heard:
            views = [p.view for p in ends]
        state_id = views[0]["state_id"]
        movers = [(p, v) for p, v in zip(ends, views) if v.get("legal") and v["state_id"] == state_id]
        if not movers or views[0].get("over"):
            break
        phone, view = rng.choice(movers)
        action = rng.choice(view["legal"])
        answers = len(phone.feedback)
        start = time.perf_counter()
        phones.send(phone.seat, json.dumps({"type": "action", "state_id": state_id, "action": action}))
        wait(lambda phone=phone, answers=answers: len(phone.feedback) > answers)
        answered, feedback = phone.feedback[answers]
        if not feedback["ok"]:
            refused += 1
            continue
        target = state_id + 1
        wait(lambda target=target: all(target in p.view_at for p in ends))
        timings["feedback"].append(answered - start)
        timings["own view"].append(phone.view_at[target] - start)
        timings["fan-out"].append(max(p.view_at[target] for p in ends) - start)
    phones.close()
    timings["refused"] = [float(refused)]
    return timings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--game", default="bohnanza", help="a game for 7 players (bohnanza), else its maximum")
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pause", type=float, default=50.0,
                        help="milliseconds between an action's last view and the next action (0: back to back)")
    parser.add_argument("--db-dir", help="where the SQLite file goes (default: a temporary directory)")
    parser.add_argument("--serve", nargs=2, metavar=("DB", "PORT"), help=argparse.SUPPRESS)
    parser.add_argument("--json", metavar="FILE", help="add the figures under stable keys to this JSON file")
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]))
        return 0

    from companion.core.registry import get_game
    from companion.store import Session, Store

    game = get_game(args.game)
    players = min(args.players, game.max_players)
    directory = args.db_dir or tempfile.mkdtemp(prefix="bench-web-")
    db = os.path.join(directory, "bench.sqlite3")
    store = Store(db)
    session = Session.create(store, game.name, players, seed=args.seed)
    tokens = [row.token for row in store.seats(session.id)]
    store.close()
    # With fewer seats than 7 (a smaller game), some seats get a second phone so 7 are connected.
    while len(tokens) < 7:
        tokens.append(tokens[len(tokens) % players])

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    child = subprocess.Popen([sys.executable, __file__, "--serve", db, str(port)], cwd=ROOT)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/health", timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or child.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.05)
        timings = run(base, session.id, tokens, args.actions, args.seed, args.pause / 1000)
    finally:
        child.terminate()
        child.wait(timeout=10)

    refused = int(timings.pop("refused")[0])
    count = len(timings["feedback"])
    print(f"web bench: {game.title}, {players} seats, {len(tokens)} phones on WebSockets, {count} actions "
          f"({refused} refused) {args.pause:g} ms apart, store {db}")
    for name, values in timings.items():
        if not values:
            continue
        ms = [v * 1000 for v in values]
        print(f"  {name:9s} p50 {statistics.median(ms):6.2f} ms   p99 {percentile(ms, 99):6.2f} ms   "
              f"max {max(ms):6.2f} ms")
    out: dict[str, float] = {"web.actions": float(count), "web.pause_ms": args.pause}
    for name, key in (("feedback", "feedback"), ("own view", "own_view"), ("fan-out", "fanout")):
        ms = [v * 1000 for v in timings[name]]
        if ms:
            out[f"web.{key}_p50_ms"] = statistics.median(ms)
            out[f"web.{key}_p99_ms"] = percentile(ms, 99)
            out[f"web.{key}_max_ms"] = max(ms)
    figures.write(args.json, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
