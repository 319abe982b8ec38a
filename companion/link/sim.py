"""The simulated board: the real firmware on simulated hardware, behind a pseudo-terminal, so everything runs
without a controller. Driven from code (`click`, `key`, `place_tag`...), from the keyboard or from a script
(`companion board sim`), with the commands listed in COMMANDS.
"""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
import tty
from collections.abc import Callable
from typing import Any

from companion.link import firmware
from companion.link.events import KEYS
from companion.link.simhw import SimHardware, SimTag

COMMANDS = """\
  seat N            press and release seat button N (0-6)
  long N            hold seat button N for a long press
  double N          press seat button N twice quickly
  key K             press a key: 1-9, ok, back, undo
  tag UID           put a tag on the reader (hex UID, 7 bytes for NTAG213; 4 also works)
  untag             take the tag off the reader
  wait MS           pause (scripts)
  leds              show the LEDs and the buzzer's last notes
  unplug / replug   cut the link and restore it (the board keeps running)
  quit"""


def _hex(color: tuple[int, int, int]) -> str:
    return "".join(f"{part:02x}" for part in color)


class PtyPort:
    """The board's side of the pseudo-terminal: the firmware's port interface over the master fd."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.input = bytearray()
        self.written = 0

    def pull(self) -> None:
        while self.fd >= 0:
            try:
                data = os.read(self.fd, 4096)
            except (BlockingIOError, OSError):
                return
            if not data:
                return
            self.input += data

    def any(self) -> bool:
        return bool(self.input)

    def readinto(self, buf: bytearray) -> int:
        n = min(len(buf), len(self.input))
        buf[:n] = self.input[:n]
        del self.input[:n]
        return n

    def room(self, length: int) -> bool:
        return True  # a pseudo-terminal nobody reads takes the bytes or loses them: it never blocks the board

    def write(self, buf: bytearray, length: int) -> None:
        data = bytes(buf[:length])
        self.written += length
        if self.fd < 0:
            return
        # Like USB CDC with nobody listening: what cannot be written now is lost (the link retransmits).
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self.fd, data)


class SimulatedBoard:
    STEP_MS = 2  # the firmware's loop period
    CLICK_MS = 60  # how long `click` holds a button
    GAP_MS = 40  # how long `click` waits after releasing

    def __init__(
        self,
        board_id: str = "sim-0001",
        timings: dict[str, dict[str, int]] | None = None,
        on_output: Callable[[str], None] | None = None,
    ) -> None:
        self.board_id = board_id
        self.timings = timings or {}
        self.on_output = on_output
        self.hardware: SimHardware | None = None
        self.controller: Any = None
        self.lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._master = -1
        self._slave = -1
        self.path = ""
        self.port: PtyPort | None = None
        self.tag: SimTag | None = None
        self.tags: dict[str, SimTag] = {}
        self.boots = 0
        self._unplugged = False
        self._shown: list[tuple[int, int, int]] = []
        # Called in the board's thread before each step (tests drive the hardware step by step with it).
        self.before_step: Callable[[SimulatedBoard], None] | None = None

    # -- life --------------------------------------------------------------------------------------
    def start(self) -> str:
        """Open the pseudo-terminal, boot the firmware and run it in a thread; returns the port's path."""
        self._open_pty()
        self._boot()
        self._thread = threading.Thread(target=self._run, name="simulated-board", daemon=True)
        self._thread.start()
        return self.path

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.path = os.ttyname(slave)
        self.port = PtyPort(master)

    def _boot(self) -> None:
        app = firmware.module("app")
        self.boots += 1
        hardware = SimHardware(board_id=self.board_id, boot_id=f"{random.getrandbits(32):08x}")
        old = self.hardware
        if old is not None:  # a reboot keeps what is physically pressed or lying on the reader
            hardware.seat_buttons = old.seat_buttons
            hardware.seat_pins = old.seat_buttons
            hardware.matrix = old.matrix
            hardware.rows, hardware.cols = old.rows, old.cols
            hardware.reader.tags = old.reader.tags
        self.hardware = hardware
        self._shown = list(hardware.pixels.shown)
        assert self.port is not None
        self.controller = app.Controller(self.port, hardware)
        # Timings are class attributes in the firmware; a simulated board overrides them on its own instances.
        parts = {"Buttons": "buttons", "Keys": "keys", "TagTracker": "tags", "Link": "link"}
        for part_name, overrides in self.timings.items():
            part = getattr(self.controller, parts[part_name])
            for name, value in overrides.items():
                setattr(part, name, value)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._master = self._slave = -1

    def _run(self) -> None:
        clock = firmware.module("clock")
        while not self._stop.is_set():
            with self.lock:
                if self.before_step is not None:
                    self.before_step(self)
                if self.port is not None:  # unplugged, the board runs on and its output is lost
                    self.port.pull()
                    self.controller.step(clock.ticks_ms())
                    assert self.hardware is not None
                    if self.hardware.resets:
                        self._boot()
            self._report_outputs()
            time.sleep(self.STEP_MS / 1000)

    def _report_outputs(self) -> None:
        if self.on_output is None or self.hardware is None:
            return
        shown = list(self.hardware.pixels.shown)
        if shown != self._shown:
            self._shown = shown
            self.on_output(self.describe_leds())

    # -- the link ----------------------------------------------------------------------------------
    def unplug(self) -> None:
        """Cut the link as a pulled cable would: the host's port fails; the board keeps its state."""
        with self.lock:
            self._unplugged = True
            if self.port is not None:
                self.port.fd = -1  # before closing: the number may be reused at once
            for fd in (self._master, self._slave):
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._master = self._slave = -1

    def replug(self) -> str:
        """A new pseudo-terminal (a new path, as after a real replug) for the same running board."""
        with self.lock:
            self._open_pty()
            assert self.port is not None
            self.controller.link.port = self.port
            self._unplugged = False
        return self.path

    # -- the hands at the table --------------------------------------------------------------------
    def _hw(self) -> SimHardware:
        assert self.hardware is not None, "the board is not started"
        return self.hardware

    def set_button(self, seat: int, pressed: bool) -> None:
        buttons = self._hw().seat_buttons
        if not 0 <= seat < len(buttons):
            raise ValueError(f"no seat button {seat} (0-{len(buttons) - 1})")
        with self.lock:
            buttons[seat].pressed = pressed

    def set_key(self, key: str, pressed: bool) -> None:
        if key not in KEYS:
            raise ValueError(f"no key {key!r} (keys: {' '.join(KEYS)})")
        with self.lock:
            self._hw().matrix.press(KEYS.index(key), pressed)

    def click(self, seat: int, hold_ms: int | None = None) -> None:
        self.set_button(seat, True)
        time.sleep((hold_ms if hold_ms is not None else self.CLICK_MS) / 1000)
        self.set_button(seat, False)
        time.sleep(self.GAP_MS / 1000)

    def key(self, key: str) -> None:
        self.set_key(key, True)
        time.sleep(self.CLICK_MS / 1000)
        self.set_key(key, False)
        time.sleep(self.GAP_MS / 1000)

    def place_tag(self, uid: str) -> None:
        with self.lock:
            tag = self.tags.get(uid.upper())
            if tag is None:
                tag = self.tags[uid.upper()] = SimTag(uid)
            reader = self._hw().reader
            reader.remove()
            reader.place(tag)
            self.tag = tag

    def remove_tag(self) -> None:
        with self.lock:
            self._hw().reader.remove()
            self.tag = None

    def describe_leds(self) -> str:
        hardware = self._hw()
        seats = len(hardware.seat_buttons)
        shown = hardware.pixels.shown
        seat_text = " ".join(_hex(c) for c in shown[:seats])
        strip = {_hex(c) for c in shown[seats:]}
        strip_text = strip.pop() if len(strip) == 1 else " ".join(_hex(c) for c in shown[seats:])
        return f"LEDs: seats {seat_text} | strip {strip_text}"

    # -- keyboard and scripts ----------------------------------------------------------------------
    def run_command(self, line: str) -> str | None:
        """Carry out one command line (see COMMANDS); returns text to show, or None. Raises ValueError."""
        words = line.split("#", 1)[0].split()
        if not words:
            return None
        verb, args = words[0].lower(), words[1:]

        def arg() -> str:
            if not args:
                raise ValueError(f"{verb} needs an argument")
            return args[0]

        if verb in ("seat", "s"):
            self.click(int(arg()))
        elif verb == "long":
            self.click(int(arg()), hold_ms=firmware.module("buttons").Buttons.LONG_MS + 100)
        elif verb == "double":
            seat = int(arg())
            self.set_button(seat, True)
            time.sleep(self.CLICK_MS / 1000)
            self.set_button(seat, False)
            time.sleep(self.CLICK_MS / 1000)
            self.click(seat)
        elif verb in ("key", "k"):
            self.key(arg().lower())
        elif verb in KEYS:
            self.key(verb)
        elif verb == "tag":
            self.place_tag(arg())
        elif verb == "untag":
            self.remove_tag()
        elif verb == "wait":
            time.sleep(int(arg()) / 1000)
        elif verb == "leds":
            notes = self._hw().pwm.notes[-8:]
            return self.describe_leds() + f" | buzzer notes {notes}"
        elif verb == "unplug":
            self.unplug()
        elif verb == "replug":
            return f"replugged at {self.replug()}"
        elif verb in ("help", "?"):
            return COMMANDS
        else:
            raise ValueError(f"unknown command {verb!r}; try help")
        return None
