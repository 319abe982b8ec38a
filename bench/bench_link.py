"""Controller link figures: host time per frame, the cost of checking and splitting an LED state, the reader's
modelled wait per empty poll, event latency through a pseudo-terminal (p50/p99), and the firmware's heap under
MicroPython (WebAssembly build, via Node). Run: .venv/bin/python bench/bench_link.py"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import subprocess
import time
from pathlib import Path

from companion.link import firmware, lights
from companion.link.board import BoardLink
from companion.link.protocol import HostProtocol, split_leds
from companion.link.sim import SimulatedBoard

ROOT = Path(__file__).resolve().parents[1]
frame = firmware.module("frame")


def host_time_per_frame(frames: int) -> dict[str, float]:
    """Decode, check and deliver `frames` button frames in one HostProtocol (acks included)."""
    host = HostProtocol()
    host.state = "ready"
    host.boot = "bench"
    data = b"".join(frame.encode(i & 0xFFFF, "btn", f'{{"b":{i % 7},"a":"press"}}') for i in range(frames))
    started = time.perf_counter()
    events = host.feed(data, 0.0)
    elapsed = time.perf_counter() - started
    assert len(events) == frames
    started = time.perf_counter()
    for i in range(frames):
        frame.encode(i & 0xFFFF, "leds", '{"seats":["ff0000","00ff00"]}')
    encode = time.perf_counter() - started
    return {"decode_us_per_frame": elapsed / frames * 1e6, "encode_us_per_frame": encode / frames * 1e6}


async def latency(events: int) -> dict[str, float]:
    """From the firmware emitting a button event to the host's events() handing it over, through a real pty."""
    sim = SimulatedBoard(timings={"Buttons": {"DEBOUNCE_MS": 0, "DOUBLE_MS": 0}})
    path = sim.start()
    emitted: dict[int, float] = {}
    count = 0
    with sim.lock:
        emit = sim.controller.buttons.emit

        def stamp(index: int, action: int) -> None:
            nonlocal count
            emitted[count] = time.perf_counter()
            count += 1
            emit(index, action)

        sim.controller.buttons.emit = stamp
    delays: list[float] = []
    try:
        async with BoardLink(port=path) as link:
            stream = link.events()
            await link.wait_connected(5)
            received = 0

            async def collect() -> None:
                nonlocal received
                async for event in stream:
                    if event.kind == "button":
                        delays.append(time.perf_counter() - emitted[received])
                        received += 1

            task = asyncio.create_task(collect())
            await asyncio.sleep(0.05)
            for i in range(events // 3):
                sim.set_button(i % 7, True)
                await asyncio.sleep(0.006)
                sim.set_button(i % 7, False)
                await asyncio.sleep(0.006)
            while received < count:
                await asyncio.sleep(0.01)
            task.cancel()
    finally:
        sim.stop()
    delays.sort()
    return {
        "events": len(delays),
        "p50_ms": statistics.median(delays) * 1000,
        "p99_ms": delays[int(len(delays) * 0.99) - 1] * 1000,
        "max_ms": delays[-1] * 1000,
    }


def led_command_cost(commands: int) -> dict[str, float]:
    """Host time to fit a full LED state to the budget and split it into frames the board accepts."""
    seats = [f"{i * 30:02x}ff{i * 20:02x}" for i in range(7)]
    strip = [f"ff{i * 15:02x}80" for i in range(16)]
    started = time.perf_counter()
    parts = 0
    for _ in range(commands):
        fitted_seats, fitted_strip = lights.within_budget(seats, strip)
        parts += len(split_leds({"seats": fitted_seats, "strip": fitted_strip, "flash": "accept"}))
    elapsed = time.perf_counter() - started
    return {"us_per_command": elapsed / commands * 1e6, "frames_per_command": parts / commands}


def reader_wait_per_poll() -> dict[str, float]:
    """The RC522's timer per empty poll as the firmware sets it (the simulated chip records what it was given)."""
    from companion.link.simhw import LoopPort, SimHardware

    app = firmware.module("app")
    hardware = SimHardware()
    now = [1000]
    hardware.reader.clock = lambda: now[0]
    controller = app.Controller(LoopPort(), hardware)
    for _ in range(200):
        now[0] += 2
        controller.step(now[0])
    wupa_us = hardware.reader.timer_us[0x52]
    return {"wupa_timer_ms": wupa_us / 1000, "polls_per_s": 1000 / controller.tags.POLL_MS,
            "share_of_loop_percent": wupa_us / 1000 / controller.tags.POLL_MS * 100}


def firmware_heap() -> dict[str, float] | str:
    node = shutil.which("node")
    runner = ROOT / "tests" / "controller" / "node" / "run_firmware.mjs"
    if node is None or not (runner.parent / "node_modules").exists():
        return "skipped: needs node and `npm ci` in tests/controller/node"
    result = subprocess.run([node, str(runner), str(ROOT)], capture_output=True, text=True, timeout=300)
    for line in result.stdout.splitlines():
        if line.startswith("HEAP "):
            return json.loads(line[5:])
    return "failed: " + result.stdout[-500:] + result.stderr[-500:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=20_000)
    parser.add_argument("--events", type=int, default=600)
    args = parser.parse_args()
    host = host_time_per_frame(args.frames)
    print(
        f"host decode+deliver: {host['decode_us_per_frame']:.1f} us/frame; encode {host['encode_us_per_frame']:.1f} us"
    )
    cost = led_command_cost(2000)
    print(f"LED state fitted to the budget and split: {cost['us_per_command']:.0f} us, "
          f"{cost['frames_per_command']:.1f} frames per full state")
    reader = reader_wait_per_poll()
    print(f"reader: {reader['wupa_timer_ms']:.2f} ms timer per empty poll, {reader['polls_per_s']:.0f} polls/s, "
          f"{reader['share_of_loop_percent']:.1f} % of the loop's time (was 25 ms per WUPA)")
    lat = asyncio.run(latency(args.events))
    print(
        f"event latency through the pty ({lat['events']} events): p50 {lat['p50_ms']:.2f} ms, "
        f"p99 {lat['p99_ms']:.2f} ms, max {lat['max_ms']:.2f} ms"
    )
    heap = firmware_heap()
    if isinstance(heap, str):
        print(f"firmware heap under MicroPython: {heap}")
    else:
        print(
            f"firmware heap under MicroPython: {heap['heap_after_start']} bytes after start-up (firmware and its"
            f" simulated hardware), {heap['alloc_per_idle_step']:g} bytes per idle loop,"
            f" {heap['alloc_per_button_event']:g} bytes per button event"
        )


if __name__ == "__main__":
    main()
