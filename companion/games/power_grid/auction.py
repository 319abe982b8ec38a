"""Phase 2: plant auctions (open, bid, pass, decline), the one-plant limit, and discarding over the maximum."""

from __future__ import annotations

import dataclasses

from companion.core import Action, IllegalAction, LogMessage, msg
from companion.games.power_grid import instructions as say
from companion.games.power_grid.actions import (
    Bid,
    DeclineToOpen,
    DiscardPlant,
    FinishDiscard,
    MoveResources,
    OpenAuction,
    Pass,
)
from companion.games.power_grid.data import STEP3
from companion.games.power_grid.market import without
from companion.games.power_grid.resources import fits, move, set_player
from companion.games.power_grid.state import Auction, Discard, Holding, PowerGridState

# Bids offered as choices: this many amounts from the minimum up (apply accepts any amount the bidder can pay).
BIDS_OFFERED = 4


def must_buy(state: PowerGridState, seat: int) -> bool:
    """Round 1: everyone buys a plant (unless no plant of the current market is affordable)."""
    if state.round != 1:
        return False
    money = state.players[seat].money
    return any(p <= money for p in state.current_market())


def open_auction(state: PowerGridState, action: OpenAuction) -> tuple[PowerGridState, list[LogMessage]]:
    seat = action.seat
    assert isinstance(seat, int)
    current = state.current_market()
    if action.plant not in current:
        if action.plant in state.market:
            if action.plant == STEP3:
                raise IllegalAction("the Step 3 card is in the future market and is never sold: choose a plant of the "
                                    "current market")
            raise IllegalAction(
                "plant {plant} is in the future market; only the current market is sold", plant=action.plant
            )
        raise IllegalAction(
            "plant {plant} is not in the current market ({market})",
            plant=action.plant,
            market=", ".join(map(str, current)),
        )
    if action.bid < action.plant:
        raise IllegalAction("plant {plant} needs a bid of at least {bid}", plant=action.plant, bid=action.plant)
    money = state.players[seat].money
    if action.bid > money:
        raise IllegalAction("you have only {money} Elektro: bid at most {money}", money=money)
    # Everyone still without a plant this round takes part, in turn order from the opener.
    active = tuple(s for s in state.order if s not in state.done)
    log = [
        msg("{player} opened an auction for plant {plant} at {bid}", player=seat, plant=action.plant, bid=action.bid)
    ]
    auction = Auction(action.plant, action.bid, seat, seat, active, seat)
    nxt = _cyclic_next(state, auction, seat)
    if nxt is None:
        state, more = sell(state, auction)
        return state, log + more
    return dataclasses.replace(state, auction=dataclasses.replace(auction, turn=nxt)), log


def _cyclic_next(state: PowerGridState, auction: Auction, after: int) -> int | None:
    # `after` may have just left the auction, so walk the full turn order from there.
    order = state.order
    i = order.index(after)
    for k in range(1, len(order) + 1):
        seat = order[(i + k) % len(order)]
        if seat in auction.active:
            return None if seat == auction.leader else seat
    return None


def bid(state: PowerGridState, action: Bid) -> tuple[PowerGridState, list[LogMessage]]:
    auction = state.auction
    assert auction is not None
    seat = action.seat
    assert isinstance(seat, int)
    if action.amount <= auction.price:
        raise IllegalAction("the bid is {price}; bid at least {bid}", price=auction.price, bid=auction.price + 1)
    money = state.players[seat].money
    if action.amount > money:
        raise IllegalAction("you have only {money} Elektro: bid at most {money}", money=money)
    auction = dataclasses.replace(auction, price=action.amount, leader=seat)
    nxt = _cyclic_next(state, auction, seat)
    log = [msg("{player} bid {amount} for plant {plant}", player=seat, amount=action.amount, plant=auction.plant)]
    if nxt is None:
        state, more = sell(state, auction)
        return state, log + more
    return dataclasses.replace(state, auction=dataclasses.replace(auction, turn=nxt)), log


def pass_(state: PowerGridState, action: Pass) -> tuple[PowerGridState, list[LogMessage]]:
    auction = state.auction
    assert auction is not None
    seat = action.seat
    assert isinstance(seat, int)
    auction = dataclasses.replace(auction, active=tuple(s for s in auction.active if s != seat))
    log = [msg("{player} passed on plant {plant}", player=seat, plant=auction.plant)]
    nxt = _cyclic_next(state, auction, seat)
    if nxt is None:
        state, more = sell(state, auction)
        return state, log + more
    return dataclasses.replace(state, auction=dataclasses.replace(auction, turn=nxt)), log


def decline(state: PowerGridState, action: DeclineToOpen) -> tuple[PowerGridState, list[LogMessage]]:
    seat = action.seat
    assert isinstance(seat, int)
    if must_buy(state, seat):
        raise IllegalAction("everyone must buy a plant in round 1: open an auction for a plant of the current market")
    state = dataclasses.replace(state, done=(*state.done, seat))
    return state, [msg("{player} bought no plant this round", player=seat)]


def sell(state: PowerGridState, auction: Auction) -> tuple[PowerGridState, list[LogMessage]]:
    """The last bidder left buys the plant; the market is refilled by a draw; over the limit, a plant goes."""
    seat = auction.leader
    player = state.players[seat]
    plants = tuple(sorted((*player.plants, Holding(auction.plant)), key=lambda h: h.plant))
    player = dataclasses.replace(player, money=player.money - auction.price, plants=plants)
    state = set_player(state, seat, player)
    over = len(plants) > state.counts.max_plants
    state = dataclasses.replace(
        state,
        market=without(state.market, auction.plant),
        draws=state.draws + 1,
        done=(*state.done, seat),
        bought=(*state.bought, seat),
        bought_plants=(*state.bought_plants, auction.plant),
        auction=None,
        discard=Discard(seat, auction.plant) if over else None,
        instructions=(*state.instructions, say.give_plant(auction.plant, seat)),
    )
    return state, [
        msg("{player} bought plant {plant} for {price} Elektro", player=seat, plant=auction.plant, price=auction.price)
    ]


def over_the_limit(state: PowerGridState, action: Action) -> tuple[PowerGridState, list[LogMessage]]:
    """A buyer over the plant limit may rearrange what the plants hold, then names the old plant to discard,
    then moves its resources to the other plants where they fit; the rest go back to the supply."""
    pending = state.discard
    assert pending is not None
    if isinstance(action, DiscardPlant):
        return discard(state, action)
    if isinstance(action, MoveResources):
        if pending.plant is not None and action.to_plant == pending.plant:
            raise IllegalAction(
                "plant {plant} is being discarded: move resources off it, not onto it", plant=pending.plant
            )
        state, log = move(state, action)
        if pending.plant is not None and not can_relocate(state):
            state, more = finish_discard(state, FinishDiscard(action.seat))
            log += more
        return state, log
    if isinstance(action, FinishDiscard):
        return finish_discard(state, action)
    if pending.plant is not None:
        raise IllegalAction(
            "plant {plant} is being discarded: first move its resources to your other plants, or return the rest "
            "to the supply",
            plant=pending.plant,
        )
    raise IllegalAction(
        "you have more than {limit} plants: discard one of your old plants (you may first move resources between "
        "your plants)",
        limit=state.counts.max_plants,
    )


def discard(state: PowerGridState, action: DiscardPlant) -> tuple[PowerGridState, list[LogMessage]]:
    pending = state.discard
    assert pending is not None
    seat = pending.seat
    if pending.plant is not None:
        raise IllegalAction(
            "plant {plant} is already being discarded: move its resources to your other plants, or return the "
            "rest to the supply",
            plant=pending.plant,
        )
    if action.plant == pending.new_plant:
        raise IllegalAction("plant {plant} was just bought; discard one of your old plants", plant=action.plant)
    holding = state.players[seat].holding(action.plant)
    if holding is None:
        raise IllegalAction(
            "you do not own plant {plant}; discard one of your old plants ({plants})",
            plant=action.plant,
            plants=tuple(h.plant for h in state.players[seat].plants if h.plant != pending.new_plant),
        )
    state = dataclasses.replace(state, discard=dataclasses.replace(pending, plant=action.plant))
    log = [msg("{player} discarded plant {plant}", player=seat, plant=action.plant)]
    if not can_relocate(state):
        state, more = finish_discard(state, FinishDiscard(seat))
        log += more
    return state, log


def can_relocate(state: PowerGridState) -> bool:
    """Whether any token of the discarded plant could still be kept: it fits on the other plants, after a
    rearrangement if need be."""
    pending = state.discard
    assert pending is not None and pending.plant is not None
    player = state.players[pending.seat]
    holding = player.holding(pending.plant)
    assert holding is not None
    others = tuple(h for h in player.plants if h.plant != pending.plant)
    kept = [0, 0, 0, 0]
    for h in others:
        for r in range(4):
            kept[r] += h.stock[r]
    for r in range(4):
        if holding.stock[r]:
            more = list(kept)
            more[r] += 1
            if fits(others, tuple(more)):
                return True
    return False


def finish_discard(state: PowerGridState, action: FinishDiscard) -> tuple[PowerGridState, list[LogMessage]]:
    pending = state.discard
    assert pending is not None
    if pending.plant is None:
        raise IllegalAction("name the plant you discard first: one of your old plants")
    seat = pending.seat
    player = state.players[seat]
    holding = player.holding(pending.plant)
    assert holding is not None
    todo = [say.return_resources(c, r, pending.plant) for r, c in enumerate(holding.stock) if c]
    todo.append(say.discard_plant(pending.plant))
    player = dataclasses.replace(player, plants=tuple(h for h in player.plants if h.plant != pending.plant))
    state = set_player(state, seat, player)
    state = dataclasses.replace(
        state,
        discard=None,
        removed=(*state.removed, pending.plant),
        instructions=(*state.instructions, *todo),
    )
    returned = holding.held
    if returned:
        return state, [msg("{count} resources went back to the supply", count=returned)]
    return state, []


def bid_amounts(low: int, money: int) -> range:
    return range(low, min(money, low + BIDS_OFFERED - 1) + 1)
