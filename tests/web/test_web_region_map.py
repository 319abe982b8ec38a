"""Power Grid's regions on the host page's small map, in headless Chromium: coloured cities, the proposal marked,
a tap on a region toggles it, and the chosen regions start the game."""

from __future__ import annotations

from web_helpers import ThreadServer, free_port, get

from companion.web import Settings


def test_the_host_chooses_regions_on_a_small_map(browser, db_path, new_session, artifacts):
    seated = new_session("power_grid", 3, names=["Ann", "Bo", "Cy"])
    errors: list[str] = []
    with ThreadServer(Settings(db_path=db_path, host="127.0.0.1", port=free_port())) as server:
        info = get(f"{server.base}/api/host/sessions/{seated.id}/regions?token={seated.host}")
        assert len(info["cities"]) == 42 and {c["region"] for c in info["cities"]} == {r["id"] for r in info["regions"]}
        proposal = info["proposal"]
        assert len(proposal) == info["count"] == 3
        for size, name in (({"width": 1280, "height": 800}, "laptop"), ({"width": 360, "height": 740}, "phone")):
            page = browser.new_page(viewport=size)
            page.set_default_timeout(10_000)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{server.base}/host/{seated.id}?t={seated.host}")
            page.wait_for_selector(".region-map .region")
            regions = page.locator(".region-map .region")
            assert regions.count() == 6
            on = {regions.nth(i).get_attribute("data-region") for i in range(6)
                  if regions.nth(i).get_attribute("aria-pressed") == "true"}
            marked = {regions.nth(i).get_attribute("data-region") for i in range(6)
                      if "proposal" in (regions.nth(i).get_attribute("class") or "")}
            assert on == marked == set(proposal), "the proposal is chosen and marked at first"
            assert page.locator(".region-map .region.proposal .region-name").first.text_content().startswith("★")
            page.locator(".region-map").screenshot(path=str(artifacts / f"region-map-{name}.png"))
            page.screenshot(path=str(artifacts / f"region-map-{name}-page.png"), full_page=True)
            page.close()

        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.base}/host/{seated.id}?t={seated.host}")
        page.wait_for_selector(".region-map .region")
        go = page.locator(".moves-panel .regions button.act.primary")
        first = proposal[0]
        page.locator(f".region-map .region[data-region='{first}']").click()  # a tap takes it off
        assert page.locator(f".region-map .region[data-region='{first}']").get_attribute("aria-pressed") == "false"
        assert page.locator(f".region-chips [data-region='{first}']").get_attribute("aria-pressed") == "false"
        assert go.is_disabled()
        page.locator(f".region-map .region[data-region='{first}']").click()  # and back on
        assert not go.is_disabled()
        go.click()
        page.wait_for_selector("body[data-state-id='1']")
        public = get(f"{server.base}/api/sessions/{seated.id}/public")
        assert sorted(public["view"]["regions"]) == sorted(proposal)
        page.close()
    assert errors == [], errors
