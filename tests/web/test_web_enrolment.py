"""Enrolling a deck from the host page: the API walk, and the page in headless Chromium (card named with the progress,
a tag typed in, skip, undo, a tag of another card refused and re-assigned, stop and resume)."""

from __future__ import annotations

import functools

from web_helpers import ThreadServer, free_port, get

from companion.i18n import catalog
from companion.store import Store
from companion.web import Settings

A, B = "04000000000B01", "04000000000B02"


def step(client, seated, **body):
    return client.post(f"/api/host/sessions/{seated.id}/enrolment", json={"token": seated.host, **body})


def start_enrolling(browser, base: str, seated, errors: list[str], lang: str = ""):
    """The host page's Players tab at 1280×800 (in `lang`, if given), its enrolment started."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base}/host/{seated.id}?t={seated.host}{'&lang=' + lang if lang else ''}#players")
    page.locator(".enrol [data-do=start]").click()
    return page


def type_tag(page, uid: str) -> None:
    """A tag's UID typed into the enrolment panel, as a host without a controller does."""
    page.locator(".enrol .typed-tap input").fill(uid)
    page.locator(".enrol .typed-tap button").click()


def test_the_enrolment_api_walks_the_deck_and_refuses_without_changing_anything(client, new_session, db_path):
    seated = new_session("bohnanza", 3)
    assert client.get(f"/api/host/sessions/{seated.id}/enrolment?token={seated.host}").json()["enrolment"] is None
    assert step(client, seated, do="skip").status_code == 403  # nothing started
    started = step(client, seated, do="start").json()["enrolment"]
    assert started["prompt"]["text"] == "Tap Coffee Bean 1 of 24 (1 of 154)"
    # The card is sent as words too, for the page to say in its language.
    assert started["prompt"]["params"]["card"] == {"template": "{bean} {n} of {count}",
                                                   "params": {"bean": "Coffee Bean", "n": 1, "count": 24}}
    assert started["words"] == started["prompt"]["params"]["card"] and started["label"] == "Coffee Bean 1 of 24"
    said = step(client, seated, do="tap", uid=A).json()
    assert said["said"]["text"] == f"Coffee Bean 1 of 24: tag {A} enrolled"
    assert said["enrolment"]["prompt"]["text"] == "Tap Coffee Bean 2 of 24 (2 of 154)"
    conflict = step(client, seated, do="tap", uid=A).json()
    assert conflict["said"]["ok"] is False and conflict["enrolment"]["pending"]["label"] == "Coffee Bean 1 of 24"
    assert Store(db_path).tags("bohnanza") == {A: "coffee-01"}
    assert step(client, seated, do="reassign").json()["said"]["text"] == f"Tag {A} moved from Coffee Bean 1 of 24 to " \
                                                                          "Coffee Bean 2 of 24"
    assert step(client, seated, do="tap", uid="not hex").status_code == 403
    assert step(client, seated, do="launch").status_code == 400
    assert step(client, seated, do="stop").json()["enrolment"] is None
    assert Store(db_path).tags("bohnanza") == {A: "coffee-02"}, "stopping keeps what was enrolled"


def test_a_seat_token_cannot_enrol(client, new_session):
    seated = new_session("bohnanza", 3)
    answer = client.post(f"/api/host/sessions/{seated.id}/enrolment", json={"token": seated.tokens[0], "do": "start"})
    assert answer.status_code == 403


def test_the_host_page_enrols_a_deck(browser, db_path, new_session, artifacts):
    seated = new_session("power_grid", 3, names=["Ann", "Bo", "Cy"], mode="physical")
    errors: list[str] = []
    with ThreadServer(Settings(db_path=db_path, host="127.0.0.1", port=free_port())) as server:
        page = start_enrolling(browser, server.base, seated, errors)
        assert page.locator(".enrol-card").inner_text() == "Tap plant 3 (1 of 43)"
        tap = functools.partial(type_tag, page)
        tap(A)
        page.wait_for_selector(".enrol-card:text('Tap plant 4 (2 of 43)')")
        page.locator(".enrol [data-do=skip]").click()
        page.wait_for_selector(".enrol-card:text('Tap plant 5 (3 of 43)')")
        page.locator(".enrol [data-do=undo]").click()
        page.wait_for_selector(".enrol-card:text('Tap plant 4 (2 of 43)')")
        tap(A)  # plant 3's tag: refused, with the offer to move it
        page.wait_for_selector(".enrol-conflict")
        assert "already plant 3" in page.locator(".enrol-conflict").inner_text()
        page.screenshot(path=str(artifacts / "host-enrol-conflict.png"), full_page=True)
        page.locator(".enrol [data-do=reassign]").click()
        page.wait_for_selector(".enrol-card:text('Tap plant 5 (3 of 43)')")
        tap(B)
        page.wait_for_selector(".enrol-card:text('Tap plant 6 (4 of 43)')")
        page.screenshot(path=str(artifacts / "host-enrol.png"), full_page=True)
        page.reload()  # the walk is in the store: it is where it was
        page.wait_for_selector(".enrol-card:text('Tap plant 6 (4 of 43)')")
        page.set_viewport_size({"width": 360, "height": 740})
        page.locator(".enrol").screenshot(path=str(artifacts / "host-enrol-phone.png"))
        tags = get(f"{server.base}/api/host/sessions/{seated.id}/tags?token={seated.host}")["cards"]
        assert {c["card"]: c["uid"] for c in tags if c["uid"]} == {"plant-04": A, "plant-05": B}
        page.close()
    assert errors == [], errors


def test_the_host_page_names_the_cards_in_its_language(browser, db_path, new_session, artifacts):
    """An Icelandic host enrols a Bohnanza deck: the card asked for, a refusal naming the other card, and the tags
    list read in Icelandic, not in the game's English labels."""
    seated = new_session("bohnanza", 3, names=["Ann", "Bo", "Cy"], mode="physical")
    icelandic = catalog("is")

    def card(n: int) -> str:
        return icelandic.gettext("{bean} {n} of {count}", bean=icelandic.gettext("Coffee Bean"), n=n, count=24)

    assert icelandic.gettext("Coffee Bean") != "Coffee Bean"
    errors: list[str] = []
    with ThreadServer(Settings(db_path=db_path, host="127.0.0.1", port=free_port())) as server:
        page = start_enrolling(browser, server.base, seated, errors, lang="is")
        asked = page.locator(".enrol-card")
        assert asked.inner_text() == icelandic.gettext("Tap {card} ({n} of {total})", card=card(1), n=1, total=154)
        tap = functools.partial(type_tag, page)
        tap(A)  # enrolled on card 1; the page then asks for card 2 (its panel drawn anew)
        asked_next = icelandic.gettext("Tap {card} ({n} of {total})", card=card(2), n=2, total=154)
        page.wait_for_selector(f".enrol-card:text('{asked_next}')")
        tap(A)  # the same tag for card 2: refused, naming card 1
        page.wait_for_selector(".enrol-conflict")
        conflict = page.locator(".enrol-conflict").inner_text()
        assert card(1) in conflict and card(2) in conflict and "Coffee Bean" not in conflict
        page.screenshot(path=str(artifacts / "host-enrol-icelandic.png"), full_page=True)
        # The tags panel's card list (filled once its request returns) names the cards in Icelandic too.
        tag_cards = page.locator(f"select[aria-label='{icelandic.gettext('Card')}'] option")
        page.wait_for_selector(f"select[aria-label='{icelandic.gettext('Card')}'] option", state="attached")
        options = tag_cards.all_inner_texts()
        assert card(1) in options and not any("Coffee Bean" in o for o in options)
        page.close()
    assert errors == [], errors
