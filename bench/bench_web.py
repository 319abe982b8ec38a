"""Bench: action round trip and fan-out with 7 phones on real WebSockets to a uvicorn server on 127.0.0.1.

    .venv/bin/python bench/bench_web.py [--actions 300] [--pause 50] [--game bohnanza] [--players 7] [--db-dir DIR]

The server runs in a child process (as `companion serve` would, with the rate limit lifted). Each phone is its
own WebSocket. After every phone has an action's view the bench waits `--pause` milliseconds (50) before the next
action, as players look before they act: the hints the change started (searched in the hint workers once the
views are out, 10-20 ms for 7 Bohnanza seats) are then done, as at a table whose actions are seconds apart.
`--pause 0` acts back to back, each action landing on a server still busy with the last one's hints (a stress
test). For every action the bench times:
  feedback  the acting phone sends an action → its feedback arrives (applied and on disk);
  own view  → the acting phone's new view arrives;
  fan-out   → the last of the phones has the new view.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import figures

ROOT = Path(__file__).resolve().parent.parent
STATE_ID = re.compile(r'"state_id":(\d+)')


def serve(db: str, port: int) -> None:
    """The child: the app under uvicorn on 127.0.0.1."""
    from companion.cli.serve import build_server
    from companion.web import Settings

    settings = Settings(db_path=Path(db), host="127.0.0.1", port=port, actions_per_second=1e6, action_burst=10**6)
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

    def __init__(self, seat: int, ws: object) -> None:
        self.seat = seat
        self.ws = ws
        self.raw_view = ""
        self.view_at: dict[int, float] = {}
        self.feedback: asyncio.Queue[tuple[float, dict]] = asyncio.Queue()

    @property
    def view(self) -> dict:
        return json.loads(self.raw_view)["view"] if self.raw_view else {}

    async def read(self) -> None:
        async for raw in self.ws:  # type: ignore[attr-defined]
            now = time.perf_counter()
            # Only the state id is read on arrival, so one busy phone's parsing does not delay the next one's clock.
            found = STATE_ID.search(raw, 0, 400) if raw.startswith('{"type":"view"') else None
            if found:
                self.raw_view = raw
                self.view_at.setdefault(int(found.group(1)), now)
                _noted()
                continue
            message = json.loads(raw)
            if message["type"] == "view":
                self.raw_view = raw
                self.view_at.setdefault(message["view"]["state_id"], now)
                _noted()
            elif message["type"] == "feedback":
                await self.feedback.put((now, message))
            elif message["type"] == "ping":
                await self.ws.send('{"type": "pong"}')  # type: ignore[attr-defined]


# Set whenever a phone notes a view: the bench waits for it instead of looking every half millisecond, so its own
# waiting does not load the machine it measures (at the table the phones are other devices).
ARRIVED: asyncio.Event | None = None


async def wait_until(condition, timeout: float = 10.0) -> None:
    assert ARRIVED is not None
    deadline = time.perf_counter() + timeout
    while not condition():
        left = deadline - time.perf_counter()
        if left <= 0:
            raise TimeoutError("the server did not answer in time")
        ARRIVED.clear()
        if condition():
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ARRIVED.wait(), min(left, 0.05))


def _noted() -> None:
    if ARRIVED is not None:
        ARRIVED.set()


async def run(base: str, sid: int, tokens: list[str], actions: int, seed: int, pause: float = 0.05
              ) -> dict[str, list[float]]:
    import websockets

    global ARRIVED
    ARRIVED = asyncio.Event()
    ws_base = base.replace("http://", "ws://")
    phones = []
    for seat, token in enumerate(tokens):
        ws = await websockets.connect(f"{ws_base}/ws/sessions/{sid}/seat?token={token}", max_size=2**22)
        phones.append(Phone(seat, ws))
    readers = [asyncio.create_task(p.read()) for p in phones]
    await wait_until(lambda: all(p.raw_view for p in phones))
    rng = random.Random(seed)
    timings: dict[str, list[float]] = {"feedback": [], "own view": [], "fan-out": []}
    refused = 0
    for _ in range(actions):
        if pause:
            await asyncio.sleep(pause)
        views = [p.view for p in phones]
        state_id = views[0]["state_id"]
        movers = [(p, v) for p, v in zip(phones, views) if v.get("legal") and v["state_id"] == state_id]
        if not movers or views[0].get("over"):
            break
        phone, view = rng.choice(movers)
        action = rng.choice(view["legal"])
        start = time.perf_counter()
        await phone.ws.send(json.dumps({"type": "action", "state_id": state_id, "action": action}))
        answered, feedback = await asyncio.wait_for(phone.feedback.get(), 10)
        if not feedback["ok"]:
            refused += 1
            continue
        target = state_id + 1
        await wait_until(lambda target=target: all(target in p.view_at for p in phones))
        timings["feedback"].append(answered - start)
        timings["own view"].append(phone.view_at[target] - start)
        timings["fan-out"].append(max(p.view_at[target] for p in phones) - start)
    for task in readers:
        task.cancel()
    for p in phones:
        await p.ws.close()  # type: ignore[attr-defined]
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
        timings = asyncio.run(run(base, session.id, tokens, args.actions, args.seed, args.pause / 1000))
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
