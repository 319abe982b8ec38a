"""The controller's circuit in SKiDL, built from the pin map (hardware/pins.json): every part, net and
seat-cable conductor. `build()` returns the SKiDL circuit and a plain description the BOM, the schematic
and the tests read."""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from companion.hardware import parts as P
from companion.link import pinmap

# SKiDL looks for KiCad's libraries when imported; none are needed here (every part is defined in parts.py), so
# it is pointed at this folder, which holds none, rather than warn that the variables are missing.
for _name in ("KICAD_SYMBOL_DIR", *(f"KICAD{v}_SYMBOL_DIR" for v in (6, 7, 8, 9, 10))):
    os.environ.setdefault(_name, os.path.dirname(os.path.abspath(__file__)))


@dataclasses.dataclass
class Placed:
    """A part in the circuit: its reference, its kind, its value and the net on each pin (None: not connected)."""

    ref: str
    kind: P.PartType
    value: str
    nets: dict[str, str | None]
    where: str  # on the controller, at seat N, ...


@dataclasses.dataclass
class Design:
    circuit: Any
    parts: list[Placed]
    pins: dict[str, Any]

    def part(self, ref: str) -> Placed:
        return next(p for p in self.parts if p.ref == ref)

    def net_pins(self, net: str) -> list[tuple[str, str]]:
        """(ref, pin name) of every pin on `net`."""
        return [(p.ref, pin) for p in self.parts for pin, n in p.nets.items() if n == net]


def build(pins: dict[str, Any] | None = None) -> Design:
    """The whole controller as a SKiDL circuit (a fresh one each call)."""
    from skidl import POWER, Circuit, Net
    from skidl.logger import stop_log_file_output

    stop_log_file_output()  # SKiDL's .log and .erc files: the check reports what they would hold

    pins = pins or pinmap.load()
    pinmap.assignments(pins)  # refuses a pin map with a GPIO used twice
    circuit = Circuit()
    no_connect = circuit.NC
    placed: list[Placed] = []
    nets: dict[str, Any] = {}
    counters: dict[str, int] = {}

    def net(name: str) -> Any:
        if name not in nets:
            nets[name] = Net(name, circuit=circuit)
        return nets[name]

    def add(kind: P.PartType, value: str, where: str, connections: dict[str, str | None],
            pin_list: tuple[tuple[int, str, str], ...] | None = None) -> Placed:
        counters[kind.ref] = counters.get(kind.ref, 0) + 1
        ref = f"{kind.ref}{counters[kind.ref]}"
        part = P.skidl_part(kind, pin_list, ref=ref, value=value, circuit=circuit, tag=ref)  # tag: stable ids
        for pin_name, net_name in connections.items():
            if net_name is None:
                part[pin_name] += no_connect
            else:
                net(net_name).__iadd__(part[pin_name])
        item = Placed(ref, kind, value, dict(connections), where)
        placed.append(item)
        return item

    def two(kind: P.PartType, value: str, a: str, b: str, where: str = "controller") -> Placed:
        names = [name for _, name, _ in kind.pins]
        return add(kind, value, where, {names[0]: a, names[1]: b})

    # -- the Pico: every header pin, each GPIO on the net of its role ---------------------------------------
    roles: dict[int, str] = {}
    for seat, gpio in enumerate(pins["seat_buttons"]["gpio"], start=1):  # nets numbered like the seat discs
        roles[gpio] = f"SEAT{seat}_IN"
    matrix = pins["key_matrix"]
    for row, gpio in enumerate(matrix["rows"]):
        roles[gpio] = f"ROW{row}"
    for col, gpio in enumerate(matrix["cols"]):
        roles[gpio] = f"COL{col}"
    roles[pins["buzzer"]["gpio"]] = "BUZ_PWM"
    reader = pins["rc522"]
    for signal in ("sck", "mosi", "miso", "cs"):
        roles[reader[signal]] = f"RC_{signal.upper()}"
    pixels = pins["pixels"]
    roles[pixels["strip_gpio"]] = "PIX_STRIP_3V3"
    for seat, gpio in enumerate(pixels["seat_gpio"], start=1):
        if gpio != pixels["strip_gpio"]:
            roles[gpio] = f"PIX{seat}_3V3"
    pico_pins: list[tuple[int, str, str]] = []
    pico_nets: dict[str, str | None] = {}
    for number, name in pinmap.PICO_HEADER.items():
        if name.startswith("GP"):
            kind = P.BIDIR
            net_name = roles.get(int(name[2:]))
        elif name == "GND":
            kind, net_name, name = P.PWRIN, "GND", f"GND{number}"
        elif name == "VBUS":
            kind, net_name = P.PWROUT, "VBUS"
        elif name == "3V3(OUT)":
            kind, net_name = P.PWROUT, "3V3"
        else:  # RUN, 3V3_EN, ADC_VREF, VSYS: left open on purpose
            kind, net_name = P.PASSIVE, None
        pico_pins.append((number, name, kind))
        pico_nets[name] = net_name
    add(P.PICO, "Pico", "controller", pico_nets, tuple(pico_pins))

    # -- power: the pixels' 5 V through a soft start from USB, or from a separate supply ------------------
    add(P.PFET, "NDP6020P", "controller", {"S": "VBUS", "G": "SS_GATE", "D": "5V_USB_SOFT"})
    two(P.RESISTOR_100K, "100k", "SS_GATE", "GND")
    two(P.CAP_1U, "1u", "SS_GATE", "VBUS")
    add(P.SELECT, "jumper 1-2 USB / 2-3 supply", "controller", {"USB": "5V_USB_SOFT", "LED": "5V_LED", "EXT": "5V_EXT"})
    add(P.SUPPLY_JACK, "5 V 2-3 A", "controller", {"+5V": "5V_EXT", "GND": "GND"})
    add(P.CAP_470U, "470u", "controller", {"+": "5V_LED", "-": "GND"})

    # -- the level shifters: one buffered line per seat pixel and one for seat 1 and the strip ------------
    lines = [("PIX_STRIP", "PIX_STRIP_3V3")] + [
        (f"PIX{seat}", f"PIX{seat}_3V3") for seat, gpio in enumerate(pixels["seat_gpio"], start=1)
        if gpio != pixels["strip_gpio"]
    ]
    channels = [(1, 2, 3), (4, 5, 6), (10, 9, 8), (13, 12, 11)]  # (OE, A, Y) pin numbers per channel
    buffers = (len(lines) + 3) // 4
    for b in range(buffers):
        conns: dict[str, str | None] = {"GND": "GND", "VCC": "5V_LED"}
        for c, _ in enumerate(channels):
            index = b * 4 + c
            ch = c + 1
            if index < len(lines):
                name, source = lines[index]
                conns.update({f"{ch}OE": "GND", f"{ch}A": source, f"{ch}Y": f"{name}_5V"})
            else:  # a spare channel: input tied low, output disabled (OE high), output open
                conns.update({f"{ch}OE": "5V_LED", f"{ch}A": "GND", f"{ch}Y": None})
        add(P.BUFFER, "74AHCT125", "controller", conns)
        two(P.CAP_100N, "100n", "5V_LED", "GND")
    for name, _ in lines:
        two(P.RESISTOR_330, "330", f"{name}_5V", f"{name}_DATA")

    # -- seats: a button with a pull-up and a series resistor, a pixel on its own data line -----------------
    for index in range(len(pins["seat_buttons"]["gpio"])):
        seat = index + 1  # as on the seat discs
        two(P.RESISTOR_1K, "1k", f"SEAT{seat}_IN", f"SEAT{seat}_BTN")
        two(P.RESISTOR_10K, "10k", f"SEAT{seat}_BTN", "3V3")
        on_controller = pixels["seat_gpio"][index] == pixels["strip_gpio"]
        if on_controller:
            add(P.ARCADE, f"seat {seat}", "controller", {"1": f"SEAT{seat}_BTN", "2": "GND"})
            add(P.PIXEL, f"seat {seat}", "controller",
                {"VDD": "5V_LED", "VSS": "GND", "DIN": "PIX_STRIP_DATA", "DOUT": "STRIP_CHAIN"})
            continue
        far = f"S{seat}"
        add(P.SEAT_JACK, f"seat {seat}", "controller",
            {"GND": "GND", "+5V": "5V_LED", "DATA": f"PIX{seat}_DATA", "BUTTON": f"SEAT{seat}_BTN"})
        add(P.CABLE, f"seat {seat} cable", f"seat {seat} cable",
            {"A1": "GND", "A2": "5V_LED", "A3": f"PIX{seat}_DATA", "A4": f"SEAT{seat}_BTN",
             "B1": f"{far}_GND", "B2": f"{far}_5V", "B3": f"{far}_DATA", "B4": f"{far}_BTN"})
        add(P.ARCADE, f"seat {seat}", f"seat {seat}", {"1": f"{far}_BTN", "2": f"{far}_GND"})
        add(P.PIXEL, f"seat {seat}", f"seat {seat}",
            {"VDD": f"{far}_5V", "VSS": f"{far}_GND", "DIN": f"{far}_DATA", "DOUT": None})
    # the strip, chained after seat 1's pixel on the controller
    two(P.RESISTOR_330, "330", "STRIP_CHAIN", "STRIP_DATA")
    add(P.STRIP_JACK, "strip", "controller", {"+5V": "5V_LED", "DATA": "STRIP_DATA", "GND": "GND"})
    add(P.STRIP, f"{pixels['strip_pixels']} pixels", "table edge", {"+5V": "5V_LED", "DIN": "STRIP_DATA", "GND": "GND"})

    # -- the keypad: rows driven low in turn, columns pulled up, a diode per key (cathode to the row) -------
    for col in range(len(matrix["cols"])):
        two(P.RESISTOR_10K, "10k", f"COL{col}", "3V3")
    for row, keys in enumerate(matrix["keys"]):
        for col, key in enumerate(keys):
            anode = f"KEY_{key.upper()}"
            add(P.DIODE, "1N4148", "controller", {"K": f"ROW{row}", "A": anode})
            add(P.KEY, f"key {key}", "controller", {"1": anode, "2": f"COL{col}"})

    # -- the buzzer: a transistor switches it from VBUS, a diode takes the coil's kick ----------------------
    two(P.RESISTOR_1K, "1k", "BUZ_PWM", "BUZ_BASE")
    two(P.RESISTOR_100K, "100k", "BUZ_BASE", "GND")
    add(P.NPN, "2N3904", "controller", {"B": "BUZ_BASE", "E": "GND", "C": "BUZ_SW"})
    add(P.BUZZER, "buzzer", "controller", {"+": "VBUS", "-": "BUZ_SW"})
    add(P.DIODE, "1N4148", "controller", {"K": "VBUS", "A": "BUZ_SW"})

    # -- the reader: SPI at 3.3 V, RST held high (the driver soft-resets), IRQ unused -----------------------
    two(P.RESISTOR_10K, "10k", "RC_RST", "3V3")
    add(P.RC522, "RC522", "controller",
        {"SDA": "RC_CS", "SCK": "RC_SCK", "MOSI": "RC_MOSI", "MISO": "RC_MISO", "IRQ": None, "GND": "GND",
         "RST": "RC_RST", "3.3V": "3V3"})

    # Supplies: USB's VBUS and the Pico's 3V3 come from pins SKiDL knows; the rest are rails we declare.
    for name in ("GND", "5V_LED", "5V_EXT", "5V_USB_SOFT"):
        net(name).drive = POWER
    for seat in range(1, len(pins["seat_buttons"]["gpio"]) + 1):
        for rail in ("GND", "5V"):
            if f"S{seat}_{rail}" in nets:
                net(f"S{seat}_{rail}").drive = POWER  # the seat end of a cable's power conductors
    return Design(circuit, placed, pins)
