"""Power Grid for the table: the board jobs each action sets, who acts now, and the figures the summary charts."""

from __future__ import annotations

from companion.core import HOST, TABLE, Action, LogMessage
from companion.core.table import Now, now
from companion.games.power_grid.data import MAPS
from companion.games.power_grid.state import PowerGridState
from companion.games.power_grid.views import final_scores


def board_jobs(before: PowerGridState | None, action: Action | None, after: PowerGridState) -> list[LogMessage]:
    """The table instructions the action produced (the state keeps only the last action's, so each is new)."""
    if action is not None and type(action).host_only and after.fixes == (before.fixes if before else 0):
        # Money and regions corrections fix the companion's books only. A correction of the board does too, but
        # what follows from it by the rules (a small plant leaves the market, a gap is refilled) is the table's job.
        return []
    return [LogMessage(i.template, dict(i.args)) for i in after.instructions]


def what_now(state: PowerGridState) -> Now:
    phase = state.phase
    if phase == "over":
        scores = final_scores(state)
        return now("The game is over: {winners} won (see the scores)", (), winners=tuple(scores["winners"]))
    if phase == "regions":
        return now("Host: choose {count} regions to play in on the host page (the companion proposes {regions}; OK "
                   "on the controller takes the proposal)", (HOST,), count=state.counts.regions,
                   regions=tuple(_region_words(state, r) for r in state.proposed_regions))
    if state.draws and state.deck and not state.digital:
        return now("Table: draw the top plant of the deck and tap it", (TABLE,))
    if phase == "auction":
        if state.discard is not None:
            seat = state.discard.seat
            if state.discard.plant is None:
                return now("{player}: too many plants — tap or choose one of your old plants to discard", (seat,),
                           player=seat)
            return now("{player}: move what you want to keep off plant {plant}, then finish (OK or hold your "
                       "button)", (seat,), player=seat, plant=state.discard.plant)
        if state.auction is not None:
            a = state.auction
            return now("{player}: bid on plant {plant} — {bid} Elektro or more — or pass (press your button to "
                       "raise by 1, hold it to pass)", (a.turn,), player=a.turn, plant=a.plant, bid=a.price + 1)
        chooser = state.chooser()
        if chooser is not None:
            if state.round == 1:
                return now("{player}: choose a plant of the current market to auction (tap it, or choose on your "
                           "phone); everyone buys one in round 1", (chooser,), player=chooser)
            return now("{player}: choose a plant to auction (tap it), or hold your button to buy none this round",
                       (chooser,), player=chooser)
    if phase == "resources" and state.queue:
        seat = state.queue[0]
        return now("{player}: buy resources on your phone (cheapest first), then hold your button to finish",
                   (seat,), player=seat)
    if phase == "building" and state.queue:
        seat = state.queue[0]
        return now("{player}: build houses on your phone, then hold your button to finish", (seat,), player=seat)
    if phase == "bureaucracy" and state.queue:
        waiting = tuple(state.queue)
        if len(waiting) == 1:
            return now("{player}: fire your plants — press your button for the companion's proposal, hold it to "
                       "fire none", waiting, player=waiting[0])
        return now("{players}: fire your plants — press your button for the companion's proposal, hold it to fire "
                   "none", waiting, players=waiting)
    return now("The companion is moving on to the next phase", ())


def series(state: PowerGridState) -> dict[str, list[int]]:
    """Money, cities and the cities powered in the last bureaucracy (at the end: what each can power now)."""
    if state.phase == "over":
        powered = list(final_scores(state)["scores"])
    else:
        powered = [max(p, 0) for p in state.powered] if state.powered else [0] * state.n
    return {
        "money": [p.money for p in state.players],
        "cities": [len(p.cities) for p in state.players],
        "powered": powered,
    }


def tie_break(state: PowerGridState) -> LogMessage | None:
    """How the winner was found among those powering the most cities: most Elektro, then most cities."""
    scores = final_scores(state)
    powered, money, cities = scores["scores"], scores["money"], scores["cities"]
    top = max(powered)
    tied = tuple(s for s in range(state.n) if powered[s] == top)
    if len(tied) < 2:
        return None
    richest = tuple(s for s in tied if money[s] == max(money[t] for t in tied))
    if len(richest) == 1:
        return LogMessage("{players} powered {count} cities each; the most Elektro left won the tie",
                          {"players": tied, "count": top})
    biggest = tuple(s for s in richest if cities[s] == max(cities[t] for t in richest))
    if len(biggest) == 1:
        return LogMessage("{players} powered {count} cities each and kept the same Elektro; the most cities won "
                          "the tie", {"players": richest, "count": top})
    return LogMessage("{players} tied on cities powered, Elektro and cities: they share the win",
                      {"players": biggest, "count": top})


def _region_words(state: PowerGridState, region_id: str) -> str:
    """A region as the board shows it, by its colour and where it lies ("brown (north-east)"), never its code."""
    region = MAPS[state.map].region(region_id)
    return f"{region.colour} ({region.name})"

