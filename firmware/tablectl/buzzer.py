"""The piezo buzzer on a PWM pin: named patterns and host-given notes, played without blocking."""

from .clock import ticks_add, ticks_diff

# (frequency in Hz, 0 for a rest; duration in ms)
PATTERNS = {
    "tap": ((2200, 30),),
    "ok": ((1760, 60), (0, 30), (2349, 90)),
    "error": ((220, 250),),
    "turn": ((1319, 80), (0, 40), (1319, 80)),
    "alarm": ((880, 150), (0, 100), (880, 150), (0, 100), (880, 150)),
}
MAX_NOTES = 16
DUTY = 32768
MIN_HZ = 20  # PWM.freq raises below about 8 Hz on the rp2; nobody hears below 20 Hz anyway
MAX_HZ = 20000
MAX_MS = 5000


def clamp_note(freq, ms):
    """A note the PWM can always play: 0 (a rest) or 20-20000 Hz, for 0-5000 ms; both whole numbers."""
    freq = int(freq)
    ms = int(ms)
    if freq <= 0:
        freq = 0
    elif freq < MIN_HZ:
        freq = MIN_HZ
    elif freq > MAX_HZ:
        freq = MAX_HZ
    if ms < 0:
        ms = 0
    elif ms > MAX_MS:
        ms = MAX_MS
    return freq, ms


class Buzzer:
    def __init__(self, pwm):
        self.pwm = pwm
        self.notes = ()
        self.index = 0
        self.note_end = 0
        self.playing = False
        pwm.duty_u16(0)

    def play(self, notes, now):
        """Start a pattern (a name from PATTERNS or a sequence of (Hz, ms)), cutting any that plays."""
        if isinstance(notes, str):
            notes = PATTERNS.get(notes, ())
        self.notes = notes[:MAX_NOTES]
        self.index = 0
        self.playing = bool(self.notes)
        if self.playing:
            self._start(now)
        else:
            self.pwm.duty_u16(0)

    def _start(self, now):
        freq, ms = self.notes[self.index]
        if freq > 0:
            # Clamped again here: a pattern from anywhere must never raise inside the loop.
            self.pwm.freq(MIN_HZ if freq < MIN_HZ else MAX_HZ if freq > MAX_HZ else int(freq))
            self.pwm.duty_u16(DUTY)
        else:
            self.pwm.duty_u16(0)
        self.note_end = ticks_add(now, 0 if ms < 0 else MAX_MS if ms > MAX_MS else int(ms))

    def poll(self, now):
        if not self.playing or ticks_diff(now, self.note_end) < 0:
            return
        self.index += 1
        if self.index >= len(self.notes):
            self.playing = False
            self.pwm.duty_u16(0)
        else:
            self._start(now)

    def stop(self):
        self.playing = False
        self.pwm.duty_u16(0)
