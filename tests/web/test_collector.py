"""The idle collector: no full garbage collection while the table is busy, one once it is quiet, and the
interpreter's own settings back when the server stops."""

from __future__ import annotations

import asyncio
import gc

import pytest

from companion.web.collector import NEVER, IdleCollector


class Cycle:
    """Garbage only a collection can free (it refers to itself)."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def full_collections():
    """How many full collections the interpreter ran, whoever started them."""
    seen = []

    def note(phase, info):
        if phase == "stop" and info["generation"] == 2:
            seen.append(info["collected"])

    gc.callbacks.append(note)
    yield seen
    gc.callbacks.remove(note)


def test_a_collection_is_due_only_when_quiet_long_enough_after_the_last_and_after_growth():
    now = [100.0]
    collector = IdleCollector(quiet=1.0, every=20.0, clock=lambda: now[0])
    collector.last_full = 0.0
    collector.busy()
    gc.collect(1)  # a middle-generation collection: something may have grown old
    assert not collector.due()  # busy a moment ago
    now[0] += 1.5
    assert collector.due()
    collector.collect()
    assert collector.collections == 1 and not collector.due()  # just ran
    now[0] += 30
    gc.collect(1)
    assert collector.due()
    collector.busy()
    assert not collector.due()


async def busy_table(collector: IdleCollector, turns: int) -> None:
    """Actions every 5 ms, each leaving plenty of garbage: the interpreter would run full collections."""
    for _ in range(turns):
        collector.busy()
        for _ in range(3000):
            Cycle()
        await asyncio.sleep(0.005)


async def test_no_full_collection_while_busy_one_when_quiet_and_the_settings_come_back(full_collections):
    before = gc.get_threshold()
    collector = IdleCollector(quiet=0.2, every=0.0)
    started = len(full_collections)
    collector.start()
    try:
        assert gc.get_threshold() == (before[0], before[1], NEVER)  # the interpreter runs none from the start
        assert gc.get_freeze_count() > 0  # what start-up made is left alone from now on
        assert len(full_collections) == started  # frozen without a collection of the whole heap first
        await busy_table(collector, 40)
        assert gc.get_count()[2] >= 10  # enough middle collections that a full one was due by the old rule
        assert len(full_collections) == started
        await asyncio.sleep(0.6)  # quiet
        assert collector.collections >= 1 and len(full_collections) > started
    finally:
        await collector.stop()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


async def test_two_servers_in_one_process_give_the_settings_back_when_the_last_stops():
    before = gc.get_threshold()
    first, second = IdleCollector(), IdleCollector()
    first.start()
    second.start()
    await asyncio.sleep(0.01)
    await first.stop()
    assert gc.get_threshold()[2] == NEVER  # the second still runs
    await second.stop()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
