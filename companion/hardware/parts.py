"""The parts of the controller, each with its real part number, price and current draw, defined for SKiDL
without any KiCad library (SKiDL's own SKIDL tool), so the check runs where KiCad is not installed."""

from __future__ import annotations

import dataclasses
from typing import Any

# Pin kinds, named as SKiDL's Pin.types
IN, OUT, BIDIR, PASSIVE, PWRIN, PWROUT, OPENCOLL, NOCONNECT = (
    "INPUT", "OUTPUT", "BIDIR", "PASSIVE", "PWRIN", "PWROUT", "OPENCOLL", "NOCONNECT")


@dataclasses.dataclass(frozen=True)
class PartType:
    """One kind of part: what it is, where to buy it, and its pins as (number, name, kind)."""

    name: str
    ref: str
    description: str
    manufacturer: str
    part_number: str
    footprint: str
    pins: tuple[tuple[int, str, str], ...]
    euro: float
    ma: float = 0.0  # typical current from the 5 V rail (budget rows of the BOM)


def _two(kind: str = PASSIVE) -> tuple[tuple[int, str, str], ...]:
    return ((1, "1", kind), (2, "2", kind))


RESISTOR_330 = PartType("R_330", "R", "330 ohm 1/4 W carbon film: pixel data series resistor", "Yageo",
                        "CFR-25JB-52-330R", "Resistor_THT:R_Axial_DIN0207", _two(), 0.02)
RESISTOR_1K = PartType("R_1k", "R", "1 kohm 1/4 W carbon film: button series resistor, transistor base",
                       "Yageo", "CFR-25JB-52-1K", "Resistor_THT:R_Axial_DIN0207", _two(), 0.02)
RESISTOR_10K = PartType("R_10k", "R", "10 kohm 1/4 W carbon film: pull-ups", "Yageo", "CFR-25JB-52-10K",
                        "Resistor_THT:R_Axial_DIN0207", _two(), 0.02)
RESISTOR_100K = PartType("R_100k", "R", "100 kohm 1/4 W carbon film: soft-start gate, base pull-down", "Yageo",
                         "CFR-25JB-52-100K", "Resistor_THT:R_Axial_DIN0207", _two(), 0.02)
CAP_100N = PartType("C_100n", "C", "100 nF 50 V X7R ceramic: decoupling", "KEMET", "C320C104K5R5TA",
                    "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm", _two(), 0.10)
CAP_1U = PartType("C_1u", "C", "1 uF 50 V X7R ceramic: soft-start gate capacitor", "KEMET", "C322C105K5R5TA",
                  "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm", _two(), 0.25)
CAP_470U = PartType("C_470u", "C", "470 uF 10 V electrolytic: the pixels' bulk capacitor (behind the soft start)",
                    "Panasonic", "EEU-FR1A471", "Capacitor_THT:CP_Radial_D8.0mm_P3.50mm",
                    ((1, "+", PASSIVE), (2, "-", PASSIVE)), 0.35)
DIODE = PartType("1N4148", "D", "1N4148 small-signal diode: keypad matrix, buzzer flyback", "onsemi",
                 "1N4148TR", "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal", ((1, "K", PASSIVE), (2, "A", PASSIVE)),
                 0.03)
KEY = PartType("KEY", "SW", "12 mm tactile switch with cap: keypad 1-9, OK, BACK, UNDO", "Omron", "B3F-4055",
               "Button_Switch_THT:SW_PUSH-12mm", _two(), 0.30)
ARCADE = PartType("ARCADE", "SW", "30 mm arcade button, translucent, no lamp: seat button", "Sanwa", "OBSF-30",
                  "Button_Switch_THT:SW_Arcade_30mm", _two(), 2.00)
PIXEL = PartType("WS2812B", "LED", "WS2812B pixel on a small PCB (with its 100 nF): under a seat button",
                 "Worldsemi", "WS2812B-B", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
                 ((1, "VDD", PWRIN), (2, "DOUT", OUT), (3, "VSS", PWRIN), (4, "DIN", IN)), 0.30, 1.0)
STRIP = PartType("STRIP16", "LED", "WS2812B strip, 60/m, 16 pixels cut (with its JST-SM lead)", "BTF-Lighting",
                 "WS2812B-60-IP30-5V", "", ((1, "+5V", PWRIN), (2, "DIN", IN), (3, "GND", PWRIN)), 4.00, 16.0)
BUFFER = PartType("74AHCT125", "U", "quad buffer, 3.3 V in, 5 V out: pixel data level shifter", "Texas Instruments",
                  "SN74AHCT125N", "Package_DIP:DIP-14_W7.62mm",
                  ((1, "1OE", IN), (2, "1A", IN), (3, "1Y", OUT), (4, "2OE", IN), (5, "2A", IN), (6, "2Y", OUT),
                   (7, "GND", PWRIN), (8, "3Y", OUT), (9, "3A", IN), (10, "3OE", IN), (11, "4Y", OUT), (12, "4A", IN),
                   (13, "4OE", IN), (14, "VCC", PWRIN)), 0.60, 0.1)
NPN = PartType("2N3904", "Q", "NPN transistor: switches the buzzer", "onsemi", "2N3904BU",
               "Package_TO_SOT_THT:TO-92_Inline", ((1, "E", PASSIVE), (2, "B", PASSIVE), (3, "C", PASSIVE)), 0.10)
PFET = PartType("NDP6020P", "Q", "P-channel logic-level MOSFET: soft start of the pixels' 5 V from USB", "onsemi",
                "NDP6020P", "Package_TO_SOT_THT:TO-220-3_Vertical",
                ((1, "G", PASSIVE), (2, "D", PASSIVE), (3, "S", PASSIVE)), 1.20)
BUZZER = PartType("BUZZER", "BZ", "magnetic buzzer (transducer) 5 V, 12 mm, about 2.4 kHz, switched by the 2N3904",
                  "CUI Devices", "CEM-1205C", "Buzzer_Beeper:Buzzer_12x9.5RM7.6",
                  ((1, "+", PASSIVE), (2, "-", PASSIVE)), 0.90, 30.0)
RC522 = PartType("RC522", "J", "RC522 (NXP MFRC522) reader module, 13.56 MHz, 3.3 V only, 8-pin header", "generic",
                 "RFID-RC522 (MFRC522)", "Connector_PinHeader_2.54mm:PinHeader_1x08_P2.54mm_Vertical",
                 ((1, "SDA", IN), (2, "SCK", IN), (3, "MOSI", IN), (4, "MISO", OUT), (5, "IRQ", OUT), (6, "GND", PWRIN),
                  (7, "RST", IN), (8, "3.3V", PWRIN)), 3.00)
PICO = PartType("PICO", "U", "Raspberry Pi Pico (RP2040), MicroPython 1.23 or later", "Raspberry Pi", "SC0915",
                "Module:RaspberryPi_Pico_Common_THT", (), 5.00, 25.0)
SEAT_JACK = PartType("SEAT_JACK", "J", "4-pin JST XH header on the controller: one seat cable", "JST", "B4B-XH-A",
                     "Connector_JST:JST_XH_B4B-XH-A_1x04_P2.50mm_Vertical",
                     ((1, "GND", PASSIVE), (2, "+5V", PASSIVE), (3, "DATA", PASSIVE), (4, "BUTTON", PASSIVE)), 0.15)
SEAT_PLUG = PartType("SEAT_PLUG", "P", "4-pin JST XH housing with crimps: a seat cable at the controller end", "JST",
                     "XHP-4", "", ((1, "GND", PASSIVE), (2, "+5V", PASSIVE), (3, "DATA", PASSIVE),
                                   (4, "BUTTON", PASSIVE)), 0.20)
CABLE = PartType("CABLE4", "W", "seat cable: 4 conductors of 24 AWG, up to 1.5 m (GND, +5V, pixel data, button)",
                 "Alpha Wire", "1174C", "",
                 tuple((n, f"{'A' if n <= 4 else 'B'}{(n - 1) % 4 + 1}", PASSIVE) for n in range(1, 9)), 1.50)
STRIP_JACK = PartType("STRIP_JACK", "J", "3-pin JST XH header: the strip's lead", "JST", "B3B-XH-A",
                      "Connector_JST:JST_XH_B3B-XH-A_1x03_P2.50mm_Vertical",
                      ((1, "+5V", PASSIVE), (2, "DATA", PASSIVE), (3, "GND", PASSIVE)), 0.12)
SUPPLY_JACK = PartType("SUPPLY", "J", "2-pin screw terminal: the separate 5 V 2-3 A pixel supply (common ground)",
                       "Phoenix Contact", "1935161",
                       "TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2_1x02_P5.00mm_Horizontal",
                       ((1, "+5V", PASSIVE), (2, "GND", PASSIVE)), 0.60)
SELECT = PartType("SELECT", "J", "3-pin header with a jumper: pixels' 5 V from USB (1-2) or the supply (2-3)",
                  "Amphenol", "77311-118-03LF", "Connector_PinHeader_2.54mm:PinHeader_1x03_P2.54mm_Vertical",
                  ((1, "USB", PASSIVE), (2, "LED", PASSIVE), (3, "EXT", PASSIVE)), 0.15)


def skidl_part(kind: PartType, pins: tuple[tuple[int, str, str], ...] | None = None, **fields: Any) -> Any:
    """A SKiDL part of this kind, defined with the SKIDL tool (no KiCad library needed)."""
    from skidl import SKIDL, Part, Pin  # pyright: ignore[reportAttributeAccessIssue]

    return Part(
        name=kind.name,
        tool=SKIDL,
        ref_prefix=kind.ref,
        footprint=kind.footprint or "none",
        description=kind.description,
        pins=[Pin(num=num, name=name, func=getattr(Pin.types, func)) for num, name, func in (pins or kind.pins)],
        **fields,
    )
