"""Getting phones on: the table's Wi-Fi as a QR payload, the server announced as companion.local (mDNS), its links."""

from __future__ import annotations

import configparser
import contextlib
import dataclasses
import re
import socket
from pathlib import Path
from typing import Any

from companion.core.errors import BadConfig

MDNS_HOST = "companion.local"
SERVICE = "_http._tcp.local."
# Where a Raspberry Pi keeps its Wi-Fi: NetworkManager (Bookworm) and wpa_supplicant (older images).
NM_DIR = Path("/etc/NetworkManager/system-connections")
WPA_FILE = Path("/etc/wpa_supplicant/wpa_supplicant.conf")


@dataclasses.dataclass(frozen=True)
class Wifi:
    """A Wi-Fi network phones can join by scanning a code: `WIFI:S:<ssid>;T:WPA;P:<password>;;`."""

    ssid: str
    password: str = ""

    @property
    def payload(self) -> str:
        if not self.password:
            return f"WIFI:S:{_escape(self.ssid)};T:nopass;;"
        return f"WIFI:S:{_escape(self.ssid)};T:WPA;P:{_escape(self.password)};;"


def _escape(text: str) -> str:
    # The Wi-Fi QR format escapes these four with a backslash (ZXing's reading of it, which phones follow).
    return re.sub(r'([\\;,:"])', r"\\\1", text)


def parse_wifi(text: str) -> Wifi:
    """`SSID:PASSWORD` from the command line (the password may hold colons; none for an open network)."""
    ssid, _, password = text.partition(":")
    if not ssid.strip():
        raise BadConfig("--wifi takes NETWORK:PASSWORD, for example --wifi 'Table Wi-Fi:secret123'")
    if password and not 8 <= len(password) <= 63:
        raise BadConfig("a WPA password has 8 to 63 characters")
    return Wifi(ssid.strip(), password)


def wifi_from_system(nm_dir: Path = NM_DIR, wpa_file: Path = WPA_FILE) -> Wifi | None:
    """The Pi's own Wi-Fi, when its configuration is readable (NetworkManager first, then wpa_supplicant)."""
    with contextlib.suppress(OSError):
        for path in sorted(nm_dir.glob("*.nmconnection")):
            parser = configparser.ConfigParser(interpolation=None, strict=False)
            try:
                parser.read_string(path.read_text(encoding="utf-8"))
            except (OSError, configparser.Error):
                continue
            ssid = parser.get("wifi", "ssid", fallback="")
            mode = parser.get("wifi", "mode", fallback="infrastructure")
            if ssid and mode in ("infrastructure", "ap"):
                return Wifi(ssid, parser.get("wifi-security", "psk", fallback=""))
    try:
        text = wpa_file.read_text(encoding="utf-8")
    except OSError:
        return None
    for block in re.findall(r"network\s*=\s*\{(.*?)\}", text, re.S):
        ssid = re.search(r'^\s*ssid\s*=\s*"(.*)"\s*$', block, re.M)
        psk = re.search(r'^\s*psk\s*=\s*"(.*)"\s*$', block, re.M)
        if ssid:
            return Wifi(ssid.group(1), psk.group(1) if psk else "")
    return None


def lan_ip() -> str | None:
    """This machine's address on the local network (no packet is sent: a UDP socket only picks its route)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere, only chooses the interface
        address = probe.getsockname()[0]
        if address and not address.startswith("127."):
            return str(address)
    return None


def describe(base_url: str, port: int, wifi: Wifi | None, mdns: bool, qr: Any) -> dict[str, Any]:
    """What the host page and the display show to get phones on: links by name and by address, the Wi-Fi code."""
    ip = lan_ip()
    out: dict[str, Any] = {
        "url": base_url,
        "mdns": mdns,
        "mdns_url": f"http://{MDNS_HOST}:{port}" if mdns else None,
        "ip_url": f"http://{ip}:{port}" if ip else None,
        "wifi": None,
    }
    if wifi is not None:
        out["wifi"] = {"ssid": wifi.ssid, "payload": wifi.payload, "qr_svg": qr(wifi.payload)}
    return out


class Announcer:
    """Announces this server on the local network as companion.local (an A record and an HTTP service)."""

    def __init__(self, port: int, address: str | None = None) -> None:
        self.port = port
        self.address = address or lan_ip()
        self._zeroconf: Any = None
        self._info: Any = None

    def start(self) -> bool:
        """True when the announcement is out; False (and nothing else) without a network or the zeroconf package."""
        if not self.address:
            return False
        try:
            from zeroconf import ServiceInfo, Zeroconf
        except ImportError:
            return False
        self._info = ServiceInfo(SERVICE, f"Companion.{SERVICE}", addresses=[socket.inet_aton(self.address)],
                                 port=self.port, server=f"{MDNS_HOST}.", properties={"path": "/"})
        try:
            self._zeroconf = Zeroconf()
            self._zeroconf.register_service(self._info, allow_name_change=True)
        except Exception:  # no network, a name clash, a timeout: the table still runs on its IP address
            self.stop()
            return False
        return True

    def stop(self) -> None:
        if self._zeroconf is not None:
            with contextlib.suppress(Exception):
                if self._info is not None:
                    self._zeroconf.unregister_service(self._info)
                self._zeroconf.close()
            self._zeroconf = None


def table_wifi(arg: str | None) -> Wifi | None:
    """`--wifi SSID:PASSWORD` when given, else the Pi's own Wi-Fi when its configuration is readable."""
    return parse_wifi(arg) if arg else wifi_from_system()


def add_arguments(parser: Any) -> None:
    """`--wifi` and `--no-mdns` for `companion serve` and `companion play`."""
    parser.add_argument("--wifi", metavar="SSID:PASSWORD",
                        help="the table's Wi-Fi, shown as a code phones scan to join it (default: the Pi's own Wi-Fi "
                        "when its configuration is readable)")
    parser.add_argument("--no-mdns", action="store_true",
                        help="do not announce the server as companion.local on the local network")
