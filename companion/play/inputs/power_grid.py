"""Power Grid at the controller: tap a plant to auction it; the seat button bids one more, held it passes or ends."""

from __future__ import annotations

from companion.core.actions import Action
from companion.core.errors import IllegalAction, NotYourTurn
from companion.core.seats import HOST, TABLE
from companion.games.power_grid.actions import (
    Bid,
    ChooseRegions,
    DeclineToOpen,
    DiscardPlant,
    EndBuilding,
    EndBuying,
    FinishDiscard,
    Fire,
    OpenAuction,
    Pass,
    RevealPlant,
    RevealStep3,
)
from companion.games.power_grid.bureaucracy import fire_options
from companion.games.power_grid.data import STEP3
from companion.games.power_grid.state import PowerGridState
from companion.play.router import Binding, Context, Decision, Press, key_press, seat_press, tap

BINDINGS: tuple[Binding, ...] = (
    Binding("a plant is to be drawn (physical deck)", "tap the drawn plant (or the Step 3 card)",
            "reveals it: the table's `reveal_plant` / `reveal_step3`"),
    Binding("regions (host)", "OK", "plays in the regions the companion proposes (others on the host page)"),
    Binding("auction: choosing a plant", "tap a plant of the current market",
            "the chooser opens its auction at the plant's number"),
    Binding("auction: choosing a plant", "chooser's seat button held", "buys no plant this round (not in round 1)"),
    Binding("auction: bidding", "bidder's seat button (a second quick press too)", "raises the bid by 1"),
    Binding("auction: bidding", "bidder's seat button held", "passes: leaves this auction"),
    Binding("auction: over the plant limit", "tap one of your old plants", "discards it"),
    Binding("auction: over the plant limit", "OK, or the seat button held",
            "returns what is left on the discarded plant to the supply"),
    Binding("resources", "buyer's seat button held", "finishes buying (buying itself is on the phone)"),
    Binding("building", "builder's seat button held", "finishes building (building itself is on the phone)"),
    Binding("bureaucracy", "seat button", "fires the companion's proposal: the most cities for the cheapest fuel"),
    Binding("bureaucracy", "seat button held", "fires nothing this round"),
)


def card_id(plant: int) -> str:
    return "step-3" if plant == STEP3 else f"plant-{plant:02d}"


def interpret(ctx: Context, press: Press) -> Decision:
    state: PowerGridState = ctx.state
    if press.source == "tag":
        assert press.card is not None
        action = ctx.game.tag_action(state, press.card)
        if isinstance(action, OpenAuction):
            _can_pay(state, int(action.seat), action.bid)
        return ctx.act(action)
    seats = ctx.current()
    if TABLE in seats:
        raise IllegalAction("draw the top plant of the deck and tap it first")
    if press.source == "key":
        return _key(ctx, state, press)
    seat = press.seat
    assert seat is not None
    if state.phase == "regions":
        raise IllegalAction("the host chooses the regions first: OK takes the companion's proposal")
    if state.phase == "auction":
        return _auction(ctx, state, seat, press)
    if state.phase in ("resources", "building"):
        if seat not in seats:
            raise _whose_turn(state)
        if press.gesture != "long":
            raise IllegalAction("buy resources on your phone; hold your seat button when you are done"
                                if state.phase == "resources" else
                                "build on your phone; hold your seat button when you are done")
        return ctx.act(EndBuying(seat) if state.phase == "resources" else EndBuilding(seat))
    if state.phase == "bureaucracy":
        if seat not in seats:
            raise IllegalAction("{player} has fired already", player=seat)
        if press.gesture == "long":
            return ctx.act(Fire(seat, ()))
        return ctx.act(fire_options(state, seat)[0])
    raise IllegalAction("nothing is pressed for now")


def _key(ctx: Context, state: PowerGridState, press: Press) -> Decision:
    if press.is_key("ok"):
        if state.phase == "regions":
            return ctx.act(ctx.game.legal_actions(state, HOST)[0], HOST)
        pending = state.discard
        if pending is not None and pending.plant is not None:
            return ctx.act(FinishDiscard(pending.seat))
        raise IllegalAction("OK means nothing now")
    if press.is_key("back"):
        raise IllegalAction("there is nothing to cancel")
    raise IllegalAction("Power Grid uses the seat buttons and plant cards; the keypad means nothing here")


def _auction(ctx: Context, state: PowerGridState, seat: int, press: Press) -> Decision:
    pending = state.discard
    if pending is not None:
        if seat != pending.seat:
            raise NotYourTurn("{player} is discarding a plant", player=pending.seat)
        if pending.plant is None:
            raise IllegalAction("tap the card of the old plant you discard")
        if press.gesture == "long":
            return ctx.act(FinishDiscard(seat))
        raise IllegalAction("move the resources on your phone; hold your seat button (or OK) when done")
    auction = state.auction
    if auction is not None:
        if seat != auction.turn:
            raise NotYourTurn("it is {player}'s turn to bid or pass", player=auction.turn)
        if press.gesture == "long":
            return ctx.act(Pass(seat))
        _can_pay(state, seat, auction.price + 1)
        return ctx.act(Bid(seat, auction.price + 1))
    chooser = state.chooser()
    if seat != chooser:
        raise NotYourTurn("{player} chooses the next plant", player=chooser)
    if press.gesture == "long":
        return ctx.act(DeclineToOpen(seat))
    raise IllegalAction("tap the card of the plant you put up for auction (hold your button to buy none)")


def _can_pay(state: PowerGridState, seat: int, amount: int) -> None:
    # The rules' own refusal names the seat's money, which is secret unless option open_money is on.
    if state.players[seat].money < amount:
        raise IllegalAction("{player} cannot pay {amount} Elektro", player=seat, amount=amount)


def _whose_turn(state: PowerGridState) -> NotYourTurn:
    if not state.queue:
        return NotYourTurn("nobody is to act now")
    seat = state.queue[0]
    return NotYourTurn("it is {player}'s turn", player=seat)


def candidates(ctx: Context, action: Action) -> list[list[Press]]:
    """The controller's way to each action it can make."""
    seat = action.seat
    if isinstance(action, RevealPlant):
        return [[tap(card_id(action.plant))]]
    if isinstance(action, RevealStep3):
        return [[tap(card_id(STEP3))]]
    if isinstance(action, ChooseRegions):
        return [[key_press("ok")]]
    if not isinstance(seat, int):
        return []  # the host's corrections are on the host page
    if isinstance(action, OpenAuction | DiscardPlant):
        return [[tap(card_id(action.plant))]]
    if isinstance(action, FinishDiscard):
        return [[key_press("ok")], [seat_press(seat, "long")]]
    if isinstance(action, DeclineToOpen | Pass | EndBuying | EndBuilding):
        return [[seat_press(seat, "long")]]
    if isinstance(action, Bid | Fire):
        return [[seat_press(seat)], [seat_press(seat, "long")]]
    return []
