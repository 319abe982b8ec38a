"""Subcommands for games and sessions: games, actions, new, list, show, undo, export, script, selfplay."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

from companion.core.errors import BadConfig, CompanionError
from companion.core.game import Game
from companion.core.names import printable
from companion.core.registry import all_games, get_game
from companion.core.seats import HOST, TABLE, parse_seat
from companion.i18n import catalog, cli_text, log_line, negotiate
from companion.store import Session, Store
from companion.store.db import default_path


def _store(args: argparse.Namespace) -> Store:
    return Store(args.db or default_path())


def parse_sets(pairs: list[str] | None) -> dict[str, str]:
    """`--set name=value` pairs into a dict; the game validates the values."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise BadConfig(f"--set takes OPTION=VALUE, not {pair!r}")
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def parse_chance(pairs: list[str] | None) -> dict[str, str]:
    out = parse_sets(pairs)
    for key, value in out.items():
        if value not in ("digital", "physical"):
            raise BadConfig(f"--chance {key} is digital or physical, not {value!r}")
    return out


def add_bot_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bot", action="append", metavar="SEAT=LEVEL",
                        help="a seat (1 = the first player) played by a bot of level easy, normal or strong; "
                        "repeatable, e.g. --bot 2=strong --bot 4=normal")


def parse_bots(pairs: list[str] | None, players: int | None) -> dict[int, str]:
    """`--bot SEAT=LEVEL` pairs (seats counted from 1, as people read them) into {seat index: level}."""
    out: dict[int, str] = {}
    for pair in pairs or []:
        seat_text, _, level = pair.partition("=")
        level = level.strip().lower()
        if not seat_text.strip().isdigit() or level not in ("easy", "normal", "strong"):
            raise BadConfig(f"--bot takes SEAT=LEVEL with a seat from 1 and a level easy, normal or strong, "
                            f"not {pair!r}")
        seat = int(seat_text)
        if seat < 1 or (players is not None and seat > players):
            raise BadConfig(f"--bot {pair}: the seats are 1–{players}" if players else f"--bot {pair}: seats "
                            "start at 1")
        out[seat - 1] = level
    return out


def add_game_arguments(parser: argparse.ArgumentParser, *, seed_required: bool = False) -> None:
    """The arguments that configure a new game, shared by new, script, serve and play."""
    parser.add_argument("game", help="game name (see `companion games`)")
    parser.add_argument("--players", "-p", type=int, required=True, help="number of players")
    parser.add_argument("--seed", type=int, required=seed_required, help="seed for the digital shuffles")
    parser.add_argument("--mode", choices=("digital", "physical"), default="digital",
                        help="digital: the companion shuffles and deals; physical: the real cards are revealed by taps")
    parser.add_argument("--set", action="append", metavar="OPTION=VALUE", help="a rules option (repeatable)")
    parser.add_argument("--chance", action="append", metavar="EVENT=MODE",
                        help="a chance event in another mode than --mode, e.g. plant_draw=physical")


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help=f"the SQLite file (default: {default_path()}, or $COMPANION_DB)")


def register(sub: Any) -> None:
    p = sub.add_parser("games", help="list the games, their player counts and options")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("actions", help="list a game's action kinds with their JSON schemas")
    p.add_argument("game")
    p.set_defaults(func=cmd_actions)

    p = sub.add_parser("new", help="start a new session and print its id, host token and join tokens")
    add_game_arguments(p)
    p.add_argument("--names", nargs="+", help="player names in seat order")
    add_bot_argument(p)
    add_db_argument(p)
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("list", help="list the stored sessions")
    add_db_argument(p)
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("show", help="print a session's public view (or a seat's view with --seat)")
    p.add_argument("id", type=int)
    p.add_argument("--seat", help="a seat number: show that player's private view")
    add_db_argument(p)
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("undo", help="undo the last action of a session (as the host)")
    p.add_argument("id", type=int)
    add_db_argument(p)
    p.set_defaults(func=cmd_undo)

    p = sub.add_parser("export", help="print a session's action log as JSON lines")
    p.add_argument("id", type=int)
    add_db_argument(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser(
        "script",
        help="apply action lines from stdin to a fresh game, printing one JSON result per line",
        description="Reads one action per line as JSON ({\"seat\": 0, \"action\": ...}); blank lines and lines "
        "starting with # are skipped. Prints {\"ok\": true, \"state_id\": N} or {\"ok\": false, \"error\": ...}.",
    )
    add_game_arguments(p, seed_required=True)
    p.add_argument("--final", action="store_true",
                   help="at the end print the public view, every seat's view, the scores and whether it is over")
    p.add_argument("--state", metavar="FILE",
                   help="start from this game state (JSON, as the game's state_to_json writes it) instead of a "
                   "fresh game: a rule scenario in the middle of a game")
    p.set_defaults(func=cmd_script)

    p = sub.add_parser("selfplay", help="play K games with bots and print a summary; non-zero exit if any breaks")
    p.add_argument("game")
    p.add_argument("--players", "-p", type=int, required=True)
    p.add_argument("--games", "-k", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bot", default="random", help="bot in every seat (see the game's bots; default random)")
    p.add_argument("--mode", choices=("digital", "physical"), default="digital")
    p.add_argument("--set", action="append", metavar="OPTION=VALUE")
    p.add_argument("--check", action="store_true", help="check the engine contract after every step (slower)")
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser("demo", help="play a scripted demo game with bots and show the table as it goes")
    p.add_argument("game", nargs="?", default="shifting_stones")
    p.add_argument("--players", "-p", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--steps", type=int, default=0, help="stop after this many actions (0: play to the end)")
    p.add_argument("--lang", help="language of the ticker (default $COMPANION_LANG, else English)")
    add_db_argument(p)
    p.set_defaults(func=cmd_demo)


def cmd_games(args: argparse.Namespace) -> int:
    games = all_games()
    if args.json:
        print(json.dumps([g.describe() for g in games.values()], indent=2))
        return 0
    for game in games.values():
        print(f"{game.name}: {game.title}, {game.min_players}–{game.max_players} players")
        for o in game.options:
            choices = f" ({' | '.join(map(str, o.choices))})" if o.choices else ""
            print(f"    --set {o.name}=…  {o.help} [default {o.default}]{choices}")
        for e in game.chance_events:
            print(f"    --chance {e.name}=digital|physical  {e.help} (revealed by {e.reveal.kind})")
    return 0


def cmd_actions(args: argparse.Namespace) -> int:
    print(json.dumps(get_game(args.game).actions.schemas(), indent=2))
    return 0


def _new_session(store: Store, args: argparse.Namespace, names: list[str] | None = None) -> Session:
    return Session.create(
        store, args.game, args.players, seed=args.seed, mode=args.mode,
        options=parse_sets(args.set), chance=parse_chance(args.chance), names=names,  # type: ignore[arg-type]
        bots=parse_bots(getattr(args, "bot", None), args.players),
    )


def cmd_new(args: argparse.Namespace) -> int:
    store = _store(args)
    session = _new_session(store, args, args.names)
    print(f"session {session.id}: {session.game.title}, {args.players} players, seed {session.seed}")
    print(f"host token: {session.host_token}")
    for row in store.seats(session.id):
        played = f", played by a bot ({row.bot})" if row.bot else ""
        print(f"seat {row.seat + 1} ({printable(row.name)}{played}): {row.token}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    store = _store(args)
    rows = store.sessions()
    if not rows:
        print("no sessions yet")
    for row in rows:
        names = ", ".join(printable(s.name) for s in store.seats(row.id))
        actions = sum(1 for r in store.log(row.id) if r.kind == "action" and not r.undone)
        print(f"{row.id}\t{row.game}\t{row.status}\t{actions} actions\t{names}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    session = Session(_store(args), args.id)
    seat = parse_seat(args.seat) if args.seat is not None else None
    print(json.dumps(session.view(seat), indent=2, ensure_ascii=False))
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    session = Session(_store(args), args.id)
    state_id = session.undo(HOST)
    print(f"undone; state {state_id}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    store = _store(args)
    row = store.session(args.id)
    print(json.dumps({"session": row.id, "game": row.game, "config": row.config, "seed": row.seed}))
    for entry in store.log(args.id):
        print(json.dumps({
            "seq": entry.seq, "state_id": entry.state_id, "seat": entry.seat, "kind": entry.kind,
            "action": entry.action, "time": entry.time, "undone": entry.undone,
        }, ensure_ascii=False))
    return 0


def cmd_script(args: argparse.Namespace) -> int:
    """Apply actions to a game in memory (nothing is stored), one JSON answer per input line."""
    game = get_game(args.game)
    config = game.make_config(args.players, args.mode, parse_sets(args.set), parse_chance(args.chance))  # type: ignore[arg-type]
    state = game.setup(config, random.Random(args.seed))
    if args.state:
        try:
            state = game.state_from_json(json.loads(Path(args.state).read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            print(f"companion script: cannot start from {args.state}: {exc}", file=sys.stderr)
            return 2
    state_id = 0
    for line in sys.stdin:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            action = game.actions.parse(text)
            state, messages = game.apply(state, action)
        except CompanionError as exc:
            print(json.dumps({"ok": False, "error": exc.reason, "code": exc.code}), flush=True)
            continue
        state_id += 1
        print(json.dumps({"ok": True, "state_id": state_id, "log": [m.render() for m in messages]},
                         ensure_ascii=False), flush=True)
    if args.final:
        print(json.dumps(final_report(game, state, config.players), ensure_ascii=False))
    return 0


def final_report(game: Game[Any], state: Any, players: int) -> dict[str, Any]:
    return {
        "final": True,
        "over": game.is_over(state),
        "scores": game.scores(state),
        "public": game.view(state, None),
        "seats": [game.view(state, seat) for seat in range(players)],
    }


def cmd_selfplay(args: argparse.Namespace) -> int:
    from companion.testing.harness import selfplay

    game = get_game(args.game)
    summary = selfplay(
        game, args.players, args.games, args.seed, bot=args.bot, mode=args.mode,
        options=parse_sets(args.set), check=args.check,
    )
    data = summary.to_json()
    print(f"{game.title}: {data['finished']}/{data['games']} games finished, "
          f"{data['mean_actions']} actions on average, {data['games_per_second']} games/s")
    print("winners by seat: " + (", ".join(f"seat {k}: {v}" for k, v in data["winners_by_seat"].items()) or "none"))
    for failure in summary.failures:
        print(f"BROKEN {failure}", file=sys.stderr)
    return 1 if summary.failures or summary.finished < summary.games else 0


def cmd_demo(args: argparse.Namespace) -> int:
    """Bots play a stored session, one action at a time, printing the ticker and the final scores."""
    from companion.testing.harness import ask_other_seats, choose_actor

    store = _store(args)
    session = Session.create(store, args.game, args.players, seed=args.seed)
    game = session.game
    bots = game.bots()
    # The demo shows the game's best bot when it has one besides random play.
    bot = next((b for name, b in bots.items() if name != "random"), bots["random"])
    rng = random.Random(args.seed)
    tr = cli_text(args.lang)
    cat = catalog(negotiate(args.lang or os.environ.get("COMPANION_LANG") or None))
    names = [printable(r.name) for r in store.seats(session.id)]
    print(tr("session {id}: {title} with {players} bots (stored in {path})", id=session.id, title=tr(game.title),
             players=args.players, path=str(store.path)))
    steps = 0
    while not game.is_over(session.state) and (not args.steps or steps < args.steps):
        pick = choose_actor(game, session.state, rng)
        if pick is None:
            print("nobody can act", file=sys.stderr)
            return 1
        seat, legal = pick
        action = bot.choose(game, session.state, seat, legal, rng) if seat != TABLE else rng.choice(legal)
        if action is None:  # the bot passed on an optional move: another seat acts
            asked = ask_other_seats(game, session.state, rng, {s: bot for s in range(args.players)}, bot, seat)
            if asked is None:
                print("every seat declined to act", file=sys.stderr)
                return 1
            action = asked[2]
        accepted = session.submit(action, HOST, state_id=session.state_id)
        for m in accepted.log:
            if m.visible_to is None:
                print(f"  [{accepted.state_id}] {log_line(m.template, dict(m.args), cat, names, game.name)}")
        steps += 1
    print(json.dumps(game.scores(session.state), ensure_ascii=False))
    return 0
