"""Hostile player names in headless Chromium: HTML stays text, a right-to-left override turns nothing around it,
and a 40-letter word wraps instead of scrolling a 360-pixel page sideways (phone, host page, lobby)."""

from __future__ import annotations

import json
import shutil
import urllib.request

import pytest
from web_helpers import CHROMIUM, PHONE, ThreadServer, free_port

from companion.store import Session, Store
from companion.web import Settings

playwright = pytest.importorskip("playwright.sync_api")

NAMES = ['<img src=x onerror=alert(1)>Ann', "\u202eBob live", "W" * 40]

pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="Debian's chromium is not installed")

# Every text node holding a name's override must be isolated: inside <bdi> (or an element styled
# unicode-bidi: isolate), or between FSI and PDI in the text itself. Returns the offending texts.
UNISOLATED = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue;
    const at = text.indexOf("\\u202e");
    if (at < 0) continue;
    let isolated = text.lastIndexOf("\\u2068", at) >= 0 && text.indexOf("\\u2069", at) > at;
    for (let el = node.parentElement; el && !isolated; el = el.parentElement) {
      if (getComputedStyle(el).unicodeBidi === "isolate") isolated = true;
    }
    if (!isolated) out.push(text);
  }
  return out;
}"""
SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def open_page(browser, url: str, errors: list[str], viewport: dict[str, int] = PHONE):
    page = browser.new_page(viewport=viewport)
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: errors.append(f"a dialog opened: {dialog.message}"))
    page.on("request", lambda request: errors.append(f"request {request.url}")
            if "/x" in request.url.rsplit("?", 1)[0][-2:] else None)
    page.goto(url)
    return page


def check_page(page, errors: list[str]) -> None:
    assert page.locator("img[src=x]").count() == 0, "a name became HTML"
    assert page.title() != "1", "a name's script ran"
    assert page.evaluate(UNISOLATED) == [], "a name with a right-to-left override is not isolated"
    assert page.evaluate(SIDEWAYS) <= 0, "the page scrolls sideways"
    assert errors == [], errors


def test_hostile_names_on_the_phone_the_host_page_and_the_lobby(browser, db_path, artifacts):
    store = Store(db_path)
    session = Session.create(store, "bohnanza", 3, seed=4, names=NAMES)
    tokens = [r.token for r in store.seats(session.id)]
    sid, host = session.id, session.host_token
    # A log line naming each player: the first plants, so the ticker names the active player.
    active = session.game.current_seats(session.state)[0]
    session.submit(session.legal_actions(active)[0], active)
    store.close()
    settings = Settings(db_path=db_path, host="127.0.0.1", port=free_port(), server_token="lobby-token")
    errors: list[str] = []
    with ThreadServer(settings) as server:
        for seat in range(3):
            page = open_page(browser, f"{server.base}/join/{sid}?t={tokens[seat]}", errors)
            page.wait_for_selector("body[data-state-id='1']")
            page.wait_for_timeout(300)
            body = page.locator("body").inner_text()
            assert "W" * 40 in body.replace("\n", "") or seat != 2
            check_page(page, errors)
            page.screenshot(path=str(artifacts / f"hostile-names-phone-{seat}.png"), full_page=True)
            page.close()
        page = open_page(browser, f"{server.base}/host/{sid}?t={host}", errors)
        page.wait_for_selector("body[data-state-id='1']")
        page.wait_for_timeout(300)
        check_page(page, errors)
        page.screenshot(path=str(artifacts / "hostile-names-host.png"), full_page=True)
        page.close()
        page = open_page(browser, f"{server.base}/host?t=lobby-token", errors)
        page.wait_for_selector("form.new-game")
        page.get_by_text("W" * 40, exact=False).first.wait_for()
        check_page(page, errors)
        assert page.locator(".seat-row input[type=text]").first.get_attribute("maxlength") == "40"
        page.screenshot(path=str(artifacts / "hostile-names-lobby.png"), full_page=True)
        page.close()
        # The API refuses what the pages would never send: a 41-letter name.
        request = urllib.request.Request(
            f"{server.base}/api/host/sessions/{sid}/seats/0", method="PATCH",
            data=json.dumps({"token": host, "name": "W" * 41}).encode(), headers={"content-type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        assert refused.value.code == 400
