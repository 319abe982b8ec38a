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


NASTY_CARDS = ['plant~27', 'say "hi"', "line\nbreak", "tab\tand\x01ctrl", "back\\slash~~"]


async def test_the_new_cases_survive_faults_too(tmp_path, monkeypatch):
    """Over the same faulty cable: LED states too big for one frame, card ids with ~ newlines quotes and control
    characters written and read back, clamped notes, resets (one restart each, even when the ack is lost), and a
    host restart in the middle of presses (a snapshot, no replay)."""
    monkeypatch.setattr(HostProtocol, "RTO", 0.06)
    monkeypatch.setattr(BoardLink, "RESCAN", 0.1)
    sim = SimulatedBoard(timings=FAST)
    board_path = sim.start()
    proxy = FaultProxy(board_path, tmp_path / "companion-board", seed=11, corrupt=0.02, drop=0.02, duplicate=0.01,
                       delay=0.01)
    port = str(proxy.start())
    sim.place_tag("04A1B2C3D4E5F6")
    try:
        async with BoardLink(port=port) as link:
            await link.wait_connected(5)
            await asyncio.wait_for(until(lambda: sim.controller.tags.uid_len > 0), 30)  # the reader is up
            seats = [f"{i + 1:02x}0000" for i in range(7)]
            strip = [f"0000{i + 1:02x}" for i in range(16)]
            await link.set_leds(seats=seats, strip=strip)
            shown = [(i + 1, 0, 0) for i in range(7)] + [(0, 0, i + 1) for i in range(16)]
            await asyncio.wait_for(until(lambda: sim.hardware.pixels.shown == shown), 30)
            for card in NASTY_CARDS:
                # Generous timeouts: on a loaded machine a faulty link is slow; this test is about what arrives.
                try:
                    assert await link.write_tag(card, timeout=30), card
                    assert await link.read_tag(timeout=30) == card
                except TimeoutError:
                    host = link.protocol
                    raise AssertionError(("stalled", card, host.state, list(host.pending), host.given_up,
                                          host.retransmits, sim.controller.link.rx_expect)) from None
            await link.beep([(5, 10**13), (0, 1), (30000, -5), (0, 1), (440, 20)])
            boots = sim.boots
            for _ in range(3):
                await link.reset_board()
                await asyncio.wait_for(until(lambda b=boots: sim.boots == b + 1 and link.connected), 30)
                boots = sim.boots
                await asyncio.sleep(0.3)
                assert sim.boots == boots, "a reset restarts the board once, even when its acknowledgement was lost"
            assert not any(kind == "reset" for kind, _ in link.protocol.pending)
            await asyncio.wait_for(until(lambda: sim.hardware.pixels.shown == shown), 30)
            assert sim.controller.failures == 0
        # The host process stops; presses go on; a new one starts.
        await asyncio.to_thread(sim.click, 3)
        await asyncio.to_thread(sim.click, 4)
        async with BoardLink(port=port) as link:
            events = link.events()
            kinds: list[str] = []

            async def first_three() -> None:
                async for event in events:
                    kinds.append(event.kind)
                    if len(kinds) == 3:
                        return

            await asyncio.wait_for(first_three(), 30)
            assert kinds == ["hello", "connected", "snapshot"], "a snapshot, not the presses made meanwhile"
            await asyncio.to_thread(sim.click, 6)

            async def next_button() -> int | None:
                async for event in events:
                    if event.kind == "button":
                        return event.button
                return None

            assert await asyncio.wait_for(next_button(), 30) == 6
            await events.aclose()
    finally:
        proxy.stop()
        sim.stop()
    assert sum(proxy.counts[k] for k in ("corrupt", "drop", "duplicate", "delay")) > 0, proxy.counts


async def until(predicate) -> None:
    while not predicate():
        await asyncio.sleep(0.02)
