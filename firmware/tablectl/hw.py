"""The real hardware on the Pico: pins from pins.py, the USB serial port, the watchdog; then the loop."""

import os
import sys

import machine
import micropython
import neopixel
import select
import time

from . import pins
from .app import Controller
from .leds import Chains, chain_layout

CAUSE_FILE = "/reset-cause"  # why the firmware restarted the board itself (machine.reset looks like a watchdog)


class UsbPort:
    """The USB CDC serial port behind sys.stdin / sys.stdout, read without blocking and without allocating."""

    def __init__(self):
        self.rx = sys.stdin.buffer
        self.tx = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.out_poller = select.poll()
        self.out_poller.register(sys.stdout, select.POLLOUT)
        self.one = bytearray(1)
        self.quiet = False  # after a slow write: the host is not reading, so nothing is written for a while
        self.quiet_until = 0

    def any(self):
        for _ in self.poller.ipoll(0):
            return True
        return False

    def readinto(self, buf):
        # One byte per call: USB CDC gives no count of waiting bytes, and reading more could block.
        n = self.rx.readinto(self.one)
        if n:
            buf[0] = self.one[0]
            return 1
        return 0

    def room(self, length):
        """True when a frame can be written without waiting: the USB buffer has room and the last write was quick.

        The rp2 says only whether some room is left; a write that must wait for the rest can block up to
        500 ms, so after a slow write we pause writing for QUIET_MS (frames wait in the ring meanwhile)."""
        if self.quiet:
            if time.ticks_diff(time.ticks_ms(), self.quiet_until) < 0:
                return False
            self.quiet = False  # (a flag, not the ticks alone: they wrap after about six days)
        for _ in self.out_poller.ipoll(0):
            return True
        return False

    QUIET_MS = 250
    SLOW_MS = 20

    def write(self, buf, length):
        started = time.ticks_ms()
        self.tx.write(buf, 0, length)  # offset and length: no slice, no allocation
        if time.ticks_diff(time.ticks_ms(), started) > self.SLOW_MS:
            self.quiet = True
            self.quiet_until = time.ticks_add(time.ticks_ms(), self.QUIET_MS)


class Hardware:
    def __init__(self):
        pin = machine.Pin
        self.seat_pins = [pin(n, pin.IN, pin.PULL_UP) for n in pins.SEAT_BUTTONS]
        self.rows = [pin(n, pin.OUT, value=1) for n in pins.KEY_ROWS]
        self.cols = [pin(n, pin.IN, pin.PULL_UP) for n in pins.KEY_COLS]
        self.spi = machine.SPI(
            pins.SPI_ID,
            baudrate=pins.SPI_BAUDRATE,
            polarity=0,
            phase=0,
            sck=pin(pins.SPI_SCK),
            mosi=pin(pins.SPI_MOSI),
            miso=pin(pins.SPI_MISO),
        )
        self.cs = pin(pins.RC522_CS, pin.OUT, value=1)
        self.rst = None  # the reader's RST is tied high on the board; the driver soft-resets it
        chain_pins, lengths, which, offsets = chain_layout(pins.SEAT_PIXEL_PINS, pins.STRIP_PIN, pins.STRIP_PIXELS)
        chains = [neopixel.NeoPixel(pin(chain_pins[i], pin.OUT), lengths[i]) for i in range(len(chain_pins))]
        self.pixels = Chains(chains, which, offsets)
        self.led_budget_ma = pins.LED_BUDGET_MA
        self.pwm = machine.PWM(pin(pins.BUZZER))
        self.status_led = pin(pins.STATUS_LED, pin.OUT)
        self.board_id = "".join("%02x" % b for b in machine.unique_id())
        self.boot_id = "%08x" % int.from_bytes(__import__("os").urandom(4), "big")
        self.watchdog = None
        self.reset_cause = read_reset_cause()

    def reset(self, cause="reset"):
        """Restart now, leaving word of why for the next start's hello."""
        try:
            with open(CAUSE_FILE, "w") as note:
                note.write(cause)
        except OSError:
            pass
        machine.reset()

    def safe_mode(self):
        with open(SAFE_FLAG, "w") as flag:
            flag.write("1")
        machine.reset()


SAFE_FLAG = "/safe-mode"


def read_reset_cause():
    """Why the board started: `reset` or `error:Name` (the firmware's own restarts), `watchdog` or `power`."""
    try:
        with open(CAUSE_FILE) as note:
            cause = note.read()
        os.remove(CAUSE_FILE)
        if cause == "reset" or cause.startswith("error:"):
            return cause[:26]
    except OSError:
        pass
    return "watchdog" if machine.reset_cause() == machine.WDT_RESET else "power"


def safe_mode_wanted():
    """Safe mode (the REPL, no loop, no watchdog) after a `safe` frame, or with UNDO held at power-up."""
    try:
        os.remove(SAFE_FLAG)
        return True
    except OSError:
        pass
    pin = machine.Pin
    row = pin(pins.KEY_ROWS[-1], pin.OUT, value=0)
    col = pin(pins.KEY_COLS[-1], pin.IN, pin.PULL_UP)
    time.sleep_ms(5)
    held = col.value() == 0
    row.value(1)
    return held


def run():
    if safe_mode_wanted():
        print("table controller: safe mode, firmware not started")
        return
    # Stray bytes (a 0x03 inside a frame) must never raise KeyboardInterrupt in the loop; mpremote gets in
    # through safe mode instead (`companion firmware deploy` asks for it).
    micropython.kbd_intr(-1)
    hardware = Hardware()
    controller = Controller(UsbPort(), hardware)
    # Started last: set-up may take longer than the watchdog allows; 8.3 s is the RP2040's maximum.
    controller.watchdog = machine.WDT(timeout=5000)
    controller.run(time.sleep_ms)
