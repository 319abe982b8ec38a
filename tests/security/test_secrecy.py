"""Whole games of every game in both chance modes, played from every source at once; nothing the table may not know
reaches the public stream or the display.

Moves come from the phones (over their own connections), from the host acting for a seat, from the host's
corrections (absurd ones too) and, in physical mode, from controller events through the input router (taps of
cards in someone's hand among them). Every message offered to the public stream is checked at the moment it is
offered against what each seat holds then: no hand card (by id or by its printed name), no hand positions, no
refusal reason the game did not declare public, no hidden money. The same message drawn by the display's model
is checked too. Each seat's own connection hears only the attempts made over it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.core.errors import CompanionError
from companion.core.public import CORE_PUBLIC_REFUSALS, REFUSED
from companion.core.registry import get_game
from companion.core.seats import HOST, TABLE
from companion.link.events import BoardEvent
from companion.play.router import Act, Note, Refuse, Router, Undo
from companion.store import Session, Store
from companion.testing.harness import choose_actor
from companion.web.hub import Connection, Hub, LiveSession
from display import i18n as display_i18n
from display.model import DisplayModel

CASES = [(game, mode) for game in ("power_grid", "bohnanza", "shifting_stones") for mode in ("digital", "physical")]
PLAYERS = {"power_grid": 3, "bohnanza": 4, "shifting_stones": 3}
# Options that keep a whole random game short without changing what is secret.
OPTIONS: dict[str, dict[str, Any]] = {"shifting_stones": {"hints": False}}
# Random moves rarely score a Shifting Stones card: its greedy bot plays the seats' moves there.
BOTS = {"shifting_stones": "greedy"}
STEP_LIMIT = 6000


def secrets_now(game_name: str, state: Any, label: Any) -> tuple[set[str], dict[int, int]]:
    """Every hand card of every seat (its id and its printed name), and each seat's hidden money."""
    words: set[str] = set()
    money: dict[int, int] = {}
    if game_name in ("bohnanza", "shifting_stones"):
        for player in state.players:
            for card in player.hand:
                words.add(card)
                words.add(label(card))
    elif not state.open_money:
        money = {i: p.money for i, p in enumerate(state.players)}
    return words, money


class PublicEar(Connection):
    """A public connection that checks each message the moment it is offered (the state is the one it speaks of)."""

    def __init__(self, live: LiveSession, game_name: str) -> None:
        super().__init__(None, self._drop, None, queue_size=1_000_000)
        self.live = live
        self.game_name = game_name
        self.game = get_game(game_name)
        self.public = CORE_PUBLIC_REFUSALS | self.game.public_refusals
        self.checked = 0
        self.refused_in_words = 0
        self.withheld = 0
        self.model = DisplayModel(clock=lambda: 0.0)

    async def _drop(self, text: str) -> None:
        return None

    def offer(self, kind: str, text: str, state_id: int | None = None) -> None:
        message = json.loads(text)
        if kind == "feedback":
            self.check(message)
        super().offer(kind, text, state_id)

    def check(self, message: dict[str, Any]) -> None:
        state = self.live.session.state
        words, money = secrets_now(self.game_name, state, self.game.card_label)
        self.model.envelope = {"players": [{"seat": i, "name": f"P{i}"} for i in range(PLAYERS[self.game_name])]}
        self.model.apply_message(message)
        line = self.model.feedback_line(self.model.feedback[-1])
        said = json.dumps(message, ensure_ascii=False)
        for word in words:
            assert word not in said, f"the public stream named {word!r}, in a hand now: {said}"
            assert word not in line, f"the display showed {word!r}, in a hand now: {line}"
        action = message.get("action") or {}
        assert "give" not in action, f"hand positions on the public stream: {said}"
        if action.get("seat") == TABLE:
            assert set(action) <= {"seat", "action"}, f"a reveal's card on the public stream: {said}"
        if not message["ok"]:
            template = message.get("template", "")
            if template == REFUSED:
                self.withheld += 1
            else:
                assert template in self.public, f"a refusal the game did not declare public: {said}"
                assert message["source"] in ("board", "host", "display"), f"a seat's own try in words: {said}"
                self.refused_in_words += 1
            if money:
                assert "money" not in (message.get("params") or {}), f"hidden money on the public stream: {said}"
        self.checked += 1


class SeatEar(Connection):
    """A seat's phone connection: records what it hears."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat, self._drop, None, queue_size=1_000_000)
        self.feedback: list[dict[str, Any]] = []

    async def _drop(self, text: str) -> None:
        return None

    def offer(self, kind: str, text: str, state_id: int | None = None) -> None:
        if kind == "feedback":
            self.feedback.append(json.loads(text))
        super().offer(kind, text, state_id)


def correction(game_name: str, rng: random.Random, players: int) -> dict[str, Any]:
    """A host correction, often an absurd one (its refusal may name a player's money or what a hand lacks)."""
    target = rng.randrange(players)
    delta = rng.choice([-10**18, -10_000, -500, -3, 1, 2])
    if rng.random() < 0.5:
        board = board_correction(game_name, rng, target)
        if board is not None:
            return board
    if game_name == "power_grid":
        return {"seat": HOST, "action": "adjust_money", "target": target, "delta": delta}
    if game_name == "bohnanza":
        return {"seat": HOST, "action": "correct_coins", "player": target, "delta": delta}
    return {"seat": HOST, "action": "correct_score", "target": target, "delta": delta}


def board_correction(game_name: str, rng: random.Random, target: int) -> dict[str, Any] | None:
    """A correction of the board: houses, plants and their tokens; fields and hands (the hand's bean is secret)."""
    if game_name == "bohnanza":
        from companion.games.bohnanza.beans import BEANS

        bean = rng.choice(sorted(BEANS))
        if rng.random() < 0.6:
            return {"seat": HOST, "action": "correct_hand", "player": target, "bean": bean,
                    "change": rng.choice(["add", "remove"])}
        return {"seat": HOST, "action": "correct_field", "player": target, "field": rng.randrange(3), "bean": bean,
                "count": rng.randrange(0, 5)}
    if game_name == "power_grid":
        from companion.games.power_grid.data import MAPS, PLANTS

        plant, other = rng.sample(sorted(PLANTS), 2)
        return rng.choice([
            {"seat": HOST, "action": "correct_house", "player": target, "city": rng.choice(MAPS["germany"].city_ids),
             "change": rng.choice(["add", "remove"])},
            {"seat": HOST, "action": "correct_stock", "plant": plant, "coal": rng.randrange(3),
             "oil": rng.randrange(3)},
            {"seat": HOST, "action": "move_plant", "plant": plant, "owner": rng.choice([None, target])},
            {"seat": HOST, "action": "swap_plants", "plant": plant, "other": other},
        ])
    return None


def controller_event(game: Any, rng: random.Random, uids: dict[str, str], hands: list[str], players: int
                     ) -> BoardEvent:
    roll = rng.random()
    if roll < 0.5 and uids:
        card = rng.choice(hands) if hands and rng.random() < 0.6 else rng.choice(list(uids))
        return BoardEvent("tag", uid=uids[card], present=True)
    if roll < 0.8:
        return BoardEvent("button", button=rng.randrange(players + 1), action=rng.choice(["press", "long"]))
    return BoardEvent("key", key=rng.choice(["1", "2", "5", "9", "ok", "back"]), action="press")


async def carry_out(live: LiveSession, decision: Any) -> None:
    """What `companion play` does with the router's decision (companion/play/runner.py)."""
    if isinstance(decision, Act):
        await live.submit(decision.action, decision.actor, decision.state_id, "board")
    elif isinstance(decision, Undo):
        await live.undo(decision.actor, decision.state_id, "board")
    elif isinstance(decision, Note):
        live.note(True, decision.seat, decision.text, template=decision.template, params=decision.params)
    elif isinstance(decision, Refuse):
        live.note(False, decision.seat, decision.reason, template=decision.template, params=decision.params,
                  public=decision.public)


@pytest.mark.parametrize(("game_name", "mode"), CASES, ids=[f"{g}-{m}" for g, m in CASES])
async def test_a_whole_game_from_every_source_shows_the_table_no_secret(tmp_path: Path, game_name: str,
                                                                        mode: str) -> None:
    display_i18n.set_language("en", False)
    players = PLAYERS[game_name]
    store = Store(tmp_path / "secrecy.sqlite3")
    store._db.execute("PRAGMA synchronous=OFF")  # thousands of commits: durability is another test's subject
    session = Session.create(store, game_name, players, seed=5, mode=mode,  # type: ignore[arg-type]
                             options=OPTIONS.get(game_name))
    game = session.game
    uids: dict[str, str] = {}
    if mode == "physical":
        for i, card in enumerate(game.cards()):
            uids[card] = f"04{i:08X}"
            store.enroll_tag(uids[card], game.name, card)
    hub = Hub(store, actions_per_second=1e9, action_burst=10**9)
    try:
        live = await hub.live(session.id)
        session = live.session
        ear = PublicEar(live, game_name)
        seats = [SeatEar(s) for s in range(players)]
        for connection in (ear, *seats):
            live.connections.add(connection)  # their views are not the subject here: no first view is sent
        router = Router(session)
        rng = random.Random(f"{game_name}-{mode}")
        bot = game.bots()[BOTS.get(game_name, "random")]
        tries = {s: 0 for s in range(players)}
        steps = 0
        while not game.is_over(session.state) and steps < STEP_LIMIT:
            steps += 1
            state = session.state
            roll = rng.random()
            if roll < 0.06:
                await live.submit(correction(game_name, rng, players), HOST, session.state_id, "host")
                continue
            if roll < 0.12:
                # A seat tries another seat's move (or a move out of turn) from its own phone.
                seat = rng.randrange(players)
                pick = choose_actor(game, state, rng)
                if pick is not None:
                    action = {**rng.choice(pick[1]).to_json(), "seat": (seat + 1) % players}
                    await live.submit(action, seat, session.state_id, "phone", seats[seat])
                    tries[seat] += 1
                continue
            if mode == "physical" and roll < 0.30:
                hands = sorted(secrets_now(game_name, state, lambda c: c)[0]) if game_name != "power_grid" else []
                event = controller_event(game, rng, uids, hands, players)
                async with live.lock:
                    decision = router.decide(event)
                if decision is not None:
                    await carry_out(live, decision)
                continue
            pick = choose_actor(game, state, rng)
            assert pick is not None, "nobody can act"
            seat, legal = pick
            action = bot.choose(game, state, seat, legal, rng) or rng.choice(legal)
            if seat in (TABLE, HOST):
                outcome = await live.submit(action, HOST, session.state_id, "host")
            elif rng.random() < 0.2:
                outcome = await live.submit(action, HOST, session.state_id, "host")  # the host acts for a seat
            else:
                outcome = await live.submit(action, seat, session.state_id, "phone", seats[seat])
                tries[seat] += 1
            assert outcome.ok, outcome.error and outcome.error.reason
        assert game.is_over(session.state), f"the game did not end in {STEP_LIMIT} steps"
        assert ear.checked > 50 and ear.withheld > 0
        for seat, ear_of_seat in enumerate(seats):
            # A phone hears its own tries only (a controller move for it, too, as that seat).
            assert len([f for f in ear_of_seat.feedback if f["source"] == "phone"]) == tries[seat]
            assert all(f["seat"] in (seat, None) or f["source"] == "phone" for f in ear_of_seat.feedback)
        assert session.store.session(session.id).status == "over"
        assert not hub.errors, list(hub.errors)
    finally:
        await hub.close()
        store.close()


async def test_a_refused_correction_naming_hidden_money_reaches_only_the_host(tmp_path: Path) -> None:
    """Power Grid with money hidden: the host's correction beyond a player's Elektro is refused with the amount;
    the host's answer has it, the table hears only that a move was refused."""
    store = Store(tmp_path / "money.sqlite3")
    session = Session.create(store, "power_grid", 3, seed=1)
    hub = Hub(store)
    try:
        live = await hub.live(session.id)
        ear = PublicEar(live, "power_grid")
        live.connections.add(ear)
        outcome = await live.submit({"seat": HOST, "action": "adjust_money", "target": 1, "delta": -60}, HOST,
                                    session.state_id, "host")
        assert isinstance(outcome.error, CompanionError) and "50" in outcome.error.reason
        assert ear.withheld == 1 and ear.refused_in_words == 0
        absurd = await live.submit({"seat": HOST, "action": "adjust_money", "target": 1, "delta": 10**18}, HOST,
                                   session.state_id, "host")
        assert absurd.error is not None and absurd.error.params == {"limit": 10_000}
        assert session.state_id == 0
    finally:
        await hub.close()
        store.close()
