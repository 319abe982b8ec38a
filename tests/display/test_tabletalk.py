"""The display's checklist of board jobs, the sentence of who acts now, and the join codes of seats without a phone."""

from __future__ import annotations

import re

import pygame
import pytest
from test_render import envelope_for_lobby, load_model

from display.app import render_image
from display.model import DisplayModel
from display.render.layout import SIZES
from display.render.tabletalk import jobs_layout

GAMES = ("power_grid_building", "bohnanza_trading", "shifting_stones_play")

# Jobs of every length a game gives: short ("Move 2 coal"), long (a resupply of four resources), one per player.
JOB_TEXTS = (
    ("Put {count} coal on the market", {"count": 3}),
    ("{player}: put a house in {city}", {"player": 2, "city": "Frankfurt-Main"}),
    ("Resupply: 5 coal, 3 oil, 4 garbage and 1 uranium from the supply onto the market, the dearest spaces first",
     {}),
    ("Give plant {plant} to {player}", {"plant": 13, "player": 0}),
    ("Move the turn-order markers: {order}", {"order": [2, 0, 1]}),
    ("{player}: take {count} coins from the bank", {"player": 1, "count": 4}),
)


def jobs(count: int, done: set[int] = frozenset()) -> list[dict]:  # type: ignore[assignment]
    out = []
    for i in range(count):
        template, params = JOB_TEXTS[i % len(JOB_TEXTS)]
        out.append({"id": f"{i + 1}-1", "text": template, "template": template, "params": params, "done": i in done})
    return out


def with_jobs(name: str, count: int, done: set[int] = frozenset(), now: str = "{player}: your move"):  # type: ignore[assignment]
    model = load_model(name)
    env = dict(model.envelope or {})
    env["board_jobs"] = jobs(count, done)
    env["now"] = {"text": now, "template": now, "params": {"player": 0}, "acting": [0]}
    model.set_envelope(env)
    return model


def jobs_panel(screen):
    return next(p for p in screen.stack.top.panels(screen.ctx) if p.name == "jobs")


def drawn_jobs(model: DisplayModel, size: tuple[int, int]) -> tuple[list[str], int, list[str]]:
    """Every page of the checklist drawn: the job lines seen, how many pages, and all text drawn."""
    model.jobs_page = 0
    seen: list[str] = []
    texts: list[str] = []
    _surface, screen = render_image(model, size)
    pages = jobs_layout(screen.ctx, jobs_panel(screen).rect, model.board_jobs(), 0).pages
    for page in range(pages):
        model.jobs_page = page
        screen.painter.drawn.clear()
        screen.render(force=True)
        assert [o.text for o in screen.painter.overflows] == [], (size, page)
        lay = jobs_layout(screen.ctx, jobs_panel(screen).rect, model.board_jobs(), page)
        seen += [" ".join(row.lines) for row in lay.rows]
        texts += screen.painter.drawn
    return seen, pages, texts


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("name", GAMES)
def test_every_open_job_is_shown_whole_on_some_page_with_how_many_are_left(name, size, artifacts):
    model = with_jobs(name, 14)
    seen, pages, texts = drawn_jobs(model, size)
    expected = [j["text"] for j in model.board_jobs()]
    assert sorted(seen) == sorted(expected)  # every job, each whole (wrapped, never cut)
    assert "On the board: 14 left" in texts
    if pages > 1:
        assert any(t.startswith(f"Page {pages} of {pages}") for t in texts)
    model.jobs_page = 0
    surface, _screen = render_image(model, size)
    pygame.image.save(surface, str(artifacts / f"display_jobs_{name}_{size[0]}x{size[1]}.png"))


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_jobs_stay_across_actions_until_ticked_and_then_show_as_done(size, artifacts):
    model = with_jobs("power_grid_building", 3)
    for step in range(4):  # several actions later the same jobs are still listed, still open
        env = dict(model.envelope or {})
        env["state_id"] = int(env["state_id"]) + 1
        env["log"] = [*env["log"], {"template": "{player} passed", "args": {"player": step % 3}, "text": ""}]
        model.set_envelope(env)
        seen, _pages, texts = drawn_jobs(model, size)
        assert "On the board: 3 left" in texts and len(seen) == 3
    env = dict(model.envelope or {})
    env["board_jobs"] = jobs(3, done={1})
    model.set_envelope(env)
    seen, _pages, texts = drawn_jobs(model, size)
    assert "On the board: 2 left" in texts and len(seen) == 3
    # Open jobs first, the ticked one last.
    surface, screen = render_image(model, size)
    lay = jobs_layout(screen.ctx, jobs_panel(screen).rect, model.board_jobs(), 0)
    assert [r.done for r in lay.rows] == [False, False, True]
    pygame.image.save(surface, str(artifacts / f"display_jobs_ticked_{size[0]}x{size[1]}.png"))


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_tap_on_an_open_job_ticks_it_and_a_tap_on_the_page_line_turns_the_page(size):
    model = with_jobs("bohnanza_trading", 20, done={0})
    _surface, screen = render_image(model, size)
    lay = jobs_layout(screen.ctx, jobs_panel(screen).rect, model.board_jobs(), 0)
    first = lay.rows[0]
    x, y, w, h = first.rect
    tap = pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(x + w // 2, y + h // 2))
    assert screen.stack.top.handle(tap, screen.ctx) == [("job_done", first.job)]
    assert first.job == "2-1"  # the open jobs come first; job 1 was already done
    assert lay.more is not None
    mx, my, mw, mh = lay.more
    tap = pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(mx + mw // 2, my + mh // 2))
    assert screen.stack.top.handle(tap, screen.ctx) == [("jobs_page", lay.pages)]


def test_the_sentence_of_who_acts_now_is_drawn_whole_at_every_size():
    long = ("{player}: bid on plant 13 or pass (hold your button); everyone else waits for the auction to come round "
            "to them")
    for size in SIZES:
        model = with_jobs("power_grid_auction", 2, now=long)
        _surface, screen = render_image(model, size)
        assert [o.text for o in screen.painter.overflows] == []
        text = " ".join(screen.painter.drawn)
        assert "bid on plant 13 or pass" in text and "to come round" in text


def test_join_codes_appear_for_seats_without_a_phone_and_go_when_they_join(artifacts):
    model = with_jobs("shifting_stones_play", 2)
    model.set_join_codes([{"seat": s, "name": p["name"], "url": f"http://companion.local:8765/join/1?t=tok{s}"}
                          for s, p in enumerate(model.players())])
    model.set_network({"wifi": {"ssid": "Table", "payload": "WIFI:T:WPA;S:Table;P:beans and stones;;"}})
    model.set_phones([0])
    for size in SIZES:
        surface, screen = render_image(model, size)
        names = [p.name for p in screen.stack.top.panels(screen.ctx)]
        assert "joinstrip" in names and "jobs" in names
        assert [o.text for o in screen.painter.overflows] == []
        assert "No phone yet? Scan your code" in screen.painter.drawn
        pygame.image.save(surface, str(artifacts / f"display_join_strip_{size[0]}x{size[1]}.png"))
    model.set_phones(range(len(model.players())))
    _surface, screen = render_image(model, (1280, 720))
    assert "joinstrip" not in [p.name for p in screen.stack.top.panels(screen.ctx)]


def test_the_lobby_shows_the_wifi_code_beside_the_join_codes(artifacts):
    model = DisplayModel()
    model.set_envelope(envelope_for_lobby())
    model.set_join_codes([{"seat": s, "name": n, "url": f"http://companion.local:8765/join/1?t=token{s}"}
                          for s, n in enumerate(("Ada", "Ben", "Cleo"))])
    model.set_network({"wifi": {"ssid": "Games night", "payload": "WIFI:T:WPA;S:Games night;P:secret;;"}})
    for size in SIZES:
        surface, screen = render_image(model, size)
        assert "Wi-Fi: Games night" in screen.painter.drawn
        assert [o.text for o in screen.painter.overflows] == []
        pygame.image.save(surface, str(artifacts / f"display_lobby_wifi_{size[0]}x{size[1]}.png"))


ZERO_BASED = re.compile(r"\b(seat|player|Seat|Player)\s+0\b")


@pytest.mark.parametrize("name", ["power_grid_building", "power_grid_summary", "bohnanza_trading",
                                  "bohnanza_summary", "shifting_stones_play", "shifting_stones_summary"])
def test_no_text_on_the_display_names_a_seat_from_zero(name):
    model = with_jobs(name, 6)
    model.set_join_codes([{"seat": s, "name": p["name"], "url": f"http://x/join/1?t={s}"}
                          for s, p in enumerate(model.players())])
    model.set_phones([])
    for size in SIZES:
        _surface, screen = render_image(model, size)
        bad = [t for t in screen.painter.drawn if ZERO_BASED.search(t)]
        assert bad == [], bad
        # A seat shown by number is 1-based: the badge of the first seat reads "1  <name>".
        first = model.player_name(0)
        assert not any(t.startswith(f"0  {first}") for t in screen.painter.drawn)
