"""The guided enrolment of a deck: named cards with progress, refusals that change nothing, skip, undo, resume."""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.core.errors import NotAllowed
from companion.store import Store
from companion.store.enrolment import Enrolment

A, B, C, D = "04000000000A01", "04000000000A02", "04000000000A03", "04000000000A04"


def test_a_bohnanza_deck_is_walked_bean_by_bean_with_its_copy_and_the_progress(tmp_path):
    store = Store(tmp_path / "c.sqlite3")
    enrolment = Enrolment.start(store, "bohnanza")
    chili = enrolment.cards.index("chili-03")
    enrolment.steps = [{"card": c, "uid": None, "replaced": None, "moved_from": None}
                       for c in enrolment.cards[:chili]]
    assert enrolment.prompt().text == f"Tap Chili Bean 3 of 18 ({chili + 1} of 154)"
    assert Enrolment.start(store, "power_grid").prompt().text == "Tap plant 3 (1 of 43)"
    assert Enrolment.start(store, "shifting_stones").prompt().text.endswith("(1 of 72)")


def test_a_tag_of_another_card_is_refused_and_changes_nothing_until_reassigned(tmp_path):
    store = Store(tmp_path / "c.sqlite3")
    enrolment = Enrolment.start(store, "power_grid", ["plant-03", "plant-04", "plant-05"])
    assert enrolment.tap(A).kind == "enrolled"
    said = enrolment.tap(A)
    assert not said.ok and said.kind == "conflict"
    assert said.text == (f"Tag {A} is already plant 3: press OK to move it to plant 4, BACK to skip plant 4, "
                         "or tap another tag")
    assert store.tags("power_grid") == {A: "plant-03"} and enrolment.current == "plant-04"
    assert enrolment.reassign().text == f"Tag {A} moved from plant 3 to plant 4"
    assert store.tags("power_grid") == {A: "plant-04"} and enrolment.current == "plant-05"
    assert not enrolment.reassign().ok  # nothing pending any more
    assert enrolment.undo().text == "Took back plant 4: tap it again"
    assert store.tags("power_grid") == {A: "plant-03"}, "the tag went back to the card it was moved from"


def test_a_tag_of_another_game_is_refused_with_which_card_it_is(tmp_path):
    store = Store(tmp_path / "c.sqlite3")
    store.enroll_tag(A, "bohnanza", "chili-01")
    said = Enrolment.start(store, "power_grid").tap(A)
    assert said.kind == "conflict" and "is already Chili Bean 1 of 18 (Bohnanza)" in said.text
    assert store.tags("power_grid") == {}


def test_skip_and_undo_and_a_restickered_card_gets_its_old_tag_back_on_undo(tmp_path):
    store = Store(tmp_path / "c.sqlite3")
    store.enroll_tag(D, "power_grid", "plant-04")
    enrolment = Enrolment.start(store, "power_grid", ["plant-03", "plant-04"])
    assert enrolment.skip().text == "plant 3 skipped"
    assert enrolment.tap(B).text == f"plant 4: tag {B} enrolled"  # a new sticker on plant 4
    assert store.tags("power_grid") == {B: "plant-04"} and enrolment.done
    assert enrolment.finished().text == "Every card has been asked for: 1 enrolled, 1 skipped"
    assert enrolment.tap(C).ok is False  # finished: nothing more is taken
    enrolment.undo()
    assert store.tags("power_grid") == {D: "plant-04"} and enrolment.current == "plant-04"
    enrolment.undo()
    assert enrolment.current == "plant-03"
    assert not enrolment.undo().ok and enrolment.undo().text == "Nothing to take back yet"
    with pytest.raises(NotAllowed, match="not a tag UID"):
        enrolment.tap("zz")
    assert enrolment.current == "plant-03"


def test_an_interrupted_enrolment_resumes_where_it_was_from_the_store(tmp_path):
    path = tmp_path / "c.sqlite3"
    store = Store(path)
    enrolment = Enrolment.start(store, "power_grid", write=True)
    enrolment.tap(A)
    enrolment.tap(B)
    enrolment.tap(A)  # refused, pending
    store.close()
    again = Enrolment.start(Store(path), "power_grid")
    assert again.current == "plant-05" and again.write and again.pending == {"uid": A, "game": "power_grid",
                                                                              "card": "plant-03"}
    assert again.view()["n"] == 3 and again.view()["enrolled"] == 2
    fresh = Enrolment.start(Store(path), "power_grid", restart=True)
    assert fresh.current == "plant-05" and len(fresh.cards) == 41, "a new walk asks only for cards without a tag"


def test_companion_tags_enroll_over_the_simulated_controller(tmp_path):
    """The command as a person runs it: board commands typed on stdin drive the simulated controller (the real
    firmware behind a pseudo-terminal); the card ids are written onto the tags."""
    db = tmp_path / "c.sqlite3"
    env = {**os.environ, "COMPANION_DB": str(db), "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "companion", "tags", "enroll", "power_grid", "--sim", "--write",
               "--cards", "plant-03,plant-04,plant-05"]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=env, cwd=Path(__file__).parent.parent)
    assert proc.stdin is not None and proc.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    seen: list[str] = []
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()  # type: ignore

    def expect(text: str) -> None:
        deadline = time.monotonic() + 20
        while not any(text in line for line in seen):
            assert time.monotonic() < deadline, f"no {text!r} in {seen}"
            with contextlib.suppress(queue.Empty):
                seen.append(lines.get(timeout=0.2))

    def type_in(*commands: str) -> None:
        for command in commands:
            proc.stdin.write(command + "\n")  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]

    try:
        expect("Tap plant 3 (1 of 3): put it on the reader")  # the controller is connected and asks
        type_in("tag 04000000000A01", "wait 400", "untag")
        expect("(2 of 3)")
        type_in("key back")
        expect("plant 4 skipped")
        type_in("tag 04000000000A01", "wait 400", "untag")
        expect("refused: Tag 04000000000A01 is already plant 3")
        type_in("key undo")
        expect("Took back plant 4: tap it again")
        type_in("tag 04000000000A02", "wait 400", "untag")
        expect("plant 4: tag 04000000000A02 enrolled")
        type_in("tag 04000000000A03")
        expect("enrolled 3 tag(s)")
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    out = "\n".join(seen)
    assert "Every card has been asked for: 3 enrolled, 0 skipped" in out
    assert "writing the card id" not in out
    assert Store(db).tags("power_grid") == {A: "plant-03", B: "plant-04", C: "plant-05"}
    assert Store(db).enrolment("power_grid") is None, "a finished enrolment is not resumed"
