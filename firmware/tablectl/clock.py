"""Millisecond ticks that wrap like MicroPython's, with a CPython fallback for the host and the tests."""

try:
    from time import ticks_add, ticks_diff, ticks_ms  # type: ignore[attr-defined]
except ImportError:  # CPython: the same arithmetic over a 2**30 period
    import time as _time

    _PERIOD = 1 << 30
    _HALF = 1 << 29

    def ticks_ms():
        return int(_time.monotonic() * 1000) & (_PERIOD - 1)  # pyright: ignore[reportAttributeAccessIssue]

    def ticks_diff(end, start):
        return ((end - start + _HALF) & (_PERIOD - 1)) - _HALF

    def ticks_add(ticks, delta):
        return (ticks + delta) & (_PERIOD - 1)


__all__ = ["ticks_add", "ticks_diff", "ticks_ms"]
