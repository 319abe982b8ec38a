"""Each game played on a 360×740 phone by tapping like a player, in English and Sindhi: tap counts, axe-core, no
horizontal scroll, no machine words, the grid in board orientation, a call when it becomes your turn."""

from __future__ import annotations

import math
import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import CHROMIUM, PHONE, Seated, ThreadServer, free_port, get, phone_page, post

from companion.store import Session, Store
from companion.web import Settings

playwright = pytest.importorskip("playwright.sync_api")

ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "artifacts"
AXE = Path(__file__).resolve().parent / "node" / "node_modules" / "axe-core" / "axe.min.js"
# Words a player must never read: raw ids, machine names, JavaScript's empty values.
FORBIDDEN = re.compile(r"\bnull\b|\bundefined\b|\bNaN\b|\[object|\b[a-z]+_[a-z_]+\b|\bSS\d\d\b|\b[a-z]+-\d\d\b"
                       r"|Bean bean|offer \d")

# axe-core's WCAG 2.1 A/AA rules and best practices: the serious and critical findings.
AXE_RUN = """async () => {
  const r = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] });
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({
    id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' ' + n.failureSummary),
  }));
}"""
# Visible controls smaller than 44×44 px (a checkbox counts with its label).
SMALL_TARGETS = """() => [...document.querySelectorAll('button, select, input, a[href], summary')]
  .filter((el) => el.offsetParent !== null && !el.closest('.sr-only'))
  .map((el) => {
    const r = (el.closest('label') || el).getBoundingClientRect();
    return [el.outerHTML.slice(0, 80), r.width, r.height];
  })
  .filter(([, w, hgt]) => (w < 44 || hgt < 44) && w > 0)"""
# Each city's tap target on the map: its id, its box on the screen (CSS px).
CITY_TARGETS = """() => [...document.querySelectorAll('.pg-map-svg g.city')]
  .filter((g) => g.querySelector('circle.hit')).map((g) => {
    const r = g.querySelector('circle.hit').getBoundingClientRect();
    return [g.dataset.city, r.left, r.top, r.width, r.height];
  })"""
GRID_BOXES = """() => [...document.querySelectorAll('.ss-grid .cell')].map((el) => {
  const r = el.getBoundingClientRect();
  return [Number(el.dataset.cell), Math.round(r.top), Math.round(r.left)];
})"""

pytestmark = [
    pytest.mark.skipif(not shutil.which(CHROMIUM), reason="Debian's chromium is not installed"),
    pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (tests/web/node: npm ci)"),
]


class Table:
    """One server with a session of each game, and one browser, shared by the module's tests."""

    def __init__(self, server: ThreadServer, browser: Any, sessions: dict[str, Seated], artifacts: Path) -> None:
        self.server = server
        self.browser = browser
        self.sessions = sessions
        self.artifacts = artifacts
        self.errors: list[str] = []

    def envelope(self, game: str, seat: int | None = None) -> dict[str, Any]:
        s = self.sessions[game]
        if seat is None:
            return get(f"{self.server.base}/api/sessions/{s.id}/public")
        return get(f"{self.server.base}/api/sessions/{s.id}/view?token={s.tokens[seat]}")

    def hints(self, game: str, seat: int) -> dict[str, Any]:
        """The seat's hints for the current state (the REST view does not wait for them; this does)."""
        s = self.sessions[game]
        return get(f"{self.server.base}/api/sessions/{s.id}/hints?token={s.tokens[seat]}")["hints"]

    def act(self, game: str, seat: int, action: dict[str, Any]) -> None:
        s = self.sessions[game]
        state = self.envelope(game, seat)["state_id"]
        post(f"{self.server.base}/api/sessions/{s.id}/actions", {"token": s.tokens[seat], "state_id": state,
                                                                  "action": action})

    def host_act(self, game: str, action: dict[str, Any]) -> None:
        s = self.sessions[game]
        state = self.envelope(game)["state_id"]
        post(f"{self.server.base}/api/host/sessions/{s.id}/actions", {"token": s.host, "state_id": state,
                                                                       "action": action})

    def phone(self, game: str, seat: int, lang: str = "en") -> Phone:
        page = phone_page(self.browser, self.errors, bypass_csp=True, locale="en-GB")
        # Records the vibrations the page asks for (headless Chromium has no motor).
        page.add_init_script("window.__vibrations = []; navigator.vibrate = (p) => { window.__vibrations.push(p);"
                             " return true; };")
        s = self.sessions[game]
        page.goto(f"{self.server.base}/join/{s.id}?t={s.tokens[seat]}&lang={lang}")
        page.wait_for_selector("body[data-state-id]")
        return Phone(self, page, game, lang)


class Phone:
    """A player's phone page; `tap` counts the taps of a move."""

    def __init__(self, table: Table, page: Any, game: str, lang: str) -> None:
        self.table = table
        self.page = page
        self.game = game
        self.lang = lang
        self.taps = 0

    def tap(self, selector: str) -> None:
        target = self.page.locator(selector).first
        # A player scrolls what they want to tap to the middle of the screen, clear of the sticky header and actions.
        target.evaluate("(el) => { el.scrollIntoView({ block: 'start' }); window.scrollBy(0, -160); }")
        target.click()
        self.taps += 1

    def state_id(self) -> int:
        return int(self.page.get_attribute("body", "data-state-id") or -1)

    def wait_state(self, state_id: int) -> None:
        self.page.wait_for_selector(f"body[data-state-id='{state_id}']")

    def check(self, name: str) -> None:
        """axe-core finds nothing serious, nothing scrolls sideways, no machine words; a screenshot to look at."""
        page = self.page
        page.wait_for_timeout(150)
        page.screenshot(path=str(self.table.artifacts / f"phone16-{self.game}-{name}-{self.lang}.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
        text = page.locator("body").inner_text()
        assert not FORBIDDEN.findall(text), (name, FORBIDDEN.findall(text))
        if self.lang == "sd":  # numbers in the page's own digits, every one
            assert not re.findall(r".{0,20}[0-9].{0,20}", text), (name, re.findall(r".{0,20}[0-9].{0,20}", text))
        if not page.evaluate("typeof window.axe !== 'undefined'"):
            page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
        result = page.evaluate(AXE_RUN)
        assert result == [], (name, self.lang, result)
        small = page.evaluate(SMALL_TARGETS)
        assert small == [], (name, "tap targets under 44 px", small)

    def close(self) -> None:
        self.page.context.close()


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Table]:
    artifacts = ARTIFACTS
    artifacts.mkdir(exist_ok=True)
    db_path = tmp_path_factory.mktemp("phones") / "companion.sqlite3"
    store = Store(db_path)
    sessions = {}
    try:
        games = (("shifting_stones", 3, 4), ("bohnanza", 3, 2), ("power_grid", 3, 2), ("tiny", 3, 5))
        for game, players, seed in games:
            session = Session.create(store, game, players, seed=seed, names=["Ann", "Bo", "Cy"])
            sessions[game] = Seated(session.id, session.host_token, tuple(r.token for r in store.seats(session.id)))
    finally:
        store.close()
    with ThreadServer(Settings(db_path=db_path, host="127.0.0.1", port=free_port())) as server:
        yield Table(server, browser, sessions, artifacts)


def current(envelope: dict[str, Any]) -> int:
    return next(s for s in envelope["current_seats"] if isinstance(s, int))


# -- Shifting Stones -----------------------------------------------------------------------------------------
def grid_order(phone: Phone) -> list[int]:
    """The cells in reading order of the screen (top to bottom, left to right), by their board index."""
    boxes = phone.page.evaluate(GRID_BOXES)
    return [cell for cell, _top, _left in sorted(boxes, key=lambda b: (b[1], b[2]))]


@pytest.mark.parametrize("lang", ["en", "sd"])
def test_shifting_stones_a_swap_is_three_taps_a_flip_three_and_the_grid_is_never_mirrored(table: Table, lang: str):
    game = "shifting_stones"
    seat = current(table.envelope(game))
    phone = table.phone(game, seat, lang)
    page = phone.page
    page.wait_for_selector("#actions .card[data-card]")
    phone.check("start")
    assert grid_order(phone) == list(range(9))
    faces = page.eval_on_selector_all(".ss-grid .cell", "els => els.map((e) => e.dataset.face)")
    assert faces == table.envelope(game)["view"]["grid"]["faces"]
    # Stones are the shared pictograms, with their names.
    assert page.locator(".ss-grid .cell img.pic-img").first.get_attribute("src").startswith("/pictograms/stone/")

    # A swap: the card, then two neighbours.
    before = phone.state_id()
    phone.taps = 0
    phone.tap("#actions .card[data-card]")
    phone.tap(".ss-grid .cell[data-cell='0']")
    assert page.locator(".ss-grid .cell.selected").count() == 1
    phone.check("stone-picked")
    phone.tap(".ss-grid .cell[data-cell='1']")
    # The player's own move is confirmed by the sentence the display shows, naming them (not a bare "Done").
    said = page.locator("#head .toast.ok").first.inner_text()
    assert ["Ann", "Bo", "Cy"][seat] in said and "Done" not in said, said
    phone.wait_state(before + 1)
    assert phone.taps == 3
    assert set(table.envelope(game)["view"]["last_move"]) == {0, 1}
    assert page.locator(".ss-grid .cell.last").count() == 2
    assert page.locator("#head .toast").count() <= 1
    phone.check("after-swap")

    # A flip: the card, the stone, then the flip that names what it becomes.
    envelope = table.envelope(game, seat)
    if any(a["action"] == "flip_stone" for a in envelope["legal"]):
        phone.taps = 0
        phone.tap("#actions .card[data-card]")
        phone.tap(".ss-grid .cell[data-cell='4']")
        phone.tap("#actions button.flip")
        phone.wait_state(before + 2)
        assert phone.taps == 3

    # Ending the turn asks first while a card could still score.
    envelope = table.envelope(game, seat)
    if any(a["action"] == "score_card" for a in envelope["legal"]):
        phone.tap("#actions button.end-turn")
        page.wait_for_selector(".confirm-end")
        phone.check("confirm-end")
        page.locator(".confirm-end button.primary").click()  # keep playing
        assert page.locator(".confirm-end").count() == 0
    state = phone.state_id()
    page.locator("#actions button.end-turn").click()
    if page.locator(".confirm-end").count():
        page.locator(".confirm-end button:not(.primary)").click()
    page.wait_for_selector(f"body:not([data-state-id='{state}'])")
    assert "SS" not in page.locator(".ticker").inner_text()
    phone.close()
    assert table.errors == [], table.errors


# -- Bohnanza ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "sd"])
def test_bohnanza_plant_then_a_one_for_one_offer_in_four_taps_answered_with_real_buttons(table: Table, lang: str):
    game = "bohnanza"
    active = table.envelope(game)["view"]["active"]
    phone = table.phone(game, active, lang)
    page = phone.page
    if table.envelope(game)["view"]["phase"] == "plant":
        page.wait_for_selector("#actions button.plant")
        assert page.locator("#main .bn-hand .card.front").count() == 1 and page.locator(".front-note").is_visible()
        phone.check("plant")
        state = phone.state_id()
        phone.taps = 0
        phone.tap("#actions button.plant")
        phone.wait_state(state + 1)
        assert phone.taps == 1
        page.locator("#actions .group[data-kind='turn_up_cards'] button").click()
        page.wait_for_selector("#actions .group[data-kind='offer_trade'] .composer")
    view = table.envelope(game, active)["view"]
    assert view["phase"] == "trade"
    partner = (active + 1) % 3
    theirs = [c["bean"] for c in table.envelope(game, partner)["view"]["me"]["hand"]]
    mine = view["me"]["hand"]
    phone.check("trading")
    # The footer keeps the game in sight (at most half the screen) and still shows the whole trade composer at once:
    # the cards and beans are a keypad of pictures with short names.
    footer = page.evaluate("() => { const a = document.getElementById('actions'); "
                           "return [a.getBoundingClientRect().height, a.clientHeight]; }")
    composer = page.locator("#actions .group[data-kind='offer_trade'] .composer").bounding_box()
    assert footer[0] <= PHONE["height"] / 2 + 1, footer
    assert composer["height"] <= footer[1], (composer, footer)

    # Offer one card of my hand for one bean of theirs: partner, my card, their bean, send.
    state = phone.state_id()
    phone.taps = 0
    if page.locator("#actions .chips.partners").count():
        phone.tap(f"#actions .chips.partners [data-partner='{partner}']")
    phone.tap(f"#actions .chips.give [data-position='{mine[0]['position']}']")
    phone.tap(f"#actions .chips.want [data-bean='{theirs[0]}']")
    phone.tap("#actions button.send")
    phone.wait_state(state + 1)
    assert phone.taps <= 4
    offers = table.envelope(game, active)["view"]["offers"]
    offer = max((o for o in offers if o["to"] == partner), key=lambda o: o["id"])
    assert offer["give"] == [mine[0]["bean"]] and offer["want"] == [theirs[0]]

    # The partner sees it drawn as a card with Accept / Refuse / Counter as buttons; a counter starts from it.
    other = table.phone(game, partner, lang)
    card = other.page.locator(f"#actions .offer-card[data-offer='{offer['id']}']")
    card.wait_for()
    for answer in ("accept", "refuse", "counter"):
        assert card.locator(f"button.{answer}").count() >= 1, answer
    assert card.locator("li").count() == 2  # one card each way, each counted once
    other.tap(f"#actions .offer-card[data-offer='{offer['id']}'] button.counter")
    composer = other.page.locator("#actions .offer .composer")
    composer.wait_for()
    assert composer.locator(".chips.give .chip.on").count() == 1
    assert composer.locator(f".chips.want [data-bean='{mine[0]['bean']}'].on").count() == 1
    other.check("counter")
    state = other.state_id()
    other.page.locator(f"#actions .offer-card[data-offer='{offer['id']}'] button.accept").first.click()
    other.wait_state(state + 1)
    other.close()

    # "End trading" is the last control (above Undo) and asks first while an offer is open.
    phone.page.wait_for_selector(f"body:not([data-state-id='{state}'])")
    groups = page.eval_on_selector_all("#actions > .group",
                                       "els => els.map((e) => [e.dataset.kind, e.getBoundingClientRect().top])")
    end = next(top for kind, top in groups if kind == "end_trading")
    assert all(top <= end for kind, top in groups if kind != "end_trading")
    if page.locator("#actions .chips.want .chip").count():
        page.locator("#actions .chips.give .chip").first.click()
        page.locator("#actions button.send").click()
        page.wait_for_selector("#actions .offer-card")
        page.locator("#actions button.end-trading").click()
        page.wait_for_selector("#actions .confirm")
        phone.check("end-trading-confirm")
        page.locator("#actions .confirm button.primary").click()
    ticker = page.locator(".ticker").inner_text()
    assert not re.search(r"offer \d", ticker), ticker
    phone.close()
    assert table.errors == [], table.errors


# -- Power Grid ----------------------------------------------------------------------------------------------
def power_grid_step(table: Table) -> bool:
    """One move of a quick, plain player (open the cheapest plant, pass, buy nothing); False at the build phase."""
    game = "power_grid"
    public = table.envelope(game)
    if public["view"]["phase"] == "building":
        return False
    if not any(isinstance(s, int) for s in public["current_seats"]):
        s = table.sessions[game]
        host = get(f"{table.server.base}/api/host/sessions/{s.id}?token={s.host}")
        table.host_act(game, (host["host_legal"] or host["table_legal"])[0])
        return True
    seat = current(public)
    legal = table.envelope(game, seat)["legal"]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        by_kind.setdefault(action["action"], []).append(action)
    for kind in ("open_auction", "pass", "discard_plant", "finish_discard", "end_buying", "decline_to_open"):
        if kind in by_kind:
            choice = min(by_kind[kind], key=lambda a: (a.get("bid", 0), a.get("plant", 0)))
            table.act(game, seat, choice)
            return True
    table.act(game, seat, legal[0])
    return True


@pytest.mark.parametrize("lang", ["en", "sd"])
def test_power_grid_auction_shows_the_limit_and_a_city_is_built_in_two_taps_on_the_map(table: Table, lang: str):
    game = "power_grid"
    public = table.envelope(game)
    while not any(isinstance(s, int) for s in public["current_seats"]) or public["view"]["phase"] == "regions":
        power_grid_step(table)
        public = table.envelope(game)
    if public["view"]["phase"] == "auction":
        opener = current(public)
        phone = table.phone(game, opener, lang)
        page = phone.page
        page.wait_for_selector("#actions .group[data-kind='open_auction'] .card")
        phone.check("auction-open")
        state = phone.state_id()
        phone.taps = 0
        phone.tap("#actions .group[data-kind='open_auction'] .card")
        phone.tap("#actions .group[data-kind='open_auction'] button.primary")
        phone.wait_state(state + 1)
        assert phone.taps == 2
        phone.close()
        bidder = current(table.envelope(game))
        other = table.phone(game, bidder, lang)
        other.page.wait_for_selector(".pg-auction")
        auction = table.envelope(game, bidder)["view"]["auction"]
        text = other.page.locator(".pg-auction").inner_text()
        assert table.envelope(game)["players"][auction["leader"]]["name"] in text
        assert other.page.locator("#actions .bid-now").count() == 1
        other.check("auction-bid")
        other.close()
    for _ in range(200):  # on to a player who may build (one without money ends building)
        while power_grid_step(table):
            pass
        public = table.envelope(game)
        builder = current(public)
        envelope = table.envelope(game, builder)
        builds = [a for a in envelope["legal"] if a["action"] == "build_city"]
        if builds:
            break
        table.act(game, builder, next(a for a in envelope["legal"] if a["action"] == "end_building"))
    assert builds
    prices = table.hints(game, builder)["city_prices"]
    city = min((a["city"] for a in builds), key=lambda c: (prices.get(c, 999), c))
    phone = table.phone(game, builder, lang)
    page = phone.page
    page.wait_for_selector(".pg-map-svg")
    # Names as printed on the board, with their diacritics; never an id.
    names = page.locator(".pg-map-svg .name").all_text_contents()
    board = get(f"{table.server.base}/look/power_grid.json")["maps"][public["view"]["map"]]
    printed = {c["name"] for c in board["cities"]}
    assert names and set(names) <= printed
    assert {"Köln", "Düsseldorf", "Frankfurt-M"} <= printed or board["id"] != "germany"
    phone.check("building")
    # Every city in play is a thumb's target (at least 44×44 CSS px) and no two targets overlap, so neighbours
    # stay apart even in the crowded Ruhr; the whole map is a tap away, and a tap on it zooms back in.
    targets = page.evaluate(CITY_TARGETS)
    in_play = {c["id"] for c in board["cities"] if c["region"] in public["view"]["regions"]}
    assert {t[0] for t in targets} == in_play
    assert all(round(w) >= 44 and round(h) >= 44 for _id, _x, _y, w, h in targets), targets
    centres = [(x + w / 2, y + h / 2) for _id, x, y, w, h in targets]
    closest = min(math.dist(a, b) for i, a in enumerate(centres) for b in centres[i + 1:])
    assert closest >= 44, closest
    page.locator("button.map-zoom").click()
    page.wait_for_selector(".pg-map-svg:not(.zoomed)")
    assert page.locator(".pg-map-svg circle.hit").count() == 0
    phone.check("whole-map")
    page.locator(".pg-map-svg").click()
    page.wait_for_selector(".pg-map-svg.zoomed")
    state = phone.state_id()
    phone.taps = 0
    phone.tap(f".pg-map-svg [data-city='{city}'] circle.hit")
    page.wait_for_selector(".city-panel button.build-here")
    assert str(prices[city]) in page.locator(".city-panel").first.inner_text() or lang != "en"
    phone.check("city-chosen")
    phone.tap(".city-panel button.build-here")
    phone.wait_state(state + 1)
    assert phone.taps == 2
    assert builder in table.envelope(game)["view"]["cities"][city]
    page.wait_for_selector(f".pg-map-svg [data-city='{city}'] rect.house")

    # The plans among the hints can be tapped too: they open the same confirm.
    if [p for p in table.hints(game, builder).get("build_sets", []) if 2 <= p["k"] <= 4]:
        page.locator("#main .hints button.plan-hint").first.click()
        page.wait_for_selector("#actions .plan-confirm")
        page.locator("#actions .plan-confirm button:not(.primary)").click()
        page.wait_for_selector("#actions .plan-confirm", state="detached")

    # A cheapest plan of two cities: one tap on the plan, one confirm, both built in its order.
    plans = [p for p in table.hints(game, builder).get("build_sets", []) if p["k"] == 2]
    if plans and page.locator(f"#actions button.plan[data-cities='{','.join(plans[0]['cities'])}']").count():
        state = phone.state_id()
        phone.taps = 0
        phone.tap(f"#actions button.plan[data-cities='{','.join(plans[0]['cities'])}']")
        phone.tap("#actions button.plan-go")
        phone.wait_state(state + 2)
        assert phone.taps == 2
        built = table.envelope(game)["view"]["cities"]
        assert all(builder in built.get(c, []) for c in plans[0]["cities"])
    ticker = page.locator(".ticker").inner_text()
    assert not FORBIDDEN.findall(ticker), ticker
    phone.close()
    assert table.errors == [], table.errors


def plan_problem(envelope: dict[str, Any], hints: dict[str, Any], plan: dict[str, Any],
                 seat: int) -> tuple[str, str] | None:
    """Where a plan shown earlier can no longer be built, now, and the words that say why; None if it still can."""
    built = envelope["view"]["cities"]
    prices = hints["city_prices"]
    money = envelope["view"]["you"]["money"]
    legal = {a["city"] for a in envelope["legal"] if a["action"] == "build_city"}
    todo = [(c, p) for c, p in zip(plan["cities"], plan["prices"], strict=True) if seat not in built.get(c, [])]
    if not todo:
        return None
    if not legal:
        return todo[0][0], "no longer your turn"
    if todo[0][0] not in legal:
        price = prices.get(todo[0][0])
        return todo[0][0], (f"you have {money}" if price is not None and price > money else "no longer open")
    total = 0
    for city, _shown in todo:
        if city not in prices:
            return city, "no longer open"
        total += prices[city]
        if total > money:
            return city, f"to {total} Elektro and you have {money}"
    return None


def test_power_grid_a_plan_that_can_no_longer_be_built_names_the_city_and_why(table: Table):
    game = "power_grid"
    for _ in range(200):  # on to a builder with a plan that one other city first would spoil
        while power_grid_step(table):
            pass
        builder = current(table.envelope(game))
        envelope = table.envelope(game, builder)
        hints = table.hints(game, builder)
        plans = [p for p in hints.get("build_sets", []) if p["k"] >= 2]
        prices = hints["city_prices"]
        money = envelope["view"]["you"]["money"]
        builds = {a["city"] for a in envelope["legal"] if a["action"] == "build_city"}
        # Another city that drains the money below the plan's total, yet leaves some city to build (prices only
        # fall as a network grows), so the plan's confirm is still on screen when the player taps it.
        others = sorted((c for c in builds if plans and c not in plans[0]["cities"]
                         and money - prices[c] < plans[0]["total"]
                         and any(prices[d] <= money - prices[c] for d in builds - {c})), key=lambda c: -prices[c])
        if plans and others:
            break
        table.act(game, builder, next(a for a in envelope["legal"] if a["action"] == "end_building"))
    else:
        pytest.fail("no builder with a plan came up")
    plan, other = plans[0], {"seat": builder, "action": "build_city", "city": others[0]}
    phone = table.phone(game, builder)
    page = phone.page
    phone.tap(f"#actions button.plan[data-cities='{','.join(plan['cities'])}']")
    page.wait_for_selector("#actions .plan-confirm")
    # Meanwhile the same player builds another city from another phone: the plan shown no longer fits.
    state = phone.state_id()
    table.act(game, builder, other)
    phone.wait_state(state + 1)
    after = table.envelope(game, builder)
    hints = table.hints(game, builder)
    page.wait_for_timeout(400)  # the hints follow the view
    stop = plan_problem(after, hints, plan, builder)
    assert stop is not None
    assert page.locator("#actions .plan-confirm").count() == 1
    phone.tap("#actions button.plan-go")
    page.wait_for_selector("#head .toast.error")
    text = page.locator("#head .toast").inner_text()
    board = get(f"{table.server.base}/look/power_grid.json")["maps"][after["view"]["map"]]
    city, why = stop
    assert next(c["name"] for c in board["cities"] if c["id"] == city) in text, (text, stop)
    assert why in text, (text, stop)
    page.wait_for_timeout(300)
    assert table.envelope(game)["state_id"] == after["state_id"]  # nothing was built
    assert page.locator("#actions .plan-confirm").count() == 0
    phone.check("plan-refused")
    phone.close()
    assert table.errors == [], table.errors


SINDHI_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")


def next_unit_prices(market: dict[str, Any]) -> list[int]:
    """What each next unit of a resource costs, cheapest first: the market fills from its dearest space down."""
    slots = sorted(price for price, room in market["spaces"] for _ in range(room))
    return slots[len(slots) - market["on_market"]:]


@pytest.mark.parametrize("lang", ["en", "sd"])
def test_power_grid_resources_are_bought_one_unit_at_a_time_at_the_price_shown_for_each_next_unit(table: Table,
                                                                                                   lang: str):
    game = "power_grid"
    for _ in range(300):  # on to a player who may buy resources for a plant
        public = table.envelope(game)
        seats = [s for s in public["current_seats"] if isinstance(s, int)]
        if seats and any(a["action"] == "buy_resources" for a in table.envelope(game, seats[0])["legal"]):
            break
        if public["view"]["phase"] == "building" and seats:
            legal = table.envelope(game, seats[0])["legal"]
            table.act(game, seats[0], next(a for a in legal if a["action"] == "end_building"))
        else:
            power_grid_step(table)
    else:
        pytest.fail("nobody came to buy resources")
    buyer = seats[0]
    phone = table.phone(game, buyer, lang)
    page = phone.page
    row = page.locator("#actions .buy-row").first
    row.wait_for()
    plant, resource = int(row.get_attribute("data-plant")), row.get_attribute("data-resource")
    phone.check("buying")
    bought = 0
    while bought < 3:
        envelope = table.envelope(game, buyer)
        room = max((a["count"] for a in envelope["legal"] if a["action"] == "buy_resources"
                    and a["plant"] == plant and a["resource"] == resource), default=0)
        if not room:
            break
        expected = next_unit_prices(envelope["view"]["resources"][resource])
        selector = f"#actions .buy-row[data-plant='{plant}'][data-resource='{resource}']"
        row = page.locator(selector)
        shown = [int(text.translate(SINDHI_DIGITS)) for text in row.locator(".unit").all_inner_texts()]
        # One price per unit the plant can still take, each the market's next cheapest: the next unit first.
        assert shown == expected[:len(shown)] and len(shown) == min(room, len(expected)), (shown, expected, room)
        assert row.locator(".unit.chosen").count() == 1
        state = phone.state_id()
        phone.taps = 0
        phone.tap(f"{selector} button.primary")
        phone.wait_state(state + 1)
        assert phone.taps == 1
        bought += 1
        after = table.envelope(game, buyer)
        held = next(p for p in next(x for x in after["view"]["players"] if x["seat"] == buyer)["plants"]
                    if p["plant"] == plant)
        assert held["stock"][resource] >= bought
        assert after["view"]["you"]["money"] == envelope["view"]["you"]["money"] - expected[0]
        if page.locator(selector).count() == 0:
            break
    assert bought >= 1
    phone.check("bought")
    phone.close()
    assert table.errors == [], table.errors


# -- every game, every language ------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["bn", "is", "si"])
def test_each_games_phone_in_the_other_languages_passes_axe_and_shows_no_machine_words(table: Table, lang: str):
    for game in ("shifting_stones", "bohnanza", "power_grid"):
        public = table.envelope(game)
        seat = next((s for s in public["current_seats"] if isinstance(s, int)), 0)
        phone = table.phone(game, seat, lang)
        phone.page.wait_for_selector("#actions .group, #actions p")
        assert phone.page.evaluate("document.documentElement.lang") == lang
        phone.check("view")
        phone.close()
    assert table.errors == [], table.errors


def test_a_phone_calls_its_player_when_it_becomes_their_turn(table: Table):
    game = "shifting_stones"
    public = table.envelope(game)
    waiting = (current(public) + 1) % 3
    phone = table.phone(game, waiting)
    page = phone.page
    assert not page.title().startswith("●")
    assert page.evaluate("window.__vibrations.length") == 0
    for _ in range(40):  # the others play (skip or end their turns) until it is this player's turn
        public = table.envelope(game)
        if current(public) == waiting:
            break
        seat = current(public)
        legal = table.envelope(game, seat)["legal"]
        ends = [a for a in legal if a["action"] in ("skip_turn", "end_turn")]
        table.act(game, seat, ends[0] if ends else legal[0])
    page.wait_for_selector(".turn.mine")
    page.wait_for_function("document.body.dataset.called === '1'")
    assert page.title().startswith("●")
    assert page.evaluate("window.__vibrations.length") == 1
    # Feedback never covers the header: a refusal appears below it.
    page.locator("#actions button.undo").click()
    page.wait_for_selector("#head .toast.error")
    top = page.locator("#top").bounding_box()
    toast = page.locator("#head .toast").bounding_box()
    assert toast["y"] >= top["y"] + top["height"] - 1
    page.screenshot(path=str(table.artifacts / "phone16-turn-called.png"))
    phone.close()
    assert table.errors == [], table.errors


def test_final_scores_are_in_rank_order_with_names(table: Table):
    game = "tiny"
    rng = random.Random(1)
    for _ in range(60):
        public = table.envelope(game)
        if public["over"]:
            break
        seat = current(public)
        table.act(game, seat, rng.choice(table.envelope(game, seat)["legal"]))
    public = table.envelope(game, 0)
    assert public["over"]
    phone = table.phone(game, 0)
    rows = phone.page.locator(".scores ol.ranking li").all_inner_texts()
    scores = public["scores"]["scores"]
    names = {p["seat"]: p["name"] for p in public["players"]}
    expected = sorted(names, key=lambda s: (s not in public["scores"]["winners"], -scores[s], s))
    assert [r.split(":")[0].split(".", 1)[1].strip() for r in rows] == [names[s] for s in expected]
    phone.check("final-scores")
    phone.close()
