"""The circuit as checked code: `companion hardware check` (ERC, netlist, BOM, schematic) and the agreement of
the pin map, the firmware's pins.py and the circuit's nets. CI runs the check through these tests."""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET

import pytest

from companion.cli.main import main
from companion.hardware import check, circuit
from companion.hardware import parts as P
from companion.link import firmware, pinmap

pins_py = firmware.module("pins")
leds = firmware.module("leds")


@pytest.fixture(scope="module")
def design() -> circuit.Design:
    return circuit.build()


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> check.Report:
    return check.run(tmp_path_factory.mktemp("hardware"))


def test_the_check_passes_erc_with_every_warning_explained(report):
    assert report.errors == [], report.errors
    assert report.unexplained == [], report.unexplained
    assert report.ok


def test_the_check_writes_a_kicad_netlist_with_every_part_and_net(report, design):
    text = report.files["netlist"].read_text()
    assert text.startswith("(export") and '(tool "SKiDL' in text
    for part in design.parts:
        assert f'(ref "{part.ref}")' in text, part.ref
    for name in ("VBUS", "3V3", "GND", "5V_LED", "ROW0", "COL2", "BUZ_SW", "PIX3_DATA", "S3_BTN"):
        assert f'(name "{name}")' in text, name


def test_the_bom_has_real_part_numbers_and_the_current_budget(report, design):
    rows = list(csv.reader(io.StringIO(report.files["bom"].read_text())))
    header, body = rows[0], rows[1:]
    assert header[:5] == ["references", "quantity", "description", "manufacturer", "part_number"]
    parts = [r for r in body if len(r) > 4 and r[1].isdigit() and r[4]]
    assert sum(int(r[1]) for r in parts if r[0]) == len(design.parts)
    assert all(r[4] for r in parts), "every part has a part number"
    for number in ("SC0915", "SN74AHCT125N", "1N4148TR", "2N3904BU", "CFR-25JB-52-330R", "EEU-FR1A471"):
        assert any(r[4] == number for r in parts), number
    budget = {r[2]: int(r[1]) for r in body if len(r) > 2 and r[1].isdigit() and not r[0]}
    assert budget["all LEDs together (the firmware's budget)"] == pins_py.LED_BUDGET_MA
    assert budget["total from USB"] <= budget["USB 2.0 port limit"] == 500


def test_the_schematic_names_every_part_and_every_net(report, design):
    svg = report.files["schematic"].read_text()
    ET.fromstring(svg)  # well-formed
    texts = {t.strip() for t in re.findall(r">([^<>]+)</t(?:ext|span)>", svg)}
    for part in design.parts:
        assert any(t.startswith(part.ref + " ") for t in texts), part.ref
        for net in part.nets.values():
            assert (net or "not connected") in texts, (part.ref, net)


def test_the_committed_files_are_what_the_circuit_gives(report):
    for path in report.files.values():
        committed = check.OUT_DIR / path.name
        assert committed.read_text() == path.read_text(), f"{committed} is stale: run companion hardware check"


def test_the_erc_catches_a_mistake(design):
    broken = circuit.build()
    u2 = broken.circuit.parts[[p.ref for p in broken.circuit.parts].index("U2")]
    from skidl import Net

    short = Net("SHORT", circuit=broken.circuit)
    short += u2["1Y"], u2["2Y"]  # two outputs driving one net
    errors, _ = check.erc(broken)
    assert errors, "two outputs on one net is an error"


def test_the_command_runs_the_check(tmp_path, capsys):
    assert main(["hardware", "check", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "ERC: 0 errors" in out and "current from USB" in out
    assert (tmp_path / "schematic.svg").exists() and (tmp_path / "bom.csv").exists()


def pico_net(design: circuit.Design, gpio: int) -> str:
    net = design.part("U1").nets[f"GP{gpio}"]
    assert net is not None, f"GP{gpio} is not connected"
    return net


def others(design: circuit.Design, net: str, but: str = "U1") -> set[tuple[str, str]]:
    return {(design.part(ref).kind.name, pin) for ref, pin in design.net_pins(net) if ref != but}


def test_pin_map_pins_py_and_circuit_agree(design):
    pins = pinmap.load()
    assert tuple(pins["seat_buttons"]["gpio"]) == pins_py.SEAT_BUTTONS
    for gpio in pins["seat_buttons"]["gpio"]:
        assert others(design, pico_net(design, gpio)) == {("R_1k", "1")}, "a series resistor first"
    for row, gpio in enumerate(pins_py.KEY_ROWS):
        assert others(design, pico_net(design, gpio)) == {("1N4148", "K")}, "rows reach the diodes' cathodes"
        assert len(design.net_pins(f"ROW{row}")) == 1 + len(pins_py.KEY_COLS)
    for gpio in pins_py.KEY_COLS:
        assert others(design, pico_net(design, gpio)) == {("KEY", "2"), ("R_10k", "1")}, "keys and a pull-up"
    assert others(design, pico_net(design, pins_py.BUZZER)) == {("R_1k", "1")}
    assert design.part("Q2").nets["B"] == "BUZ_BASE" and design.part("BZ1").nets["-"] == "BUZ_SW"
    reader = design.part("J10").nets
    assert (pico_net(design, pins_py.RC522_CS), pico_net(design, pins_py.SPI_SCK)) == (reader["SDA"], reader["SCK"])
    assert (pico_net(design, pins_py.SPI_MOSI), pico_net(design, pins_py.SPI_MISO)) == (reader["MOSI"], reader["MISO"])
    assert reader["3.3V"] == "3V3", "the RC522 never gets 5 V"
    # Every pixel's data leaves its own GPIO through a buffer channel: the firmware's chains are the circuit's.
    chain_pins, _, _, _ = leds.chain_layout(pins_py.SEAT_PIXEL_PINS, pins_py.STRIP_PIN,
                                                            pins_py.STRIP_PIXELS)
    for pin in chain_pins:
        assert {kind for kind, _ in others(design, pico_net(design, pin))} == {"74AHCT125"}
    assert len(chain_pins) == len({pico_net(design, p) for p in chain_pins})


def test_no_pixel_data_runs_through_a_seat_cable_to_another_seat(design):
    for part in design.parts:
        if part.kind is P.PIXEL and part.where.startswith("seat") and part.where != "controller":
            assert part.nets["DOUT"] is None, f"{part.ref} passes its data on"
    for part in design.parts:
        if part.kind is P.CABLE:
            seat = part.value.split()[1]
            assert part.nets["A3"] == f"PIX{seat}_DATA" and part.nets["A4"] == f"SEAT{seat}_BTN"
            assert (part.nets["A1"], part.nets["A2"]) == ("GND", "5V_LED")


def test_every_buffer_pin_is_tied_and_every_buffer_decoupled(design):
    buffers = [p for p in design.parts if p.kind is P.BUFFER]
    assert len(buffers) == 2
    for buffer in buffers:
        for pin, net in buffer.nets.items():
            if not pin.endswith("Y"):
                assert net is not None, f"{buffer.ref} {pin} floats"
        assert buffer.nets["VCC"] == "5V_LED"
    caps = [p for p in design.parts if p.kind is P.CAP_100N and set(p.nets.values()) == {"5V_LED", "GND"}]
    assert len(caps) >= len(buffers)


def test_seat_buttons_have_external_pull_ups_and_series_resistors(design):
    for seat in range(1, 8):
        on_button = others(design, f"SEAT{seat}_BTN", but="")
        assert ("R_1k", "2") in on_button and ("R_10k", "1") in on_button
        assert any(kind in ("SEAT_JACK", "ARCADE") for kind, _ in on_button)


def test_an_unexplained_erc_warning_fails_the_check():
    from skidl import Net

    broken = circuit.build()
    lonely = P.skidl_part(P.RESISTOR_10K, ref="R99", value="10k", circuit=broken.circuit)
    half = Net("HALF", circuit=broken.circuit)
    half += lonely["1"]  # its other leg is left in the air
    _, warnings = check.erc(broken)
    assert warnings, "a pin left unconnected is a warning"
    assert check.unexplained_warnings(warnings) == warnings
