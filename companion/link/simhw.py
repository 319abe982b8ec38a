"""Simulated controller hardware: pins, buttons, a key matrix, a register-level RC522 with NTAG213 tags,
WS2812 pixels and a PWM buzzer. Plain Python that also runs under MicroPython (the firmware tests load it
there), so: no dataclasses, no typing imports, no f-strings with `=`.

The RC522 models what a driver can get wrong: after a soft reset it ignores the bus for 50 ms; its timer runs
only when TModeReg's TAuto bit is set, for the reload and prescaler written (and ends an exchange whose answer
comes later: a page write needs 4.1 ms); the antenna answers only with both TX bits on, and a weak tag (a
sticker under a sleeve) only with the receiver gain at 43 dB or more. So a wrong set-up fails a test.
"""

try:
    from time import ticks_ms as _ticks_ms  # pyright: ignore[reportAttributeAccessIssue]
except ImportError:  # CPython
    import time as _time

    def _ticks_ms():
        return int(_time.monotonic() * 1000)


class SimPin:
    """An output pin (or any pin the firmware only drives): remembers its level."""

    def __init__(self, level=0):
        self.level = level
        self.writes = 0

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = 1 if level else 0
        self.writes += 1
        return None

    def toggle(self):
        self.level = 0 if self.level else 1


class SimButton:
    """A button between a pulled-up pin and ground: reads 0 while pressed."""

    def __init__(self):
        self.pressed = False

    def value(self, level=None):
        return 0 if self.pressed else 1


class SimMatrix:
    """Keys at (row, column) with a diode each: a column reads 0 when a pressed key joins it to a low row."""

    def __init__(self, rows, cols):
        self.rows = [SimPin(1) for _ in range(rows)]
        self.cols = [_MatrixColumn(self, c) for c in range(cols)]
        self.ncols = cols
        self.pressed = set()  # key indexes, row * cols + column

    def press(self, index, down=True):
        if down:
            self.pressed.add(index)
        else:
            self.pressed.discard(index)

    def column_level(self, col):
        for r in range(len(self.rows)):
            if self.rows[r].level == 0 and (r * self.ncols + col) in self.pressed:
                return 0
        return 1


class _MatrixColumn:
    def __init__(self, matrix, col):
        self.matrix = matrix
        self.col = col

    def value(self, level=None):
        return self.matrix.column_level(self.col)


class SimPixels:
    """A WS2812 chain: colours as set, and what the last `write()` sent."""

    def __init__(self, count):
        self.count = count
        self.pending = [(0, 0, 0)] * count
        self.shown = [(0, 0, 0)] * count
        self.writes = 0

    def __len__(self):
        return self.count

    def __setitem__(self, index, color):
        self.pending[index] = color

    def __getitem__(self, index):
        return self.pending[index]

    def write(self):
        self.shown = list(self.pending)
        self.writes += 1


class SimPWM:
    def __init__(self):
        self.frequency = 0
        self.duty = 0
        self.notes = []  # frequencies started, in order

    def freq(self, value=None):
        if value is None:
            return self.frequency
        self.frequency = value
        return None

    def duty_u16(self, value=None):
        if value is None:
            return self.duty
        if value and not self.duty:
            self.notes.append(self.frequency)
        self.duty = value
        return None


def crc_a(data):
    crc = 0x6363
    for byte in data:
        value = (byte ^ (crc & 0xFF)) & 0xFF
        value = (value ^ (value << 4)) & 0xFF
        crc = ((crc >> 8) ^ (value << 8) ^ (value << 3) ^ (value >> 4)) & 0xFFFF
    return crc


def _with_crc(data):
    crc = crc_a(data)
    return bytes(data) + bytes((crc & 0xFF, crc >> 8))


def _crc_ok(frame):
    if len(frame) < 3:
        return False
    crc = crc_a(frame[:-2])
    return frame[-2] == crc & 0xFF and frame[-1] == crc >> 8


IDLE = 0
READY1 = 1
READY2 = 2
ACTIVE = 3
HALT = 4


def parse_uid(text):
    """`04A1B2C3D4E5F6` (or with colons) to bytes."""
    text = text.replace(":", "").replace(" ", "")
    return bytes(int(text[i : i + 2], 16) for i in range(0, len(text), 2))


class SimTag:
    """An NTAG213 (7-byte UID, 45 pages of 4 bytes) or a 4-byte-UID tag, answering ISO 14443-3 commands.

    `weak`: read through a sleeve and the table top, it answers only a reader with its receiver gain up."""

    PAGES = 45

    def __init__(self, uid, weak=False):
        if isinstance(uid, str):
            uid = parse_uid(uid)
        if len(uid) not in (4, 7):
            raise ValueError("a tag UID has 4 or 7 bytes")
        self.uid = bytes(uid)
        self.weak = weak
        self.state = IDLE
        self.memory = bytearray(self.PAGES * 4)
        if len(uid) == 7:
            self.memory[0:3] = uid[0:3]
            self.memory[3] = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
            self.memory[4:8] = uid[3:7]
            self.memory[8] = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
            self.memory[12:16] = b"\xe1\x10\x12\x00"

    def leave_field(self):
        self.state = IDLE

    def _level(self, level):
        """The 4 bytes answered at a cascade level (with the cascade tag first for 7-byte UIDs)."""
        uid = self.uid
        if len(uid) == 4:
            return uid
        if level == 0x93:
            return bytes((0x88,)) + uid[0:3]
        return uid[3:7]

    def handle(self, frame, last_bits):
        """The answer to one frame: (bytes, bits in the last byte or 0), or None for silence."""
        if last_bits == 7 and len(frame) == 1:
            if frame[0] == 0x52 or (frame[0] == 0x26 and self.state != HALT):
                self.state = READY1
                return (b"\x44\x00", 0)
            return None
        if len(frame) >= 2 and frame[0] in (0x93, 0x95):
            expected = READY1 if frame[0] == 0x93 else READY2
            if self.state != expected or (frame[0] == 0x95 and len(self.uid) == 4):
                self.state = IDLE
                return None
            part = self._level(frame[0])
            bcc = part[0] ^ part[1] ^ part[2] ^ part[3]
            if frame[1] == 0x20 and len(frame) == 2:
                return (part + bytes((bcc,)), 0)
            if frame[1] == 0x70 and len(frame) == 9 and _crc_ok(frame):
                if bytes(frame[2:6]) != part or frame[6] != bcc:
                    self.state = IDLE
                    return None
                if frame[0] == 0x93 and len(self.uid) == 7:
                    self.state = READY2
                    return (_with_crc(b"\x04"), 0)
                self.state = ACTIVE
                return (_with_crc(b"\x00" if len(self.uid) == 7 else b"\x08"), 0)
            self.state = IDLE
            return None
        if self.state != ACTIVE or not _crc_ok(frame):
            self.state = IDLE
            return None
        command = frame[0]
        if command == 0x50 and len(frame) == 4:
            self.state = HALT
            return None
        if command == 0x30 and len(frame) == 4:
            page = frame[1]
            if page >= self.PAGES:
                self.state = IDLE
                return (b"\x00", 4)  # NAK
            out = bytearray(16)
            for i in range(16):
                out[i] = self.memory[((page * 4) + i) % (self.PAGES * 4)]
            return (_with_crc(out), 0)
        if command == 0xA2 and len(frame) == 8:
            page = frame[1]
            if page < 4 or page > 39:
                return (b"\x00", 4)
            self.memory[page * 4 : page * 4 + 4] = frame[2:6]
            return (b"\x0a", 4)
        self.state = IDLE
        return None


# How long a tag takes to answer, in microseconds, by the first byte of the command
ANSWER_US = {0x26: 90, 0x52: 90, 0x93: 200, 0x95: 200, 0x50: 0, 0x30: 600, 0xA2: 4100}
RESET_MS = 50  # after a soft reset, the chip ignores the bus this long
MIN_WEAK_GAIN = 6  # RxGain code for 43 dB


class SimRC522:
    """An MFRC522 at register level on an SPI bus: the FIFO, the IRQ and error flags, Transceive and the tags.

    `version` is what the version register reads (0 for a reader that is missing or miswired: every read 0).
    `timer_us[c]` is the timer (in microseconds, 0 when it does not run) of the last exchange whose command
    byte was c; `clock` gives the time in ms (a test sets it to its own clock)."""

    VERSION = 0x92

    def __init__(self, version=VERSION, clock=None):
        self.version = version
        self.clock = clock or _ticks_ms
        self.regs = bytearray(64)
        # The FIFO is a fixed buffer: an empty field costs no allocation (the heap figures measure the firmware).
        self.fifo = bytearray(64)
        self.fifo_len = 0
        self.fifo_pos = 0
        self.tags = []  # the tags in the field now
        self.transceives = 0
        self.resets = 0
        self.busy_until = None  # after a soft reset: the time until which the bus is ignored
        self.ignored = 0  # accesses made while the chip was still starting
        self.timer_us = [0] * 256
        self.timer_fired = 0
        self.cs = SimPin(1)
        self._power_on()

    # The firmware passes this object as its SPI bus.
    def write(self, buf):
        self._access(buf[0], buf[1])

    def write_readinto(self, tx, rx):
        rx[0] = 0
        rx[1] = self._access(tx[0], tx[1])

    def _power_on(self):
        """Every register at its reset value (the ones that matter here)."""
        for i in range(64):
            self.regs[i] = 0
        self.regs[0x37] = self.version
        self.regs[0x14] = 0x80  # TxControlReg: antenna off
        self.regs[0x26] = 0x48  # RFCfgReg: receiver gain 33 dB
        self.regs[0x2B] = 0x00  # TPrescalerReg
        self.regs[0x2A] = 0x00  # TModeReg: TAuto off
        self.fifo_len = self.fifo_pos = 0

    def _soft_reset(self):
        self._power_on()
        self.resets += 1
        self.busy_until = self.clock() + RESET_MS

    def esd(self):
        """A discharge or a brown-out: the chip is back at its reset values, the driver was not told."""
        self._power_on()

    def _starting(self):
        if self.busy_until is None:
            return False
        if self.clock() - self.busy_until >= 0:
            self.busy_until = None
            return False
        self.ignored += 1
        return True

    def place(self, tag):
        if tag not in self.tags:
            tag.leave_field()
            self.tags.append(tag)

    def remove(self, tag=None):
        for t in list(self.tags):
            if tag is None or t is tag:
                t.leave_field()
                self.tags.remove(t)

    def _access(self, address, value):
        reg = (address >> 1) & 0x3F
        if self.version == 0 or self._starting():
            return 0  # nothing on the bus answers (or the oscillator is still starting)
        if address & 0x80:
            return self._read(reg)
        self._write(reg, value)
        return 0

    def _read(self, reg):
        if reg == 0x09:
            if self.fifo_pos < self.fifo_len:
                self.fifo_pos += 1
                return self.fifo[self.fifo_pos - 1]
            return 0
        if reg == 0x0A:
            return self.fifo_len - self.fifo_pos
        return self.regs[reg]

    def _write(self, reg, value):
        if reg == 0x01:
            command = value & 0x0F
            if command == 0x0F:
                self._soft_reset()
                return
            self.regs[0x01] = value
            return
        if reg == 0x04:
            if value & 0x80:
                self.regs[0x04] |= value & 0x7F
            else:
                self.regs[0x04] &= ~value & 0x7F
            return
        if reg == 0x0A:
            if value & 0x80:
                self.fifo_len = self.fifo_pos = 0
            return
        if reg == 0x09:
            if self.fifo_len < 64:
                self.fifo[self.fifo_len] = value
                self.fifo_len += 1
            return
        self.regs[reg] = value
        if reg == 0x0D and value & 0x80 and self.regs[0x01] & 0x0F == 0x0C:
            self._transceive(value & 0x07)

    def _timer_us(self):
        """The timer's period as set up, in microseconds; 0 when it does not start by itself (TAuto off)."""
        mode = self.regs[0x2A]
        if not mode & 0x80:
            return 0
        prescaler = ((mode & 0x0F) << 8) | self.regs[0x2B]
        reload = (self.regs[0x2C] << 8) | self.regs[0x2D]
        return (reload + 1) * (2 * prescaler + 1) * 1000 // 13560

    def _silence(self):
        self.fifo_len = self.fifo_pos = 0
        if self.regs[0x2A] & 0x80:
            self.regs[0x04] |= 0x01  # nothing answered: the timer ran out
            self.timer_fired += 1
        # without TAuto the timer never starts: the driver waits in vain

    def _transceive(self, last_bits):
        self.transceives += 1
        self.regs[0x06] = 0
        command = self.fifo[self.fifo_pos] if self.fifo_len > self.fifo_pos else 0
        timer = self._timer_us()
        self.timer_us[command] = timer
        gain = (self.regs[0x26] >> 4) & 0x07
        if not self.tags or self.regs[0x14] & 0x03 != 0x03:
            self._silence()
            return
        frame = bytes(self.fifo[self.fifo_pos : self.fifo_len])
        answers = []
        for tag in self.tags:
            if tag.weak and gain < MIN_WEAK_GAIN:
                continue  # too faint for the receiver as set
            answer = tag.handle(frame, last_bits)
            if answer is not None:
                answers.append(answer)
        if not answers or (timer and ANSWER_US.get(command, 0) >= timer):
            self._silence()  # no answer, or the timer ended the exchange before the answer came
            return
        self.fifo_len = self.fifo_pos = 0
        data, bits = answers[0]
        for other, _ in answers[1:]:
            if other != data:
                self.regs[0x06] |= 0x08  # two tags answered differently: a collision
        for i in range(len(data)):
            self.fifo[i] = data[i]
        self.fifo_len = len(data)
        self.regs[0x0C] = bits & 0x07
        self.regs[0x04] |= 0x30


class SimHardware:
    """Everything `Controller(port, hardware)` needs, simulated; `reset` records reset commands."""

    def __init__(self, board_id="sim-0001", boot_id="0000b007", seats=7, strip=16, reset_cause="power",
                 led_budget_ma=350):
        self.seat_buttons = [SimButton() for _ in range(seats)]
        self.seat_pins = self.seat_buttons
        self.matrix = SimMatrix(4, 3)
        self.rows = self.matrix.rows
        self.cols = self.matrix.cols
        self.reader = SimRC522()
        self.spi = self.reader
        self.cs = self.reader.cs
        self.rst = SimPin(1)
        self.pixels = SimPixels(seats + strip)
        self.pwm = SimPWM()
        self.status_led = SimPin(0)
        self.watchdog = None
        self.board_id = board_id
        self.boot_id = boot_id
        self.reset_cause = reset_cause
        self.led_budget_ma = led_budget_ma
        self.resets = 0
        self.causes = []  # why the firmware asked for each restart

    def reset(self, cause="reset"):
        self.resets += 1
        self.causes.append(cause)


class SimWatchdog:
    """Records when it was fed."""

    def __init__(self):
        self.feeds = 0

    def feed(self):
        self.feeds += 1


class LoopPort:
    """A port in memory: what the board wrote collects in `output`; `feed` gives it input.

    `capacity` models the USB buffer of a host that does not read: None is a host that reads everything
    at once; a number is the bytes that fit until `take()` (the host reading). A write that does not fit
    would block the rp2's loop for 500 ms: it is counted in `blocked_ms`."""

    BLOCK_MS = 500

    def __init__(self):
        self.input = bytearray()
        self.output = bytearray()
        self.keep = True  # False: count what was written and keep nothing (heap measurements)
        self.written = 0
        self.capacity = None
        self.waiting = 0  # bytes written since the host last read
        self.blocked_ms = 0

    def room(self, length):
        return self.capacity is None or self.waiting + length <= self.capacity

    def feed(self, data):
        self.input.extend(data)

    def any(self):
        return len(self.input) > 0

    def readinto(self, buf):
        n = min(len(buf), len(self.input))
        for i in range(n):
            buf[i] = self.input[i]
        self.input = self.input[n:]
        return n

    def write(self, buf, length):
        if self.capacity is not None:
            if self.waiting + length > self.capacity:
                self.blocked_ms += self.BLOCK_MS
                return
            self.waiting += length
        if self.keep:
            for i in range(length):
                self.output.append(buf[i])
        self.written += length

    def take(self):
        data = bytes(self.output)
        self.output = bytearray()
        self.waiting = 0
        return data
