"""`companion serve`: which session it serves, the links it prints, the address it binds."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from web_helpers import free_port

from companion.cli.main import build_parser
from companion.cli.serve import lan_addresses, prepare, public_base
from companion.core.errors import BadConfig
from companion.store import Store

TESTS = Path(__file__).resolve().parent.parent


def parse(*argv):
    return build_parser().parse_args(["serve", *argv])


def test_serving_a_new_game_prints_the_host_link_and_every_join_link(db_path):
    args = parse("tiny", "--players", "3", "--names", "Ann", "Bo", "--db", str(db_path),
                 "--base-url", "http://10.0.0.5:8765", "--token", "lobby-secret")
    settings, lines, host_url = prepare(args)
    store = Store(db_path)
    (row,) = store.sessions()
    seats = store.seats(row.id)
    store.close()
    assert settings.session_id == row.id and settings.server_token == "lobby-secret"
    assert host_url == f"http://10.0.0.5:8765/host/{row.id}?t={row.host_token}"
    text = "\n".join(lines)
    assert f"host page: {host_url}" in text
    for seat in seats:
        assert f"seat {seat.seat + 1} ({seat.name}): http://10.0.0.5:8765/join/{row.id}?t={seat.token}" in text
    assert [s.name for s in seats] == ["Ann", "Bo", "Player 3"]
    assert "http://10.0.0.5:8765/host?t=lobby-secret" in text


def test_serving_an_id_resumes_that_session_and_no_argument_the_last_open_one(db_path, new_session):
    first = new_session(players=2)
    second = new_session(players=2)
    settings, _, _ = prepare(parse(str(first.id), "--db", str(db_path)))
    assert settings.session_id == first.id
    settings, _, host_url = prepare(parse("--db", str(db_path)))
    assert settings.session_id == second.id and host_url.endswith(f"/host/{second.id}?t={second.host}")


def test_with_no_session_at_all_only_the_lobby_is_printed(db_path):
    settings, lines, host_url = prepare(parse("--db", str(db_path), "--token", "lobby"))
    assert settings.session_id is None and host_url.endswith("/host?t=lobby")
    assert not any("join" in line for line in lines)


@pytest.mark.parametrize(("argv", "reason"), [(["tiny"], "needs --players"), (["42"], "no session 42")])
def test_serve_refuses_what_it_cannot_serve(db_path, argv, reason):
    with pytest.raises(BadConfig, match=reason):
        prepare(parse(*argv, "--db", str(db_path)))


def test_the_default_bind_is_every_interface_with_the_lan_address_printed(db_path):
    settings, lines, _ = prepare(parse("--db", str(db_path)))
    assert settings.host == "0.0.0.0" and settings.port == 8765
    assert "all interfaces" in lines[0]
    addresses = lan_addresses()
    assert addresses and all(not a.startswith("127.") for a in addresses if a != "127.0.0.1")
    assert settings.public_base_url == f"http://{addresses[0]}:8765"


def test_a_chosen_interface_is_what_phones_are_sent_to():
    assert public_base("192.168.1.20", 9000, None) == "http://192.168.1.20:9000"
    assert public_base("0.0.0.0", 9000, "http://table.local:9000/") == "http://table.local:9000"


def test_companion_serve_runs_and_stops_cleanly(db_path, new_session):
    """The real command in a subprocess: it serves the phone page and the API, and stops on SIGTERM."""
    seated = new_session(players=2)
    port = free_port()
    env = dict(os.environ, COMPANION_GAMES="tiny_game", PYTHONPATH=str(TESTS))
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", str(seated.id), "--bind", "127.0.0.1", "--port", str(port),
         "--db", str(db_path)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = process.stdout.readline()
        assert "serving on 127.0.0.1" in first
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 15
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/sessions/{seated.id}/public", timeout=2) as reply:
                    assert b'"state_id":0' in reply.read()
                    break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.1)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)
    assert process.returncode == 0
