"""The firing solver: which plants to fire, with which resources, exact over every subset and hybrid mix."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from companion.games.power_grid.data import COAL, OIL, PLANTS, TRACKS
from companion.games.power_grid.state import Holding


@dataclasses.dataclass(frozen=True)
class Firing:
    plants: tuple[int, ...]
    hybrid_coal: int
    capacity: int  # cities the fired plants can power
    powered: int  # min(capacity, the player's cities)
    burn: tuple[int, int, int, int]
    cost: int  # what the burned tokens would cost to buy back now

    def key(self) -> tuple:
        return (-self.powered, self.cost, sum(self.burn), len(self.plants), self.plants, self.hybrid_coal)


def needs(holdings: Sequence[Holding], fired: tuple[int, ...], hybrid_coal: int) -> tuple[int, int, int, int] | None:
    """What firing `fired` burns in all when hybrids take `hybrid_coal` coal, if the player's stock allows it.

    Resources may be moved between plants at any time before firing, so the question is whether some legal
    arrangement of the player's tokens puts each fired plant's input on it: the tokens left over must fit in the
    room the plants have besides what the fired ones burn (coal and oil share the hybrids' room).
    """
    room = [0, 0, 0, 0]
    hybrid_room = 0
    need = [0, 0, 0, 0]
    hybrid_input = 0
    held = [0, 0, 0, 0]
    for h in holdings:
        plant = PLANTS[h.plant]
        use = plant.input if h.plant in fired else 0
        for r in range(4):
            held[r] += h.stock[r]
        if not plant.burns:
            continue
        if plant.hybrid:
            hybrid_room += plant.storage - use
            hybrid_input += use
        else:
            r = plant.burns[0]
            room[r] += plant.storage - use
            need[r] += use
    if not 0 <= hybrid_coal <= hybrid_input:
        return None
    need[COAL] += hybrid_coal
    need[OIL] += hybrid_input - hybrid_coal
    left = [held[r] - need[r] for r in range(4)]
    if min(left) < 0:
        return None
    if left[COAL] > room[COAL] + hybrid_room or left[OIL] > room[OIL] + hybrid_room:
        return None
    if left[COAL] + left[OIL] > room[COAL] + room[OIL] + hybrid_room:
        return None
    if left[2] > room[2] or left[3] > room[3]:
        return None
    return (need[0], need[1], need[2], need[3])


def buy_back(market: tuple[int, ...], burn: tuple[int, ...]) -> int:
    """The value of burned tokens: what buying them again would cost now (beyond the market: dearer than any space)."""
    total = 0
    for r, count in enumerate(burn):
        if not count:
            continue
        track = TRACKS[r]
        on_market = market[r]
        from_market = min(count, on_market)
        total += track.cost(on_market, from_market) + (count - from_market) * (track.slots[-1] + 1)
    return total


def firings(holdings: Sequence[Holding], cities: int, market: tuple[int, ...]) -> list[Firing]:
    """For every subset of plants that can fire, its cheapest mix; the best firing first.

    Best: the most cities powered, then the cheapest resources, then the fewest tokens and plants.
    """
    numbers = [h.plant for h in holdings]
    out = []
    for mask in range(1 << len(numbers)):
        fired = tuple(numbers[i] for i in range(len(numbers)) if mask >> i & 1)
        hybrid_input = sum(PLANTS[p].input for p in fired if PLANTS[p].hybrid)
        capacity = sum(PLANTS[p].cities for p in fired)
        best: Firing | None = None
        for coal in range(hybrid_input + 1):
            burn = needs(holdings, fired, coal)
            if burn is None:
                continue
            option = Firing(fired, coal, capacity, min(capacity, cities), burn, buy_back(market, burn))
            if best is None or option.key() < best.key():
                best = option
        if best is not None:
            out.append(best)
    out.sort(key=Firing.key)
    return out


def best_firing(holdings: Sequence[Holding], cities: int, market: tuple[int, ...]) -> Firing:
    return firings(holdings, cities, market)[0]


@dataclasses.dataclass(frozen=True)
class Burn:
    """Tokens a fired plant burns: from its own stock (`source` is the plant itself) or, an implied move, from
    another of the player's plants (`source` is that plant): the table moves them over and burns them there."""

    plant: int
    source: int
    resource: int
    count: int

    @property
    def moved(self) -> bool:
        return self.source != self.plant


def burn_from(
    holdings: tuple[Holding, ...], fired: tuple[int, ...], burn: tuple[int, int, int, int]
) -> tuple[tuple[Holding, ...], list[Burn]]:
    """Take the burned tokens off the plants, each fired plant burning its own input.

    A fired plant short of its input burns tokens from the player's other plants, as if moved there first (the
    rules let resources move between one's plants at any time); those are implied moves the table must make.
    Returns the new holdings and the burns, own tokens first.
    """
    stocks = {h.plant: list(h.stock) for h in holdings}
    wants = _inputs(holdings, fired, burn)
    burns: list[Burn] = []
    short: list[tuple[int, int, int]] = []
    for plant, want in wants.items():
        for r in range(4):
            own = min(want[r], stocks[plant][r])
            if own:
                stocks[plant][r] -= own
                burns.append(Burn(plant, plant, r, own))
            if want[r] > own:
                short.append((plant, r, want[r] - own))
    for plant, r, missing in short:
        for source in sorted(stocks, key=lambda p: (p in fired, p)):
            take = min(missing, stocks[source][r])
            if take:
                stocks[source][r] -= take
                missing -= take
                burns.append(Burn(plant, source, r, take))
            if not missing:
                break
        assert not missing, "needs() promised these tokens"
    new = tuple(Holding(h.plant, tuple(stocks[h.plant])) for h in holdings)  # type: ignore[arg-type]
    return new, burns


def _inputs(
    holdings: Sequence[Holding], fired: tuple[int, ...], burn: tuple[int, int, int, int]
) -> dict[int, list[int]]:
    """What each fired plant burns: its input; the hybrids share the coal of `burn` (coal already on a hybrid
    stays with it), the rest of their input is oil."""
    wants: dict[int, list[int]] = {}
    hybrids: list[Holding] = []
    single_coal = 0
    for h in holdings:
        if h.plant not in fired:
            continue
        plant = PLANTS[h.plant]
        wants[h.plant] = [0, 0, 0, 0]
        if plant.hybrid:
            hybrids.append(h)
        elif plant.burns:
            wants[h.plant][plant.burns[0]] = plant.input
            if plant.burns[0] == COAL:
                single_coal += plant.input
    coal = burn[COAL] - single_coal
    for h in hybrids:
        take = min(coal, h.stock[COAL], PLANTS[h.plant].input)
        wants[h.plant][COAL] = take
        coal -= take
    for h in hybrids:
        take = min(coal, PLANTS[h.plant].input - wants[h.plant][COAL])
        wants[h.plant][COAL] += take
        coal -= take
        wants[h.plant][OIL] = PLANTS[h.plant].input - wants[h.plant][COAL]
    return wants
