"""Bohnanza for the table: the board jobs each action sets, who acts now (and who merely may), the summary's figures."""

from __future__ import annotations

from companion.core import TABLE, Action, LogMessage, Seat
from companion.core.table import Now, now
from companion.games.bohnanza.beans import BEANS, bean_of
from companion.games.bohnanza.deck import awaiting_table, dealing_seat
from companion.games.bohnanza.harvest import standings
from companion.games.bohnanza.state import BohnanzaState, field_bean


def board_jobs(before: BohnanzaState | None, action: Action | None, after: BohnanzaState) -> list[LogMessage]:
    """Coins to turn over, fields to clear or take, beans to put in a field, a discard pile to shuffle."""
    if before is None:
        return []
    jobs: list[LogMessage] = []
    physical = after.rules.physical
    for seat, (old, new) in enumerate(zip(before.players, after.players)):
        harvested_coins = 0
        for index, (was, now_) in enumerate(zip(old.fields, new.fields)):
            if len(now_) < len(was):
                bean = bean_of(was[0])
                coins = BEANS[bean].coins(len(was))
                harvested_coins += coins
                jobs.append(LogMessage(
                    "{player}: harvest field {field} — {coins} of the {count} {bean} cards onto your coins, the rest "
                    "on the discard pile",
                    {"player": seat, "field": index + 1, "coins": coins, "count": len(was), "bean": bean}))
            elif len(now_) > len(was) and physical:
                bean = field_bean(now_) or ""
                jobs.append(LogMessage("{player}: put {count} {bean} in field {field}",
                                       {"player": seat, "count": len(now_) - len(was), "bean": bean,
                                        "field": index + 1}))
        if len(new.fields) > len(old.fields):
            cost = after.count.third_field_cost or 0
            jobs.append(LogMessage("{player}: take the third bean field and pay {cost} coins",
                                   {"player": seat, "cost": cost}))
        moved = len(new.coins) - len(old.coins) - harvested_coins
        if len(new.fields) > len(old.fields):
            moved += after.count.third_field_cost or 0
        if moved > 0:
            jobs.append(LogMessage("{player}: take {count} coins from the discard pile",
                                   {"player": seat, "count": moved}))
        elif moved < 0:
            jobs.append(LogMessage("{player}: put {count} coins on the discard pile",
                                   {"player": seat, "count": -moved}))
    if physical and before.discard and not after.discard and after.deck and len(after.deck) > len(before.deck):
        jobs.append(LogMessage("Shuffle the discard pile: it is the new draw deck", {}))
    return jobs


def what_now(state: BohnanzaState) -> Now:
    from companion.games.bohnanza.game import may_act

    active = state.active
    others = tuple(s for s in range(len(state.players)) if s != active and may_act(state, s))
    step = state.step
    if state.over:
        return now("The game is over: {winners} won (see the scores)", (), winners=tuple(standings(state)["winners"]))
    if awaiting_table(state):
        if step == "deal":
            seat = dealing_seat(state)
            left = state.count.hands[seat] - len(state.players[seat].hand)
            return now("Tap the cards dealt to {player}, front card first ({count} to go)", (TABLE,), player=seat,
                       count=left)
        if step == "turn_up":
            return now("Table: turn up the next card and tap it ({count} to go)", (TABLE,), count=state.to_reveal)
        return now("Table: tap each card {player} draws ({count} to go)", (TABLE,), player=active,
                   count=state.to_reveal)
    may: tuple[Seat, ...] = others
    if step == "duel_offer":
        out = now("{player}: plant or discard the cards your opponent left (press your button to plant, hold it to "
                  "discard)", (active,), player=active)
    elif step == "plant" and state.planted == 0:
        out = now("{player}: plant the front card of your hand (press your button)", (active,), player=active)
    elif step == "plant":
        out = now("{player}: plant the next card too (press your button), or hold your button to turn up the cards",
                  (active,), player=active)
    elif step == "trade":
        out = now("{player}: trade for the face-up cards, then hold your button to end trading; {players} may offer "
                  "trades or harvest", (active,), player=active, players=others) if others else \
            now("{player}: trade for the face-up cards, then hold your button to end trading", (active,),
                player=active)
    elif step == "duel_plant":
        out = now("{player}: plant the turned-up cards you want, then hold your button to leave the rest to your "
                  "opponent", (active,), player=active)
    elif step == "plant_set_aside":
        planting = tuple(s for s, p in enumerate(state.players) if p.set_aside)
        may = tuple(s for s in others if s not in planting)
        if len(planting) == 1:
            out = now("{player}: plant your set-aside cards (press your button or tap each card)", planting,
                      player=planting[0])
        else:
            out = now("{players}: plant your set-aside cards (press your button or tap each card)", planting,
                      players=planting)
    else:
        out = now("{player}'s turn: the companion is turning over the next cards", (active,), player=active)
    return Now(out.message, out.acting, tuple(s for s in may if s not in out.acting))


def series(state: BohnanzaState) -> dict[str, list[int]]:
    return {"coins": [len(p.coins) for p in state.players]}


def round_of(state: BohnanzaState) -> int:
    """A round is one turn of every player."""
    return state.turn // max(1, len(state.players))


def tie_break(state: BohnanzaState) -> LogMessage | None:
    result = standings(state)
    coins = result["scores"]
    top = max(coins)
    tied = tuple(s for s, c in enumerate(coins) if c == top)
    if len(tied) < 2:
        return None
    if len(result["winners"]) == 1:
        return LogMessage("{players} had {count} coins each; the most cards in hand won the tie",
                          {"players": tied, "count": top})
    return LogMessage("{players} had {count} coins and as many cards in hand: they share the win",
                      {"players": tuple(result["winners"]), "count": top})
