"""The pin map (hardware/pins.json) and what is generated from it: the firmware's pins.py and the wiring diagram.

Run `python -m companion.link.pinmap` after editing pins.json; a test fails while the generated files differ.
"""

from __future__ import annotations

import json
import sys
from html import escape
from pathlib import Path
from typing import Any

from companion.link.firmware import HARDWARE_DIR, PACKAGE_DIR

PINS_JSON = HARDWARE_DIR / "pins.json"
PINS_PY = PACKAGE_DIR / "pins.py"
WIRING_SVG = HARDWARE_DIR / "wiring.svg"

# Physical header pin of each GPIO on the Pico, and the header's other pins.
PICO_HEADER: dict[int, str] = {
    1: "GP0",
    2: "GP1",
    3: "GND",
    4: "GP2",
    5: "GP3",
    6: "GP4",
    7: "GP5",
    8: "GND",
    9: "GP6",
    10: "GP7",
    11: "GP8",
    12: "GP9",
    13: "GND",
    14: "GP10",
    15: "GP11",
    16: "GP12",
    17: "GP13",
    18: "GND",
    19: "GP14",
    20: "GP15",
    21: "GP16",
    22: "GP17",
    23: "GND",
    24: "GP18",
    25: "GP19",
    26: "GP20",
    27: "GP21",
    28: "GND",
    29: "GP22",
    30: "RUN",
    31: "GP26",
    32: "GP27",
    33: "GND",
    34: "GP28",
    35: "ADC_VREF",
    36: "3V3(OUT)",
    37: "3V3_EN",
    38: "GND",
    39: "VSYS",
    40: "VBUS",
}
ON_BOARD = {25: "GP25 (LED)"}


def load(path: Path = PINS_JSON) -> dict[str, Any]:
    return json.loads(path.read_text())


def key_names(pins: dict[str, Any]) -> list[str]:
    return [key for row in pins["key_matrix"]["keys"] for key in row]


def assignments(pins: dict[str, Any]) -> dict[int, tuple[str, str]]:
    """GPIO -> (part, signal) for every pin in use; raises ValueError on a GPIO used twice or not on the header."""
    used: dict[int, tuple[str, str]] = {}

    def take(gpio: int, part: str, signal: str) -> None:
        if gpio in used:
            raise ValueError(f"GP{gpio} is used twice: {used[gpio][1]} and {signal}")
        if f"GP{gpio}" not in PICO_HEADER.values() and gpio not in ON_BOARD:
            raise ValueError(f"GP{gpio} is not on the Pico's header")
        used[gpio] = (part, signal)

    for seat, gpio in enumerate(pins["seat_buttons"]["gpio"]):
        take(gpio, "seat buttons", f"seat {seat + 1}")  # numbered 1–7 where people read them
    matrix = pins["key_matrix"]
    for row, gpio in enumerate(matrix["rows"]):
        take(gpio, "keypad", f"row {row} ({' '.join(matrix['keys'][row])})")
    for col, gpio in enumerate(matrix["cols"]):
        take(gpio, "keypad", f"column {col}")
    take(pins["buzzer"]["gpio"], "buzzer", "transistor base")
    reader = pins["rc522"]
    for signal in ("sck", "mosi", "miso", "cs"):
        take(reader[signal], "RC522 reader", {"cs": "SDA (CS)"}.get(signal, signal.upper()))
    pixels = pins["pixels"]
    on_strip = [seat for seat, gpio in enumerate(pixels["seat_gpio"]) if gpio == pixels["strip_gpio"]]
    first = "".join(f"seat {seat + 1} pixel, " for seat in on_strip)
    take(pixels["strip_gpio"], "WS2812B pixels", f"DIN {first}then the strip")
    for seat, gpio in enumerate(pixels["seat_gpio"]):
        if gpio != pixels["strip_gpio"]:
            take(gpio, "WS2812B pixels", f"DIN seat {seat + 1} pixel")
    take(pins["status_led"]["gpio"], "Pico's own LED", "status LED")
    return used


def led_budget_ma(pins: dict[str, Any]) -> int:
    """The LEDs' current budget the firmware scales to: the USB one, or the separate supply's."""
    power = pins["power"]
    if power["led_supply"] not in ("usb", "separate"):
        raise ValueError("power.led_supply is usb or separate")
    return int(power["usb_budget_ma"] if power["led_supply"] == "usb" else power["supply_budget_ma"])


def render_pins_py(pins: dict[str, Any]) -> str:
    assignments(pins)
    matrix = pins["key_matrix"]
    reader = pins["rc522"]
    pixels = pins["pixels"]

    def tup(values: list[int]) -> str:
        return "(" + ", ".join(map(str, values)) + ("," if len(values) == 1 else "") + ")"

    lines = [
        '"""GPIO numbers of the controller. Generated from hardware/pins.json by `python -m companion.link.pinmap`."""',
        "",
        f"SEAT_BUTTONS = {tup(pins['seat_buttons']['gpio'])}",
        f"KEY_ROWS = {tup(matrix['rows'])}",
        f"KEY_COLS = {tup(matrix['cols'])}",
        f"KEYS = ({', '.join(repr(k) for k in key_names(pins))})",
        f"BUZZER = {pins['buzzer']['gpio']}",
        f"SPI_ID = {reader['spi']}",
        f"SPI_BAUDRATE = {reader['baudrate']}",
        f"SPI_SCK = {reader['sck']}",
        f"SPI_MOSI = {reader['mosi']}",
        f"SPI_MISO = {reader['miso']}",
        f"RC522_CS = {reader['cs']}",
        f"SEAT_PIXEL_PINS = {tup(pixels['seat_gpio'])}",
        f"STRIP_PIN = {pixels['strip_gpio']}",
        f"SEAT_PIXELS = {len(pixels['seat_gpio'])}",
        f"STRIP_PIXELS = {pixels['strip_pixels']}",
        f"LED_BUDGET_MA = {led_budget_ma(pins)}",
        f"STATUS_LED = {pins['status_led']['gpio']}",
        "",
    ]
    return "\n".join(lines)


COLORS = {
    "seat buttons": "#c0392b",
    "keypad": "#2471a3",
    "buzzer": "#7d3c98",
    "RC522 reader": "#1e8449",
    "WS2812B pixels": "#b9770e",
    "Pico's own LED": "#555555",
}


def render_svg(pins: dict[str, Any]) -> str:
    """A wiring diagram: the Pico's header with every used pin labelled and tied to its part."""
    used = assignments(pins)
    by_name = {f"GP{gpio}": info for gpio, info in used.items()}
    width, height = 1300, 900
    pico_x, pico_y, pico_w, pitch = 540, 90, 220, 30
    pico_h = pitch * 20 + 20
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="13">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        '<text x="650" y="34" font-size="22" text-anchor="middle" font-weight="bold">'
        "Table controller wiring (generated from hardware/pins.json)</text>",
        f'<text x="650" y="58" text-anchor="middle" fill="#444">{escape(pins["board"])}, '
        "seen from above, USB at the top</text>",
        f'<rect x="{pico_x}" y="{pico_y}" width="{pico_w}" height="{pico_h}" rx="10" fill="#2e7d32" stroke="#1b5e20"/>',
        f'<rect x="{pico_x + 85}" y="{pico_y - 14}" width="50" height="22" rx="3" fill="#bbbbbb" stroke="#777"/>',
        f'<text x="{pico_x + pico_w / 2}" y="{pico_y + pico_h / 2}" fill="#ffffff" font-size="20" '
        'text-anchor="middle">Pico</text>',
    ]
    for number, name in PICO_HEADER.items():
        left = number <= 20
        row = number - 1 if left else 40 - number
        y = pico_y + 20 + row * pitch
        px = pico_x if left else pico_x + pico_w
        info = by_name.get(name)
        color = COLORS.get(info[0], "#000") if info else ("#000000" if name == "GND" else "#999999")
        out.append(f'<circle cx="{px}" cy="{y}" r="6" fill="{color}" stroke="#ffffff"/>')
        inner_x = px + 12 if left else px - 12
        anchor = "start" if left else "end"
        out.append(
            f'<text x="{inner_x}" y="{y + 4}" fill="#ffffff" font-size="11" text-anchor="{anchor}">'
            f"{number} {name}</text>"
        )
        if info:
            end_x = px - 150 if left else px + 150
            label_x = end_x - 6 if left else end_x + 6
            out.append(f'<line x1="{px}" y1="{y}" x2="{end_x}" y2="{y}" stroke="{color}" stroke-width="3"/>')
            out.append(
                f'<text x="{label_x}" y="{y + 4}" fill="{color}" text-anchor="{"end" if left else "start"}">'
                f"{escape(info[0])}: {escape(info[1])}</text>"
            )
    status = pins["status_led"]["gpio"]
    notes_y = pico_y + pico_h + 30
    out.append(
        f'<text x="30" y="{notes_y}" fill="#555">GP{status} is the Pico&#x27;s own LED (heartbeat). '
        "Power: VBUS (pin 40) to the pixels (soft start) and the buzzer; 3V3(OUT) (pin 36) to the RC522; "
        "GND to all. The full circuit: hardware/schematic.svg</text>"
    )
    for i, key in enumerate(("seat_buttons", "key_matrix", "buzzer", "rc522", "pixels", "power")):
        part = pins[key]
        out.append(
            f'<text x="30" y="{notes_y + 22 * (i + 1)}" fill="{COLORS.get(part["part"], "#333333")}">'
            f"{escape(part['part'])}: {escape(part['wiring'])}</text>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def generate(pins_path: Path = PINS_JSON) -> dict[Path, str]:
    pins = load(pins_path)
    return {PINS_PY: render_pins_py(pins), WIRING_SVG: render_svg(pins)}


def main() -> int:
    for path, text in generate().items():
        path.write_text(text)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
