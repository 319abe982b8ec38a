"""The one look: the pages and the table display draw every stone, bean and resource from the same SVG source."""

from __future__ import annotations

import io
import os

import pygame
import pytest
from fastapi.testclient import TestClient

from companion import pictograms
from companion.games.bohnanza.beans import BEANS
from companion.games.power_grid.data import MAPS, RESOURCES
from companion.games.shifting_stones.patterns import FACES
from companion.pictograms import maps
from display.render import bohnanza as display_bohnanza
from display.render import stones as display_stones
from display.render.pictograms import pictogram_surface

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
EVERY_THING = ([("stone", f) for f in FACES] + [("bean", b) for b in BEANS]
               + [("resource", r) for r in RESOURCES])


def test_every_stone_bean_and_resource_of_the_rules_has_a_pictogram_and_a_name():
    for kind, name in EVERY_THING:
        assert pictograms.svg(kind, name).startswith("<svg"), (kind, name)
        assert pictograms.label(kind, name) and "_" not in pictograms.label(kind, name)
    assert pictograms.label("bean", "black_eyed") == "Black-eyed Bean"


@pytest.mark.parametrize("kind,name", EVERY_THING)
def test_the_pages_are_served_the_same_svg_the_display_rasterises(client: TestClient, kind, name):
    reply = client.get(f"/pictograms/{kind}/{name}.svg")
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("image/svg+xml")
    assert reply.text == pictograms.svg(kind, name)
    served = pygame.image.load_sized_svg(io.BytesIO(reply.content), (48, 48))
    shown = pictogram_surface(kind, name, 48)
    assert shown is not None
    assert pygame.image.tobytes(served, "RGBA") == pygame.image.tobytes(shown, "RGBA")
    manifest = client.get(f"/look/{'shifting_stones' if kind == 'stone' else 'bohnanza'}.json").json()
    assert manifest["pictograms"][kind][name]["src"] == f"/pictograms/{kind}/{name}.svg"


def test_the_display_takes_its_colours_from_the_shared_source():
    assert display_stones.FACE_COLOURS == pictograms.STONE_COLOURS
    assert display_bohnanza.BEAN_COLOURS == pictograms.BEAN_COLOURS


def _masks(kind: str, name: str) -> tuple[set[int], set[int]]:
    """Where the picture is (its outline) and where its dark ink is (lines and marks): both ignore colour."""
    surface = pictogram_surface(kind, name, 40)
    assert surface is not None
    rgba = pygame.image.tobytes(surface, "RGBA")
    shape = {i for i in range(len(rgba) // 4) if rgba[4 * i + 3] > 128}
    ink = {i for i in shape if sum(rgba[4 * i:4 * i + 3]) < 150}
    return shape, ink


def _overlap(a: set[int], b: set[int]) -> float:
    return len(a & b) / max(1, len(a | b))


@pytest.mark.parametrize("kind", ["stone", "bean", "resource", "plant"])
def test_the_pictograms_of_a_set_differ_in_shape_not_only_in_colour(kind):
    masks = {name: _masks(kind, name) for name in pictograms.names(kind)}
    for a in masks:
        for b in masks:
            if a < b:
                same_outline = _overlap(masks[a][0], masks[b][0])
                same_ink = _overlap(masks[a][1], masks[b][1])
                assert min(same_outline, same_ink) < 0.8, f"{kind} {a} and {b} look alike without colour"


def test_a_house_in_a_players_colour_and_bad_requests(client: TestClient):
    assert 'fill="#d62728"' in client.get("/pictograms/city/house.svg?fill=%23D62728").text
    assert client.get("/pictograms/city/house.svg?fill=red").status_code == 400
    assert client.get("/pictograms/stone/dragon.svg").status_code == 404
    assert client.get("/look/Not-A-Game.json").status_code == 404


def test_the_phone_map_names_cities_as_printed_and_places_every_one():
    germany = maps.board("germany")
    assert germany is not None
    names = {c["id"]: c["name"] for c in germany["cities"]}
    assert names["frankfurtm"] == "Frankfurt-M" and names["koln"] == "Köln" and names["dusseldorf"] == "Düsseldorf"
    for m in MAPS:
        board = maps.board(m)
        assert board is not None
        assert all(0 <= c["x"] <= 1 and 0 <= c["y"] <= 1 for c in board["cities"])
        ids = {c["id"] for c in board["cities"]}
        assert all(a in ids and b in ids for a, b, _cost in board["connections"])


def test_the_short_bean_names_are_one_list_for_the_display_and_the_pages(client: TestClient):
    # The display's cards and fields and the phones' trade keypad write the same short names.
    assert pictograms.SHORT_LABELS["bean"] == display_bohnanza.BEAN_NAMES
    served = client.get("/look/bohnanza.json").json()["pictograms"]["bean"]
    assert {b: served[b]["short"] for b in BEANS} == {b: pictograms.short_label("bean", b) for b in BEANS}
    assert all(served[b]["short"] != served[b]["label"] for b in BEANS)
