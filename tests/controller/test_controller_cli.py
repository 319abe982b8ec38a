"""The controller commands: tags enroll (with a small tagged game), firmware deploy, board list and sim."""

from __future__ import annotations

import asyncio

import pytest
from tiny_game import TinyGame

from companion.cli import board as board_cli
from companion.cli.main import main
from companion.core.registry import register
from companion.core.words import Words
from companion.link import BoardLink, discovery
from companion.store import Store
from companion.store.enrolment import Enrolment


class TaggedTiny(TinyGame):
    name = "tiny_tagged"
    title = "Tiny with tagged cards"

    def cards(self) -> tuple[str, ...]:
        return ("card-1", "card-2", "card-3")

    def card_words(self, card: str) -> Words:
        return Words("card {n}", {"n": int(card.split("-")[1])})


GAME = register(TaggedTiny())
UIDS = ("04000000000001", "04000000000002", "04000000000003")


async def place_and_lift(sim, uid: str) -> None:
    await asyncio.to_thread(sim.place_tag, uid)
    await asyncio.sleep(0.35)
    await asyncio.to_thread(sim.remove_tag)
    await asyncio.sleep(0.35)


async def press(sim, key: str) -> None:
    await asyncio.to_thread(sim.key, key)
    await asyncio.sleep(0.2)


async def test_enroll_asks_for_each_card_and_refuses_a_tag_of_another_card(tmp_path):
    store = Store(tmp_path / "c.sqlite3")
    lines: list[str] = []
    enrolment = Enrolment.start(store, GAME.name)
    async with BoardLink.simulated() as link:
        task = asyncio.create_task(board_cli.enroll(link, enrolment, lines.append, write=True))
        await link.wait_connected(3)
        sim = link.sim
        await place_and_lift(sim, UIDS[0])
        await place_and_lift(sim, UIDS[0])  # the first card's tag again, offered for the second card: refused
        await place_and_lift(sim, UIDS[1])
        await place_and_lift(sim, UIDS[2])
        assert await asyncio.wait_for(task, 5) == 3
        assert sim.tags[UIDS[1]].memory[16:20] == b"TC\x01\x06"  # the card id went onto the tag too
    assert store.tags(GAME.name) == {UIDS[0]: "card-1", UIDS[1]: "card-2", UIDS[2]: "card-3"}
    text = "\n".join(lines)
    assert "Tap card 1 (1 of 3): put it on the reader" in text
    assert f"refused: Tag {UIDS[0]} is already card 1: press OK to move it to card 2, BACK to skip card 2" in text
    assert text.index("refused") < text.index("(3 of 3)")
    assert "Every card has been asked for: 3 enrolled, 0 skipped" in text


async def test_enroll_from_the_controller_skips_takes_back_and_reassigns(tmp_path):
    store = Store(tmp_path / "c.sqlite3")
    lines: list[str] = []
    enrolment = Enrolment.start(store, GAME.name)
    async with BoardLink.simulated() as link:
        task = asyncio.create_task(board_cli.enroll(link, enrolment, lines.append))
        await link.wait_connected(3)
        sim = link.sim
        await place_and_lift(sim, UIDS[0])  # card 1
        await press(sim, "back")  # card 2 skipped
        await press(sim, "undo")  # card 2 asked again
        await place_and_lift(sim, UIDS[0])  # card 1's tag on card 2: refused, nothing changes
        assert store.tags(GAME.name) == {UIDS[0]: "card-1"}
        await press(sim, "ok")  # moved to card 2
        await place_and_lift(sim, UIDS[2])  # card 3
        assert await asyncio.wait_for(task, 5) == 2  # card 1's tag moved on: cards 2 and 3 hold theirs
    assert store.tags(GAME.name) == {UIDS[0]: "card-2", UIDS[2]: "card-3"}
    text = "\n".join(lines)
    assert "card 2 skipped" in text and "Took back card 2: tap it again" in text
    assert f"Tag {UIDS[0]} moved from card 1 to card 2" in text
    assert "2 enrolled, 0 skipped" in text


def test_enroll_without_cards_is_refused(tmp_path, capsys):
    assert main(["tags", "enroll", "tiny", "--sim", "--db", str(tmp_path / "c.sqlite3")]) == 1
    assert "tiny has no physical cards to tag" in capsys.readouterr().err


def test_deploy_dry_run_copies_every_file_and_resets(capsys):
    assert main(["firmware", "deploy", "--port", "/dev/ttyACM0", "--dry-run", "--compile"]) == 0
    out = capsys.readouterr().out
    assert "mpremote connect /dev/ttyACM0 fs cp " in out
    assert ":tablectl/link.mpy" in out and ":main.py" in out and ":tablectl/link.py" not in out
    assert out.strip().splitlines()[-2].endswith("reset")


def test_deploy_needs_a_board(monkeypatch):
    monkeypatch.setattr(board_cli, "find_boards", lambda serial=None: [])
    assert main(["firmware", "deploy", "--dry-run"]) == 1


def test_board_list_shows_plugged_in_picos(monkeypatch, capsys):
    monkeypatch.setattr(board_cli, "find_boards", lambda: [discovery.BoardPort("/dev/ttyACM0", "E6614C", "Board")])
    assert main(["board", "list"]) == 0
    assert "/dev/ttyACM0\tserial E6614C" in capsys.readouterr().out
    monkeypatch.setattr(board_cli, "find_boards", lambda: [])
    assert main(["board", "list"]) == 1


def test_board_sim_runs_a_script_and_reports_events(tmp_path, capsys):
    script = tmp_path / "table.txt"
    script.write_text("seat 2\nkey undo\ntag 04A1B2C3D4E5F6\nwait 300\nleds\n")
    assert main(["board", "sim", "--script", str(script), "--monitor", "--exit"]) == 0
    out = capsys.readouterr().out
    for text in ("seat button 3 press", "key undo press", "tag 04A1B2C3D4E5F6 placed", "LEDs: seats"):
        assert text in out


def test_sim_commands_report_mistakes():
    from companion.link.sim import SimulatedBoard

    sim = SimulatedBoard()
    sim.start()
    try:
        with pytest.raises(ValueError, match="no seat button 9"):
            sim.run_command("seat 9")
        with pytest.raises(ValueError, match="unknown command"):
            sim.run_command("dance")
        assert "seat N" in (sim.run_command("help") or "")
    finally:
        sim.stop()
