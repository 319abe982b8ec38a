"""`companion hardware check`: the circuit's ERC (no errors; each warning must be one we explain), the KiCad
netlist for a PCB, the bill of materials as CSV with part numbers and the current budget, and a schematic SVG
drawn from the same circuit (schemdraw): every part with the net on each pin, so it can be wired by label."""

from __future__ import annotations

import collections
import contextlib
import csv
import dataclasses
import io
import logging
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from companion.hardware import parts as P
from companion.hardware.circuit import Design, Placed, build
from companion.link import firmware

OUT_DIR = firmware.HARDWARE_DIR
NETLIST = "controller.net"
BOM_CSV = "bom.csv"
SCHEMATIC = "schematic.svg"

# Warnings the ERC may give that are expected, with why (a warning not matched here fails the check).
EXPLAINED: dict[str, str] = {}

USB_LIMIT_MA = 500  # what a USB 2.0 port must supply; the Pi shares about 600 mA among its ports on a 3 A supply
OTHER_LOADS_MA = {  # typical draw from VBUS besides the LEDs
    "Raspberry Pi Pico (RP2040 running the loop)": 25,
    "RC522 reader (antenna on, from the Pico's 3V3)": 30,
    "buzzer while sounding (through Q1)": 30,
    "two 74AHCT125": 1,
}


@dataclasses.dataclass
class Report:
    errors: list[str]
    warnings: list[str]
    unexplained: list[str]
    files: dict[str, Path]
    budget: dict[str, int]

    @property
    def ok(self) -> bool:
        return not self.errors and not self.unexplained


def erc(design: Design) -> tuple[list[str], list[str]]:
    """Run SKiDL's ERC; (errors, warnings) as messages."""
    from skidl.logger import erc_logger

    found: list[tuple[int, str]] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            found.append((record.levelno, record.getMessage().strip()))

    handler = Collect()
    erc_logger.addHandler(handler)
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            design.circuit.ERC()
    finally:
        erc_logger.removeHandler(handler)
    errors = [m for level, m in found if level >= logging.ERROR]
    warnings = [m for level, m in found if level == logging.WARNING]
    return errors, warnings


def unexplained_warnings(warnings: list[str]) -> list[str]:
    """The warnings no entry of EXPLAINED accounts for."""
    return [w for w in warnings if not any(re.search(pattern, w) for pattern in EXPLAINED)]


def budget(pins: dict[str, Any]) -> dict[str, int]:
    """The current drawn from the Pi's USB port (mA), part by part, and the total."""
    rows = {"all LEDs together (the firmware's budget)": int(pins["power"]["usb_budget_ma"])}
    if pins["power"]["led_supply"] == "separate":
        rows = {"all LEDs (from the separate 5 V supply, budget "
                f"{pins['power']['supply_budget_ma']} mA; none from USB)": 0}
    rows.update(OTHER_LOADS_MA)
    rows["total from USB"] = sum(rows.values())
    return rows


def bom_rows(design: Design) -> list[dict[str, str]]:
    """One row per kind of part: quantity, references, part number, price."""
    groups: dict[str, list[Placed]] = collections.defaultdict(list)
    for part in design.parts:
        groups[part.kind.name].append(part)
    rows = []
    for items in groups.values():
        kind = items[0].kind
        qty = len(items)
        extra = 0
        if kind is P.CABLE:
            extra = qty  # a housing per cable at the controller end
        rows.append({
            "references": " ".join(p.ref for p in items),
            "quantity": str(qty),
            "description": kind.description,
            "manufacturer": kind.manufacturer,
            "part_number": kind.part_number,
            "footprint": kind.footprint,
            "euro_each": f"{kind.euro:.2f}",
            "euro_total": f"{kind.euro * qty:.2f}",
        })
        if extra:
            plug = P.SEAT_PLUG
            rows.append({
                "references": "", "quantity": str(extra), "description": plug.description,
                "manufacturer": plug.manufacturer, "part_number": plug.part_number, "footprint": "",
                "euro_each": f"{plug.euro:.2f}", "euro_total": f"{plug.euro * extra:.2f}",
            })
    return rows


def bom_csv(design: Design) -> str:
    out = io.StringIO()
    fields = ["references", "quantity", "description", "manufacturer", "part_number", "footprint", "euro_each",
              "euro_total"]
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    rows = bom_rows(design)
    writer.writerows(rows)
    total = sum(float(r["euro_total"]) for r in rows)
    writer.writerow({"references": "", "quantity": "", "description": "total (parts on the circuit)",
                     "euro_total": f"{total:.2f}"})
    writer.writerow({})
    writer.writerow({"references": "current budget", "quantity": "mA", "description": "from the Pi's USB port"})
    for what, ma in budget(design.pins).items():
        writer.writerow({"references": "", "quantity": str(ma), "description": what})
    writer.writerow({"references": "", "quantity": str(USB_LIMIT_MA), "description": "USB 2.0 port limit"})
    return out.getvalue()


def netlist(design: Design, path: Path) -> str:
    """The KiCad netlist, with its date line fixed so the file changes only when the circuit does."""
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp), contextlib.redirect_stderr(io.StringIO()):
        design.circuit.generate_netlist(file_=str(Path(tmp) / NETLIST), tool="kicad8")
        text = (Path(tmp) / NETLIST).read_text()
    text = re.sub(r'\(date "[^"]*"\)', '(date "companion hardware check")', text)
    text = re.sub(r'\(source "[^"]*"\)', '(source "companion/hardware/circuit.py")', text)
    # SKiDL's per-part random tag and the line that made the part say nothing a PCB tool needs
    text = re.sub(r'\(name "SKiDL Tag"\) "[^"]*"', '(name "SKiDL Tag") ""', text)
    text = re.sub(r'\(name "SKiDL Line"\) "[^"]*"', '(name "SKiDL Line") "companion/hardware/parts.py"', text)
    path.write_text(text)
    return text


def run(out_dir: Path = OUT_DIR, pins: dict[str, Any] | None = None) -> Report:
    """Build the circuit, check it and write its files into `out_dir`."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp), contextlib.redirect_stderr(io.StringIO()):
        design = build(pins)
        errors, warnings = erc(design)
    unexplained = unexplained_warnings(warnings)
    files = {
        "netlist": out_dir / NETLIST,
        "bom": out_dir / BOM_CSV,
        "schematic": out_dir / SCHEMATIC,
    }
    netlist(design, files["netlist"])
    files["bom"].write_text(bom_csv(design))
    from companion.hardware.schematic import render

    files["schematic"].write_text(render(design))
    return Report(errors, warnings, unexplained, files, budget(design.pins))


def main(out_dir: Path = OUT_DIR) -> int:
    report = run(out_dir)
    print(f"ERC: {len(report.errors)} errors, {len(report.warnings)} warnings")
    for message in report.errors:
        print(f"  error: {message}")
    for message in report.warnings:
        why = next((w for p, w in EXPLAINED.items() if re.search(p, message)), None)
        print(f"  warning: {message}" + (f" (expected: {why})" if why else " (NOT EXPLAINED)"))
    for what, path in report.files.items():
        print(f"wrote {what}: {path}")
    total = report.budget["total from USB"]
    print(f"current from USB: {total} mA of {USB_LIMIT_MA} mA")
    if total > USB_LIMIT_MA:
        print("  over the USB limit: use the separate 5 V supply for the pixels")
        return 1
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main(Path(os.environ.get("COMPANION_HARDWARE_OUT", OUT_DIR))))
