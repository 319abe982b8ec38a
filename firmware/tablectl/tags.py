"""Tag presence with hysteresis: the same UID seen twice in a row is placed, two misses in a row is removed."""

from .clock import ticks_diff


def _same(a, alen, b, blen):
    if alen != blen:
        return False
    for i in range(alen):
        if a[i] != b[i]:
            return False
    return True


class TagTracker:
    """Polls the reader every POLL_MS and calls `emit(uid, length, present)` on a change."""

    POLL_MS = 60
    SEEN_TO_PLACE = 2
    MISSES_TO_REMOVE = 2

    def __init__(self, reader, emit):
        self.reader = reader
        self.emit = emit
        self.uid = bytearray(10)  # the tag reported present
        self.uid_len = 0
        self.candidate = bytearray(10)
        self.candidate_len = 0
        self.seen = 0
        self.misses = 0
        self.last_poll = 0
        self.started = False

    @property
    def present(self):
        return self.uid_len > 0

    def poll(self, now):
        if not self.reader.ready:
            return  # no reader yet (set-up, or none answers): tags neither come nor go
        if self.started and ticks_diff(now, self.last_poll) < self.POLL_MS:
            return
        self.started = True
        self.last_poll = now
        length = self.reader.read_uid()
        if not length and self.uid_len and not self.reader.check(now):
            return  # the reader lost its set-up (not the tag its place): it is set up again, no miss counted
        if not length:
            self.seen = 0
            self.candidate_len = 0
            self.misses += 1
            if self.uid_len and self.misses >= self.MISSES_TO_REMOVE:
                self._remove()
            return
        self.misses = 0
        uid = self.reader.uid
        if _same(self.candidate, self.candidate_len, uid, length):
            self.seen += 1
        else:
            for i in range(length):
                self.candidate[i] = uid[i]
            self.candidate_len = length
            self.seen = 1
        if self.seen >= self.SEEN_TO_PLACE and not _same(self.uid, self.uid_len, uid, length):
            if self.uid_len:
                self._remove()
            for i in range(length):
                self.uid[i] = uid[i]
            self.uid_len = length
            self.emit(self.uid, length, True)

    def _remove(self):
        length = self.uid_len
        self.uid_len = 0
        self.emit(self.uid, length, False)

