"""Harvesting and selling beans, the third bean field, coins and the host's coin correction, and the standings."""

from __future__ import annotations

import dataclasses
from typing import Any

from companion.core import HOST, IllegalAction, LogMessage, msg
from companion.games.bohnanza.actions import BuyField, CorrectCoins, Harvest
from companion.games.bohnanza.beans import BEANS, bean_of
from companion.games.bohnanza.corrections import after_deck_change
from companion.games.bohnanza.state import BohnanzaState, Player, check_seat, with_player


def may_harvest_now(state: BohnanzaState, seat: int) -> bool:
    """Any time, even off turn; in the duel only on your own turn."""
    if state.step in ("deal", "over"):
        return False
    return not state.count.duel or seat == state.active


def harvest_refusal(p: Player, field: int) -> IllegalAction | None:
    """Why this field may not be harvested now, or None."""
    if not 0 <= field < len(p.fields):
        return IllegalAction("there is no field {field}: your fields are 1 to {count}", field=field + 1,
                             count=len(p.fields))
    if not p.fields[field]:
        return IllegalAction("field {field} is empty: harvest a field that holds beans", field=field + 1)
    if len(p.fields[field]) == 1 and any(len(f) >= 2 for f in p.fields):
        return IllegalAction(
            "field {field} holds a single bean and another of your fields holds more, so it is protected: harvest that "
            "one",
            field=field + 1,
        )
    return None


def harvestable_fields(p: Player) -> list[int]:
    return [i for i in range(len(p.fields)) if harvest_refusal(p, i) is None]


def harvest_field(state: BohnanzaState, seat: int, field: int, log: list[LogMessage]) -> BohnanzaState:
    """Sell a field: as many cards as coins earned turn into coins, the rest go onto the discard pile."""
    p = state.players[seat]
    cards = p.fields[field]
    bean = bean_of(cards[0])
    coins = BEANS[bean].coins(len(cards))
    kept = len(cards) - coins
    fields = list(p.fields)
    fields[field] = ()
    state = with_player(state, seat, fields=tuple(fields), coins=(*p.coins, *cards[kept:]))
    state = dataclasses.replace(state, discard=(*state.discard, *cards[:kept]))
    log.append(
        msg(
            # One coin reads "1 coin" (only {count}, the beans, picks a plural form).
            "{player} harvested {count} {bean} beans from field {field} for 1 coin" if coins == 1
            else "{player} harvested {count} {bean} beans from field {field} for {coins} coins",
            player=seat,
            count=len(cards),
            bean=bean,
            field=field + 1,
            coins=coins,
        )
    )
    return state


def apply_harvest(state: BohnanzaState, action: Harvest, log: list[LogMessage]) -> BohnanzaState:
    seat = check_seat(state, action.seat)
    if not may_harvest_now(state, seat):
        raise IllegalAction("with two players you harvest only on your own turn; wait for it")
    refusal = harvest_refusal(state.players[seat], action.field)
    if refusal is not None:
        raise refusal
    return harvest_field(state, seat, action.field, log)


def buy_refusal(state: BohnanzaState, seat: int) -> IllegalAction | None:
    """Why this seat may not buy the third field now, or None."""
    cost = state.count.third_field_cost
    p = state.players[seat]
    if state.step in ("deal", "over"):
        return IllegalAction("fields are bought during the game: wait until every hand is dealt")
    if cost is None:
        return IllegalAction(
            "with {count} players everyone starts with three fields and none can be bought", count=len(state.players)
        )
    if p.bought_field or len(p.fields) >= 3:
        return IllegalAction("you already have a third field: harvest one to make room")
    if len(p.coins) < cost:
        return IllegalAction("the third field costs {cost} coins and you have {coins}: harvest to earn coins first",
                             cost=cost, coins=len(p.coins))
    return None


def apply_buy_field(state: BohnanzaState, action: BuyField, log: list[LogMessage]) -> BohnanzaState:
    seat = check_seat(state, action.seat)
    refusal = buy_refusal(state, seat)
    if refusal is not None:
        raise refusal
    cost = state.count.third_field_cost
    assert cost is not None
    p = state.players[seat]
    paid = p.coins[len(p.coins) - cost :]
    state = with_player(state, seat, coins=p.coins[: len(p.coins) - cost], fields=(*p.fields, ()), bought_field=True)
    if state.count.field_coins_to == "box":
        state = dataclasses.replace(state, removed=(*state.removed, *paid))
        log.append(msg("{player} bought a third bean field; {cost} coins left the game", player=seat, cost=cost))
    else:
        state = dataclasses.replace(state, discard=(*state.discard, *paid))
        log.append(msg("{player} bought a third bean field; {cost} coins went to the discard pile", player=seat,
                       cost=cost))
    return state


def apply_correct_coins(state: BohnanzaState, action: CorrectCoins, log: list[LogMessage]) -> BohnanzaState:
    if action.seat != HOST:
        raise IllegalAction("only the host corrects coins: ask the host")
    seat = check_seat(state, action.player)
    p = state.players[seat]
    if action.delta == 0:
        raise IllegalAction("a correction of 0 coins changes nothing: add or take away at least one coin")
    if action.delta > 0:
        # Coin cards come from the discard pile (its top first), else from the bottom of the deck.
        if len(state.discard) + len(state.deck) < action.delta:
            raise IllegalAction(
                "only {count} cards are left on the discard pile and in the deck to turn into coins, not {delta}: "
                "add at "
                "most {count}",
                count=len(state.discard) + len(state.deck),
                delta=action.delta,
            )
        from_discard = min(action.delta, len(state.discard))
        from_deck = action.delta - from_discard
        moved = state.discard[len(state.discard) - from_discard :] + state.deck[len(state.deck) - from_deck :]
        state = dataclasses.replace(
            state,
            discard=state.discard[: len(state.discard) - from_discard],
            deck=state.deck[: len(state.deck) - from_deck],
        )
        state = with_player(state, seat, coins=(*p.coins, *moved))
    else:
        taken = -action.delta
        if len(p.coins) < taken:
            raise IllegalAction(
                "{player} has only {count} coins, so {amount} cannot be taken away: take away at most {count}",
                player=seat,
                count=len(p.coins),
                amount=taken,
            )
        moved = p.coins[len(p.coins) - taken :]
        state = with_player(state, seat, coins=p.coins[: len(p.coins) - taken])
        state = dataclasses.replace(state, discard=(*state.discard, *moved))
    log.append(
        msg(
            "The host corrected {player}'s coins by {delta} to {coins}",
            player=seat,
            delta=action.delta,
            coins=len(state.players[seat].coins),
        )
    )
    return after_deck_change(state, log)


def standings(state: BohnanzaState) -> dict[str, Any]:
    """Most coins wins; a tie goes to the most cards in hand; still tied, the win is shared."""
    coins = [len(p.coins) for p in state.players]
    hands = [len(p.hand) for p in state.players]
    best = max(coins)
    tied = [s for s, c in enumerate(coins) if c == best]
    most = max(hands[s] for s in tied)
    return {
        "scores": coins,
        "winners": [s for s in tied if hands[s] == most],
        "hand_sizes": hands,
        "final": state.over,
    }
