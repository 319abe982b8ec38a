"""Our own MFRC522 (RC522) driver over SPI: wake a tag, read its 4- or 7-byte UID, read and write NTAG pages.

ISO 14443-3 type A: WUPA (or REQA), anticollision and select per cascade level (a 7-byte NTAG UID needs two
levels, the first starting with the cascade tag 0x88), then HLTA. CRC_A is computed here rather than by the
chip's coprocessor, which keeps the register traffic small. Buffers are made once; polling allocates nothing.

The chip's timer ends every exchange, set per command: 1.5 ms for WUPA, REQA, anticollision, select and HLTA
(a tag answers those within 0.1 ms, and silence must not hold the loop), 5 ms for a page read, 10 ms for a
page write (NTAG213 takes up to 4.1 ms to program). Set-up is a small state machine driven by `maintain(now)`:
a soft reset, 50 ms for the oscillator, the version register (no reader, or a miswired one, reads 0x00 or
0xFF and is tried again every second), then the registers; every second they are read back, and a reader
that lost them (an ESD reset, a brown-out) is set up again.
"""

from .clock import ticks_add, ticks_diff, ticks_ms

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(value):
        return value


# Registers
COMMAND = const(0x01)
COM_IRQ = const(0x04)
ERROR = const(0x06)
FIFO_DATA = const(0x09)
FIFO_LEVEL = const(0x0A)
CONTROL = const(0x0C)
BIT_FRAMING = const(0x0D)
COLL = const(0x0E)
MODE = const(0x11)
TX_MODE = const(0x12)
RX_MODE = const(0x13)
TX_CONTROL = const(0x14)
TX_ASK = const(0x15)
RF_CFG = const(0x26)
T_MODE = const(0x2A)
T_PRESCALER = const(0x2B)
T_RELOAD_H = const(0x2C)
T_RELOAD_L = const(0x2D)
VERSION = const(0x37)

# Chip commands
IDLE = const(0x00)
TRANSCEIVE = const(0x0C)
SOFT_RESET = const(0x0F)

# Tag commands
REQA = const(0x26)
WUPA = const(0x52)
SEL_CL1 = const(0x93)
SEL_CL2 = const(0x95)
HLTA = const(0x50)
CASCADE_TAG = const(0x88)
NTAG_READ = const(0x30)
NTAG_WRITE = const(0xA2)
NTAG_ACK = const(0x0A)

# ComIrqReg bits and ErrorReg bits
IRQ_RX = const(0x20)
IRQ_IDLE = const(0x10)
IRQ_TIMER = const(0x01)
ERR_FATAL = const(0x13)  # buffer overflow, parity, protocol
ERR_COLL = const(0x08)

# Timer reloads in ticks of 25 us (TPrescaler 0xA9 on the 13.56 MHz clock: 40 kHz)
SHORT_TICKS = const(60)  # 1.5 ms
READ_TICKS = const(200)  # 5 ms
WRITE_TICKS = const(400)  # 10 ms

# Versions the chip reports: 0x91/0x92 NXP MFRC522 v1/v2, 0x90 v0, 0x88 and 0xB2 FM17522 clones, 0x12 a known copy
VERSIONS = (0x12, 0x88, 0x90, 0x91, 0x92, 0xB2)

# The registers set up, with their values; read back every CHECK_MS
SETUP = (
    (TX_MODE, 0x00),
    (RX_MODE, 0x00),
    (T_MODE, 0x80),  # TAuto: the timer starts at the end of each transmission
    (T_PRESCALER, 0xA9),  # 40 kHz ticks
    (TX_ASK, 0x40),  # 100 % ASK
    (MODE, 0x3D),  # CRC preset 0x6363
    (RF_CFG, 0x70),  # receiver gain 48 dB, the most: stickers are read through a sleeve and the table top
)

ABSENT = const(0)
RESETTING = const(1)
READY = const(2)

OK = const(0)
NO_TAG = const(1)
ERROR_FRAME = const(2)
COLLISION = const(3)


def crc_a(buf, length):
    """ISO 14443-3 CRC_A of buf[:length] (initial value 0x6363), low byte first on the air."""
    crc = 0x6363
    for i in range(length):
        value = (buf[i] ^ (crc & 0xFF)) & 0xFF
        value = (value ^ (value << 4)) & 0xFF
        crc = ((crc >> 8) ^ (value << 8) ^ (value << 3) ^ (value >> 4)) & 0xFFFF
    return crc


class RC522:
    """The reader on an SPI bus (passed in, already configured: mode 0, up to 10 MHz) with its CS and RST pins."""

    POLL_LIMIT = 400  # register reads while waiting for an exchange; the chip's timer or the deadline ends it first
    RESET_MS = 50  # after a soft reset, before the chip is spoken to again
    RETRY_MS = 1000  # between tries while no reader answers
    CHECK_MS = 1000  # between read-backs of the registers

    def __init__(self, spi, cs, rst=None):
        self.spi = spi
        self.cs = cs
        self.rst = rst
        self.state = ABSENT
        self.due = 0  # when the next step of set-up (or the next check) is due
        self.started = False
        self.version = 0  # the version register as last read; 0 while no reader answers
        self.inits = 0  # set-ups done (1 after start-up; more after drifts)
        self.drifts = 0  # times the registers were found changed
        self.waits = 0  # extra waits after a reset (a step that was late to read the version)
        self._reg_tx = bytearray(2)
        self._reg_rx = bytearray(2)
        self.tx = bytearray(18)
        self.rx = bytearray(18)
        self.rx_len = 0
        self.rx_bits = 0
        self.uid = bytearray(10)
        self.uid_len = 0
        self.sak = 0
        cs.value(1)
        probe = self.read_reg(VERSION)  # for the first hello, before set-up begins
        self.version = probe if probe in VERSIONS else 0

    # -- registers ---------------------------------------------------------------------------------
    def write_reg(self, reg, value):
        tx = self._reg_tx
        tx[0] = (reg << 1) & 0x7E
        tx[1] = value
        self.cs.value(0)
        self.spi.write(tx)
        self.cs.value(1)

    def read_reg(self, reg):
        tx = self._reg_tx
        tx[0] = ((reg << 1) & 0x7E) | 0x80
        tx[1] = 0
        self.cs.value(0)
        self.spi.write_readinto(tx, self._reg_rx)
        self.cs.value(1)
        return self._reg_rx[1]

    def set_bits(self, reg, mask):
        self.write_reg(reg, self.read_reg(reg) | mask)

    def clear_bits(self, reg, mask):
        self.write_reg(reg, self.read_reg(reg) & ~mask)

    # -- set-up ------------------------------------------------------------------------------------
    def begin(self, now):
        """Soft-reset the chip; `maintain` sets it up once RESET_MS have passed."""
        if self.rst is not None:
            self.rst.value(1)
        self.write_reg(COMMAND, SOFT_RESET)
        self.state = RESETTING
        self.waits = 0
        self.due = ticks_add(now, self.RESET_MS)

    def maintain(self, now):
        """Advance set-up, or check the registers when due; True while the reader is ready for tags."""
        if not self.started:
            self.started = True
            self.begin(now)
            return False
        if ticks_diff(now, self.due) < 0:
            return self.state == READY
        if self.state == READY:
            self.due = ticks_add(now, self.CHECK_MS)
            return self.check(now)
        if self.state == ABSENT:
            self.begin(now)
            return False
        version = self.read_reg(VERSION)
        if version not in VERSIONS and self.waits < 2:
            # The step that issued the reset may have run late: wait once more before calling the reader gone.
            self.waits += 1
            self.due = ticks_add(now, self.RESET_MS)
            return False
        if version not in VERSIONS:
            self.version = 0
            self.state = ABSENT
            self.due = ticks_add(now, self.RETRY_MS)
            return False
        self.version = version
        for i in range(len(SETUP)):
            self.write_reg(SETUP[i][0], SETUP[i][1])
        self.antenna_on()
        self.inits += 1
        self.state = READY
        self.due = ticks_add(now, self.CHECK_MS)
        return True

    def check(self, now):
        """Read the set-up back; if the chip lost it, count a drift and set it up again. True when it held."""
        if self.registers_ok():
            return True
        self.drifts += 1
        self.begin(now)
        return False

    def registers_ok(self):
        """True when the chip still holds its version, our set-up and a live antenna."""
        if self.read_reg(VERSION) != self.version:
            return False
        for i in range(len(SETUP)):
            if self.read_reg(SETUP[i][0]) != SETUP[i][1]:
                return False
        return self.read_reg(TX_CONTROL) & 0x03 == 0x03

    @property
    def ready(self):
        return self.state == READY

    def antenna_on(self):
        if self.read_reg(TX_CONTROL) & 0x03 != 0x03:
            self.set_bits(TX_CONTROL, 0x03)

    # -- one exchange ------------------------------------------------------------------------------
    def transceive(self, length, last_bits=0, timer=SHORT_TICKS):
        """Send tx[:length] (the last byte with `last_bits` bits, 0 = all 8), waiting at most `timer` ticks of
        25 us for the answer, which lands in rx."""
        self.write_reg(COMMAND, IDLE)
        self.write_reg(T_RELOAD_H, timer >> 8)
        self.write_reg(T_RELOAD_L, timer & 0xFF)
        self.write_reg(COM_IRQ, 0x7F)
        self.write_reg(FIFO_LEVEL, 0x80)  # flush
        tx = self.tx
        for i in range(length):
            self.write_reg(FIFO_DATA, tx[i])
        self.write_reg(BIT_FRAMING, last_bits)
        self.write_reg(COMMAND, TRANSCEIVE)
        self.set_bits(BIT_FRAMING, 0x80)  # StartSend
        irq = 0
        # The chip's timer ends the wait; the deadline only guards against a chip that stopped answering.
        deadline = ticks_add(ticks_ms(), (timer + 39) // 40 + 2)
        for _ in range(self.POLL_LIMIT):
            irq = self.read_reg(COM_IRQ)
            if irq & (IRQ_RX | IRQ_IDLE | IRQ_TIMER) or ticks_diff(ticks_ms(), deadline) > 0:
                break
        self.clear_bits(BIT_FRAMING, 0x80)
        self.rx_len = 0
        if not irq & (IRQ_RX | IRQ_IDLE):
            return NO_TAG
        error = self.read_reg(ERROR)
        if error & ERR_FATAL:
            return ERROR_FRAME
        if error & ERR_COLL:
            return COLLISION
        if irq & IRQ_TIMER and not irq & IRQ_RX:
            return NO_TAG
        count = self.read_reg(FIFO_LEVEL)
        if count > len(self.rx):
            count = len(self.rx)
        rx = self.rx
        for i in range(count):
            rx[i] = self.read_reg(FIFO_DATA)
        self.rx_len = count
        self.rx_bits = self.read_reg(CONTROL) & 0x07
        return OK

    def _append_crc(self, length):
        crc = crc_a(self.tx, length)
        self.tx[length] = crc & 0xFF
        self.tx[length + 1] = crc >> 8
        return length + 2

    def _rx_crc_ok(self):
        n = self.rx_len
        if n < 3:
            return False
        crc = crc_a(self.rx, n - 2)
        return self.rx[n - 2] == crc & 0xFF and self.rx[n - 1] == crc >> 8

    # -- ISO 14443-3 -------------------------------------------------------------------------------
    def wake(self, command=WUPA):
        """REQA (idle tags only) or WUPA (also halted ones); True when a tag answered with its ATQA."""
        self.write_reg(COLL, 0x80)  # bits received after a collision are cleared
        self.tx[0] = command
        status = self.transceive(1, 7)
        return status == OK and self.rx_len == 2

    def _cascade(self, level):
        """Anticollision and select at one level; the 4 answered bytes land in rx[0:4], SAK in self.sak."""
        tx = self.tx
        tx[0] = level
        tx[1] = 0x20
        if self.transceive(2) != OK or self.rx_len != 5:
            return False
        rx = self.rx
        if rx[0] ^ rx[1] ^ rx[2] ^ rx[3] != rx[4]:
            return False
        tx[1] = 0x70
        for i in range(5):
            tx[2 + i] = rx[i]
        if self.transceive(self._append_crc(7)) != OK or self.rx_len != 3 or not self._rx_crc_ok():
            return False
        self.sak = rx[0]
        # The select answer overwrote rx; the UID bytes are still in tx.
        for i in range(4):
            rx[i] = tx[2 + i]
        return True

    def select(self, command=WUPA):
        """Wake and select one tag; its UID is in uid[:uid_len] (4 or 7 bytes). 0 when no tag answered."""
        self.uid_len = 0
        if not self.wake(command):
            return 0
        if not self._cascade(SEL_CL1):
            return 0
        rx = self.rx
        if self.sak & 0x04:  # UID not complete: the first level carried the cascade tag and 3 bytes
            if rx[0] != CASCADE_TAG:
                return 0
            self.uid[0] = rx[1]
            self.uid[1] = rx[2]
            self.uid[2] = rx[3]
            if not self._cascade(SEL_CL2):
                return 0
            for i in range(4):
                self.uid[3 + i] = rx[i]
            if self.sak & 0x04:
                return 0  # 10-byte UIDs are not used on NTAG stickers
            self.uid_len = 7
        else:
            for i in range(4):
                self.uid[i] = rx[i]
            self.uid_len = 4
        return self.uid_len

    def halt(self):
        tx = self.tx
        tx[0] = HLTA
        tx[1] = 0
        self.transceive(self._append_crc(2))  # a halted tag does not answer: silence is success

    def read_uid(self):
        """Select whatever tag is on the reader, halt it, and return the UID length (0: none)."""
        length = self.select(WUPA)
        if length:
            self.halt()
        return length

    # -- NTAG213 pages (the tag must be selected) --------------------------------------------------
    def ntag_read(self, page, out):
        """Read 4 pages (16 bytes) from `page` into out[:16]; True on success."""
        tx = self.tx
        tx[0] = NTAG_READ
        tx[1] = page
        if self.transceive(self._append_crc(2), 0, READ_TICKS) != OK or self.rx_len != 18 or not self._rx_crc_ok():
            return False
        for i in range(16):
            out[i] = self.rx[i]
        return True

    def ntag_write(self, page, data):
        """Write data[:4] to one page; True when the tag acknowledged."""
        tx = self.tx
        tx[0] = NTAG_WRITE
        tx[1] = page
        for i in range(4):
            tx[2 + i] = data[i]
        if self.transceive(self._append_crc(6), 0, WRITE_TICKS) != OK:
            return False
        return self.rx_len == 1 and self.rx[0] & 0x0F == NTAG_ACK
