"""The controller's schematic as SVG, drawn with schemdraw from the SKiDL circuit: every part with its reference,
value and the net on each pin. Parts are wired by net name (the usual way on a hobbyist's sheet): every pin
labelled ROW0 goes to every other pin labelled ROW0. Grouped by section, so one section can be built at a time."""

from __future__ import annotations

from typing import Any

from companion.hardware import parts as P
from companion.hardware.circuit import Design, Placed

COLUMN_W = 9.0  # drawing units between columns
TWO_PIN_SYMBOLS = (P.RESISTOR_330, P.RESISTOR_1K, P.RESISTOR_10K, P.RESISTOR_100K, P.CAP_100N, P.CAP_1U, P.CAP_470U,
                   P.DIODE, P.KEY, P.ARCADE)
SECTIONS = (
    ("Pico and reader",
     lambda p: p.kind in (P.PICO, P.RC522) or (p.kind is P.RESISTOR_10K and "RC_RST" in p.nets.values())),
    ("Power: soft start, supply jumper, bulk capacitor",
     lambda p: p.kind in (P.PFET, P.SELECT, P.SUPPLY_JACK, P.CAP_470U, P.CAP_1U)
     or (p.kind is P.RESISTOR_100K and "SS_GATE" in p.nets.values())),
    ("Pixel data: level shifters, series resistors, strip",
     lambda p: p.kind in (P.BUFFER, P.CAP_100N, P.RESISTOR_330, P.STRIP_JACK, P.STRIP)),
    ("Seats: buttons, pixels, cables", lambda p: p.kind in (P.SEAT_JACK, P.CABLE, P.ARCADE, P.PIXEL) or (
        p.kind in (P.RESISTOR_1K, P.RESISTOR_10K) and any(str(n).startswith("SEAT") for n in p.nets.values()))),
    ("Keypad matrix", lambda p: (p.kind in (P.KEY, P.DIODE) and "BUZ_SW" not in p.nets.values())
     or (p.kind is P.RESISTOR_10K and any(str(n).startswith("COL") for n in p.nets.values()))),
    ("Buzzer", lambda p: "BUZ_SW" in p.nets.values() or "BUZ_BASE" in p.nets.values()),
)


def sections(design: Design) -> list[tuple[str, list[Placed]]]:
    """Each part in the first section that claims it; a part no section claims is an error."""
    left = list(design.parts)
    out = []
    for title, claims in SECTIONS:
        mine = [p for p in left if claims(p)]
        left = [p for p in left if p not in mine]
        out.append((title, mine))
    if left:
        raise ValueError(f"parts in no section of the schematic: {[p.ref for p in left]}")
    return out


def _two_pin(d: Any, elm: Any, part: Placed, x: float, y: float) -> float:
    (_, net_a), (_, net_b) = list(part.nets.items())
    kind = part.kind
    if kind in (P.RESISTOR_330, P.RESISTOR_1K, P.RESISTOR_10K, P.RESISTOR_100K):
        element = elm.Resistor()
    elif kind is P.CAP_470U:
        element = elm.Capacitor(polar=True)
    elif kind in (P.CAP_100N, P.CAP_1U):
        element = elm.Capacitor()
    elif kind is P.DIODE:  # drawn anode to cathode
        net_a, net_b = part.nets["A"], part.nets["K"]
        element = elm.Diode()
    else:
        element = elm.Button() if kind is P.KEY else elm.Switch()
    d.add(elm.Dot(open=True).at((x, y)).label(str(net_a), loc="left", fontsize=9))
    d.add(elm.Line().at((x, y)).right(0.5))
    placed = d.add(element.right(2.5).label(f"{part.ref} {part.value}", loc="top", fontsize=9))
    d.add(elm.Line().at(placed.end).right(0.5))
    d.add(elm.Dot(open=True).label(str(net_b), loc="right", fontsize=9))
    return 1.4


def _box(d: Any, elm: Any, part: Placed, x: float, y: float) -> float:
    names = list(part.nets)
    half = (len(names) + 1) // 2
    pins = []
    # schemdraw stacks a side's pins from the bottom up: the left side is given in reverse, so both sides read
    # from the top in the order of the part's pins (the Pico's pin 1 at the top left, like the board).
    for i in reversed(range(half)):
        pins.append(elm.IcPin(name=names[i], side="left", anchorname=f"p{i}"))
    for i in range(half, len(names)):
        pins.append(elm.IcPin(name=names[i], side="right", anchorname=f"p{i}"))
    box = elm.Ic(pins=pins, pinspacing=0.6, edgepadH=0.4, leadlen=0.6, plblsize=9, lsize=9)
    top = y - 0.6
    placed = d.add(box.at((x + 2.2, top - 0.6 * (half - 1))).anchor(f"p{half - 1}")
                   .label(f"{part.ref} {part.value}", loc="top", fontsize=10))
    for i, name in enumerate(names):
        net = part.nets[name]
        side = "left" if i < half else "right"
        anchor = placed.absanchors[f"p{i}"]
        text = "not connected" if net is None else str(net)
        d.add(elm.Label().at(anchor).label(text, loc=side, fontsize=9, color="#444" if net is None else "#0b5394"))
    return max(half, len(names) - half) * 0.6 + 2.2


def render(design: Design) -> str:
    """The schematic as SVG text."""
    import schemdraw
    import schemdraw.elements as elm

    schemdraw.svgconfig.text = "text"
    with schemdraw.Drawing(show=False, canvas="svg") as d:
        d.config(fontsize=10, unit=2.5)
        d.add(elm.Label().at((0, 4)).label(
            "Table controller (companion/hardware/circuit.py): wire every pin to the pins with the same net label",
            loc="right", fontsize=14))
        x = 0.0
        for title, items in sections(design):
            y = 0.0
            d.add(elm.Label().at((x, y + 1.6)).label(title, loc="right", fontsize=12))
            column_height = 0.0
            for part in items:
                drawn_as_symbol = part.kind in TWO_PIN_SYMBOLS
                height = _two_pin(d, elm, part, x + 1.5, y) if drawn_as_symbol else _box(d, elm, part, x + 1.5, y)
                y -= height
                column_height += height
                if column_height > 60:
                    x += COLUMN_W
                    y = 0.0
                    column_height = 0.0
            x += COLUMN_W + 2.0
        svg = d.get_imagedata("svg")
    return svg.decode() if isinstance(svg, bytes) else svg
