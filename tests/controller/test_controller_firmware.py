"""The firmware: its scenarios under CPython and under MicroPython (WebAssembly, run by Node), the frame codec,
the pin map it is generated from, its types against the MicroPython rp2 stubs, and mpy-cross compiling it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import types
from pathlib import Path

import fw_scenarios
import pytest

from companion.link import firmware, pinmap

ROOT = Path(__file__).resolve().parents[2]
NODE_DIR = Path(__file__).parent / "node"
frame = firmware.module("frame")
keypad = firmware.module("keypad")
pins_py = firmware.module("pins")


@pytest.mark.parametrize("name", fw_scenarios.SCENARIOS)
def test_scenario_under_cpython(name):
    getattr(fw_scenarios, name)()


def test_scenarios_under_micropython():
    node = shutil.which("node")
    package = NODE_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
    if node is None or not package.exists():
        pytest.skip("needs node and `npm ci` in tests/controller/node")
    result = subprocess.run(
        [node, str(NODE_DIR / "run_firmware.mjs"), str(ROOT)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    passed = [line.split()[1] for line in result.stdout.splitlines() if line.startswith("PASS ")]
    assert sorted(passed) == sorted(fw_scenarios.SCENARIOS)
    heap = json.loads(next(line[5:] for line in result.stdout.splitlines() if line.startswith("HEAP ")))
    assert heap["alloc_per_idle_step"] == 0, "the polling loop must not allocate"
    assert heap["alloc_per_button_event"] == 0, heap


def test_crc_is_ccitt_false():
    assert frame.crc16(b"123456789", 0, 9) == 0x29B1


def test_frames_round_trip_and_reject_any_changed_byte():
    line = frame.encode(513, "btn", '{"b":6,"a":"double"}')
    assert line.startswith(b"~513 btn ") and line.endswith(b"\n")
    assert frame.decode(line) == (513, "btn", b'{"b":6,"a":"double"}')
    for i in range(1, len(line) - 1):
        changed = bytearray(line)
        changed[i] ^= 0x01
        assert frame.decode(bytes(changed)) is None, i


def test_stray_text_before_a_frame_costs_only_itself():
    reader = frame.Reader()
    good = frame.encode(-1, "ack", '{"n":7}')
    frames = 0
    for value in b"Traceback (most recent call last):\n  oops" + good + b"\r\n" + good:
        if reader.push(value) and reader.check():
            frames += 1
            assert reader.int_field(b"n") == 7
    assert frames == 2
    assert reader.bad == 0 and reader.noise == 2


def test_writer_refuses_what_does_not_fit():
    writer = frame.Writer(bytearray(24))
    writer.begin(1, b"btn")
    writer.raw(b'{"b":1,"a":"press"}')
    assert writer.end() == 0


def test_generated_files_match_the_pin_map():
    for path, text in pinmap.generate().items():
        assert path.read_text() == text, f"{path.name} is stale: run python -m companion.link.pinmap"


def test_keypad_names_follow_the_pin_map():
    pins = pinmap.load()
    assert [k.decode() for k in keypad.KEY_NAMES] == pinmap.key_names(pins) == list(pins_py.KEYS)
    matrix = pins["key_matrix"]
    assert len(matrix["rows"]) * len(matrix["cols"]) == len(keypad.KEY_NAMES)


def test_pin_map_refuses_a_gpio_used_twice():
    pins = pinmap.load()
    pins["buzzer"]["gpio"] = pins["seat_buttons"]["gpio"][0]
    with pytest.raises(ValueError, match="used twice"):
        pinmap.assignments(pins)


def test_wiring_diagram_labels_every_used_pin():
    pins = pinmap.load()
    svg = pinmap.render_svg(pins)
    for gpio, (part, signal) in pinmap.assignments(pins).items():
        if gpio in pinmap.ON_BOARD:
            continue
        assert f"{part}: {signal}" in svg.replace("&#x27;", "'"), (gpio, part, signal)


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path):
    for path in firmware.files():
        result = subprocess.run(
            [sys.executable, "-m", "mpy_cross", "-o", str(tmp_path / (path.stem + ".mpy")), str(path)],
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0, f"{path.name}: {result.stderr}"
        assert (tmp_path / (path.stem + ".mpy")).stat().st_size > 0


def test_firmware_types_check_against_the_rp2_stubs():
    pyright = Path(sys.executable).parent / "pyright"
    if not pyright.exists():
        pytest.skip("pyright is not installed")
    result = subprocess.run(
        [str(pyright), "-p", str(ROOT / "firmware")], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert result.returncode == 0, result.stdout[-3000:]
    assert "0 errors" in result.stdout


class FakePin:
    IN, OUT, PULL_UP = "in", "out", "pull_up"
    made: list[FakePin] = []

    def __init__(self, gpio, mode=None, pull=None, value=None):
        self.gpio, self.mode, self.pull, self.level = gpio, mode, pull, value
        FakePin.made.append(self)

    def value(self, level=None):
        if level is None:
            return 1 if self.level is None else self.level
        self.level = level
        return None


def fake_module(name, **attributes):
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    return module


def test_real_hardware_set_up_follows_the_pin_map(monkeypatch, tmp_path):
    FakePin.made = []
    spi_args = {}
    machine = fake_module(
        "machine",
        Pin=FakePin,
        SPI=lambda spi_id, **kw: spi_args.update(kw, id=spi_id),
        PWM=lambda pin: types.SimpleNamespace(pin=pin),
        WDT=lambda timeout: None,
        PWRON_RESET=1,
        WDT_RESET=3,
        reset_cause=lambda: 3,
        unique_id=lambda: b"\xe6\x61\x4c\x01",
        reset=lambda: None,
    )
    neopixel = fake_module("neopixel", NeoPixel=lambda pin, n: types.SimpleNamespace(pin=pin, n=n))
    monkeypatch.setattr(firmware.module("leds"), "Chains", lambda chains, which, offsets: chains)
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "neopixel", neopixel)
    monkeypatch.setitem(sys.modules, "micropython", fake_module("micropython", kbd_intr=lambda c: None))
    monkeypatch.delitem(sys.modules, "tablectl.hw", raising=False)
    try:
        hw = firmware.module("hw")
        hardware = hw.Hardware()
        monkeypatch.setattr(hw, "SAFE_FLAG", str(tmp_path / "safe-mode"))
        monkeypatch.setattr(hw, "time", types.SimpleNamespace(sleep_ms=lambda ms: None))
        assert not hw.safe_mode_wanted()
        (tmp_path / "safe-mode").write_text("1")
        assert hw.safe_mode_wanted() and not (tmp_path / "safe-mode").exists()
    finally:
        sys.modules.pop("tablectl.hw", None)
    pins = pinmap.load()
    assert [p.gpio for p in hardware.seat_pins] == pins["seat_buttons"]["gpio"]
    assert all(p.mode == "in" and p.pull == "pull_up" for p in hardware.seat_pins)
    assert [p.gpio for p in hardware.rows] == pins["key_matrix"]["rows"]
    assert [p.gpio for p in hardware.cols] == pins["key_matrix"]["cols"]
    reader = pins["rc522"]
    assert spi_args["id"] == reader["spi"] and spi_args["baudrate"] == reader["baudrate"]
    assert (spi_args["sck"].gpio, spi_args["mosi"].gpio, spi_args["miso"].gpio) == (
        reader["sck"],
        reader["mosi"],
        reader["miso"],
    )
    assert hardware.cs.gpio == reader["cs"] and hardware.rst is None
    pixels = pins["pixels"]
    chains = {chain.pin.gpio: chain.n for chain in hardware.pixels}
    strip_seats = pixels["seat_gpio"].count(pixels["strip_gpio"])
    assert chains == {
        **{gpio: 1 for gpio in pixels["seat_gpio"]},
        pixels["strip_gpio"]: strip_seats + pixels["strip_pixels"],
    }, "every seat pixel has a data pin of its own; the strip's carries only the seats on the controller"
    assert hardware.pwm.pin.gpio == pins["buzzer"]["gpio"]
    assert hardware.board_id == "e6614c01"
    assert hardware.reset_cause == "watchdog"
    assert hardware.led_budget_ma == pinmap.led_budget_ma(pins)
