"""A crash at any moment loses nothing acknowledged: `companion play` killed with SIGKILL at random points of a
scripted game, started again, and the game finished ends exactly where an uninterrupted run ends."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from play_helpers import TIMINGS, Hand, enroll_all, free_port, wait_until

from companion.core.registry import get_game
from companion.link.sim import SimulatedBoard
from companion.play.router import Router, key_press
from companion.store import Session, Store
from companion.testing.harness import playout

ROOT = Path(__file__).resolve().parents[2]
# Shifting Stones alone with the real stones and cards: every move is made on the controller, several of them
# with more than one input (the grid is nine keys and OK, a shift two keys), so a kill can land between them.
GAME, PLAYERS, MODE, BOT, SEED = "shifting_stones", 1, "physical", "greedy", 4
KILLS = 4


class Server:
    """`companion play ID --board PTY` as a child process, its output collected."""

    def __init__(self, db: Path, sid: int, port: int, board: str) -> None:
        env = {k: v for k, v in os.environ.items() if k != "COMPANION_GAMES"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "play", str(sid), "--db", str(db), "--port", str(port),
             "--bind", "127.0.0.1", "--board", board, "--no-display"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL,
        )
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        wait_until(lambda: any("ready in" in line for line in self.lines) or self.process.poll() is not None, 30,
                   "the table to be ready")
        assert self.process.poll() is None, "\n".join(self.lines)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip())

    def kill(self) -> None:
        self.process.kill()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def state_id(port: int, sid: int) -> int | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/sessions/{sid}/public", timeout=2) as reply:
            return int(json.loads(reply.read())["state_id"])
    except (OSError, urllib.error.URLError):
        return None


def test_killed_at_random_points_and_restarted_the_game_ends_as_an_uninterrupted_run(tmp_path):
    db = tmp_path / "table.sqlite3"
    game = get_game(GAME)
    script = playout(game, PLAYERS, SEED, mode=MODE, bots={s: game.bots()[BOT] for s in range(PLAYERS)}, check=False)
    assert script.finished
    sid = Session.create(Store(db), GAME, PLAYERS, seed=SEED, mode=MODE).id
    uids = enroll_all(db, GAME)
    # The uninterrupted run: the same actions in memory. Its router also plans each action's inputs.
    uninterrupted = Session.create(Store(":memory:"), GAME, PLAYERS, seed=SEED, mode=MODE)
    planner = Router(uninterrupted)
    board = SimulatedBoard(timings=TIMINGS)
    hand = Hand(board, uids)
    port = free_port()
    rng = random.Random(20240611)
    kill_at = sorted(rng.sample(range(len(script.actions)), KILLS))
    server = Server(db, sid, port, board.start())
    kills = retries = 0
    try:
        done = 0
        while done < len(script.actions):
            action = script.actions[done]
            plan = planner.plan(action)
            assert plan is not None, f"no controller inputs make {action.to_json()}"
            crash = kills < KILLS and done == kill_at[kills]
            timer = threading.Timer(rng.uniform(0.0, 0.04), server.kill) if crash else None
            if timer is not None:
                timer.start()
            hand.perform(plan)
            if timer is not None:
                timer.join()
                server.process.wait(10)
                kills += 1
                server = Server(db, sid, port, board.path)
                assert any("resuming game" in line for line in server.lines)
                time.sleep(0.3)  # an input still on its way would land now
                now = state_id(port, sid)
                assert now in (done, done + 1), f"after the restart the game is at {now}, expected {done} or more"
                if now == done:
                    # The kill came before the action was on disk: make it again. The board kept the inputs the
                    # dead server had not acknowledged and has delivered them to the new one (the link loses
                    # nothing), so first clear whatever selection they made: BACK drops a picked stone, a card
                    # to pay with, or a face of a grid being entered.
                    hand.perform([key_press("back")] * 10)
                    retries += 1
                    continue
            else:
                wait_until(lambda n=done + 1: state_id(port, sid) == n, what=f"action {done} to be applied")
            uninterrupted.submit(action, action.seat)
            done += 1
        assert state_id(port, sid) == len(script.actions)
    finally:
        server.stop()
        board.stop()
    assert kills == KILLS
    replayed = Session(Store(db), sid)
    assert replayed.live_actions() == script.actions  # nothing lost, nothing twice
    assert replayed.state == uninterrupted.state == script.final_state
    assert replayed.verify()
    print(f"{len(script.actions)} actions, {kills} kills, {retries} actions made again after a kill")
