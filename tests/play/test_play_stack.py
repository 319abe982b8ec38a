"""End to end: a whole scripted game of each title through the simulated board, the router, the server, the
phones' WebSockets and the display's client — the real firmware behind a real pseudo-terminal, a real uvicorn."""

from __future__ import annotations

import pytest
from play_helpers import Display, Hand, Phone, TableThread, enroll_all, wait_until

from companion.core.registry import get_game
from companion.core.seats import HOST, TABLE
from companion.play.runner import lamps
from companion.store import Session, Store
from companion.testing.harness import playout

# Each title in the mode where the controller does the most: bots choose the moves, the script makes each one on
# the controller when the router has a way, else on the acting seat's phone (or, for the table and the host, on
# the display as the host).
GAMES = [
    ("power_grid", 2, "digital", "heuristic", 11),
    ("bohnanza", 2, "physical", "trader", 5),
    ("shifting_stones", 2, "physical", "greedy", 3),
]


def lit(board) -> tuple[list[str], str]:
    shown = board.hardware.pixels.shown
    hexes = ["".join(f"{c:02x}" for c in colour) for colour in shown]
    return hexes[:7], hexes[7]


@pytest.mark.parametrize(("name", "players", "mode", "bot", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_through_the_controller_the_server_the_phones_and_the_display(tmp_path, name, players, mode,
                                                                                  bot, seed):
    db = tmp_path / "table.sqlite3"
    game = get_game(name)
    script = playout(game, players, seed, mode=mode, bots={s: game.bots()[bot] for s in range(players)}, check=False)
    assert script.finished
    store = Store(db)
    session = Session.create(store, name, players, seed=seed, mode=mode, names=[f"P{i}" for i in range(players)])
    sid, host_token = session.id, session.host_token
    tokens = [row.token for row in store.seats(sid)]
    store.close()
    uids = enroll_all(db, name)

    table = TableThread(db, str(sid)).start()
    hand = Hand(table.board, uids)
    display = Display(table.url, sid, host_token)
    phones = [Phone(table.url, sid, token) for token in tokens]
    try:
        wait_until(lambda: display.state_id == 0 and all(p.state_id == 0 for p in phones), what="the first views")
        by_board = by_phone = by_host = 0
        for i, action in enumerate(script.actions):
            plan = table.plan(action)
            if plan is not None:
                hand.perform(plan)
                by_board += 1
            elif isinstance(action.seat, int):
                phones[action.seat].act(action.to_json())
                by_phone += 1
            else:
                assert action.seat in (TABLE, HOST)
                display.client.send_action(action.to_json(), i)
                by_host += 1
            wait_until(lambda n=i + 1: display.state_id >= n and all(p.state_id >= n for p in phones),
                       what=f"action {i} ({action.to_json()}) to reach the display and every phone")
            assert display.state_id == i + 1, f"action {i} was applied more than once"
            if i % 40 == 0:  # the seat lamps follow whose turn it is
                expected = lamps(table.live.session)
                wait_until(lambda e=expected: lit(table.board) == e, 3, "the lamps to show whose turn it is")
        final = Session(Store(db), sid)
        assert final.state == script.final_state
        assert final.verify()
        assert display.model.over and display.model.scene_name() == "summary"
        assert all(p.view["over"] for p in phones)
        def board_feedback() -> int:
            return len([m for m in display.feedback() if m["source"] == "board" and m["ok"] and m["action"]])

        # A tap's feedback follows its views: the last one may still be on its way.
        wait_until(lambda: board_feedback() >= by_board, what="the feedback of every tap on the display")
        assert board_feedback() == by_board
        assert by_board >= len(script.actions) // 3
        assert table.table is not None and table.table.errors == []
        print(f"{name}: {len(script.actions)} actions, {by_board} on the controller ({hand.presses} inputs), "
              f"{by_phone} on phones, {by_host} by the host")
    finally:
        display.close()
        for phone in phones:
            phone.close()
        table.stop()
