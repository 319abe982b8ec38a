"""Frames of the serial link, one ASCII line each: `~SEQ TYPE JSON CRC`; shared by the board and the host.

SEQ is 0..65535, or `-` for frames that are not acknowledged (ack, heartbeat, hello, sync). CRC is
CRC-16/CCITT-FALSE over the bytes between `~` and the space before the CRC, as four upper-case hex digits.
`~` starts every frame and appears nowhere else, so a stray print or traceback can only cost its own line.
The Writer and the Reader work in buffers allocated once, so the board's polling loop allocates nothing.
"""

from array import array

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(value):
        return value


PROTOCOL = const(1)
MAX_FRAME = const(200)  # bytes of one frame, newline included
UNSEQ = const(-1)  # the SEQ of a frame that is not acknowledged
START = const(0x7E)  # ~
NEWLINE = const(0x0A)
SPACE = const(0x20)
_HEX = b"0123456789ABCDEF"


def _make_table():
    table = array("H", [0] * 256)
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table[i] = crc & 0xFFFF
    return table


_TABLE = _make_table()


def crc16(buf, start, end):
    """CRC-16/CCITT-FALSE of buf[start:end], without slicing."""
    crc = 0xFFFF
    table = _TABLE
    for i in range(start, end):
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ buf[i]) & 0xFF]
    return crc


class Writer:
    """Builds one frame in a caller's buffer; `end()` returns its length, or 0 if it did not fit."""

    def __init__(self, buf=None):
        self.buf = buf if buf is not None else bytearray(MAX_FRAME)
        self.n = 0
        self.ok = True

    def begin(self, seq, kind):
        self.n = 0
        self.ok = True
        self.byte(START)
        if seq < 0:
            self.byte(0x2D)
        else:
            self.int(seq)
        self.byte(SPACE)
        self.raw(kind)
        self.byte(SPACE)
        return self

    def byte(self, value):
        # Six bytes stay free for " CRC\n".
        if self.n < len(self.buf) - 6:
            self.buf[self.n] = value
            self.n += 1
        else:
            self.ok = False

    def raw(self, data):
        for value in data:
            self.byte(value)

    def int(self, value):
        if value < 0:
            self.byte(0x2D)
            value = -value
        div = 1
        while div * 10 <= value:
            div *= 10
        while div:
            self.byte(0x30 + (value // div) % 10)
            div //= 10

    def hex(self, data, length):
        for i in range(length):
            self.byte(_HEX[data[i] >> 4])
            self.byte(_HEX[data[i] & 0x0F])

    def text(self, data):
        """A JSON string of `data` (bytes), escaped so that no byte can break the frame or the JSON.

        `"` and `\\` get a backslash; control characters, `~` (it starts frames), DEL and every byte
        above 0x7F become `\\u00XX`, so the line stays printable ASCII whatever a tag held.
        """
        self.byte(0x22)
        for value in data:
            if value == 0x22 or value == 0x5C:
                self.byte(0x5C)
                self.byte(value)
            elif value < 0x20 or value >= 0x7E:
                self.byte(0x5C)
                self.byte(0x75)
                self.byte(0x30)
                self.byte(0x30)
                self.byte(_HEX[value >> 4])
                self.byte(_HEX[value & 0x0F])
            else:
                self.byte(value)
        self.byte(0x22)

    def end(self):
        if not self.ok:
            return 0
        crc = crc16(self.buf, 1, self.n)
        buf = self.buf
        n = self.n
        buf[n] = SPACE
        buf[n + 1] = _HEX[crc >> 12]
        buf[n + 2] = _HEX[(crc >> 8) & 0x0F]
        buf[n + 3] = _HEX[(crc >> 4) & 0x0F]
        buf[n + 4] = _HEX[crc & 0x0F]
        buf[n + 5] = NEWLINE
        self.n = n + 6
        return self.n


def _hexval(value):
    if 0x30 <= value <= 0x39:
        return value - 0x30
    if 0x41 <= value <= 0x46:
        return value - 0x37
    return -1


class Reader:
    """Splits incoming bytes into frames; `check()` validates one in place and keeps where its parts are."""

    def __init__(self):
        self.buf = bytearray(MAX_FRAME - 1)  # a frame's bytes between `~` and the newline, `\r` included
        self.n = 0
        self.in_frame = False
        self.bad = 0  # frames that failed: wrong CRC, bad shape, too long
        self.noise = 0  # lines outside frames: stray prints, tracebacks
        self.seq = UNSEQ
        self.kind_start = 0
        self.kind_end = 0
        self.payload_start = 0
        self.payload_end = 0

    def push(self, value):
        """Take one byte; True when a complete line sits in the buffer for `check()`."""
        if value == START:
            if self.in_frame and self.n:
                self.bad += 1  # a frame cut short by the next one
            self.in_frame = True
            self.n = 0
            return False
        if not self.in_frame:
            if value == NEWLINE:
                self.noise += 1
            return False
        if value == NEWLINE:
            self.in_frame = False
            return True
        if self.n < len(self.buf):
            self.buf[self.n] = value
            self.n += 1
        else:
            self.bad += 1
            self.in_frame = False
            self.n = 0
        return False

    def check(self):
        """Validate the line in the buffer (without `~` and newline); False and counted if bad."""
        buf = self.buf
        n = self.n
        if n > 0 and buf[n - 1] == 0x0D:
            n -= 1
        if n > MAX_FRAME - 2:
            self.bad += 1  # longer than a frame may be, even if the buffer held it
            return False
        if n < 11 or buf[n - 5] != SPACE:
            self.bad += 1
            return False
        crc = 0
        for i in range(n - 4, n):
            digit = _hexval(buf[i])
            if digit < 0:
                self.bad += 1
                return False
            crc = (crc << 4) | digit
        if crc != crc16(buf, 0, n - 5):
            self.bad += 1
            return False
        # SEQ
        i = 0
        if buf[0] == 0x2D:
            seq = UNSEQ
            i = 1
        else:
            seq = 0
            while i < n and 0x30 <= buf[i] <= 0x39 and i < 6:
                seq = seq * 10 + buf[i] - 0x30
                i += 1
            if i == 0 or seq > 0xFFFF:
                self.bad += 1
                return False
        if buf[i] != SPACE:
            self.bad += 1
            return False
        i += 1
        start = i
        while i < n - 5 and buf[i] != SPACE:
            i += 1
        if i == start or i >= n - 5:
            self.bad += 1
            return False
        self.seq = seq
        self.kind_start = start
        self.kind_end = i
        self.payload_start = i + 1
        self.payload_end = n - 5
        return True

    def kind_is(self, name):
        if self.kind_end - self.kind_start != len(name):
            return False
        buf = self.buf
        start = self.kind_start
        for i in range(len(name)):
            if buf[start + i] != name[i]:
                return False
        return True

    def kind(self):
        return bytes(self.buf[self.kind_start : self.kind_end]).decode()

    def payload(self):
        return bytes(self.buf[self.payload_start : self.payload_end])

    def int_field(self, name):
        """The integer after `"name":` in the payload, read in place; -1 if absent."""
        buf = self.buf
        end = self.payload_end
        size = len(name)
        i = self.payload_start
        while i + size + 3 <= end:
            if buf[i] == 0x22 and buf[i + size + 1] == 0x22 and buf[i + size + 2] == 0x3A:
                match = True
                for j in range(size):
                    if buf[i + 1 + j] != name[j]:
                        match = False
                        break
                if match:
                    i += size + 3
                    while i < end and buf[i] == SPACE:
                        i += 1
                    value = -1
                    while i < end and 0x30 <= buf[i] <= 0x39:
                        value = (0 if value < 0 else value * 10) + buf[i] - 0x30
                        i += 1
                    return value
            i += 1
        return -1


def escape(payload):
    """JSON text made safe for a frame: `~` inside strings becomes `\\u007e` (JSON from `json.dumps` with
    ASCII escaping has no raw newline or control character; `~` is the only printable byte it must lose)."""
    return payload.replace("~", "\\u007e")


def encode(seq, kind, payload):
    """One whole frame as bytes (allocates; for the host and for rare board frames).

    Raises ValueError for a payload that would break the framing (a `~`, a newline or a carriage return in it)."""
    for bad in ("~", "\n", "\r"):
        if bad in payload:
            raise ValueError("a frame's JSON must not hold %r; escape it first" % bad)
    body = ("-" if seq < 0 else str(seq)) + " " + kind + " " + payload
    data = body.encode()
    return b"~" + data + (" %04X\n" % crc16(data, 0, len(data))).encode()


def decode(line):
    """(seq, kind, payload bytes) of one frame line, or None if it is not a valid frame."""
    reader = Reader()
    ready = False
    for value in line:
        ready = reader.push(value)
    if not line or line[-1] != NEWLINE:
        ready = reader.push(NEWLINE)
    if not ready or not reader.check():
        return None
    return reader.seq, reader.kind(), reader.payload()
