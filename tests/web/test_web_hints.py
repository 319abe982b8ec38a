"""Hints follow the views: every view goes out first, a slow hand delays no one, stale hints are dropped."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import time

import pytest

from companion.core.seats import HOST
from companion.games.shifting_stones.patterns import CARD_IDS
from companion.store import Store
from companion.web.hub import Connection, Hub

Event = tuple[str, object, int]  # (message type, viewer, state id)


class Wire:
    """One connection's far end; every message sent to any wire is also noted, in order, in one shared list."""

    def __init__(self, viewer: object, sent: list[Event]) -> None:
        self.viewer = viewer
        self.sent = sent
        self.messages: list[dict] = []

    async def send(self, text: str) -> None:
        message = json.loads(text)
        self.messages.append(message)
        if message["type"] in ("view", "hints"):
            state_id = message["view"]["state_id"] if message["type"] == "view" else message["state_id"]
            self.sent.append((message["type"], self.viewer, state_id))

    async def close(self, code: int, reason: str) -> None:
        pass


class NotingConnection(Connection):
    """A connection that also notes, in one shared list, what the hub offered it (before any sending)."""

    def __init__(self, viewer: object, wire: Wire, offered: list[Event]) -> None:
        super().__init__(viewer, wire.send, wire.close, queue_size=1000)  # type: ignore[arg-type]
        self.offered = offered

    def offer(self, kind: str, text: str, state_id: int | None = None) -> None:
        if kind in ("view", "hints") and state_id is not None:
            self.offered.append((kind, self.viewer, state_id))
        super().offer(kind, text, state_id)


async def wait_for(condition, timeout: float = 60.0) -> None:
    """Generous: the first hints of a test run wait for the worker process to start (seconds on a busy machine)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.002)


@pytest.fixture
async def hub(db_path):
    store = Store(db_path)
    hub = Hub(store, actions_per_second=1e6, action_burst=10**6)
    yield hub
    await hub.close()
    store.close()


async def table(hub: Hub, new_session, viewers: list[object]):
    seated = new_session("shifting_stones", 3, seed=4)
    live = await hub.live(seated.id)
    offered: list[Event] = []
    sent: list[Event] = []
    wires = {}
    senders = []
    for viewer in viewers:
        wire = wires[viewer] = Wire(viewer, sent)
        connection = NotingConnection(viewer, wire, offered)
        senders.append(asyncio.create_task(connection.run_sender()))
        await live.attach(connection)
    return live, wires, offered, sent, senders


def huge_hand(live, seat: int, size: int) -> None:
    """Seat `seat` holds `size` cards, as after many skips (the deck gives them up)."""
    session = live.session
    state = session.state
    rng = random.Random(size)
    held = {c for p in state.players for c in p.hand}
    extra = rng.sample([c for c in CARD_IDS if c not in held], size - len(state.players[seat].hand))
    players = list(state.players)
    players[seat] = dataclasses.replace(players[seat], hand=players[seat].hand + tuple(extra))
    session._states[-1] = dataclasses.replace(state, players=tuple(players),
                                              deck=tuple(c for c in state.deck if c not in extra))


def positions(events: list[Event], kind: str, viewer: object, state_id: int) -> list[int]:
    return [i for i, e in enumerate(events) if e == (kind, viewer, state_id)]


async def test_every_seats_view_goes_out_before_any_hints(hub, new_session):
    viewers: list[object] = [0, 1, 2, None]
    live, wires, offered, sent, senders = await table(hub, new_session, viewers)
    for _ in range(3):
        seat = live.session.game.current_seats(live.session.state)[0]
        action = live.session.legal_actions(seat)[0]
        assert (await live.submit(action, seat, live.session.state_id, "phone")).ok
        target = live.session.state_id
        await wait_for(lambda t=target: all(positions(sent, "hints", s, t) for s in (0, 1, 2)))
        for events in (offered, sent):
            last_view = max(positions(events, "view", v, target)[0] for v in viewers)
            first_hints = min(positions(events, "hints", s, target)[0] for s in (0, 1, 2))
            assert last_view < first_hints
    # The public stream never gets hints; each seat only its own.
    assert not [m for m in wires[None].messages if m["type"] == "hints"]
    for seat in (0, 1, 2):
        assert {m["seat"] for m in wires[seat].messages if m["type"] == "hints"} == {seat}
    for task in senders:
        task.cancel()


async def test_work_a_change_starts_waits_for_every_view_of_it_to_be_on_the_wire(hub, new_session):
    """The controller's lamps and the bots' look at the table start with each change (from the session's
    listeners, as the fan-out does) and run in worker threads: they wait in `after_views` until every connection
    has the change's view on the wire, so they never take the interpreter from the fan-out."""
    viewers: list[object] = [0, 1, 2, None]
    live, _wires, _offered, sent, senders = await table(hub, new_session, viewers)
    await asyncio.wait_for(live.after_views(), 1.0)  # nothing to wait for before the first change
    loop = asyncio.get_running_loop()
    seen: list[tuple[int, list[Event]]] = []

    async def lamps(state_id: int) -> None:
        await live.after_views()
        seen.append((state_id, list(sent)))

    live.session.subscribe(lambda session, _accepted: loop.call_soon_threadsafe(
        lambda: loop.create_task(lamps(session.state_id))))
    for _ in range(3):
        seat = live.session.game.current_seats(live.session.state)[0]
        action = live.session.legal_actions(seat)[0]
        assert (await live.submit(action, seat, live.session.state_id, "phone")).ok
        target = live.session.state_id
        await wait_for(lambda t=target: any(s == t for s, _ in seen))
        by_then = next(events for state_id, events in seen if state_id == target)
        assert all(positions(by_then, "view", v, target) for v in viewers)
    for task in senders:
        task.cancel()


async def test_a_forty_card_hand_delays_no_other_seats_view_and_its_stale_hints_are_dropped(hub, new_session):
    viewers: list[object] = [0, 1, 2, None]
    live, wires, _offered, sent, senders = await table(hub, new_session, viewers)
    huge_hand(live, 0, 40)
    live.touch()
    await wait_for(lambda: positions(sent, "hints", 1, 0) and positions(sent, "hints", 2, 0))
    moves = 0
    overtaken = 0
    while moves < 4:
        before = live.session.state_id
        seat = live.session.game.current_seats(live.session.state)[0]
        legal = live.session.legal_actions(seat)
        action = next((a for a in legal if a.kind == "end_turn"), legal[0])
        outcome = await live.submit(action, HOST, before, "host")
        assert outcome.ok
        moves += 1
        target = before + 1
        # Every view of the new state goes out even while seat 0's slow hints of the state before are in the works.
        slow_pending = not positions(sent, "hints", 0, before)
        await wait_for(lambda t=target: all(positions(sent, "view", v, t) for v in viewers))
        if slow_pending and not positions(sent, "hints", 0, before):
            overtaken += 1
    assert overtaken > 0  # the views of a later state went out before a forty-card hand's hints were done
    # Seat 0's messages: hints only ever for the state of the view it last got (hints of a past state are dropped).
    latest = -1
    for message in wires[0].messages:
        if message["type"] == "view":
            latest = message["view"]["state_id"]
        elif message["type"] == "hints":
            assert message["state_id"] == latest
            assert len(message["hints"]["cards"]) >= 38  # it is the big hand's advice
    # Its hints come in the end, for the latest state, within the budget's answer (not exact at this size).
    final = live.session.state_id
    await wait_for(lambda: positions(sent, "hints", 0, final))
    last = [m for m in wires[0].messages if m["type"] == "hints"][-1]
    assert last["state_id"] == final and last["hints"]["best_turn"]["exact"] is False
    for task in senders:
        task.cancel()


async def test_a_rest_view_never_waits_for_hints_and_the_hints_follow_from_the_pool(hub, new_session):
    """A forty-card hand's search takes its whole budget; the REST view answers without it, the hints endpoint
    then gives them (computed in the pool, no phone connected), and the next view of that state carries them."""
    seated = new_session("shifting_stones", 3, seed=4)
    live = await hub.live(seated.id)
    huge_hand(live, 0, 40)
    state_id = live.session.state_id
    started = asyncio.get_running_loop().time()
    assert live.cached_hints(0, state_id) is None  # not ready: their computation starts, nothing waits
    assert asyncio.get_running_loop().time() - started < 0.04  # far below the search's 45 ms budget
    assert live._hint_task is not None and not live._hint_task.done()
    got_state, hints = await live.hints_for(0)
    assert got_state == state_id and len(hints["cards"]) == 40 and hints["best_turn"]["exact"] is False
    assert live.cached_hints(0, state_id) == hints
    assert live.cached_hints(1, state_id) is None  # each seat's own, computed when asked for
    _, other = await live.hints_for(1)
    assert len(other["cards"]) == len(live.session.state.players[1].hand)


def test_a_hint_worker_builds_the_stones_tables_before_its_first_job():
    """The pool's warm-up builds every pattern placement's swap table, so a game's first hints spend their time
    budget on the search, not on the tables."""
    from companion.core.registry import get_game
    from companion.games.shifting_stones import distance
    from companion.games.shifting_stones.patterns import PATTERNS
    from companion.web.hints import HintPool

    kept = dict(distance._SWAP_TABLES)
    distance._SWAP_TABLES.clear()
    pool = HintPool(0)  # one worker thread: the warm-up runs before the job submitted after it
    try:
        pool.warm((get_game("shifting_stones"),))
        pool.executor.submit(lambda: None).result(timeout=60)
        needed = {placement.cells for pattern in PATTERNS.values() for placement in pattern.placements}
        assert needed and needed <= set(distance._SWAP_TABLES)
    finally:
        pool.shutdown()
        distance._SWAP_TABLES.update(kept)


def test_the_workers_build_only_the_tables_of_the_games_being_served():
    """A table playing Power Grid does not spend a second of CPU per worker on Shifting Stones' tables."""
    from companion.core.registry import get_game
    from companion.games.shifting_stones import distance
    from companion.web.hints import HintPool

    kept = dict(distance._SWAP_TABLES)
    distance._SWAP_TABLES.clear()
    pool = HintPool(0)
    try:
        pool.warm((get_game("power_grid"),))
        pool.executor.submit(lambda: None).result(timeout=60)
        assert not distance._SWAP_TABLES
        submitted = []
        submit = pool.executor.submit
        pool.executor.submit = lambda *job: (submitted.append(job), submit(*job))[1]  # type: ignore[method-assign]
        pool.warm((get_game("power_grid"),))  # nothing new: no job at all
        assert submitted == []
        pool.warm((get_game("power_grid"), get_game("shifting_stones")))
        pool.executor.submit(lambda: None).result(timeout=60)
        assert distance._SWAP_TABLES
    finally:
        pool.shutdown()
        distance._SWAP_TABLES.clear()
        distance._SWAP_TABLES.update(kept)


async def test_a_hub_warms_the_game_of_each_session_it_serves(db_path, new_session):
    from companion.web import hub as hub_module

    store = Store(db_path)
    hub = Hub(store, hint_workers=0)
    asked: list[tuple[str, ...]] = []
    warm = hub.hint_pool.warm
    hub.hint_pool.warm = lambda games=(): (asked.append(tuple(g.name for g in games)), warm(games))[1]
    try:
        first = new_session(game="power_grid", players=3)
        await hub.live(first.id)
        assert asked == []  # not before the delay: the server is still starting
        await asyncio.sleep(hub_module.HINT_WARM_DELAY + 0.2)
        assert asked == [("power_grid",)]
        second = new_session(game="shifting_stones", players=3)
        await hub.live(second.id)  # loaded later: warmed at once
        assert asked == [("power_grid",), ("shifting_stones",)]
    finally:
        hub.hint_pool.warm = warm
        await hub.close()
        store.close()


class GatedWire(Wire):
    """A far end that takes a view only once its gate opens (a phone on slow Wi-Fi)."""

    def __init__(self, viewer: object, sent: list[Event]) -> None:
        super().__init__(viewer, sent)
        self.gate = asyncio.Event()

    async def send(self, text: str) -> None:
        if json.loads(text)["type"] == "view":
            await self.gate.wait()
        await super().send(text)


async def test_hint_jobs_start_once_every_view_is_on_the_wire_and_a_lagging_phone_holds_them_briefly(
        hub, new_session, monkeypatch):
    seated = new_session("shifting_stones", 3, seed=4)
    live = await hub.live(seated.id)
    events: list[Event] = []
    compute = hub.hint_pool.compute

    async def noted(game, state, seat):
        events.append(("job", seat, live.session.state_id))
        return await compute(game, state, seat)

    monkeypatch.setattr(hub.hint_pool, "compute", noted)
    wires: dict[object, Wire] = {}
    senders = []
    for viewer in (0, 1, 2, None):
        wire = wires[viewer] = (GatedWire if viewer == 2 else Wire)(viewer, events)
        connection = Connection(viewer, wire.send, wire.close, queue_size=1000)  # type: ignore[arg-type]
        senders.append(asyncio.create_task(connection.run_sender()))
        await live.attach(connection)
    gated = wires[2]
    assert isinstance(gated, GatedWire)
    gated.gate.set()
    await wait_for(lambda: positions(events, "hints", 0, live.session.state_id))
    gated.gate.clear()

    # Seat 2's phone takes its view 30 ms late: no hint job is handed out before that view is on the wire.
    monkeypatch.setattr("companion.web.hub.VIEWS_OUT_PATIENCE", 1.0)
    seat = live.session.game.current_seats(live.session.state)[0]
    assert (await live.submit(live.session.legal_actions(seat)[0], seat, live.session.state_id, "phone")).ok
    target = live.session.state_id
    await asyncio.sleep(0.03)
    assert not [e for e in events if e[0] == "job" and e[2] == target]
    gated.gate.set()
    await wait_for(lambda: [e for e in events if e[0] == "job" and e[2] == target])
    first_job = min(i for i, e in enumerate(events) if e[0] == "job" and e[2] == target)
    assert positions(events, "view", 2, target)[0] < first_job

    # A phone that does not take its view at all holds the jobs back only for the patience, then they go out.
    gated.gate.clear()
    monkeypatch.setattr("companion.web.hub.VIEWS_OUT_PATIENCE", 0.1)
    seat = live.session.game.current_seats(live.session.state)[0]
    started = time.monotonic()
    assert (await live.submit(live.session.legal_actions(seat)[0], seat, live.session.state_id, "phone")).ok
    target = live.session.state_id
    await wait_for(lambda: [e for e in events if e[0] == "job" and e[2] == target], timeout=5)
    assert time.monotonic() - started >= 0.1
    assert not positions(events, "view", 2, target)  # still waiting at the far end
    await wait_for(lambda: positions(events, "hints", 0, target))
    gated.gate.set()
    for task in senders:
        task.cancel()
