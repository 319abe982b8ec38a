"""Each game's phone page in each language in headless Chromium: lang and dir, mirrored, no tofu, nothing cut off."""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import threading
import time
from functools import cache
from pathlib import Path

import pytest
from conftest import PLAYERS_LANGUAGES

from companion.core.seats import HOST
from companion.i18n import catalog, fonts
from companion.store import Session, Store
from companion.testing.harness import choose_actor

playwright = pytest.importorskip("playwright.sync_api")

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PHONE = {"width": 360, "height": 740}
GAMES = {"power_grid": 12, "bohnanza": 8, "shifting_stones": 6}  # game -> random moves before the screenshot
LANGUAGES = ("en", *PLAYERS_LANGUAGES)
NATIVE = {"bn": "০১২৩৪৫৬৭৮৯", "sd": "۰۱۲۳۴۵۶۷۸۹"}

pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="Debian's chromium is not installed")

# Text that sticks out of its box (a cut-off label): elements whose content is wider than the element.
CLIPPED = """() => {
  const out = [];
  for (const el of document.querySelectorAll("#top *, #main *, #actions *")) {
    if (!el.offsetParent || el.closest(".table-part, .facts-part, .sr-only, svg")) continue;
    if (!["BUTTON", "H1", "H2", "H3", "P", "LABEL", "LI", "SMALL", "STRONG", "TH", "TD", "SPAN", "B", "DT", "DD"]
        .includes(el.tagName)) continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      out.push(el.tagName + ": " + el.textContent.trim().slice(0, 60));
    }
  }
  return out;
}"""


# The text drawn on the page: every visible text node (a closed <select> draws only its chosen option).
SHOWN_TEXT = """() => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let out = "";
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest("script, style, noscript, select, .sr-only") || !el.getClientRects().length) continue;
    out += node.textContent;
  }
  return out;
}"""


class Server:
    """The app served by uvicorn in a thread on 127.0.0.1."""

    def __init__(self, db_path: Path) -> None:
        import uvicorn

        from companion.web import Settings, create_app

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        settings = Settings(db_path=db_path, host="127.0.0.1", port=port)
        self.server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                                                    log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "the server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def seated_session(store: Store, game: str, moves: int) -> tuple[int, str, str]:
    """A 3-player session played into its main phase; (id, host token, the token of a seat that acts now)."""
    session = Session.create(store, game, 3, seed=2)
    rng = random.Random(5)
    done = 0
    while True:
        current = [s for s in session.game.current_seats(session.state) if isinstance(s, int)]
        if current and done >= moves:
            break
        pick = choose_actor(session.game, session.state, rng)
        assert pick is not None
        session.submit(rng.choice(pick[1]), HOST, state_id=session.state_id)
        done += 1
    tokens = {r.seat: r.token for r in store.seats(session.id)}
    return session.id, session.host_token, tokens[current[0]]


@cache
def font_file(family: str) -> Path | None:
    found = subprocess.run(["fc-match", "-f", "%{file}", family], capture_output=True, text=True, check=False)
    path = Path(found.stdout.strip())
    return path if found.returncode == 0 and path.is_file() else None


def fonts_used(page) -> set[str]:
    """The font families Chromium drew this page's text with (from the DevTools protocol)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    nodes = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "body, body *"})["nodeIds"]
    used: set[str] = set()
    for node in nodes:
        try:
            for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]:
                used.add(font["familyName"])
        except Exception:  # a node without layout (a script, a hidden input)
            continue
    cdp.detach()
    return used


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield instance
        instance.close()


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    db_path = tmp_path_factory.mktemp("i18n") / "companion.sqlite3"
    store = Store(db_path)
    try:
        sessions = {game: seated_session(store, game, moves) for game, moves in GAMES.items()}
    finally:
        store.close()
    with Server(db_path) as server:
        yield server, sessions


def phone(browser, errors):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_games_phone_page_speaks_the_language_without_tofu_or_cut_off_text(lang, browser, table, extraction,
                                                                               artifacts):
    server, sessions = table
    cat = catalog(lang)
    errors: list[str] = []
    english = catalog("en").messages
    unknown: set[str] = set()
    for game, (sid, _host, token) in sessions.items():
        page = phone(browser, errors)
        page.goto(f"{server.base}/join/{sid}?t={token}&lang={lang}")
        page.wait_for_selector("#actions .group")
        assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [lang, cat.dir]
        page.screenshot(path=str(artifacts / f"i18n_phone_{game}_{lang}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1, game
        assert page.evaluate(CLIPPED) == [], game
        # The language's own words are on the page.
        text = page.evaluate(SHOWN_TEXT)
        assert cat.gettext("Your actions") in page.evaluate("document.body.textContent") or lang == "en"
        # No tofu: the fonts Chromium drew with have a glyph for every character shown.
        used = fonts_used(page)
        files = [f for f in (font_file(family) for family in used) if f is not None]
        assert fonts.missing_glyphs(text, files) == set(), (game, sorted(used))
        if cat.script != "Latn":
            script_family = fonts.font_for(cat.script).choice.family
            assert script_family in used, (game, sorted(used))
        if lang in NATIVE:
            assert set(text) & set(NATIVE[lang]), "numbers in the language's digits"
        # Every text the page looked up is a message of the catalogs (or a name: a city, a player).
        seen = page.evaluate("Array.from(window.companionI18n.seen)")
        unknown |= {m for m in seen if m not in english and m not in extraction.names and not m.isdigit()}
        page.context.close()
    assert sorted(unknown) == []
    assert errors == [], errors


def test_right_to_left_pages_mirror_their_layout(browser, table, artifacts):
    server, sessions = table
    sid, host_token, token = sessions["bohnanza"]
    errors: list[str] = []
    page = phone(browser, errors)
    page.goto(f"{server.base}/join/{sid}?t={token}&lang=sd")
    page.wait_for_selector("#actions .group")
    name = page.locator("#top .who strong").bounding_box()
    status = page.locator("#top .conn").bounding_box()
    # The player's name starts at the right edge; the connection badge sits at the left end of the line.
    assert status["x"] < name["x"] and name["x"] + name["width"] > PHONE["width"] * 0.6
    # Undo shares the last row with ending the turn: Undo comes last, so on the left of a right-to-left page.
    undo = page.locator("#actions button.undo").bounding_box()
    assert undo["width"] > PHONE["width"] * 0.35 and undo["x"] < PHONE["width"] * 0.2
    page.context.close()
    host = browser.new_page(viewport={"width": 1100, "height": 900})
    host.goto(f"{server.base}/host/{sid}?t={host_token}&lang=sd")
    host.wait_for_selector("#main section")
    assert host.evaluate("document.documentElement.dir") == "rtl"
    host.screenshot(path=str(artifacts / "i18n_host_bohnanza_sd.png"), full_page=True)
    host.close()
    assert errors == [], errors


def test_a_phone_can_switch_to_western_digits_and_to_another_language(browser, table):
    server, sessions = table
    sid, _host, token = sessions["power_grid"]
    errors: list[str] = []
    page = phone(browser, errors)
    page.goto(f"{server.base}/join/{sid}?t={token}&lang=bn")
    page.wait_for_selector("#actions .group")
    main = page.locator("#main")
    assert set(main.inner_text()) & set(NATIVE["bn"])
    page.locator(".settings input.digits").check()
    page.wait_for_function("!/[০-৯]/.test(document.querySelector('#main').innerText)")
    assert any(c in "0123456789" for c in main.inner_text())
    page.locator(".settings select").select_option("si")
    page.wait_for_function("document.documentElement.lang === 'si'")
    page.wait_for_selector("#actions .group")
    assert catalog("si").gettext("Your hand") in page.content() or catalog("si").gettext("Players") in page.content()
    page.context.close()
    assert errors == [], errors


def test_a_refusal_reaches_the_phone_in_its_language(browser, table):
    """The phone's toast shows a refusal's template in the page's language with its params in local digits."""
    server, sessions = table
    sid, _host, token = sessions["power_grid"]
    errors: list[str] = []
    page = phone(browser, errors)
    # Feedback goes only to the connection that sent the action, so the stale action must leave through the
    # page's own socket: keep a handle on the sockets the page opens.
    page.add_init_script("""(() => {
        const Native = window.WebSocket;
        window.__sockets = [];
        window.WebSocket = function (...args) { const ws = new Native(...args); window.__sockets.push(ws); return ws; };
        window.WebSocket.prototype = Native.prototype;
        Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
    })()""")
    page.goto(f"{server.base}/join/{sid}?t={token}&lang=bn")
    page.wait_for_selector("#actions .group")
    now = page.evaluate("""async ([sid, token]) => {
        const view = await (await fetch(`/api/sessions/${sid}/view?token=${encodeURIComponent(token)}`)).json();
        const ws = window.__sockets.find((s) => s.url.includes("/seat") && s.readyState === 1);
        ws.send(JSON.stringify({ type: "action", state_id: 0, action: view.legal[0] }));
        return view.state_id;
    }""", [sid, token])
    expected = catalog("bn").gettext("the game has moved on (you saw state {seen}, it is now {now})", seen=0, now=now)
    page.wait_for_selector("#toast .toast.error")
    assert page.locator("#toast").inner_text().strip() == expected
    assert set(expected) & set(NATIVE["bn"]) and "moved on" not in expected
    page.context.close()
    assert errors == [], errors
