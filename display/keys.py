"""The development keyboard as the controller: which key is which button (names as pygame.key.name gives them)."""

from __future__ import annotations

from display.i18n import N_

# The controller has seven seat buttons, a 3×3 keypad, OK, BACK and UNDO. On a keyboard:
SEAT_KEYS = {str(n): n - 1 for n in range(1, 8)}  # 1–7: seat buttons
PAD_KEYS = {  # the 3×3 keypad, row by row: QWE / ASD / ZXC, or the numeric keypad as laid out
    "q": 0, "w": 1, "e": 2, "a": 3, "s": 4, "d": 5, "z": 6, "x": 7, "c": 8,
    "[7]": 0, "[8]": 1, "[9]": 2, "[4]": 3, "[5]": 4, "[6]": 5, "[1]": 6, "[2]": 7, "[3]": 8,
}
OK_KEYS = frozenset({"return", "enter", "space"})
BACK_KEYS = frozenset({"backspace", "escape"})
UNDO_KEYS = frozenset({"u"})
MOVE_KEYS = {"up": -1, "down": 1, "left": -1, "right": 1, "page up": -9, "page down": 9}
JOIN_KEYS = frozenset({"j"})
FULLSCREEN_KEYS = frozenset({"f11", "f"})


def press_for_key(name: str) -> tuple[str, int | None] | None:
    """A key name as a controller press: ("seat", n), ("pad", k), ("ok"|"back"|"undo", None), ("move", step)."""
    name = name.lower()
    if name in SEAT_KEYS:
        return ("seat", SEAT_KEYS[name])
    if name in PAD_KEYS:
        return ("pad", PAD_KEYS[name])
    if name in OK_KEYS:
        return ("ok", None)
    if name in BACK_KEYS:
        return ("back", None)
    if name in UNDO_KEYS:
        return ("undo", None)
    if name in MOVE_KEYS:
        return ("move", MOVE_KEYS[name])
    if name in JOIN_KEYS:
        return ("join", None)
    if name in FULLSCREEN_KEYS:
        return ("fullscreen", None)
    return None


HELP = (
    ("1–7", N_("seat buttons, as on the controller (twice quickly: a double press)")),
    ("Q W E / A S D / Z X C", N_("the 3×3 keypad: pick a choice")),
    ("arrows", N_("move through the choices")),
    ("Enter", N_("OK: do the highlighted choice")),
    ("Esc / Backspace", N_("BACK: close")),
    ("U", N_("UNDO as on the controller (Shift+U: the host's undo of anything)")),
    ("Shift + a controller key", N_("held: a long press")),
    ("J", N_("show the join codes")),
    ("F11", N_("full screen")),
)
