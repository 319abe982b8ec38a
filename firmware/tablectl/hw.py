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


class UsbPort:
    """The USB CDC serial port behind sys.stdin / sys.stdout, read without blocking and without allocating."""

    def __init__(self):
        self.rx = sys.stdin.buffer
        self.tx = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.one = bytearray(1)

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

    def write(self, buf, length):
        self.tx.write(buf, 0, length)


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
        self.rst = pin(pins.RC522_RST, pin.OUT, value=1)
        self.pixels = neopixel.NeoPixel(pin(pins.PIXELS), pins.SEAT_PIXELS + pins.STRIP_PIXELS)
        self.pwm = machine.PWM(pin(pins.BUZZER))
        self.status_led = pin(pins.STATUS_LED, pin.OUT)
        self.board_id = "".join("%02x" % b for b in machine.unique_id())
        self.boot_id = "%08x" % int.from_bytes(__import__("os").urandom(4), "big")
        self.watchdog = None

    def reset(self):
        machine.reset()

    def safe_mode(self):
        with open(SAFE_FLAG, "w") as flag:
            flag.write("1")
        machine.reset()


SAFE_FLAG = "/safe-mode"


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
