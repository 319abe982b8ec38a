"""Finding the controller: a Raspberry Pi Pico running MicroPython shows up as USB VID:PID 2E8A:0005."""

from __future__ import annotations

import dataclasses

from serial.tools import list_ports

VID = 0x2E8A
PID = 0x0005


@dataclasses.dataclass(frozen=True)
class BoardPort:
    device: str
    serial_number: str
    description: str


def find_boards(serial_number: str | None = None) -> list[BoardPort]:
    """Every plugged-in Pico with MicroPython, optionally only the one with this USB serial number."""
    found = []
    for port in list_ports.comports():
        if port.vid != VID or port.pid != PID:
            continue
        if serial_number and (port.serial_number or "").lower() != serial_number.lower():
            continue
        found.append(BoardPort(port.device, port.serial_number or "", port.description or ""))
    return sorted(found, key=lambda p: p.device)
