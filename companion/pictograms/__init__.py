"""The one look of each game's things: stones, beans, resources, plants and cities as SVG pictograms.

Every picture is drawn here once, in a 100×100 view box, with its own shape (so it reads without colour) and a
colour after the printed piece. The phone and host pages load them from `/pictograms/<set>/<name>.svg`, and the
table display rasterises the very same SVG text with pygame (SDL_image). No picture carries text: its name is
always written beside it, in the reader's language, by whoever shows it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache

Colour = tuple[int, int, int]
INK = "#1e1e22"


def N_(text: str) -> str:
    """Marks an English name for the message catalogs (the pages and the display translate it when shown)."""
    return text


# Colour-blind-safe colours for the stones (Okabe–Ito), kept apart in lightness; the shapes carry the meaning.
STONE_COLOURS: dict[str, Colour] = {
    "sun": (240, 196, 25), "moon": (120, 132, 150), "fish": (230, 159, 0), "bird": (213, 94, 0),
    "horse": (204, 121, 167), "boat": (0, 114, 178), "seed": (150, 100, 50), "tree": (0, 158, 115),
}
# After the printed bean cards.
BEAN_COLOURS: dict[str, Colour] = {
    "coffee": (111, 78, 55), "wax": (236, 200, 70), "blue": (70, 120, 200), "chili": (200, 40, 40),
    "stink": (128, 128, 60), "green": (70, 160, 70), "soy": (214, 190, 140), "black_eyed": (235, 235, 225),
    "red": (150, 30, 50), "garden": (160, 210, 120), "cocoa": (80, 50, 35),
}
# After the wooden resource tokens of Power Grid.
RESOURCE_COLOURS: dict[str, Colour] = {
    "coal": (139, 90, 43), "oil": (40, 40, 40), "garbage": (230, 190, 40), "uranium": (200, 30, 30),
}
# A plant card's kind: what it burns (hybrids burn coal or oil), or nothing (ecological).
PLANT_COLOURS: dict[str, Colour] = {
    "coal": (139, 90, 43), "oil": (60, 60, 60), "hybrid": (110, 75, 50), "garbage": (200, 165, 30),
    "uranium": (200, 30, 30), "ecological": (60, 150, 70),
}
# The English names (message ids); pages and the display translate them.
LABELS: dict[str, dict[str, str]] = {
    "stone": {"sun": N_("Sun"), "moon": N_("Moon"), "fish": N_("Fish"), "bird": N_("Bird"), "horse": N_("Horse"),
              "boat": N_("Boat"), "seed": N_("Seed"), "tree": N_("Tree")},
    "bean": {"coffee": N_("Coffee Bean"), "wax": N_("Wax Bean"), "blue": N_("Blue Bean"),
             "chili": N_("Chili Bean"), "stink": N_("Stink Bean"), "green": N_("Green Bean"),
             "soy": N_("Soy Bean"), "black_eyed": N_("Black-eyed Bean"), "red": N_("Red Bean"),
             "garden": N_("Garden Bean"), "cocoa": N_("Cocoa Bean")},
    "resource": {"coal": N_("Coal"), "oil": N_("Oil"), "garbage": N_("Garbage"), "uranium": N_("Uranium")},
    "plant": {"coal": N_("Coal plant"), "oil": N_("Oil plant"), "hybrid": N_("Hybrid plant"),
              "garbage": N_("Garbage plant"), "uranium": N_("Uranium plant"), "ecological": N_("Ecological plant")},
    "city": {"city": N_("City"), "house": N_("House")},
}
# Shorter names where room is tight (the display's cards and fields, the phones' trade chips): "Stink", not
# "Stink Bean"; the colour and the picture already say it is a bean.
SHORT_LABELS: dict[str, dict[str, str]] = {
    "bean": {"coffee": N_("Coffee"), "wax": N_("Wax"), "blue": N_("Blue"), "chili": N_("Chili"), "stink": N_("Stink"),
             "green": N_("Green"), "soy": N_("Soy"), "black_eyed": N_("Black-eyed"), "red": N_("Red"),
             "garden": N_("Garden"), "cocoa": N_("Cocoa")},
}


def hex_colour(colour: Colour) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _mix(colour: Colour, other: Colour, amount: float) -> str:
    r, g, b = (round(a + (b - a) * amount) for a, b in zip(colour, other))
    return hex_colour((r, g, b))


def _pts(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _poly(points: Sequence[tuple[float, float]], fill: str, edge: float = 3) -> str:
    return (f'<polygon points="{_pts(points)}" fill="{fill}" stroke="{INK}" stroke-width="{edge}" '
            'stroke-linejoin="round"/>')


def _circle(cx: float, cy: float, r: float, fill: str, edge: float = 3) -> str:
    return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}" stroke="{INK}" stroke-width="{edge}"/>'


def _ellipse(cx: float, cy: float, rx: float, ry: float, fill: str, edge: float = 3, turn: float = 0) -> str:
    rotate = f' transform="rotate({turn:.0f} {cx:.1f} {cy:.1f})"' if turn else ""
    return (f'<ellipse cx="{cx:.1f}" cy="{cy:.1f}" rx="{rx:.1f}" ry="{ry:.1f}" fill="{fill}" stroke="{INK}" '
            f'stroke-width="{edge}"{rotate}/>')


def _path(d: str, fill: str = "none", edge: float = 3, stroke: str = INK) -> str:
    return (f'<path d="{d}" fill="{fill}" stroke="{stroke}" stroke-width="{edge}" stroke-linejoin="round" '
            f'stroke-linecap="round"/>')


def _arc(cx: float, cy: float, r: float, start: float, stop: float, steps: int) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(math.radians(start + (stop - start) * i / (steps - 1))),
             cy + r * math.sin(math.radians(start + (stop - start) * i / (steps - 1)))) for i in range(steps)]


# -- Shifting Stones ---------------------------------------------------------------------------------------
def _sun(c: Colour) -> str:
    rays = [(50 + (46 if k % 2 == 0 else 30) * math.cos(math.pi * k / 8),
             50 + (46 if k % 2 == 0 else 30) * math.sin(math.pi * k / 8)) for k in range(16)]
    return _poly(rays, hex_colour(c)) + _circle(50, 50, 22, _mix(c, (255, 255, 255), 0.4))


def _moon(c: Colour) -> str:
    outer = _arc(50, 50, 44, 60, 300, 25)
    inner = _arc(70, 48, 36, 250, 110, 21)
    return _poly(outer + inner, hex_colour(c))


def _fish(c: Colour) -> str:
    tail = [(66, 50), (96, 24), (96, 76)]
    return (_poly(tail, hex_colour(c)) + _ellipse(38, 50, 34, 24, hex_colour(c))
            + f'<circle cx="22" cy="44" r="5" fill="{INK}"/>')


def _bird(c: Colour) -> str:
    wings = [(4, 26), (50, 56), (96, 26), (86, 52), (50, 82), (14, 52)]
    beak = [(43, 62), (57, 62), (50, 80)]
    return _poly(wings, hex_colour(c)) + _circle(50, 52, 14, hex_colour(c)) + _poly(beak, "#fac83c", 2)


def _horse(c: Colour) -> str:
    pts = [(32, 100), (40, 66), (12, 64), (0, 52), (4, 40), (30, 16), (36, 0), (46, 12), (62, 8), (88, 32), (100, 100)]
    mane = _path("M62,8 L88,32 L98,96", edge=9, stroke=_mix(c, (0, 0, 0), 0.45))
    return (_poly([(4 + x * 0.92, 4 + y * 0.92) for x, y in pts], hex_colour(c)) + mane
            + f'<circle cx="37" cy="31" r="5" fill="{INK}"/>')


def _boat(c: Colour) -> str:
    hull = [(2, 70), (98, 70), (80, 96), (20, 96)]
    sail = _mix(c, (255, 255, 255), 0.55)
    return (_path("M50,4 L50,70", edge=4) + _poly([(55, 8), (55, 62), (94, 62)], sail)
            + _poly([(45, 22), (45, 62), (12, 62)], sail) + _poly(hull, hex_colour(c)))


def _seed(c: Colour) -> str:
    # An almond seed pointed at the top, with a sprout curling from it.
    return (_path("M50,22 C72,40 76,70 66,86 C58,98 42,98 34,86 C24,70 28,40 50,22 Z", hex_colour(c))
            + _path("M50,22 C50,8 62,2 74,6", edge=6, stroke="#00783c"))


def _tree(c: Colour) -> str:
    tiers = [(0, 45, 30), (20, 62, 40), (38, 80, 50)]
    out = f'<rect x="42" y="75" width="16" height="24" fill="#6e4628" stroke="{INK}" stroke-width="3"/>'
    for k, (top, bottom, half) in enumerate(tiers):
        out += _poly([(50, top + 2), (50 + half * 0.96, bottom), (50 - half * 0.96, bottom)],
                     _mix(c, (0, 0, 0), 0.1 * k))
    return out


# -- Bohnanza ---------------------------------------------------------------------------------------------
_BEAN = "M30,20 C46,6 74,10 80,32 C86,54 76,84 52,90 C32,94 18,82 24,64 C28,52 40,50 38,40 C36,32 22,30 30,20 Z"


def _bean(c: Colour, mark: str) -> str:
    return _path(_BEAN, hex_colour(c)) + mark


def _coffee(c: Colour) -> str:
    return _ellipse(50, 50, 30, 42, hex_colour(c), turn=20) + _path("M44,12 C60,36 40,64 56,88", edge=5)


def _wax(c: Colour) -> str:
    # A curved yellow pod like a banana, striped along its length.
    return (_path("M8,30 C20,80 70,96 94,70 C70,80 34,66 22,22 C18,14 10,18 8,30 Z", hex_colour(c))
            + _path("M20,40 C32,70 58,82 80,80", edge=3))


def _blue(c: Colour) -> str:
    # A wide oval bean lying down, with a water drop on it.
    return (_ellipse(50, 58, 44, 28, hex_colour(c))
            + _path("M50,40 C58,52 62,60 56,68 C52,72 46,72 44,68 C38,60 42,52 50,40 Z", "#ffffff", 2))


def _chili(c: Colour) -> str:
    return (_path("M26,24 C40,30 54,46 66,66 C74,80 86,92 94,94 C70,98 46,86 32,66 C22,52 18,36 26,24 Z",
                  hex_colour(c))
            + _path("M26,24 C22,14 28,6 38,6", edge=6, stroke="#2e7d32"))


def _stink(c: Colour) -> str:
    waves = "".join(_path(f"M{x},30 C{x - 6},22 {x + 6},16 {x},6", edge=4) for x in (38, 54, 70))
    return _ellipse(52, 66, 34, 24, hex_colour(c)) + waves + f'<circle cx="42" cy="62" r="4" fill="{INK}"/>' \
        + f'<circle cx="62" cy="62" r="4" fill="{INK}"/>'


def _green(c: Colour) -> str:
    # A straight green pod with three peas showing.
    return (_path("M6,60 C20,36 80,24 96,36 C84,58 26,76 6,60 Z", hex_colour(c))
            + "".join(_circle(x, y, 8, _mix(c, (255, 255, 255), 0.35), 2) for x, y in ((30, 54), (52, 47), (74, 40))))


def _soy(c: Colour) -> str:
    # Three round beans in a cluster.
    fill = hex_colour(c)
    return _circle(32, 62, 22, fill) + _circle(68, 62, 22, fill) + _circle(50, 30, 22, fill)


def _black_eyed(c: Colour) -> str:
    return _path(_BEAN, hex_colour(c)) + _ellipse(56, 48, 13, 9, INK, 2, turn=-40) \
        + _circle(56, 48, 4, "#ffffff", 0)


def _red(c: Colour) -> str:
    # A kidney bean with a heart on it.
    return _bean(c, _path("M50,72 C30,58 34,40 46,44 C50,46 50,50 50,50 C50,50 52,44 58,44 C68,44 68,60 50,72 Z",
                          "#ffd6dc", 2))


def _garden(c: Colour) -> str:
    leaf = _path("M50,50 C62,24 84,14 96,12 C92,32 78,52 50,50 Z", "#2e7d32", 2)
    return _ellipse(40, 64, 30, 22, hex_colour(c)) + leaf


def _cocoa(c: Colour) -> str:
    # A cocoa pod: pointed at both ends, deeply ridged.
    ridges = _path("M50,6 C36,30 36,70 50,94 M50,6 C64,30 64,70 50,94 M50,6 L50,94", edge=3,
                   stroke=_mix(c, (255, 255, 255), 0.5))
    return _path("M50,4 C84,24 84,76 50,96 C16,76 16,24 50,4 Z", hex_colour(c)) + ridges


# -- Power Grid -------------------------------------------------------------------------------------------
def _coal(c: Colour) -> str:
    # A cube.
    return (_poly([(50, 8), (90, 28), (50, 48), (10, 28)], _mix(c, (255, 255, 255), 0.25))
            + _poly([(10, 28), (50, 48), (50, 94), (10, 74)], hex_colour(c))
            + _poly([(90, 28), (50, 48), (50, 94), (90, 74)], _mix(c, (0, 0, 0), 0.3)))


def _oil(c: Colour) -> str:
    # A barrel with two hoops.
    body = f'<rect x="20" y="8" width="60" height="84" rx="12" fill="{hex_colour(c)}" stroke="{INK}" stroke-width="3"/>'
    hoops = _path("M20,34 L80,34 M20,66 L80,66", edge=5, stroke="#b4b4b4")
    return body + hoops


def _garbage(c: Colour) -> str:
    # A dustbin with a lid.
    return (_poly([(20, 28), (80, 28), (72, 94), (28, 94)], hex_colour(c))
            + f'<rect x="12" y="16" width="76" height="12" rx="3" fill="{hex_colour(c)}" stroke="{INK}" '
            'stroke-width="3"/>'
            + _path("M40,10 L60,10 M38,40 L42,84 M50,40 L50,84 M62,40 L58,84", edge=4))


def _uranium(c: Colour) -> str:
    # The trefoil.
    blades = ""
    for start in (-90, 30, 150):
        a, b = start - 30, start + 30
        outer = _arc(50, 50, 44, a, b, 8)
        inner = _arc(50, 50, 14, b, a, 5)
        blades += _poly(outer + inner, hex_colour(c), 2)
    return _circle(50, 50, 48, "#ffe14d", 3) + blades + _circle(50, 50, 9, hex_colour(c), 2)


def _wind(c: Colour) -> str:
    # A wind turbine (the ecological plants).
    blades = "".join(_poly([(50, 36), (50 + 42 * math.cos(math.radians(a)), 36 + 42 * math.sin(math.radians(a))),
                            (50 + 10 * math.cos(math.radians(a + 40)), 36 + 10 * math.sin(math.radians(a + 40)))],
                           hex_colour(c), 2) for a in (-90, 30, 150))
    return _poly([(46, 40), (54, 40), (58, 98), (42, 98)], "#dcdcdc", 2) + blades + _circle(50, 36, 6, "#ffffff", 2)


def _hybrid(c: Colour) -> str:
    # Half a cube, half a barrel: burns either.
    return (_poly([(6, 30), (46, 30), (46, 90), (6, 90)], hex_colour(RESOURCE_COLOURS["coal"]))
            + f'<rect x="54" y="20" width="40" height="70" rx="9" fill="{hex_colour(RESOURCE_COLOURS["oil"])}" '
            f'stroke="{INK}" stroke-width="3"/>' + _path("M54,44 L94,44 M54,66 L94,66", edge=4, stroke="#b4b4b4"))


def _house(c: Colour) -> str:
    return _poly([(50, 6), (94, 44), (84, 44), (84, 94), (16, 94), (16, 44), (6, 44)], hex_colour(c)) + \
        f'<rect x="40" y="62" width="20" height="32" fill="{INK}"/>'


def _city(c: Colour) -> str:
    fill = hex_colour(c)
    return (_poly([(8, 94), (8, 40), (28, 24), (48, 40), (48, 94)], fill)
            + _poly([(52, 94), (52, 16), (92, 16), (92, 94)], fill)
            + _path("M62,30 L70,30 M78,30 L84,30 M62,48 L70,48 M78,48 L84,48 M62,66 L70,66 M78,66 L84,66 "
                    "M22,58 L34,58 M22,74 L34,74", edge=5))


_Drawer = Callable[[Colour], str]
_DRAWERS: dict[str, dict[str, tuple[_Drawer, Colour]]] = {
    "stone": {name: (fn, STONE_COLOURS[name]) for name, fn in (
        ("sun", _sun), ("moon", _moon), ("fish", _fish), ("bird", _bird), ("horse", _horse), ("boat", _boat),
        ("seed", _seed), ("tree", _tree))},
    "bean": {name: (fn, BEAN_COLOURS[name]) for name, fn in (
        ("coffee", _coffee), ("wax", _wax), ("blue", _blue), ("chili", _chili), ("stink", _stink), ("green", _green),
        ("soy", _soy), ("black_eyed", _black_eyed), ("red", _red), ("garden", _garden), ("cocoa", _cocoa))},
    "resource": {name: (fn, RESOURCE_COLOURS[name]) for name, fn in (
        ("coal", _coal), ("oil", _oil), ("garbage", _garbage), ("uranium", _uranium))},
    "plant": {name: (fn, PLANT_COLOURS[name]) for name, fn in (
        ("coal", _coal), ("oil", _oil), ("hybrid", _hybrid), ("garbage", _garbage), ("uranium", _uranium),
        ("ecological", _wind))},
    "city": {"city": (_city, (200, 200, 210)), "house": (_house, (240, 240, 240))},
}
SETS = tuple(_DRAWERS)


def names(kind: str) -> tuple[str, ...]:
    """Every pictogram of one set ("stone", "bean", "resource", "plant", "city")."""
    return tuple(_DRAWERS[kind])


def colour(kind: str, name: str) -> Colour:
    return _DRAWERS[kind][name][1]


def label(kind: str, name: str) -> str:
    """The English name of a pictogram (a message id of the catalogs)."""
    return LABELS[kind][name]


@cache
def svg(kind: str, name: str, fill: str | None = None) -> str:
    """The whole SVG document of one pictogram; `fill` recolours a house or a city (a player's colour)."""
    sets = _DRAWERS.get(kind)
    if sets is None or name not in sets:
        raise KeyError(f"no pictogram {kind}/{name}")
    drawer, base = sets[name]
    if fill is not None:
        base = (int(fill[1:3], 16), int(fill[3:5], 16), int(fill[5:7], 16))
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">'
            f"{drawer(base)}</svg>")


def short_label(kind: str, name: str) -> str:
    """The short English name of a pictogram where there is one ("Stink"), else its name (a message id)."""
    return SHORT_LABELS.get(kind, {}).get(name) or LABELS[kind][name]


def manifest() -> dict[str, dict[str, dict[str, str]]]:
    """Every pictogram's address, English name, short name and colour, for the pages."""
    return {kind: {name: {"src": f"/pictograms/{kind}/{name}.svg", "label": label(kind, name),
                          "short": short_label(kind, name), "colour": hex_colour(colour(kind, name))}
                   for name in names(kind)} for kind in SETS}
