"""Over a proxy that corrupts, drops, repeats and delays lines and pulls the cable now and then, every event
the board produced reaches the host exactly once and in order."""

from __future__ import annotations

import asyncio
import time

from faultproxy import FaultProxy

from companion.link.board import BoardLink
from companion.link.events import KEYS
from companion.link.protocol import HostProtocol
from companion.link.sim import SimulatedBoard

EVENTS = 10_000
FAST = {
    "Buttons": {"DEBOUNCE_MS": 0, "DOUBLE_MS": 0, "LONG_MS": 1_000_000},
    "Keys": {"DEBOUNCE_MS": 0, "DOUBLE_MS": 0, "LONG_MS": 1_000_000},
    "Link": {"RTO_MS": 60},
}


class Presser:
    """Presses a seat button and a key together on one board step and releases them on the next, pausing
    while the board's queue of unacknowledged frames is nearly full (no hand outruns the link), and records
    what the board sent."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.sent: list[tuple[str, str, str]] = []
        self.step = 0
        self.down = False
        self.done = False
        self.enabled = False  # set once the host listens: what a board says before the first sync is dropped

    def attach(self, sim: SimulatedBoard) -> None:
        controller = sim.controller
        buttons_emit, keys_emit = controller.buttons.emit, controller.keys.emit
        names = ("down", "up", "press", "long", "double")

        def on_button(index: int, action: int) -> None:
            self.sent.append(("button", str(index), names[action]))
            buttons_emit(index, action)

        def on_key(index: int, action: int) -> None:
            self.sent.append(("key", KEYS[index], names[action]))
            keys_emit(index, action)

        controller.buttons.emit = on_button
        controller.keys.emit = on_key
        sim.before_step = self.before_step

    def before_step(self, sim: SimulatedBoard) -> None:
        link = sim.controller.link
        hardware = sim.hardware
        assert hardware is not None
        if not self.enabled:
            return
        if not self.down and (len(self.sent) >= self.target or link.count > link.SLOTS - link.RESERVED - 8):
            self.done = len(self.sent) >= self.target
            return
        n = self.step // 2  # a seat button and a key go down together, and up together
        hardware.seat_buttons[n % 7].pressed = not self.down
        hardware.matrix.press(n % 12, not self.down)
        self.down = not self.down
        self.step += 1


async def test_ten_thousand_events_survive_faults_and_unplugs(tmp_path, monkeypatch):
    monkeypatch.setattr(HostProtocol, "RTO", 0.06)
    monkeypatch.setattr(BoardLink, "RESCAN", 0.1)
    monkeypatch.setattr(SimulatedBoard, "STEP_MS", 1)
    sim = SimulatedBoard(timings=FAST)
    board_path = sim.start()
    presser = Presser(EVENTS)
    with sim.lock:
        presser.attach(sim)
    proxy = FaultProxy(board_path, tmp_path / "companion-board", seed=7)
    link = BoardLink(port=str(proxy.start()))
    received: list[tuple[str, str, str]] = []
    kinds: dict[str, int] = {}
    try:
        async with link:

            async def collect() -> None:
                async for event in link.events():
                    kinds[event.kind] = kinds.get(event.kind, 0) + 1
                    if event.kind == "button":
                        received.append(("button", str(event.button), str(event.action)))
                    elif event.kind == "key":
                        received.append(("key", str(event.key), str(event.action)))

            collector = asyncio.create_task(collect())
            await link.wait_connected(5)
            presser.enabled = True
            started = time.monotonic()
            next_unplug = started + 1.0
            while not (presser.done and len(received) >= len(presser.sent)):
                assert time.monotonic() - started < 100, (
                    f"stalled: {len(received)} of {len(presser.sent)} events, {sim.controller.link.dropped} dropped"
                )
                await asyncio.sleep(0.05)
                if time.monotonic() >= next_unplug:
                    proxy.unplug()
                    await asyncio.sleep(0.2)
                    proxy.replug()
                    next_unplug = time.monotonic() + 1.5
            await asyncio.sleep(0.3)  # anything doubled would arrive now
            collector.cancel()
    finally:
        proxy.stop()
        sim.stop()
    print(f"events {len(received)}, proxy {proxy.counts}, link events {kinds}")
    assert len(presser.sent) >= EVENTS
    assert sim.controller.link.dropped == 0
    assert received == presser.sent
    counts = proxy.counts
    assert min(counts["corrupt"], counts["drop"], counts["duplicate"], counts["delay"]) > 0, counts
    assert counts["unplug"] >= 2, counts
    assert kinds.get("connected", 0) >= counts["unplug"], kinds
