"""Hot-plug during `companion play`, over real pseudo-terminals: a board plugged in while the simulated one runs
takes over at once (the simulated one stops; the display and the phones are told); unplugged mid-game, the
phones take over with a notice; replugged, it resumes where it was, with what was pressed meanwhile."""

from __future__ import annotations

import time

import pytest
from play.play_helpers import TIMINGS, TableThread, wait_until

from companion.link import board as board_module
from companion.link import discovery
from companion.link.sim import SimulatedBoard
from companion.play import runner
from companion.store import Session, Store


@pytest.fixture
def plugged(monkeypatch):
    """What discovery finds: a list the test fills in, as the USB bus would."""
    ports: list[discovery.BoardPort] = []
    monkeypatch.setattr(discovery, "find_boards", lambda serial_number=None: list(ports))
    monkeypatch.setattr(board_module, "find_boards", lambda serial_number=None: list(ports))
    monkeypatch.setattr(runner, "HOTPLUG_SCAN", 0.1)
    monkeypatch.setattr(board_module.BoardLink, "RESCAN", 0.1)
    return ports


def test_a_board_plugged_in_takes_over_and_an_unplugged_one_falls_back_to_the_phones(tmp_path, plugged):
    db = tmp_path / "table.sqlite3"
    Session.create(Store(db), "shifting_stones", 2, seed=1)
    table = TableThread(db, None).start()
    real = SimulatedBoard(board_id="e6614c0000000001", timings=TIMINGS)  # the "real" board behind its own pty
    notes: list[str] = []
    try:
        assert table.table is not None
        live = table.live
        note = live.note
        live.note = lambda ok, seat, text, *args, **kw: (notes.append(text), note(ok, seat, text, *args, **kw))[1]
        simulated = table.board
        plugged.append(discovery.BoardPort(real.start(), "E6614C0000000001", "Board in FS mode"))
        wait_until(lambda: table.table is not None and table.table.board is not None
                   and table.table.board.sim is None and table.table.board.connected, 30, "the board to take over")
        assert simulated._stop.is_set(), "the simulated board stopped before the new one took over"
        assert runner.TAKEN_OVER in notes
        assert any("takes over and the simulated board stops" in line for line in table.lines)
        handled = table.table.handled
        real.click(0)
        wait_until(lambda: table.table is not None and table.table.handled > handled, 30, "a press on the new board")

        # Unplugged mid-game: a notice, the phones go on; what is pressed meanwhile waits on the board.
        real.unplug()
        plugged.clear()
        wait_until(lambda: runner.UNPLUGGED in notes, 30, "the notice that the controller is gone")
        handled = table.table.handled
        real.click(1)
        time.sleep(0.3)
        assert table.table.handled == handled
        plugged.append(discovery.BoardPort(real.replug(), "E6614C0000000001", "Board in FS mode"))
        wait_until(lambda: runner.BACK in notes, 30, "the notice that the controller is back")
        wait_until(lambda: table.table is not None and table.table.handled > handled, 30,
                   "the press made while unplugged")
        assert table.table.board is not None and table.table.board.sim is None, "no restart, the same link"
        assert notes.count(runner.TAKEN_OVER) == 1
    finally:
        table.stop()
        real.stop()


async def test_the_table_says_when_no_reader_answers_or_the_board_restarted_after_an_error(tmp_path):
    from companion.link import BoardEvent
    from companion.play.runner import PlayOptions, Table

    lines: list[str] = []
    table = Table(PlayOptions(db_path=tmp_path / "t.sqlite3"), out=lines.append)
    await table._handle(BoardEvent("hello", "b1", reader=0, cause="error (OSError)"))
    await table._handle(BoardEvent("hello", "b1", reader=0x92, cause="power"))
    assert lines == [
        "controller: no RC522 reader answers (check its wiring); buttons and keys work, taps do not",
        "controller: the board restarted after an error (OSError)",
    ]
