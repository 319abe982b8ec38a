"""A whole evening per game from the host's laptop (1280×800) and a phone (360×740), in headless Chromium: the lobby,
joining, a move for a player whose phone died, a board job left undone then ticked, undo to here, every correction,
the summary and the rematch."""

from __future__ import annotations

import random
import shutil

import pytest
from test_web_browser import server_session
from web_helpers import CHROMIUM, PHONE, SERVER_TOKEN, ThreadServer, free_port, get, phone_page

from companion.core.errors import CompanionError
from companion.core.seats import HOST
from companion.testing.harness import choose_actor
from companion.web import Settings

playwright = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="Debian's chromium is not installed")

LAPTOP = {"width": 1280, "height": 800}
NAMES = ["Ann", "Bo", "Cy"]
EVENINGS = [("power_grid", 3), ("bohnanza", 3), ("shifting_stones", 2)]


def host_page(browser, errors):
    page = browser.new_page(viewport=LAPTOP)
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error"
            and "WebSocket connection to" not in msg.text else None)
    # The console says only "404"; the address tells which request it was.
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status == 404 else None)
    return page


def state_id(page) -> int:
    return int(page.locator("body").get_attribute("data-state-id") or -1)


def wait_past(page, seen: int, timeout: float = 10.0) -> None:
    """Until the page shows a state after `seen` (polled: the page's CSP forbids evaluating strings)."""
    import time

    deadline = time.monotonic() + timeout
    while state_id(page) <= seen:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the page still shows state {state_id(page)}, not past {seen}")
        page.wait_for_timeout(40)


def play_until(session, rng: random.Random, done, limit: int = 5000) -> None:
    """Random legal moves straight into the live session (it tells the server's sockets) until `done()`."""
    for _ in range(limit):
        if done() or session.game.is_over(session.state):
            return
        seen = session.state_id
        try:
            current = session.game.current_seats(session.state)
            if HOST in current or "table" in current:
                legal = session.legal_actions(HOST if HOST in current else "table")
                session.submit(rng.choice(legal), HOST, seen)
                continue
            picked = choose_actor(session.game, session.state, rng)
            if picked is None:
                return
            seat, legal = picked
            session.submit(rng.choice(legal), seat, seen)
        except CompanionError:
            continue  # the host page moved in between: choose again from the new state


def move_from_host_page(page) -> bool:
    """Make one move with the controls shown for the picked seat; True if the game moved on."""
    before = state_id(page)
    moves = page.locator(".moves-panel .moves")
    for selector, confirm in ((".group.button button.act:enabled", None), (".group.choices button.act:enabled", None),
                              (".group.cards .card", ".confirm button"), (".group.number button.primary", None),
                              (".group.select button.primary", None), (".group.composed button.act", None)):
        found = moves.locator(selector)
        if found.count() == 0:
            continue
        try:
            found.first.click(timeout=3000)
            if confirm and moves.locator(confirm).count():
                moves.locator(confirm).first.click(timeout=3000)
        except playwright.Error:
            # The controls were drawn anew between counting and clicking (a phone moved meanwhile, as at a real
            # table): the game moved on, or the caller picks again from what the page shows now.
            return state_id(page) != before
        try:
            wait_past(page, before, 3.0)
            return True
        except TimeoutError:
            if state_id(page) != before:
                return True
            continue
    return False


def correction_plan(kind: str, spec: dict, state) -> dict | None:
    """Field values for a board correction the rules accept now (None: any choice will do, as for money). The
    page is then driven to pick exactly these from its lists."""
    fields = {f["name"]: f for f in spec.get("fields", [])}

    def values(name):
        return [c["value"] for c in fields[name]["choices"]]

    if kind == "correct_house":
        taken = {c for p in state.players for c in p.cities}
        from companion.games.power_grid.data import MAPS

        ids = MAPS[state.map].city_ids
        city = next(c for c in values("city") if ids.index(c) not in taken)
        return {"player": 0, "change": "add", "city": city}
    if kind == "move_plant":
        from companion.games.power_grid.data import PLANTS, STEP3

        busy = {state.auction.plant} if state.auction else set()
        # A plant that stores tokens, so the correction of a plant's tokens has one to work on afterwards.
        market = sorted((p for p in state.market if p != STEP3 and p not in busy), key=lambda p: PLANTS[p].storage > 0)
        seat = next((s for s, p in enumerate(state.players) if len(p.plants) < state.counts.max_plants), None)
        if seat is not None and market:
            return {"plant": market[-1], "owner": seat}
        return None
    if kind == "swap_plants":
        owned = [h.plant for p in state.players for h in p.plants]
        unseen = [p for p in values("other") if p in state.deck or p in state.pool]
        market = [p for p in state.market if p in values("plant") and not (state.auction and state.auction.plant == p)]
        return {"plant": market[0], "other": owned[0] if owned else unseen[0]}
    if kind == "correct_stock":
        from companion.games.power_grid.data import PLANTS, RESOURCES
        from companion.games.power_grid.resources import supply

        left = supply(state)
        for plant in values("plant"):
            holding = next(h for p in state.players for h in p.plants if h.plant == plant)
            if any(holding.stock):
                return {"plant": plant, **dict.fromkeys(RESOURCES, 0)}  # back to the supply
            burns = [r for r in PLANTS[plant].burns if left[r] > 0]
            if burns:
                return {"plant": plant, **dict.fromkeys(RESOURCES, 0), RESOURCES[burns[0]]: 1}
        return None
    if kind == "correct_field":
        from companion.games.bohnanza.beans import bean_of

        where = values("")[-1]
        field = state.players[where["player"]].fields[where["field"]]
        free = [c for c in (*state.discard, *state.deck)]
        bean = max(values("bean"), key=lambda b: sum(1 for c in free if bean_of(c) == b))
        count = len(field) + 1 if field and bean_of(field[0]) == bean else 1
        return {"": where, "bean": bean, "count": count}
    if kind == "correct_hand":
        from companion.games.bohnanza.beans import bean_of

        bean = next(b for b in values("bean") if any(bean_of(c) == b for c in state.deck))
        return {"player": 1, "change": "add", "bean": bean}
    return None


def pick_in_form(form, spec: dict, plan: dict) -> None:
    """Choose the planned value in each of the form's lists (a list's option values are positions in its choices;
    a stepper's are the numbers themselves)."""
    for j, field in enumerate(spec["fields"]):
        select = form.locator("select").nth(j)
        wanted = plan[field["name"]]
        if "choices" in field:
            index = [c["value"] for c in field["choices"]].index(wanted)
            select.select_option(value=str(index))
        else:
            select.select_option(value=str(wanted))


def start_from_lobby(browser, server, game: str, players: int, errors: list[str], artifacts):
    page = host_page(browser, errors)
    page.goto(f"{server.base}/host?t={SERVER_TOKEN}")
    form = page.locator("form.new-game")
    form.locator("select[name=game]").select_option(game)
    form.locator("select[name=players]").select_option(str(players))
    for i, name in enumerate(NAMES[:players]):
        form.locator(".seat-row input[type=text]").nth(i).fill(name)
    # Every option is worded for people: no machine names like open_money on the form.
    text = form.inner_text()
    assert "_" not in text, text
    page.screenshot(path=str(artifacts / f"evening-{game}-lobby.png"), full_page=True)
    form.locator("button[type=submit]").click()
    page.wait_for_selector("body[data-state-id]")
    page.wait_for_selector(".now-panel")
    return page


@pytest.mark.parametrize("game,players", EVENINGS, ids=[g for g, _n in EVENINGS])
def test_a_whole_evening_from_the_host_page(game, players, browser, db_path, artifacts):
    settings = Settings(db_path=db_path, host="127.0.0.1", port=free_port(), server_token=SERVER_TOKEN)
    errors: list[str] = []
    rng = random.Random(5)
    with ThreadServer(settings) as server:
        host = start_from_lobby(browser, server, game, players, errors, artifacts)
        sid = int(host.url.split("/host/")[1].split("?")[0].split("#")[0])
        session = server_session(server, sid)
        # The first screen: the phase, the turn order by name, the sentence, the jobs, the host's moves.
        assert host.locator(".turn-order li").count() == players
        assert "State" not in host.locator("#main").inner_text()
        host.screenshot(path=str(artifacts / f"evening-{game}-console.png"), full_page=True)

        # Joining: the Join tab has every seat's code; the first phone scans its code.
        host.locator("#tabs [data-tab=join]").click()
        host.wait_for_selector(".codes .qr img")
        assert host.locator(".codes .qr").count() == players
        url = host.locator(".codes .qr a").first.get_attribute("href")
        phone = phone_page(browser, errors)
        phone.goto(url)
        phone.wait_for_selector("body[data-state-id]")
        host.locator("#tabs [data-tab=join]").click()
        host.wait_for_selector(".codes .qr .phone.on")
        host.screenshot(path=str(artifacts / f"evening-{game}-join.png"), full_page=True)

        # Whatever the host must do first (Power Grid's regions) is on the console.
        host.locator("#tabs [data-tab=now]").click()
        if HOST in session.game.current_seats(session.state):
            host.wait_for_selector(".moves-panel .regions button.act.primary:not([disabled]), .moves-panel button.act")
            before = state_id(host)
            button = host.locator(".moves-panel .regions button.act.primary")
            if button.count():
                host.screenshot(path=str(artifacts / f"evening-{game}-regions.png"), full_page=True)
                button.click()
            else:
                host.locator(".moves-panel button.act").first.click()
            wait_past(host, before)

        # A dead phone: the host moves for whoever's turn it is, from the seat picker.
        moved = 0
        for _ in range(12):
            current = [s for s in session.game.current_seats(session.state) if isinstance(s, int)]
            if not current:
                play_until(session, rng,
                           lambda: any(isinstance(s, int) for s in session.game.current_seats(session.state)))
                continue
            seat = current[0]
            host.locator(f".seat-picker [data-actor='{seat}']").click()
            host.wait_for_selector(".moves-panel .acting-note")
            if move_from_host_page(host):
                moved += 1
            else:
                play_until(session, rng, lambda s=session.state_id: session.state_id > s)
            if moved >= 3:
                break
        assert moved >= 3
        host.screenshot(path=str(artifacts / f"evening-{game}-act-for.png"), full_page=True)
        hosts_moves = [r for r in session.store.log(sid) if r.kind == "action" and r.seat == "host"
                       and isinstance(r.action.get("seat"), int)]
        assert len(hosts_moves) >= 3
        host.locator(".seat-picker [data-actor='host']").click()

        # A board job stays on the checklist across several actions until someone ticks it.
        envelope = get(f"{server.base}/api/sessions/{sid}/public")
        if "board_jobs" in envelope:
            play_until(session, rng, lambda: any(not j["done"] for j in session.view(None).get("board_jobs", [])),
                       limit=400)
            jobs = [j for j in session.view(None)["board_jobs"] if not j["done"]]
            if jobs:
                job = jobs[0]
                mark = session.state_id
                play_until(session, rng, lambda: session.state_id >= mark + 3)
                still = {j["id"]: j for j in session.view(None)["board_jobs"]}
                assert job["id"] in still and not still[job["id"]]["done"]
                wait_past(host, session.state_id - 1)
                box = host.locator(f".jobs li[data-job='{job['id']}'] input[type=checkbox]")
                host.screenshot(path=str(artifacts / f"evening-{game}-jobs.png"), full_page=True)
                box.check()
                host.wait_for_selector(f".jobs li.done[data-job='{job['id']}']")
                assert {j["id"]: j for j in session.view(None)["board_jobs"]}[job["id"]]["done"]

        # Undo to here: the history in words, a preview of what goes, then confirm.
        play_until(session, rng, lambda: sum(1 for _ in session.live_actions()) >= 8)
        host.locator("#tabs [data-tab=history]").click()
        host.wait_for_selector(".history-list li")
        lines = host.locator(".history-list li .what").all_inner_texts()
        assert lines and all(line.strip() for line in lines)
        assert not any("{" in line for line in lines), lines
        history_url = f"{server.base}/api/host/sessions/{sid}/history?token={session.host_token}"
        live_before = len(get(history_url)["entries"])
        host.locator(".history-list li").nth(2).locator(".undo-here").click()
        host.wait_for_selector("dialog.confirm-undo[open]")
        assert host.locator("dialog.confirm-undo .undone-list li").count() == 3
        host.screenshot(path=str(artifacts / f"evening-{game}-undo-preview.png"))
        host.locator("dialog.confirm-undo button.confirm").click()
        host.wait_for_selector("dialog.confirm-undo", state="detached")
        assert len(get(history_url)["entries"]) == live_before - 3

        # Every correction, chosen from lists.
        host.locator("#tabs [data-tab=fix]").click()
        forms = host.locator("form.correction")
        assert forms.count() >= 1
        kinds = []
        i = -1
        while i + 1 < forms.count():  # a correction may bring another form (a plant now stores tokens)
            i += 1
            form = forms.nth(i)
            kind = form.get_attribute("data-kind")
            kinds.append(kind)
            spec = get(f"{server.base}/api/host/sessions/{sid}?token={session.host_token}")["corrections"][kind]
            plan = correction_plan(kind, spec, session.state)
            if plan is not None:
                pick_in_form(form, spec, plan)
                if kind in ("correct_house", "correct_field", "correct_stock"):
                    host.screenshot(path=str(artifacts / f"evening-{game}-correction-{kind}.png"))
            for j in range(0 if plan is not None else form.locator("select").count()):
                select = form.locator("select").nth(j)
                options = select.locator("option").count()
                select.select_option(index=min(options - 1, options // 2 + 1))
            if form.locator(".grid-picker").count():
                # Two stones swapped places on the table: the same nine stones, so the grid stays possible.
                faces = session.view(None)["view"]["grid"]["faces"]
                one, two = next((a, b) for a in range(9) for b in range(9) if faces[a] != faces[b])
                form.locator(".grid-picker .cell").nth(one).click()
                form.locator(f".grid-picker [data-face={faces[two]}]").click()
                form.locator(".grid-picker .cell").nth(two).click()
                form.locator(f".grid-picker [data-face={faces[one]}]").click()
            before = state_id(host)
            form.locator("button[type=submit]").click()
            try:
                wait_past(host, before)
            except TimeoutError:
                raise AssertionError(f"correction {form.get_attribute('data-kind')} refused") from None
            host.locator("#tabs [data-tab=fix]").click()
            forms = host.locator("form.correction")
        assert host.locator("form.correction input[type=text]").count() == 0  # never free text
        board = {"power_grid": {"adjust_money", "correct_house", "correct_stock", "move_plant", "swap_plants"},
                 "bohnanza": {"correct_coins", "correct_field", "correct_hand"},
                 "shifting_stones": {"correct_score", "correct_grid"}}[game]
        assert board <= set(kinds), kinds
        fixes = [r.action["action"] for r in session.store.log(sid) if r.kind == "action" and r.seat == "host"
                 and r.action.get("seat") == "host"]
        assert board <= set(fixes), fixes
        host.screenshot(path=str(artifacts / f"evening-{game}-corrections.png"), full_page=True)

        # To the end: the summary (with charts) opens by itself, then the rematch.
        play_until(session, rng, lambda: False, limit=20000)
        assert session.game.is_over(session.state)
        host.wait_for_selector("#tabs [data-tab=summary].on")
        host.wait_for_selector(".score-bars li")
        assert host.locator(".score-bars li").count() == players
        host.screenshot(path=str(artifacts / f"evening-{game}-summary.png"), full_page=True)
        phone.screenshot(path=str(artifacts / f"evening-{game}-phone-end.png"), full_page=True)
        host.locator("button.rematch").click()
        host.wait_for_url(lambda u: f"/host/{sid}" not in u and "/host/" in u)
        host.wait_for_selector(".now-panel")
        new_sid = int(host.url.split("/host/")[1].split("?")[0].split("#")[0])
        assert [s.name for s in session.store.seats(new_sid)] == NAMES[:players]
        host.close()
        phone.context.close()
    assert errors == [], errors


def test_the_host_console_fits_a_phone(browser, db_path, new_session, artifacts):
    seated = new_session("bohnanza", 3, names=NAMES)
    settings = Settings(db_path=db_path, host="127.0.0.1", port=free_port())
    errors: list[str] = []
    with ThreadServer(settings) as server:
        page = phone_page(browser, errors)
        page.goto(f"{server.base}/host/{seated.id}?t={seated.host}")
        page.wait_for_selector(".now-panel")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
        page.screenshot(path=str(artifacts / "evening-host-on-a-phone.png"), full_page=True)
        page.context.close()
    assert errors == [], errors
