"""Random games through the hub and the sockets: no payload to a seat or to the public shows what it may not know.

What a seat may know is what the game declares: `indistinguishable(state, seat, rng)` re-draws every secret that
seat can't see. So every envelope sent to a seat must come out the same from such a re-drawn state (its view, its
legal actions, its hints); every ticker line it gets must be one it may read; the public stream gets actions
without their details whenever what they caused was private.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest

from companion.core.public import REFUSED
from companion.core.registry import all_games, get_game
from companion.core.seats import HOST, TABLE
from companion.store import Store
from companion.testing.harness import choose_actor
from companion.web.hub import Connection, Hub

STEPS_PER_REAL_GAME = 40


def plain(value: Any) -> Any:
    """As the wire carries it."""
    return json.loads(json.dumps(value))


def cases() -> list[tuple[str, int, str, int]]:
    out = [("tiny", 4, "digital", 0), ("tiny", 3, "physical", 0)]
    for name, game in all_games().items():
        if name == "tiny":
            continue
        modes = ["digital"] + (["physical"] if game.chance_events else [])
        for mode in modes:
            out.append((name, game.max_players, mode, STEPS_PER_REAL_GAME))
    return out


def comparable(sent: dict[str, Any], again: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two answers of a hint, without a best turn cut short by its time budget (which depends on the machine's
    load, not on any secret) on either side."""
    def cut(hints: dict[str, Any]) -> bool:
        return isinstance(hints.get("best_turn"), dict) and hints["best_turn"].get("exact") is False

    if cut(sent) or cut(again):
        return ({k: v for k, v in sent.items() if k != "best_turn"},
                {k: v for k, v in again.items() if k != "best_turn"})
    return sent, again


class Wire:
    """The far end of one connection: everything it was sent."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.messages.append(json.loads(text))

    async def close(self, code: int, reason: str) -> None:
        pass


class Record:
    """What the table really was at each state id, to judge the payloads by."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.states: dict[int, Any] = {}
        self.tickers: dict[int, list[Any]] = {}
        # Every attempt in order, and whether the public may see its details.
        self.attempts: list[tuple[dict[str, Any], bool]] = []

    def note(self, session: Any) -> None:
        self.states[session.state_id] = session.state
        self.tickers[session.state_id] = list(session.ticker)

    def check_view(self, viewer: int | None, envelope: dict[str, Any], rngs: list[random.Random]) -> None:
        game = self.game
        assert envelope["seat"] == viewer, "an envelope for another viewer"
        state = self.states[envelope["state_id"]]
        for rng in rngs:
            other = game.indistinguishable(state, viewer, rng)
            assert envelope["view"] == plain(game.view(other, viewer)), f"{viewer}'s view shows a secret"
            said = game.now(other)
            assert (envelope["now"]["template"], envelope["now"]["params"]) == \
                (said.message.template, plain(said.message.args)), "the what-to-do sentence tells a secret"
            if viewer is not None:
                assert envelope["legal"] == plain([a.to_json() for a in game.legal_actions(other, viewer)]), \
                    f"seat {viewer}'s legal actions depend on a secret"
            else:
                assert "legal" not in envelope and "hints" not in envelope
        ticker = self.tickers[envelope["state_id"]]
        for entry in envelope["log"]:
            sources = [m for m in ticker if m.template == entry["template"] and plain(m.args) == entry["args"]]
            assert any(m.visible(viewer) for m in sources), f"{viewer} got a private line: {entry['text']}"

    def check(self, viewer: int | None, wire: Wire, rngs: list[random.Random]) -> int:
        views = 0
        feedback = []
        for message in wire.messages:
            if message["type"] == "view":
                self.check_view(viewer, message["view"], rngs)
                views += 1
            elif message["type"] == "hints":
                # A seat's hints come on their own, after its view, and depend on nothing it may not know.
                assert viewer is not None and message["seat"] == viewer, "hints went to another viewer"
                state = self.states[message["state_id"]]
                for rng in rngs:
                    other = self.game.indistinguishable(state, viewer, rng)
                    sent, again = comparable(message["hints"], plain(self.game.hints(other, viewer)))
                    assert sent == again, f"seat {viewer}'s hints use a secret"
            elif message["type"] == "feedback":
                if viewer is not None:
                    assert message["seat"] == viewer, "a seat got another seat's feedback"
                feedback.append(message)
        if viewer is None:
            assert len(feedback) == len(self.attempts), "the public stream missed an attempt"
            for message, (tried, public) in zip(feedback, self.attempts):
                self.check_public_feedback(message, tried, public)
        return views

    @staticmethod
    def check_public_feedback(message: dict[str, Any], tried: dict[str, Any], public: bool) -> None:
        action = message["action"] or {}
        assert action.get("action") == tried["action"], "feedback out of order"
        if not public:
            assert set(action) <= {"seat", "action"}, f"the public saw a private action: {action}"
        if not message["ok"] and message["source"] == "phone":
            assert message["text"] == REFUSED, "the public saw a phone's refusal reason"


async def settle(wires: dict[Any, Wire], state_id: int, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        latest = [max((m["view"]["state_id"] for m in w.messages if m["type"] == "view"), default=-1)
                  for w in wires.values()]
        if all(s >= state_id for s in latest):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"views did not reach state {state_id}: {latest}")
        await asyncio.sleep(0.002)


@pytest.mark.parametrize(("game_name", "players", "mode", "steps"), cases(),
                         ids=[f"{g}-{p}p-{m}" for g, p, m, _ in cases()])
async def test_no_payload_shows_anyone_a_secret(db_path, new_session, game_name, players, mode, steps):
    seated = new_session(game_name, players, mode=mode, seed=11)
    store = Store(db_path)
    hub = Hub(store, actions_per_second=1e6, action_burst=10**6)
    try:
        live = await hub.live(seated.id)
        session = live.session
        game = get_game(game_name)
        wires: dict[int | None, Wire] = {v: Wire() for v in [*range(players), None]}
        senders = []
        for viewer, wire in wires.items():
            connection = Connection(viewer, wire.send, wire.close, queue_size=10_000)
            senders.append(asyncio.create_task(connection.run_sender()))
            await live.attach(connection)
        record = Record(game)
        record.note(session)
        rng = random.Random(5)
        limit = steps or game.max_game_length
        for step in range(limit):
            if game.is_over(session.state):
                break
            pick = choose_actor(game, session.state, rng)
            assert pick is not None, "nobody can act"
            seat, legal = pick
            action = rng.choice(legal)
            if step % 7 == 3:
                # A seat that may not act tries something: refused, and its details stay on its phone.
                idle = [s for s in range(players) if s not in game.current_seats(session.state)]
                if idle:
                    try_json = {**action.to_json(), "seat": idle[0]}
                    outcome = await live.submit(try_json, idle[0], session.state_id, "phone")
                    record.attempts.append((try_json, outcome.ok))
                    if outcome.ok:
                        record.note(session)
            outcome = await live.submit(action, HOST if seat == TABLE else seat, session.state_id,
                                        "board" if seat == TABLE else "phone")
            assert outcome.ok, outcome.error and outcome.error.reason
            private = seat == TABLE or any(m.visible_to is not None for m in outcome.accepted.log)
            record.attempts.append((action.to_json(), not private))
            record.note(session)
            await settle(wires, session.state_id)
        if not steps:
            assert game.is_over(session.state), "the tiny game should finish"
        checkers = [random.Random(1)]
        seen = {viewer: record.check(viewer, wire, checkers) for viewer, wire in wires.items()}
        assert all(count >= 2 for count in seen.values())
        for task in senders:
            task.cancel()
    finally:
        await hub.close()
        store.close()


def test_every_socket_payload_of_a_tiny_game_is_clean(client, new_session):
    """The same checks end to end: a whole tiny game over HTTP, read back from real sockets."""
    seated = new_session("tiny", 3, mode="physical", seed=3)
    game = get_game("tiny")
    live_session = None
    sockets = {}
    with client.websocket_connect(f"/ws/sessions/{seated.id}/public") as pub:
        sockets[None] = pub
        for seat, token in enumerate(seated.tokens):
            sockets[seat] = client.websocket_connect(f"/ws/sessions/{seated.id}/seat?token={token}").__enter__()
        try:
            received: dict[int | None, Wire] = {viewer: Wire() for viewer in sockets}
            for viewer, ws in sockets.items():
                received[viewer].messages.append(ws.receive_json())
            live_session = client.app.state.hub.sessions[seated.id].session
            record = Record(game)
            record.note(live_session)
            rng = random.Random(9)
            while not game.is_over(live_session.state):
                seat, legal = choose_actor(game, live_session.state, rng)
                token = seated.host if seat == TABLE else seated.tokens[seat]
                path = f"/api/host/sessions/{seated.id}/actions" if seat == TABLE else \
                    f"/api/sessions/{seated.id}/actions"
                action = rng.choice(legal)
                _, log = game.apply(live_session.state, action)
                response = client.post(path, json={"token": token, "state_id": live_session.state_id,
                                                   "action": action.to_json()})
                assert response.status_code == 200, response.text
                record.attempts.append((action.to_json(), seat != TABLE and all(m.visible_to is None for m in log)))
                record.note(live_session)
                for viewer, ws in sockets.items():
                    while True:
                        message = ws.receive_json()
                        received[viewer].messages.append(message)
                        if message["type"] == "view" and message["view"]["state_id"] == live_session.state_id:
                            break
            checkers = [random.Random(1)]
            for viewer, wire in received.items():
                assert record.check(viewer, wire, checkers) > 5
        finally:
            for viewer, ws in sockets.items():
                if viewer is not None:
                    ws.__exit__(None, None, None)
