"""Bot seats through the real server: scripted phones play some seats, bots the others, to the end of the game."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "web"))
from web_helpers import SERVER_TOKEN, ThreadServer, free_port

from companion.bots import make_bot
from companion.core import HOST, TABLE, get_game, replay
from companion.store import Session, Store
from companion.web import Settings


class Replica:
    """The test's own copy of the game, rebuilt from the store's log: what the scripted phones decide from."""

    def __init__(self, db: Path, sid: int) -> None:
        self.store = Store(db)
        self.sid = sid
        row = self.store.session(sid)
        self.game = get_game(row.game)
        self.config = self.game.config_from_json(row.config)
        self.seed = row.seed
        self.applied = 0
        self.state_id = 0
        self.state: Any = self.game.setup(self.config, random.Random(self.seed))

    def sync(self) -> None:
        rows = self.store.log(self.sid)
        if any(r.kind == "undo" for r in rows):
            raise AssertionError("nothing in this test undoes")
        for row in rows[self.applied:]:
            self.state, _ = self.game.apply(self.state, self.game.actions.parse(row.action))
        self.applied = len(rows)
        self.state_id = rows[-1].state_id if rows else 0

    def close(self) -> None:
        self.store.close()


class Table:
    """The people at the table: the host (table reveals, the regions) and the phones of the seats people play."""

    def __init__(self, base: str, db: Path, sid: int, host: str, tokens: list[str], people: set[int]) -> None:
        self.http = httpx.Client(base_url=base, timeout=10)
        self.replica = Replica(db, sid)
        self.sid, self.host, self.tokens, self.people = sid, host, tokens, people
        self.rng = random.Random(3)
        self.phones = make_bot(self.replica.game.name, "normal")
        self.actions = 0

    def post(self, token: str, action: dict[str, Any], path: str) -> bool:
        reply = self.http.post(path, json={"token": token, "state_id": self.replica.state_id, "action": action})
        if reply.status_code == 200:
            self.actions += 1
            return True
        assert reply.json()["code"] == "stale", reply.text  # only a bot's move in between may refuse it
        return False

    def step(self) -> bool:
        """One move by a person if one is due; False when only bots are to act."""
        r = self.replica
        r.sync()
        game, state = r.game, r.state
        for seat in game.current_seats(state):
            legal = game.legal_actions(state, seat)
            if not legal:
                continue
            if seat in (TABLE, HOST):
                action = self.rng.choice(legal)
                return self.post(self.host, action.to_json(), f"/api/host/sessions/{self.sid}/actions")
            if seat in self.people:
                action = self.phones.choose(game, state, seat, legal, self.rng)
                if action is not None:
                    return self.post(self.tokens[seat], action.to_json(), f"/api/sessions/{self.sid}/actions")
        return False

    def hand_back(self, seat: int) -> None:
        reply = self.http.put(f"/api/host/sessions/{self.sid}/seats/{seat}/bot", json={"token": self.host,
                                                                                     "level": None})
        assert reply.status_code == 200, reply.text
        self.people.add(seat)

    def close(self) -> None:
        self.http.close()
        self.replica.close()


def serve(db: Path, workers: str = "thread", pause: float = 0.0) -> ThreadServer:
    """A server for `db` (not started: `with serve(db) as server:`), quick to trade and with bots that think briefly."""
    settings = Settings(db_path=db, port=free_port(), server_token=SERVER_TOKEN, bot_pause_seconds=pause,
                        bot_patience_seconds=0.3, bot_workers=workers, bot_think={"strong": 0.02},
                        actions_per_second=1000.0, action_burst=1000)
    return ThreadServer(settings)


def driver(server: ThreadServer, sid: int) -> Any:
    return server.server.config.app.state.hub.sessions[sid].bots


CASES = [("power_grid", 3, {1: "strong", 2: "easy"}), ("bohnanza", 3, {0: "strong", 2: "normal"}),
         ("shifting_stones", 3, {1: "strong", 2: "normal"})]


@pytest.mark.parametrize("mode", ["digital", "physical"])
@pytest.mark.parametrize(("game_name", "players", "bots"), CASES)
def test_phones_and_bots_play_a_game_to_the_end(tmp_path: Path, game_name: str, players: int, bots: dict[int, str],
                                                mode: str) -> None:
    db = tmp_path / "table.sqlite3"
    store = Store(db)
    session = Session.create(store, game_name, players, seed=21, mode=mode, bots=bots)  # type: ignore[arg-type]
    sid, host = session.id, session.host_token
    tokens = [r.token for r in store.seats(sid)]
    store.close()
    taken_back = max(bots)
    bot_moves_when_taken = None
    with serve(db, "process" if (game_name, mode) == ("shifting_stones", "digital") else "thread") as server:
        table = Table(server.base, db, sid, host, tokens, {s for s in range(players) if s not in bots})
        try:
            deadline = time.monotonic() + 240
            table.http.get(f"/api/sessions/{sid}/public").raise_for_status()  # the server loads the game: bots start
            while not table.replica.game.is_over(table.replica.state):
                assert time.monotonic() < deadline, "the game did not end in time"
                if bot_moves_when_taken is None and sum(s == taken_back for s, _ in driver(server, sid).played) >= 3:
                    table.hand_back(taken_back)
                    bot_moves_when_taken = [a for s, a in driver(server, sid).played if s == taken_back]
                if not table.step():
                    time.sleep(0.01)
            live = driver(server, sid)
            played = live.played
        finally:
            table.close()
    store = Store(db)
    try:
        assert store.session(sid).status == "over"
        assert store.seats(sid)[taken_back].bot is None
        kept = next(s for s in bots if s != taken_back)
        assert store.seats(sid)[kept].bot == bots[kept]
        finished = Session(store, sid)
        assert finished.verify()
        # The bots moved for their seats, and each of their moves is in the log as that seat's action.
        logged = [r.action for r in store.log(sid) if r.kind == "action"]
        for seat, action in played:
            assert action["seat"] == seat and action in logged
        assert {s for s, _ in played} == set(bots)
        # What the table must do on the real board for a bot's move is on the board-job checklist like anyone's.
        bot_seqs = {r.seq for r in store.log(sid) if r.kind == "action" and (r.action.get("seat"), r.action)
                    in [(s, a) for s, a in played]}
        assert any(int(job.id.split("-")[0]) in bot_seqs for job in finished.jobs())
        if game_name == "bohnanza":
            # People's offers to a bot were answered by it, and it made offers of its own.
            kinds = {a["action"] for _, a in played}
            assert kinds & {"accept_offer", "refuse_offer", "counter_offer"} and "offer_trade" in kinds
        # Once the host took the seat back, the bot made no more moves for it; the phone did.
        assert bot_moves_when_taken is not None
        assert [a for s, a in played if s == taken_back] == bot_moves_when_taken
        after = logged[logged.index(bot_moves_when_taken[-1]) + 1:] if bot_moves_when_taken else logged
        assert any(a.get("seat") == taken_back for a in after)
        # The log announces the bots' moves in words, naming their players.
        _, messages = replay(finished.game, finished.config, finished.seed, finished.live_actions())
        lines = [m for m in messages if m.args.get("player") == kept]
        assert lines and all(m.render() for m in lines)
    finally:
        store.close()


def test_a_bot_seat_survives_a_restart_and_plays_on(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    store = Store(db)
    session = Session.create(store, "shifting_stones", 2, seed=5, bots={0: "normal", 1: "easy"})
    sid = session.id
    store.close()
    # A pause between the bots' moves, so the server stops long before two quick bots could finish the game.
    with serve(db, pause=0.1) as server:
        httpx.get(f"{server.base}/api/sessions/{sid}/public").raise_for_status()
        deadline = time.monotonic() + 30
        while driver(server, sid).moves < 3:
            assert time.monotonic() < deadline
            time.sleep(0.02)
    store = Store(db)
    before = len(store.log(sid))
    assert Session(store, sid).bots() == {0: "normal", 1: "easy"}
    assert Session(store, sid).status != "over", "the game must still be on when the server restarts"
    store.close()
    with serve(db) as server:
        httpx.get(f"{server.base}/api/sessions/{sid}/public").raise_for_status()
        deadline = time.monotonic() + 60
        while Session(Store(db), sid).status != "over":
            assert time.monotonic() < deadline, "the bots did not finish the game after the restart"
            time.sleep(0.1)
    store = Store(db)
    assert len(store.log(sid)) > before
    store.close()


def test_the_host_hands_a_seat_to_a_bot_and_bad_requests_change_nothing(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    store = Store(db)
    session = Session.create(store, "shifting_stones", 2, seed=5)
    sid, host, tokens = session.id, session.host_token, [r.token for r in store.seats(session.id)]
    store.close()
    with serve(db) as server:
        url = f"{server.base}/api/host/sessions/{sid}/seats"
        assert httpx.put(f"{url}/1/bot", json={"token": tokens[0], "level": "strong"}).status_code == 403
        assert httpx.put(f"{url}/1/bot", json={"token": host, "level": "grandmaster"}).status_code == 400
        assert httpx.put(f"{url}/5/bot", json={"token": host, "level": "easy"}).status_code in (400, 403)
        assert Session(Store(db), sid).bots() == {}
        assert httpx.put(f"{url}/0/bot", json={"token": host, "level": "easy"}).status_code == 200
        assert httpx.put(f"{url}/1/bot", json={"token": host, "level": "normal"}).status_code == 200
        view = httpx.get(f"{server.base}/api/sessions/{sid}/public").json()
        assert [p["bot"] for p in view["players"]] == ["easy", "normal"]
        deadline = time.monotonic() + 60
        while view["status"] != "over":
            assert time.monotonic() < deadline
            time.sleep(0.1)
            view = httpx.get(f"{server.base}/api/sessions/{sid}/public").json()
        assert driver(server, sid).moves > 10
