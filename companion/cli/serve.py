"""`companion serve`: run the phone pages, the host page and the API for a new or an existing session."""

from __future__ import annotations

import argparse
import ipaddress
import secrets
import signal
import socket
import sys
from pathlib import Path
from typing import Any

from companion.core.errors import BadConfig
from companion.core.names import printable
from companion.i18n import cli_text
from companion.store import Session, Store
from companion.store.db import default_path
from companion.web.network import MDNS_HOST, Announcer, table_wifi
from companion.web.network import add_arguments as add_network_arguments

from .sessions import add_bot_argument, add_db_argument, add_game_arguments, parse_bots, parse_chance, parse_sets

DEFAULT_PORT = 8765


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="serve the phones, the host page and the API for a session (new or stored)",
        description="companion serve            resume the open session last played (or only the host lobby)\n"
        "companion serve ID         serve stored session ID\n"
        "companion serve GAME -p N  start a new GAME with N players\n"
        "Prints the host link and each seat's join link; phones open them (or scan the QR codes on the host page).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(p)
    _loosen(p)
    p.add_argument("--names", nargs="+", help="player names in seat order (new game)")
    add_bot_argument(p)
    p.add_argument("--bind", default="0.0.0.0", metavar="ADDRESS",
                   help="the address to listen on: 0.0.0.0 (default) is every interface of this machine; "
                   "give this machine's LAN address to serve only that network")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT})")
    p.add_argument("--base-url", metavar="URL",
                   help="the address phones should open, e.g. http://192.168.1.20:8765 (default: this machine's "
                   "LAN address)")
    p.add_argument("--token", help="the server token for the host lobby (default: a new random one each run)")
    p.add_argument("--qr", action="store_true", help="also print the host link as a QR code in the terminal")
    p.add_argument("--access-log", action="store_true", help="log every request (tokens are in the links!)")
    p.add_argument("--lang", help="language of the lines printed for the table (default $COMPANION_LANG, else "
                   "English); phones choose their own")
    add_network_arguments(p)
    add_db_argument(p)
    p.set_defaults(func=cmd_serve)


def _loosen(parser: argparse.ArgumentParser) -> None:
    """The shared game arguments, made optional: `serve` also takes a session id, or nothing."""
    for action in parser._actions:
        if action.dest == "game":
            action.nargs = "?"
            action.default = None
            action.metavar = "ID|GAME"
            action.help = "a stored session's id, or a game name to start a new one (see `companion games`)"
        elif action.dest == "players":
            action.required = False
            action.help = "number of players (new game)"


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other people at the table can reach (found without sending anything)."""
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            # Connecting a UDP socket sends no packet; it only picks the interface of the default route.
            probe.connect(("10.254.254.254", 1))
            found.append(probe.getsockname()[0])
        except OSError:
            pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    out: list[str] = []
    for address in found:
        if not ipaddress.ip_address(address).is_loopback and address not in out:
            out.append(address)
    return out or ["127.0.0.1"]


def public_base(bind: str, port: int, base_url: str | None) -> str:
    if base_url:
        return base_url.rstrip("/")
    host = bind if bind not in ("0.0.0.0", "::", "") else lan_addresses()[0]
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def choose_session(store: Store, args: argparse.Namespace) -> Session | None:
    """The session to serve: a stored id, a new game, or the open one played last (None: none yet)."""
    target = args.game
    if target is None:
        sid = store.latest_open()
        return Session(store, sid) if sid is not None else None
    if target.isdigit():
        try:
            return Session(store, int(target))
        except KeyError:
            raise BadConfig(f"there is no session {target} in {store.path}") from None
    if args.players is None:
        raise BadConfig(f"a new {target} game needs --players N")
    return Session.create(
        store, target, args.players, seed=args.seed, mode=args.mode, options=parse_sets(args.set),
        chance=parse_chance(args.chance), names=args.names,  # type: ignore[arg-type]
        bots=parse_bots(args.bot, args.players),
    )


def prepare(args: argparse.Namespace) -> tuple[Any, list[str], str]:
    """The server's Settings, the lines to print (the links) and the host page's link; starts nothing."""
    from companion.web.settings import Settings

    db_path = Path(args.db) if args.db else default_path()
    store = Store(db_path)
    try:
        session = choose_session(store, args)
        wifi = table_wifi(getattr(args, "wifi", None))
        base = public_base(args.bind, args.port, args.base_url)
        settings = Settings(
            db_path=db_path, session_id=session.id if session else None, host=args.bind, port=args.port,
            public_base_url=base, server_token=args.token or secrets.token_urlsafe(24),
            wifi_ssid=wifi.ssid if wifi else None, wifi_password=wifi.password if wifi else "",
            mdns=not getattr(args, "no_mdns", False),
        )
        # The lines the host reads at the table, in the table's language (ports and links stay as typed).
        tr = cli_text(getattr(args, "lang", None))
        where = args.bind if args.bind not in ("0.0.0.0", "::") else \
            tr("all interfaces ({addresses})", addresses=", ".join(lan_addresses()))
        lines = [tr("companion: serving on {where}, port {port}; store {store}", where=where, port=str(args.port),
                    store=str(db_path))]
        host_url = f"{base}/host?t={settings.server_token}"
        if session is not None:
            host_url = f"{base}/host/{session.id}?t={session.host_token}"
            lines.append(tr("game {id}: {title}, {players} players", id=session.id, title=tr(session.game.title),
                            players=session.config.players))
            lines.append(tr("host page: {url}", url=host_url))
            for row in store.seats(session.id):
                lines.append(tr("seat {seat} ({name}): {url}", seat=str(row.seat + 1), name=printable(row.name),
                                url=f"{base}/join/{session.id}?t={row.token}"))
        lines.append(tr("new game or another one: {url}", url=f"{base}/host?t={settings.server_token}"))
    finally:
        store.close()
    return settings, lines, host_url


def build_server(settings: Any, *, access_log: bool = False) -> Any:
    """A uvicorn server for the app (the play command runs it next to the display and the board)."""
    import uvicorn

    from companion.web.app import create_app
    from companion.web.deflate import ws_protocol

    config = uvicorn.Config(
        create_app(settings), host=settings.host, port=settings.port, log_level="warning", access_log=access_log,
        ws_max_size=max(4 * settings.max_message_bytes, 65536), server_header=False, proxy_headers=False,
        lifespan="on", limit_concurrency=settings.limit_concurrency, backlog=settings.backlog, ws=ws_protocol(),
    )
    return uvicorn.Server(config)


def _stop(signum: int, frame: Any) -> None:
    raise SystemExit(0)


def cmd_serve(args: argparse.Namespace) -> int:
    settings, lines, host_url = prepare(args)
    for line in lines:
        print(line, flush=True)
    if args.qr:
        import segno

        segno.make(host_url, error="m").terminal(compact=True)
    server = build_server(settings, access_log=args.access_log)
    announcer = Announcer(settings.port) if settings.mdns else None
    if announcer is not None and announcer.start():
        tr = cli_text(getattr(args, "lang", None))
        print(tr("phones can also open {url}", url=f"http://{MDNS_HOST}:{settings.port}"), flush=True)
    # uvicorn shuts down gracefully on SIGTERM, then re-raises it; a stop asked for is a clean exit.
    signal.signal(signal.SIGTERM, _stop)
    try:
        server.run()
    except OSError as exc:
        print(f"companion: cannot serve on {settings.host}:{settings.port}: {exc}", file=sys.stderr)
        return 1
    finally:
        if announcer is not None:
            announcer.stop()
    return 0
