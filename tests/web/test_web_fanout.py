"""The fan-out after a change: who hears first, what each seat's message holds, state-only parts made once per
state, and the real server's compressed WebSocket."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time

import pytest
from web_helpers import free_port, wait_for

from companion.cli.serve import build_server
from companion.core.seats import HOST
from companion.store import Session, Store
from companion.store import db as db_module
from companion.web import Settings
from companion.web.hub import Connection, Hub


class Tape:
    """The far ends of several connections, writing what each is sent onto one tape, in the order it is sent."""

    def __init__(self) -> None:
        self.sent: list[tuple[object, str, str]] = []  # (who, message type, raw text)

    def end(self, who: object):
        async def send(text: str) -> None:
            self.sent.append((who, json.loads(text)["type"], text))

        async def close(code: int, reason: str) -> None:
            return None

        return send, close

    def since(self, mark: int) -> list[tuple[object, str, str]]:
        return self.sent[mark:]


@pytest.fixture
async def hub(db_path):
    store = Store(db_path)
    hub = Hub(store, actions_per_second=1000, action_burst=1000, hint_workers=0)
    yield hub
    await hub.close()
    store.close()


async def seated_table(hub, new_session, game: str, players: int, **kwargs):
    seated = new_session(game=game, players=players, **kwargs)
    live = await hub.live(seated.id)
    tape = Tape()
    tasks = []
    for viewer in [None, *range(players)]:
        send, close = tape.end("display" if viewer is None else viewer)
        connection = Connection(viewer, send, close)
        tasks.append(asyncio.create_task(connection.run_sender()))
        await live.attach(connection)
    await wait_for(lambda: sum(1 for _, kind, _ in tape.sent if kind == "view") == players + 1)
    return live, tape, tasks


async def test_the_acting_seat_is_served_first_then_the_displays_then_the_other_phones(hub, new_session):
    """The hub queues the new views in this order (each connection's sender then sends on its own, so a slow phone
    holds up nobody); the acting phone's feedback is queued before any view."""
    live, tape, tasks = await seated_table(hub, new_session, "tiny", 3)
    queued: list[tuple[object, str]] = []
    for connection in live.connections:
        def offer(kind, text, state_id=None, connection=connection, offer=connection.offer):
            queued.append(("display" if connection.viewer is None else connection.viewer, kind))
            offer(kind, text, state_id)
        connection.offer = offer  # type: ignore[method-assign]
    acted = set()
    for _ in range(6):
        session = live.session
        seat = next(s for s in session.game.current_seats(session.state) if isinstance(s, int))
        action = session.legal_actions(seat)[0]
        mark, start = len(tape.sent), len(queued)
        target = session.state_id + 1
        outcome = await live.submit(action, seat, session.state_id, "phone")
        assert outcome.ok
        await wait_for(lambda mark=mark: sum(1 for _, kind, _ in tape.since(mark) if kind == "view") == 4)
        order = [(who, kind) for who, kind in queued[start:] if kind in ("feedback", "view")]
        views = [who for who, kind in order if kind == "view"]
        assert order.index((seat, "feedback")) < order.index((seat, "view"))
        # The acting phone's feedback is on the wire before the display's public copy is even worded.
        sent = [(who, kind) for who, kind, _ in tape.since(mark)]
        assert sent.index((seat, "feedback")) < sent.index(("display", "feedback"))
        assert views[:2] == [seat, "display"] and sorted(views[2:]) == sorted({0, 1, 2} - {seat})
        # What the acting phone itself receives: its feedback, then its view of the new state.
        own = [(kind, text) for who, kind, text in tape.since(mark) if who == seat and kind in ("feedback", "view")]
        assert [kind for kind, _ in own[:2]] == ["feedback", "view"] and f'"state_id":{target},' in own[1][1]
        acted.add(seat)
    assert len(acted) >= 2  # the order followed whoever acted, not the order the phones connected in
    for task in tasks:
        task.cancel()


async def test_a_tap_on_the_controller_or_a_bots_move_sends_the_views_first_then_the_feedback(hub, new_session):
    """Nobody waits on a page for the answer to a tap on the controller or a bot's move: every screen's new view
    goes out first and the feedback's sentence follows; an undo from the controller too. A phone's move keeps its
    answer first."""
    live, tape, tasks = await seated_table(hub, new_session, "tiny", 3)
    session = live.session
    for source in ("board", "bot", "phone"):
        seat = next(s for s in session.game.current_seats(session.state) if isinstance(s, int))
        mark = len(tape.sent)
        outcome = await live.submit(session.legal_actions(seat)[0], seat, session.state_id, source)
        assert outcome.ok
        sent = [(who, kind) for who, kind, _ in tape.since(mark) if kind in ("feedback", "view")]
        views = [i for i, (_, kind) in enumerate(sent) if kind == "view"]
        feedback = [i for i, (_, kind) in enumerate(sent) if kind == "feedback"]
        assert len(views) == 4 and {who for who, kind in sent if kind == "feedback"} == {seat, "display"}
        if source == "phone":
            assert sent.index((seat, "feedback")) < sent.index((seat, "view"))
        else:
            assert max(views) < min(feedback), (source, sent)
    mark = len(tape.sent)
    outcome = await live.undo(HOST, session.state_id, "board")
    assert outcome.ok
    sent = [kind for _, kind, _ in tape.since(mark) if kind in ("feedback", "view")]
    assert sent == ["view"] * 4 + ["feedback"], sent
    for task in tasks:
        task.cancel()


async def test_the_store_is_checkpointed_in_a_thread_once_a_changes_views_and_answer_are_out(hub, new_session,
                                                                                               monkeypatch):
    """No tap's commit copies the WAL into the database file: once enough is committed, the hub has the store do
    it in a thread, after the change's views and feedback were sent, for an action and an undo alike."""
    monkeypatch.setattr(db_module, "CHECKPOINT_WANTED", 3)
    live, tape, tasks = await seated_table(hub, new_session, "tiny", 3)
    runs: list[tuple[int, list[str]]] = []
    checkpoint = hub.store.checkpoint

    def recorded() -> None:
        runs.append((threading.get_ident(), [kind for _, kind, _ in tape.since(mark)]))
        checkpoint()

    hub.store.checkpoint = recorded  # type: ignore[method-assign]
    session = live.session
    hub.store.commits = 0
    for step in range(6):
        seat = next(s for s in session.game.current_seats(session.state) if isinstance(s, int))
        mark = len(tape.sent)
        if step == 2:
            assert (await live.undo(HOST, session.state_id, "host")).ok
        else:
            assert (await live.submit(session.legal_actions(seat)[0], seat, session.state_id, "phone")).ok
        if step in (2, 5):  # the third commit since the last checkpoint
            expected = (step + 1) // 3
            await wait_for(lambda expected=expected: len(runs) == expected and hub._checkpoint is None)
            thread, sent_before = runs[-1]
            assert thread != threading.get_ident()
            assert sent_before.count("view") == 4 and "feedback" in sent_before
        else:
            await asyncio.sleep(0.05)
        assert len(runs) == (step + 1) // 3
    assert hub.store.checkpoints == 2 and hub.store.commits == 0
    for task in tasks:
        task.cancel()


async def test_an_action_and_an_undo_queue_their_views_before_they_return_and_once(hub, new_session):
    """The action's own path queues every connection's new view (no turn of the loop for the fan-out task, so the
    caller's work after it, the controller's beep and lamps, never holds the views up), and the fan-out task
    does not send the same state a second time. A change from elsewhere (names) still goes out through it."""
    live, tape, tasks = await seated_table(hub, new_session, "tiny", 3)
    envelopes = live.envelopes

    def marked(viewers):  # the moment the views are made, on the tape of what was sent
        tape.sent.append(("hub", "views made", ""))
        return envelopes(viewers)

    live.envelopes = marked  # type: ignore[method-assign]
    queued: list[tuple[object, int | None]] = []
    for connection in live.connections:
        def offer(kind, text, state_id=None, connection=connection, offer=connection.offer):
            if kind == "view":
                queued.append((connection.viewer, state_id))
            offer(kind, text, state_id)
        connection.offer = offer  # type: ignore[method-assign]
    session = live.session
    for _ in range(3):
        seat = next(s for s in session.game.current_seats(session.state) if isinstance(s, int))
        start, fanouts, mark = len(queued), live.fanouts, len(tape.sent)
        origin = next(c for c in live.connections if c.viewer == seat)
        outcome = await live.submit(session.legal_actions(seat)[0], seat, session.state_id, "phone", origin)
        assert outcome.ok
        # The acting phone's feedback was sent before the views were made.
        sent = [(who, kind) for who, kind, _ in tape.since(mark)]
        assert sent.index((seat, "feedback")) < sent.index(("hub", "views made"))
        # Queued already, with no await in between: every connection has the new state's view, and (each far end
        # taking it at once) it is on every wire.
        assert sorted(queued[start:], key=repr) == sorted([(v, outcome.state_id) for v in (None, 0, 1, 2)], key=repr)
        assert sorted((who for who, kind, _ in tape.since(mark) if kind == "view"), key=repr) == sorted(
            ["display", 0, 1, 2], key=repr)
        for _ in range(20):
            await asyncio.sleep(0)  # the fan-out task, woken by the change, has had its turns
        assert len(queued) == start + 4 and live.fanouts == fanouts + 1
    start = len(queued)
    outcome = await live.undo(HOST, session.state_id, "host")
    assert outcome.ok
    assert sorted(queued[start:], key=repr) == sorted([(v, outcome.state_id) for v in (None, 0, 1, 2)], key=repr)
    start = len(queued)
    live.touch()  # a name changed: not an action, so the fan-out task sends it
    await wait_for(lambda: len(queued) == start + 4)
    assert {state for _, state in queued[start:]} == {session.state_id}
    for task in tasks:
        task.cancel()


async def test_each_seats_message_is_exactly_its_view_and_holds_no_other_seats_hand(hub, new_session):
    live, tape, tasks = await seated_table(hub, new_session, "bohnanza", 4, mode="digital")
    session = live.session
    game = session.game
    for _ in range(12):
        state = session.state
        seat = next(s for s in game.current_seats(state) if isinstance(s, int) and game.legal_actions(state, s))
        outcome = await live.submit(game.legal_actions(state, seat)[0], seat, session.state_id, "phone")
        assert outcome.ok
    target = session.state_id
    await wait_for(lambda: sum(1 for _, kind, text in tape.sent
                               if kind == "view" and f'"state_id":{target},' in text) == 5)
    hands = {seat: set(session.state.players[seat].hand) for seat in range(4)}
    assert all(hands.values())
    for who, kind, text in tape.sent:
        if kind != "view" or f'"state_id":{target},' not in text:
            continue
        viewer = None if who == "display" else who
        # The encoded bytes carry exactly what the session's view says (the same JSON content, nothing more).
        assert json.loads(text) == {"type": "view", "view": json.loads(json.dumps(session.view(viewer, hints=False)))}
        quoted = set(re.findall(r'"([a-z_]+-\d+)"', text))
        for seat, hand in hands.items():
            if seat != viewer:
                assert not quoted & hand, f"{who}'s view names cards in player {seat + 1}'s hand"
        if viewer is not None:
            assert hands[viewer] <= quoted  # the seat's own hand is there (so the check above can see cards)
    for task in tasks:
        task.cancel()


def test_the_parts_of_a_view_made_once_per_state_follow_the_state_through_actions_and_undo(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    session = Session.create(store, "bohnanza", 4, seed=3, mode="digital")
    game = session.game
    before = {seat: session.view(seat, hints=False) for seat in (None, 0, 1, 2, 3)}
    assert session.view(0, hints=False) == before[0]  # made again from what was kept: the same
    state = session.state
    seat = next(s for s in game.current_seats(state) if isinstance(s, int) and game.legal_actions(state, s))
    session.submit(game.legal_actions(state, seat)[0], seat)
    after = {s: session.view(s, hints=False) for s in (None, 0, 1, 2, 3)}
    for s in after:
        assert after[s]["view"] == game.view(session.state, s)
        assert after[s]["current_seats"] == list(game.current_seats(session.state))
        if s is not None:
            assert after[s]["legal"] == [a.to_json() for a in game.legal_actions(session.state, s)]
    assert after[seat]["view"] != before[seat]["view"]
    session.undo(seat)
    for s, old in before.items():
        again = session.view(s, hints=False)
        for key in ("view", "legal", "current_seats", "over", "now", "board_jobs"):
            assert again.get(key) == old.get(key), key
    store.close()


def test_the_served_socket_compresses_at_level_1_and_the_phone_reads_its_view(db_path, new_session):
    """`companion serve`'s own server: permessage-deflate is negotiated, the server compresses at zlib level 1, and
    what the phone decompresses is its view."""
    from websockets.sync.client import connect

    seated = new_session(game="tiny", players=2)
    port = free_port()
    server = build_server(Settings(db_path=db_path, host="127.0.0.1", port=port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
            time.sleep(0.02)
        url = f"ws://127.0.0.1:{port}/ws/sessions/{seated.id}/seat?token={seated.tokens[1]}"
        with connect(url, open_timeout=10) as ws:
            assert [e.name for e in ws.protocol.extensions] == ["permessage-deflate"]
            message = json.loads(ws.recv(timeout=10))
            assert message["type"] == "view" and message["view"]["seat"] == 1
            served = [c for c in server.server_state.connections if getattr(c, "conn", None) is not None]
            assert served and all(e.compress_settings.get("level") == 1
                                  for c in served for e in c.conn.extensions)
        store = Store(db_path)
        expected = Session(store, seated.id).view(1, hints=False)
        store.close()
        assert message["view"]["view"] == json.loads(json.dumps(expected["view"]))
        assert message["view"]["legal"] == expected["legal"]
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_the_ticker_lines_of_a_view_follow_every_change_of_the_ticker_and_keep_private_lines_private(tmp_path):
    from companion.core.log import LogMessage

    store = Store(tmp_path / "s.sqlite3")
    session = Session.create(store, "bohnanza", 4, seed=3, mode="digital")

    def texts(viewer):
        return [line["template"] for line in session.view(viewer, hints=False)["log"]]

    before = {viewer: texts(viewer) for viewer in (None, 0, 1, 2, 3)}
    session.ticker.append(LogMessage("a line for player 2 alone", visible_to=(1,)))  # no new state
    for viewer in (None, 0, 2, 3):
        assert texts(viewer) == before[viewer]
    assert texts(1) == [*before[1], "a line for player 2 alone"]
    session.ticker.append(LogMessage("a line for everyone"))
    for viewer in (None, 0, 1, 2, 3):
        assert texts(viewer)[-1] == "a line for everyone"
        assert ("a line for player 2 alone" in texts(viewer)) == (viewer == 1)
    session.ticker.clear()
    assert all(texts(viewer) == [] for viewer in (None, 0, 1, 2, 3))
    store.close()
