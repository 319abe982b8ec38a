"""The board's end of the serial link: numbered frames kept until acknowledged, retransmission, heartbeat.

Events (buttons, keys, tags, snapshots) are written straight into one of a fixed ring of frame buffers and
sent at once; a frame stays in the ring until the host acknowledges it (cumulatively), and every frame still
unacknowledged is sent again, in order, when no acknowledgement arrived for RTO_MS. Host commands are taken
in sequence only: a repeat or a frame after a gap is dropped and answered with the last sequence accepted,
so nothing is applied twice or out of order. See hardware/PROTOCOL.md.
"""

from . import FIRMWARE_VERSION
from .clock import ticks_diff
from .frame import MAX_FRAME, PROTOCOL, UNSEQ, Reader, Writer

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(value):
        return value


SEQ_MASK = const(0xFFFF)


class Link:
    RTO_MS = 250  # the first retransmission; then 2, 4 and 8 times as long while nothing is acknowledged
    BACKOFF_MAX = 3
    HEARTBEAT_MS = 1000
    SLOTS = 32  # frames waiting for an acknowledgement; a full ring drops new events (counted)
    RESERVED = 4  # slots only snapshots and command results may take, so a resync never finds the ring full
    WRITES_PER_STEP = 4  # frames written in one polling step at most: a long backlog never starves the loop

    def __init__(self, port, board_id, boot_id, on_command, snapshot):
        self.port = port
        self.board_id = board_id.encode()
        self.boot_id = boot_id.encode()
        self.on_command = on_command  # on_command(kind: str, payload: bytes) for in-sequence host commands
        self.slots = [bytearray(MAX_FRAME) for _ in range(self.SLOTS)]
        self.lengths = [0] * self.SLOTS
        self.head = 0  # ring index of the oldest unacknowledged frame
        self.count = 0
        self.sent = 0  # how many frames from the head went out since the last (re)transmission began
        self.base_seq = 0  # its sequence number
        self.rx_expect = 0  # the next host sequence number we accept
        self.writer = Writer(bytearray(MAX_FRAME))  # unsequenced frames
        self.slot_writer = Writer(self.slots[0])
        self.reader = Reader()
        self.chunk = bytearray(64)
        self.last_send = 0
        self.last_heartbeat = 0
        self.last_nonce = -1
        self.last_sync_boot = b""
        self.heard = False  # a frame from the host arrived since the last sync
        self.started = False
        self.frozen = False  # a reset is under way: host commands are no longer taken (nor acknowledged)
        self.tries = 0  # retransmissions since the host last acknowledged anything
        self.writes_left = self.WRITES_PER_STEP
        self.dropped = 0  # events lost to a full ring
        self.unsent = 0  # writes skipped because the port had no room (the host was not reading)
        self.repeats = 0  # host frames dropped as repeats or after a gap
        self.snapshot = snapshot  # snapshot(writer) writes the snapshot's payload
        # What the hello and the heartbeat tell besides the session (the controller fills them in).
        self.micropython = b""  # the MicroPython version, empty when the firmware runs elsewhere
        self.reader_version = 0  # the RC522's version register, 0 when no reader answers
        self.reader_inits = 0
        self.budget_ma = 0
        self.cause = b"power"  # why the board (re)started

    # -- writing -----------------------------------------------------------------------------------
    def _write(self, buf, length):
        """Write one frame if the port has room and this step may still write; False if it was not written.

        A USB write with nobody reading can block for half a second on the rp2, so we never start one the
        port cannot take at once; an unwritten frame is sent again (sequenced) or answered again (acks)."""
        if self.writes_left <= 0:
            return False
        if not self.port.room(length):
            self.unsent += 1
            return False
        self.writes_left -= 1
        self.port.write(buf, length)
        return True

    def _pump(self):
        while self.sent < self.count:
            index = (self.head + self.sent) % self.SLOTS
            if not self._write(self.slots[index], self.lengths[index]):
                return
            self.sent += 1

    # -- sending -----------------------------------------------------------------------------------
    def start(self, kind, reserved=False):
        """A Writer for a new sequenced frame of `kind`, or None (counted) when the ring is full."""
        if self.count >= (self.SLOTS if reserved else self.SLOTS - self.RESERVED):
            self.dropped += 1
            return None
        index = (self.head + self.count) % self.SLOTS
        writer = self.slot_writer
        writer.buf = self.slots[index]
        return writer.begin((self.base_seq + self.count) & SEQ_MASK, kind)

    def finish(self, now):
        """Seal the frame begun with `start` and send it (now, or in a later step when the port is busy)."""
        writer = self.slot_writer
        length = writer.end()
        if not length:
            self.dropped += 1
            return
        index = (self.head + self.count) % self.SLOTS
        self.lengths[index] = length
        if self.count == 0:
            self.last_send = now
        self.count += 1
        self._pump()

    def send_unsequenced(self, writer):
        length = writer.end()
        if length:
            self._write(writer.buf, length)

    def retransmit(self, now):
        self.last_send = now
        self.sent = 0
        self._pump()

    def _ack(self, seq):
        writer = self.writer.begin(UNSEQ, b"ack")
        writer.raw(b'{"n":')
        writer.int(seq & SEQ_MASK)
        writer.byte(0x7D)
        self.send_unsequenced(writer)

    def heartbeat(self, now, uptime_ms):
        writer = self.writer.begin(UNSEQ, b"hb")
        writer.raw(b'{"up":')
        writer.int(uptime_ms // 1000)
        writer.raw(b',"bad":')
        writer.int(self.reader.bad)
        writer.raw(b',"q":')
        writer.int(self.count)
        writer.raw(b',"lost":')
        writer.int(self.dropped)
        writer.raw(b',"boot":')
        writer.text(self.boot_id)
        writer.raw(b',"rc":')
        writer.int(self.reader_version)
        writer.raw(b',"ri":')
        writer.int(self.reader_inits)
        writer.byte(0x7D)
        self.send_unsequenced(writer)

    def hello(self, nonce):
        writer = self.writer.begin(UNSEQ, b"hello")
        writer.raw(b'{"proto":')
        writer.int(PROTOCOL)
        writer.raw(b',"fw":')
        writer.text(FIRMWARE_VERSION.encode())
        writer.raw(b',"board":')
        writer.text(self.board_id)
        writer.raw(b',"boot":')
        writer.text(self.boot_id)
        writer.raw(b',"nonce":')
        writer.int(nonce)
        writer.raw(b',"next":')
        writer.int(self.base_seq)
        writer.raw(b',"rx":')
        writer.int(self.rx_expect)
        writer.raw(b',"mp":')
        writer.text(self.micropython)
        writer.raw(b',"rc":')
        writer.int(self.reader_version)
        writer.raw(b',"ma":')
        writer.int(self.budget_ma)
        writer.raw(b',"why":')
        writer.text(self.cause)
        writer.byte(0x7D)
        self.send_unsequenced(writer)

    def error(self, name):
        """Tell the host what went wrong just before the board restarts (unsequenced: there is no time for acks)."""
        self.writes_left = 1
        writer = self.writer.begin(UNSEQ, b"err")
        writer.raw(b'{"e":')
        writer.text(name)
        writer.byte(0x7D)
        self.send_unsequenced(writer)

    def send_snapshot(self, now):
        writer = self.start(b"snap", True)
        if writer is not None:
            self.snapshot(writer)
            self.finish(now)

    # -- receiving ---------------------------------------------------------------------------------
    def poll(self, now):
        self.writes_left = self.WRITES_PER_STEP
        port = self.port
        reader = self.reader
        while port.any():
            n = port.readinto(self.chunk)
            if not n:
                break
            for i in range(n):
                if reader.push(self.chunk[i]) and reader.check():
                    self._frame(now)
        if self.count:
            tries = self.tries if self.tries < self.BACKOFF_MAX else self.BACKOFF_MAX
            if ticks_diff(now, self.last_send) >= self.RTO_MS << tries:
                self.tries += 1
                self.retransmit(now)
            else:
                self._pump()  # frames the port had no room for before
        if not self.started or ticks_diff(now, self.last_heartbeat) >= self.HEARTBEAT_MS:
            self.started = True
            self.last_heartbeat = now
            return True  # time for a heartbeat: the controller adds its uptime
        return False

    def _frame(self, now):
        reader = self.reader
        if reader.seq == UNSEQ:
            if reader.kind_is(b"ack"):
                self.heard = True
                self._acked(reader.int_field(b"n"), now)
            elif reader.kind_is(b"sync"):
                self._sync(now)
            elif reader.kind_is(b"safe"):
                self.on_command("safe", b"")  # no session needed: deployment asks for it out of the blue
            return
        self.heard = True
        if self.frozen or self.last_nonce < 0:
            return  # no session yet (a host's frames from before our restart) or a reset under way
        if reader.seq != self.rx_expect:
            self.repeats += 1
            self._ack(self.rx_expect - 1)
            return
        self.rx_expect = (self.rx_expect + 1) & SEQ_MASK
        self._ack(reader.seq)
        self.on_command(reader.kind(), reader.payload())

    def _acked(self, seq, now):
        if seq < 0:
            return
        done = ((seq - self.base_seq) & SEQ_MASK) + 1
        if done > self.count:
            return  # an old or foreign acknowledgement
        self.head = (self.head + done) % self.SLOTS
        self.count -= done
        self.sent = self.sent - done if self.sent > done else 0
        self.base_seq = (self.base_seq + done) & SEQ_MASK
        self.last_send = now
        self.tries = 0

    def _sync(self, now):
        import json

        try:
            payload = json.loads(self.reader.payload())
            nonce = int(payload.get("nonce", 0))
            boot = str(payload.get("boot", "")).encode()
        except (ValueError, TypeError, AttributeError):
            self.reader.bad += 1
            return
        if nonce == self.last_nonce and boot == self.last_sync_boot and not self.heard:
            # A repeated sync: its hello was lost, the host has not spoken since. It listens now: the backlog
            # (the snapshot included) goes again at once rather than after a backed-off timeout.
            self.hello(nonce)
            self.tries = 0
            self.retransmit(now)
            return
        self.last_nonce = nonce
        self.last_sync_boot = boot
        self.heard = False
        self.tries = 0
        if boot != self.boot_id:
            # A new host session (a restarted host knows no boot id): what it never saw is stale, numbering
            # starts again, and the snapshot tells it what is held now. Nothing is replayed.
            self.head = 0
            self.count = 0
            self.sent = 0
            self.base_seq = 0
            self.rx_expect = 0
        self.hello(nonce)
        self.retransmit(now)  # a resumed session gets its backlog first, then the snapshot
        self.send_snapshot(now)
