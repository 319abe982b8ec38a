"""The Power Grid state: compact frozen records that round-trip through JSON, and small read helpers."""

from __future__ import annotations

import dataclasses
from typing import Literal

from companion.games.power_grid.data import COUNTS, PLANTS, STEP3, PlayerCount

Phase = Literal["regions", "auction", "auction_close", "resources", "building", "bureaucracy", "round_end", "over"]


@dataclasses.dataclass(frozen=True)
class Holding:
    """A plant a player owns and the resources stored on it (coal, oil, garbage, uranium)."""

    plant: int
    stock: tuple[int, int, int, int] = (0, 0, 0, 0)

    @property
    def held(self) -> int:
        return sum(self.stock)

    @property
    def room(self) -> int:
        return PLANTS[self.plant].storage - sum(self.stock)


@dataclasses.dataclass(frozen=True)
class Player:
    money: int
    plants: tuple[Holding, ...] = ()  # sorted by plant number
    cities: tuple[int, ...] = ()  # city indexes in the order built

    def holding(self, plant: int) -> Holding | None:
        for h in self.plants:
            if h.plant == plant:
                return h
        return None

    @property
    def highest_plant(self) -> int:
        return max((h.plant for h in self.plants), default=0)

    def stock(self) -> tuple[int, int, int, int]:
        totals = [0, 0, 0, 0]
        for h in self.plants:
            for r in range(4):
                totals[r] += h.stock[r]
        return (totals[0], totals[1], totals[2], totals[3])


@dataclasses.dataclass(frozen=True)
class Auction:
    """An open auction: the plant, the high bid and its bidder, and who is still in (in turn order)."""

    plant: int
    price: int
    leader: int
    opener: int
    active: tuple[int, ...]
    turn: int  # the seat to bid or pass


@dataclasses.dataclass(frozen=True)
class Discard:
    """A buyer over the plant limit: chooses an old plant (plant None), then moves its resources away."""

    seat: int
    new_plant: int
    plant: int | None = None


@dataclasses.dataclass(frozen=True)
class Instruction:
    """One thing the people at the table must do on the real board, as a template with arguments."""

    template: str
    args: tuple[tuple[str, int | str | tuple[int, ...]], ...] = ()

    def render(self) -> str:
        """English, with seats worded 1-based ("player 3"); clients name the players from `args` instead."""
        shown = {k: _seat_words(k, v) for k, v in self.args}
        return self.template.format(**shown)

    def to_view(self) -> dict[str, object]:
        return {"template": self.template, "args": dict(self.args), "text": self.render()}


def todo(template: str, **args: int | str | tuple[int, ...]) -> Instruction:
    return Instruction(template, tuple(args.items()))


def _seat_words(key: str, value: int | str | tuple[int, ...]) -> object:
    if key == "player" and isinstance(value, int):
        return f"player {value + 1}"
    if key == "order" and isinstance(value, tuple):
        return ", ".join(f"player {v + 1}" for v in value)
    return value


@dataclasses.dataclass(frozen=True)
class PowerGridState:
    map: str
    open_money: bool
    seed: int  # for the Step 3 reshuffle (digital)
    digital: bool  # the plant deck is shuffled by the companion (else the real deck is revealed by taps)
    phase: Phase
    round: int
    step: int
    order: tuple[int, ...]
    players: tuple[Player, ...]
    proposed_regions: tuple[str, ...]
    regions: tuple[str, ...] = ()
    market: tuple[int, ...] = ()  # plant numbers, ascending (STEP3 sorts last)
    deck: tuple[int, ...] = ()  # top first; 0 marks a card of unknown identity (physical deck)
    pool: frozenset[int] = frozenset()  # physical: what a 0 in the deck may be
    setup_removed: tuple[int, ...] = ()  # removed face down at setup (digital; physical once deducible)
    removed: tuple[int, ...] = ()  # removed from the game during play, in order
    resources: tuple[int, int, int, int] = (0, 0, 0, 0)  # tokens on the resource market
    step3_out: bool = False  # the Step 3 card is out: six plants, all in the current market
    step3_next: bool = False  # Step 3 rules start with the next phase 5 (drawn in phase 4) or round (phase 5)
    done: tuple[int, ...] = ()  # phase 2: bought a plant or declined this round
    bought: tuple[int, ...] = ()  # phase 2: who bought this round
    bought_plants: tuple[int, ...] = ()  # phase 2: the plant each of `bought` bought, in the same order
    auction: Auction | None = None
    discard: Discard | None = None
    queue: tuple[int, ...] = ()  # phases 3-4: who still acts, the first is acting; phase 5: who still fires
    draws: int = 0  # plants waiting to be drawn
    powered: tuple[int, ...] = ()  # phase 5: cities each seat powered this round (-1 not yet)
    moves: int = 0  # resource moves made in the current turn (only the offer of moves is capped)
    turn_no: int = 0
    drawn: int = 0  # plants drawn from the deck so far
    corrections: int = 0  # money the host added (net) in corrections
    fixes: int = 0  # host corrections of houses, plants and stored resources (they move things outside the rules)
    instructions: tuple[Instruction, ...] = ()

    # -- read helpers ---------------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def counts(self) -> PlayerCount:
        return COUNTS[len(self.players)]

    def current_market(self) -> tuple[int, ...]:
        if self.step3_out:
            return self.market
        return tuple(p for p in self.market if p != STEP3)[:4]

    def future_market(self) -> tuple[int, ...]:
        if self.step3_out:
            return ()
        current = self.current_market()
        return tuple(p for p in self.market if p not in current)

    def occupants(self, city: int) -> tuple[int, ...]:
        """The seats with a house in this city."""
        return tuple(s for s, p in enumerate(self.players) if city in p.cities)

    def most_cities(self) -> int:
        return max(len(p.cities) for p in self.players)

    def chooser(self) -> int | None:
        """Phase 2: who opens the next auction (first in turn order who has neither bought nor declined)."""
        for seat in self.order:
            if seat not in self.done:
                return seat
        return None
