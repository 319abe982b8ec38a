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
            self.pwm.freq(int(freq))
            self.pwm.duty_u16(DUTY)
        else:
            self.pwm.duty_u16(0)
        self.note_end = ticks_add(now, int(ms))

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
