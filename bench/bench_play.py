"""Bench: `companion play` as a table uses it — tap-to-phone and tap-to-display latency through the pseudo-terminal,
the time from start to ready, and the server's memory with 7 phones connected.

    .venv/bin/python bench/bench_play.py [--actions 200] [--seed 1] [--starts 3] [--slowest N]

`companion play` runs as a child process (as on the Pi). For the latencies it is given `--board PTY`: the simulated
board (the real firmware behind a pseudo-terminal) lives in this process, so the bench can press its buttons and
lay cards on its reader, and knows when the firmware reported each input. A 7-player Bohnanza with the real deck
is played by the moves the controller can make (a tap for every card taken from the deck, a press to plant, a
held button to turn up, to end trading...), chosen at random; 7 phones (`bench/phones.py`, a process of their
own) and the display's client listen. For every move the bench times, from the moment the firmware sends the input:
  phone    the last of the 7 phones has the new view (its bytes read off the phone's socket);
  display  the display's client (display/client.py) has the new view.
The disk alone: a bare one-row SQLite commit (as the store commits: WAL, synchronous=FULL) timed 200 times before
the moves, since every tap waits for one: a disk whose flushes stall shows in the taps' tail, not the code's.
Start to ready: from starting `companion play bohnanza -p 7` (its own simulated board, no display) to its
"ready" line, for a new game and then for resuming it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import figures

ROOT = Path(__file__).resolve().parent.parent
GAME, PLAYERS, MODE = "bohnanza", 7, "physical"
# The firmware's own timings; only how long a bench finger holds a button is the bench's.
LONG_HOLD = 0.75


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# Notified whenever a listener notes a view. The bench's own waiting must not load the machine it measures (at
# the table the phones are other devices): a view wakes the wait at once, anything else is looked at every 2 ms.
ARRIVED = threading.Condition()


def wait_until(condition: Any, timeout: float = 15.0, what: str = "the table") -> None:
    deadline = time.perf_counter() + timeout
    with ARRIVED:
        while not condition():
            if time.perf_counter() > deadline:
                raise SystemExit(f"timed out waiting for {what}")
            ARRIVED.wait(0.002)


def _noted() -> None:
    with ARRIVED:
        ARRIVED.notify_all()


class Child:
    """`companion play` in a child process; its output lines are kept."""

    def __init__(self, args: list[str]) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen([sys.executable, "-m", "companion", "play", *args, "--no-display",
                                         "--bind", "127.0.0.1"], cwd=ROOT, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)
        self.lines: list[str] = []
        self.ready_at = 0.0
        threading.Thread(target=self._read, daemon=True).start()
        try:
            wait_until(lambda: self.ready_at or self.process.poll() is not None, 60, "companion play to be ready")
        except SystemExit:
            self.process.kill()
            raise
        if not self.ready_at:
            raise SystemExit("companion play stopped:\n" + "\n".join(self.lines))

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip())
            if "ready in" in line and not self.ready_at:
                self.ready_at = time.perf_counter()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


class Listener:
    """A WebSocket (a phone, or the display's client) noting when each state id's view first arrived."""

    def __init__(self) -> None:
        self.view_at: dict[int, float] = {}

    def saw_view(self, state_id: int, at: float) -> None:
        """The view of `state_id`, read at `at`."""
        self.view_at.setdefault(state_id, at)
        _noted()

    def saw_decoded(self, message: dict[str, Any]) -> None:
        """A message the display's client has decoded already (it has the view the moment it hands it over)."""
        now = time.perf_counter()
        if message.get("type") == "view":
            self.view_at.setdefault(int(message["view"]["state_id"]), now)
            _noted()


class Phones:
    """The 7 phones: `bench/phones.py` in a process of its own, noting each view's arrival as the moment its bytes
    reached the phone's socket (the kernel's receive timestamp).

    At the table each phone is a device of its own. Seven sync clients (a thread each) made the bench's interpreter
    a queue; then one asyncio loop of clients in a thread of the bench still inflated and decoded each phone's view
    before it read the next phone's socket, and waited for the bench's firmware, display client and bookkeeping
    to let go of the interpreter; and a reader of its own still ran only when the scheduler let it. The arrivals'
    times are on the `perf_counter` clock, which every process of the machine shares, so the bench reading them
    later changes nothing. The display is timed as before, once its client has decoded the view: at the table it
    runs on this computer."""

    def __init__(self, urls: list[str]) -> None:
        self.listeners = [Listener() for _ in urls]
        self.process = subprocess.Popen([sys.executable, str(Path(__file__).with_name("phones.py")), *urls],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self._ready = threading.Event()
        threading.Thread(target=self._read, daemon=True, name="phones").start()
        if not self._ready.wait(20):
            raise SystemExit("the phones did not connect")

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            kind, *rest = line.split()
            if kind == "ready":
                self._ready.set()
            elif kind == "view":
                index, at, state_id = rest
                self.listeners[int(index)].saw_view(int(state_id), float(at))

    def send(self, seat: int, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"send {seat} {text}\n")
        self.process.stdin.flush()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            assert self.process.stdin is not None
            self.process.stdin.close()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()


def start_to_ready(starts: int, directory: str) -> list[tuple[str, float, str]]:
    db = os.path.join(directory, "start.sqlite3")
    # An installed table has its modules compiled (pip does it; a checkout writes them on its first start). Under
    # PYTHONDONTWRITEBYTECODE nothing would ever be written and every start would compile ~130 modules again
    # (about 0.3 s of CPU), which is not what a table does.
    subprocess.run([sys.executable, "-m", "compileall", "-q", "companion"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    out = []
    for i in range(starts):
        child = Child([GAME, "-p", str(PLAYERS), "--mode", MODE, "--db", db, "--port", str(free_port())])
        own = next((line.split("ready in")[1].strip() for line in child.lines if "ready in" in line), "?")
        out.append(("new game" if i == 0 else "resumed", child.ready_at - child.started, own))
        child.stop()
    return out


def disk_commits(directory: str, count: int = 200, spacing: float = 0.02) -> list[float]:
    """Milliseconds of a bare one-row SQLite commit in the bench's directory, as the store commits (WAL,
    `synchronous=FULL`): every tap waits for one, so a disk whose flushes stall shows in the taps' tail."""
    import sqlite3

    db = sqlite3.connect(os.path.join(directory, "disk.sqlite3"), isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE probe (payload TEXT)")
        out = []
        for _ in range(count):
            start = time.perf_counter()
            db.execute("BEGIN")
            db.execute("INSERT INTO probe VALUES (?)", ("x" * 200,))
            db.execute("COMMIT")
            out.append((time.perf_counter() - start) * 1000)
            time.sleep(spacing)
        return out
    finally:
        db.close()


def latencies(actions: int, seed: int, directory: str) -> dict[str, Any]:
    from companion.core.registry import get_game
    from companion.link.sim import SimulatedBoard
    from companion.play.router import Router
    from companion.store import Session, Store
    from display.client import PublicClient

    game = get_game(GAME)
    db = os.path.join(directory, "latency.sqlite3")
    store = Store(db)
    session = Session.create(store, GAME, PLAYERS, seed=seed, mode=MODE)
    tokens = [row.token for row in store.seats(session.id)]
    uids = {}
    for i, card in enumerate(game.cards()):
        uids[card] = f"04{i:012X}"
        store.enroll_tag(uids[card], GAME, card)
    store.close()
    replica = Session.create(Store(":memory:"), GAME, PLAYERS, seed=seed, mode=MODE)
    planner = Router(replica)

    board = SimulatedBoard()
    controller_emitted = [0.0]

    def timed(emit: Any, counts: Any) -> Any:
        """The firmware's event callback, noting when an input that means something (not a bare down or up,
        not a card taken off the reader) is sent."""
        def wrapper(*args: Any) -> Any:
            if counts(args[-1]):
                controller_emitted[0] = time.perf_counter()
            return emit(*args)
        return wrapper

    port = free_port()
    child = Child([str(session.id), "--db", db, "--port", str(port), "--board", board.start()])
    client: Any = None
    sockets: Phones | None = None
    try:
        controller = board.controller
        controller.buttons.emit = timed(controller.buttons.emit, lambda action: action >= 2)
        controller.keys.emit = timed(controller.keys.emit, lambda action: action >= 2)
        controller.tags.emit = timed(controller.tags.emit, lambda present: bool(present))
        base = f"http://127.0.0.1:{port}"
        sockets = Phones([f"ws://127.0.0.1:{port}/ws/sessions/{session.id}/seat?token={t}" for t in tokens])
        phones = sockets.listeners
        display = Listener()
        client = PublicClient(base, session.id, display.saw_decoded)
        client.start()
        wait_until(lambda: all(0 in p.view_at for p in phones) and 0 in display.view_at, what="the first views")
        idle_mb = rss_mb(child.process.pid)

        rng = random.Random(seed)
        bot = game.bots()["trader"]
        timings: dict[str, list[float]] = {"phone": [], "display": []}
        moves: list[str] = []
        kinds: dict[str, int] = {}
        for _ in range(actions):
            state = replica.state
            if game.is_over(state):
                break
            plannable = []
            for seat in game.current_seats(state):
                for action in game.legal_actions(state, seat):
                    if action.kind in ("harvest", "buy_field"):
                        continue  # the keys act for the last seat pressed: left out so the script stays simple
                    plan = planner.plan(action)
                    if plan is not None:
                        plannable.append((action, plan))
            target = replica.state_id + 1
            if not plannable:
                # Only a phone can move on now (a harvest for a bean that fits no field, a trade): not timed.
                seat, legal = next((s, game.legal_actions(state, s)) for s in game.current_seats(state)
                                   if isinstance(s, int) and game.legal_actions(state, s))
                action = bot.choose(game, state, seat, legal, rng) or legal[0]
                sockets.send(seat, json.dumps({"type": "action", "state_id": replica.state_id,
                                               "action": action.to_json()}))
                wait_until(lambda t=target: all(t in p.view_at for p in phones), what=f"{action.to_json()}")
                replica.submit(action, action.seat)
                continue
            action, plan = rng.choice(plannable)
            for press in plan:
                perform(board, uids, press)
            wait_until(lambda t=target: all(t in p.view_at for p in phones) and t in display.view_at,
                       what=f"{action.to_json()}")
            start = controller_emitted[0]
            timings["phone"].append(max(p.view_at[target] for p in phones) - start)
            timings["display"].append(display.view_at[target] - start)
            kinds[action.kind] = kinds.get(action.kind, 0) + 1
            moves.append(f"{action.kind} (state {target})")
            replica.submit(action, action.seat)
        busy_mb = rss_mb(child.process.pid)
    finally:
        # Whatever happened (a timeout ends the bench with SystemExit), the table and its board are stopped: a
        # `companion play` left running would hold the pseudo-terminal's lock for the next run.
        if client is not None:
            client.stop()
        if sockets is not None:
            sockets.close()
        child.stop()
        board.stop()
    return {"timings": timings, "kinds": kinds, "moves": moves, "idle_mb": idle_mb, "busy_mb": busy_mb}


def perform(board: Any, uids: dict[str, str], press: Any) -> None:
    if press.source == "tag":
        board.place_tag(uids[press.card])
        tags = board.controller.tags
        wait_until(lambda: tags.present, what="the reader")
        board.remove_tag()
        wait_until(lambda: not tags.present, what="the reader")
        return
    set_down = (lambda down: board.set_button(press.seat, down)) if press.source == "seat" else (
        lambda down: board.set_key(press.key, down))
    set_down(True)
    time.sleep(LONG_HOLD if press.gesture == "long" else 0.06)
    set_down(False)
    if press.source == "seat":
        time.sleep(0.32)  # past the double-press window: the next press of this button is a press of its own
    else:
        time.sleep(0.03)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--json", metavar="FILE", help="add the figures under stable keys to this JSON file")
    parser.add_argument("--slowest", type=int, default=0, metavar="N", help="also list the N slowest moves")
    args = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="bench-play-")
    starts = start_to_ready(args.starts, directory)
    disk = disk_commits(directory)
    result = latencies(args.actions, args.seed, directory)
    timings = result["timings"]
    count = len(timings["phone"])
    print(f"play bench: {GAME} {PLAYERS} players, {MODE} deck; 7 phones and the display's client on WebSockets; "
          f"store in {directory}")
    print(f"  {count} moves made on the simulated controller: "
          + ", ".join(f"{k} {v}" for k, v in sorted(result["kinds"].items())))
    for name, values in timings.items():
        ms = [v * 1000 for v in values]
        print(f"  tap-to-{name:8s} p50 {statistics.median(ms):6.2f} ms   p99 {percentile(ms, 99):6.2f} ms   "
              f"max {max(ms):6.2f} ms")
    print(f"  the disk alone (a one-row SQLite commit, WAL, synchronous=FULL, {len(disk)} before the moves): "
          f"p50 {statistics.median(disk):.2f} ms   p99 {percentile(disk, 99):.2f} ms   max {max(disk):.2f} ms")
    slow = sorted(zip(timings["phone"], timings["display"], result["moves"], strict=True), reverse=True)
    for phone, display, move in slow[:args.slowest]:
        print(f"    slow: {move:32s} phone {phone * 1000:7.2f} ms   display {display * 1000:7.2f} ms")
    for what, seconds, own in starts:
        print(f"  start to ready ({what}): {seconds:.2f} s from the command (the table itself says {own})")
    print(f"  server memory (RSS) with 7 phones and the display connected: {result['idle_mb']:.1f} MB idle, "
          f"{result['busy_mb']:.1f} MB after the moves")
    phone_ms = [v * 1000 for v in timings["phone"]]
    display_ms = [v * 1000 for v in timings["display"]]
    resumed = [seconds for what, seconds, _own in starts if what == "resumed"]
    figures.write(args.json, {
        "play.moves": count,
        "play.tap_to_phone_p50_ms": statistics.median(phone_ms),
        "play.tap_to_phone_p99_ms": percentile(phone_ms, 99),
        "play.tap_to_phone_max_ms": max(phone_ms),
        "play.tap_to_display_p50_ms": statistics.median(display_ms),
        "play.tap_to_display_p99_ms": percentile(display_ms, 99),
        "play.start_to_ready_s": max(seconds for _what, seconds, _own in starts),
        "play.start_to_ready_new_s": starts[0][1],
        "play.start_to_ready_resumed_s": max(resumed) if resumed else float("nan"),
        "play.server_rss_mb": result["busy_mb"],
        "play.disk_commit_p50_ms": statistics.median(disk),
        "play.disk_commit_p99_ms": percentile(disk, 99),
        "play.disk_commit_max_ms": max(disk),
    })
    return 0


if __name__ == "__main__":
    sys.exit(main())
