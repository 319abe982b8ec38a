"""What the table display and each phone see: the public board, a player's own secrets, and the final scores."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.core import Seat
from companion.games.power_grid.data import HOUSES, MAPS, PLANTS, RESOURCES, STEP3, TRACKS
from companion.games.power_grid.firing import best_firing
from companion.games.power_grid.resources import supply
from companion.games.power_grid.state import Holding, PowerGridState

if TYPE_CHECKING:
    from companion.games.power_grid.game import PowerGrid


def plant_view(plant: int) -> dict[str, Any]:
    if plant == STEP3:
        return {"plant": "step3", "kind": "step3"}
    p = PLANTS[plant]
    return {
        "plant": plant,
        "kind": p.kind,
        "burns": [RESOURCES[r] for r in p.burns],
        "input": p.input,
        "storage": p.storage,
        "cities": p.cities,
    }


def holding_view(h: Holding) -> dict[str, Any]:
    out = plant_view(h.plant)
    out["stock"] = {RESOURCES[r]: h.stock[r] for r in range(4) if h.stock[r]}
    return out


def phase_name(state: PowerGridState) -> str:
    # The automatic in-between phases only show while a real draw is awaited.
    return {"auction_close": "auction", "round_end": "bureaucracy"}.get(state.phase, state.phase)


def view(game: PowerGrid, state: PowerGridState, seat: Seat | None) -> dict[str, Any]:
    game_map = MAPS[state.map]
    over = state.phase == "over"
    show_money = state.open_money or over
    players = []
    for s, p in enumerate(state.players):
        entry: dict[str, Any] = {
            "seat": s,
            "cities": len(p.cities),
            "network": [game_map.city_ids[c] for c in p.cities],
            "houses_left": HOUSES - len(p.cities),
            "plants": [holding_view(h) for h in p.plants],
            "capacity": sum(PLANTS[h.plant].cities for h in p.plants),
            "turn_position": state.order.index(s) + 1,
            "bought_this_round": s in state.bought,
            "done_this_round": s in state.done,
        }
        if state.powered and state.phase in ("bureaucracy", "round_end"):
            entry["powered"] = state.powered[s] if state.powered[s] >= 0 else None
        if show_money:
            entry["money"] = p.money
        players.append(entry)
    left = supply(state)
    market_resources = {}
    for r, track in enumerate(TRACKS):
        market_resources[RESOURCES[r]] = {
            "on_market": state.resources[r],
            "cheapest": track.cheapest(state.resources[r]),
            "supply": left[r],
            "spaces": [list(s) for s in track.spaces],
        }
    out: dict[str, Any] = {
        "game": "power_grid",
        "map": state.map,
        "phase": phase_name(state),
        "round": state.round,
        "step": state.step,
        "current_seats": list(game.current_seats(state)),
        "order": list(state.order),
        "regions": list(state.regions),
        "players": players,
        "market": {
            "current": [plant_view(p) for p in state.current_market()],
            "future": [plant_view(p) for p in state.future_market()],
            "all_current": state.step3_out,
        },
        "deck": {"size": len(state.deck), "step3_in_deck": STEP3 in state.deck},
        "removed": ["step3" if p == STEP3 else p for p in state.removed],
        "resources": market_resources,
        "cities": _houses(state),
        "houses_per_city": state.step,
        "awaiting_draw": bool(state.draws and state.deck and not state.digital),
        "instructions": [i.to_view() for i in state.instructions],
        "open_money": state.open_money,
        "over": over,
    }
    if state.phase == "regions":
        out["proposed_regions"] = list(state.proposed_regions)
        out["regions_to_choose"] = state.counts.regions
    if state.auction is not None:
        a = state.auction
        out["auction"] = {
            "plant": plant_view(a.plant),
            "price": a.price,
            "leader": a.leader,
            "opener": a.opener,
            "active": list(a.active),
            "turn": a.turn,
        }
    if state.discard is not None:
        out["discard"] = {
            "seat": state.discard.seat,
            "new_plant": state.discard.new_plant,
            "plant": state.discard.plant,
        }
    if state.phase == "auction" and state.auction is None and state.discard is None:
        out["chooser"] = state.chooser()
    if over:
        out["scores"] = final_scores(state)
    if isinstance(seat, int) and 0 <= seat < state.n:
        me = state.players[seat]
        out["you"] = {
            "seat": seat,
            "money": me.money,
            "max_plants": state.counts.max_plants,
        }
    return out


def _houses(state: PowerGridState) -> dict[str, list[int]]:
    """Per city with houses, the seats there."""
    ids = MAPS[state.map].city_ids
    out: dict[str, list[int]] = {}
    for seat, p in enumerate(state.players):
        for city in p.cities:
            out.setdefault(ids[city], []).append(seat)
    return out


def final_scores(state: PowerGridState) -> dict[str, Any]:
    """Cities each player can power now with what they hold; ties go to Elektro, then to cities connected."""
    powered = []
    for p in state.players:
        powered.append(best_firing(p.plants, len(p.cities), state.resources).powered if p.plants else 0)
    money = [p.money for p in state.players]
    cities = [len(p.cities) for p in state.players]
    keys = [(powered[s], money[s], cities[s]) for s in range(state.n)]
    top = max(keys)
    return {
        "scores": powered,
        "winners": [s for s in range(state.n) if keys[s] == top],
        "money": money,
        "cities": cities,
    }
