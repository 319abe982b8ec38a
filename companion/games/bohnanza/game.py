"""The Bohnanza rules engine for 2–7 players: who may act, what they may do, and the dispatch to each step."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from companion.core import (
    HOST,
    TABLE,
    Action,
    BadConfig,
    ChanceEvent,
    Game,
    GameConfig,
    IllegalAction,
    LogMessage,
    NotYourTurn,
    OptionSpec,
    RandomBot,
    Seat,
)
from companion.core.game import Bot
from companion.core.table import Now
from companion.core.words import Words
from companion.games.bohnanza import beans, table
from companion.games.bohnanza.actions import (
    ACTION_KINDS,
    AcceptOffer,
    BuyField,
    CorrectCoins,
    CorrectField,
    CorrectHand,
    CounterOffer,
    DiscardBean,
    DrawBean,
    EndPlanting,
    EndTrading,
    Harvest,
    OfferTrade,
    PlantBean,
    RefuseOffer,
    TurnUpCards,
    WithdrawOffer,
)
from companion.games.bohnanza.corrections import apply_correct_field, apply_correct_hand, correction_forms
from companion.games.bohnanza.deck import apply_draw_bean, awaiting_table, new_table
from companion.games.bohnanza.duel import apply_discard, apply_end_planting, duel_actions
from companion.games.bohnanza.harvest import (
    apply_buy_field,
    apply_correct_coins,
    apply_harvest,
    buy_refusal,
    harvest_refusal,
    harvestable_fields,
    may_harvest_now,
    standings,
)
from companion.games.bohnanza.planting import apply_plant, apply_turn_up, plant_actions
from companion.games.bohnanza.state import BohnanzaState, Rules, seat_param
from companion.games.bohnanza.tags import tag_action
from companion.games.bohnanza.trading import (
    apply_accept,
    apply_counter,
    apply_end_trading,
    apply_offer,
    apply_refuse,
    apply_withdraw,
    trade_actions,
)
from companion.games.bohnanza.views import hints, indistinguishable, private_view, public_view

TRADE_ACTIONS = (OfferTrade, AcceptOffer, RefuseOffer, CounterOffer, WithdrawOffer, EndTrading)

Handler = Callable[[BohnanzaState, Any, list[LogMessage]], BohnanzaState]

HANDLERS: dict[type[Action], Handler] = {
    PlantBean: apply_plant,
    TurnUpCards: apply_turn_up,
    OfferTrade: apply_offer,
    AcceptOffer: apply_accept,
    RefuseOffer: apply_refuse,
    CounterOffer: apply_counter,
    WithdrawOffer: apply_withdraw,
    EndTrading: apply_end_trading,
    DiscardBean: apply_discard,
    EndPlanting: apply_end_planting,
    Harvest: apply_harvest,
    BuyField: apply_buy_field,
    DrawBean: apply_draw_bean,
}

def may_act(state: BohnanzaState, seat: int) -> bool:
    """Whether a player seat has anything it may do now (its own step, an offer, a harvest, a field to buy)."""
    if state.step in ("deal", "over"):
        return False
    p = state.players[seat]
    if seat == state.active and state.step in ("duel_offer", "plant", "trade", "duel_plant"):
        return True
    if state.step == "trade" and (
        (state.may_offer and not state.count.duel) or any(seat in (o.sender, o.receiver) for o in state.offers)
    ):
        return True
    if state.step == "plant_set_aside" and p.set_aside:
        return True
    if may_harvest_now(state, seat) and any(p.fields):
        return True
    return buy_refusal(state, seat) is None


class BohnanzaGame(Game[BohnanzaState]):
    name = "bohnanza"
    title = "Bohnanza"
    min_players = 2
    max_players = 7
    options = (
        OptionSpec(
            "offers_per_turn",
            int,
            0,
            "the most offers (counters included) in one trading phase (0 = no limit, as at a real table)",
            minimum=0,
            maximum=1000,
        ),
        OptionSpec(
            "trade_seconds",
            int,
            0,
            "time limit for trading in seconds, kept by the server, which then ends trading (0 = no limit)",
            minimum=0,
            maximum=3600,
        ),
        OptionSpec("duel_third_field_start", bool, False, "2 players: both start with a third bean field"),
    )
    action_kinds = ACTION_KINDS
    # What the whole table may hear of a refusal: whose move it is, and the controller's own hints.
    public_refusals = frozenset({
        "the table is still dealing",
        "with two players you harvest only on your own turn",
        "there is no trading in the two-player game",
        "trading comes after {active} has turned up the cards (step 2); wait until then",
        "trading is over for this turn: {active} ended it; the next turn trades again",
        "you have nothing to do now: no more offers this turn, {limit} have been made (option offers_per_turn); "
        "wait for the next turn",
        "you have nothing to do now: {active} is taking the cards you left; wait",
        "you have nothing to do now: {active} is planting from the hand; trading comes after the turn-up",
        "you have nothing to do now: {active} is turning up cards; trading comes next",
        "you have nothing to do now: {active} is planting the turned-up cards; the rest come to you",
        "you have nothing to do now: {active} is planting the set-aside cards; wait for your turn",
        "you have nothing to do now: {active} is drawing; wait for your turn",
        "tap the card taken from the deck first",
        "planting from the hand is over: hold your seat button to turn up the cards",
        "none of the face-up cards fits a field: harvest one first (keys 1–3)",
        "keys 1–3 harvest a field and 9 buys the third field; nothing else is keyed in Bohnanza",
        "{player} is the active player",
        # At a real table everyone sees a player harvest before planting; the card itself is not named.
        "the front card of the hand fits no field of {player}: harvest one first (keys 1–3) or buy a third (key 9)",
        "its next set-aside card fits no field of {player}: harvest one first (keys 1–3) or buy a third (key 9)",
    })
    state_type = BohnanzaState
    chance_events = (ChanceEvent("deck", "bean cards dealt, turned up and drawn from the deck", DrawBean),)
    max_game_length = 20_000

    def setup(self, config: GameConfig, rng: random.Random) -> BohnanzaState:
        if config.option("offers_per_turn") < 0:
            raise BadConfig("option offers_per_turn is 0 (no limit) or more")
        if config.option("trade_seconds") < 0:
            raise BadConfig("option trade_seconds is 0 (no limit) or more")
        rules = Rules(
            physical=config.chance_mode("deck") == "physical",
            trade_seconds=config.option("trade_seconds"),
            offers_per_turn=config.option("offers_per_turn"),
            duel_third_field_start=config.option("duel_third_field_start"),
        )
        return new_table(config.players, rules, rng)

    def current_seats(self, state: BohnanzaState) -> tuple[Seat, ...]:
        seats: list[Seat] = [s for s in range(len(state.players)) if may_act(state, s)]
        if awaiting_table(state):
            seats.append(TABLE)
        return tuple(seats)

    def legal_actions(self, state: BohnanzaState, seat: Seat) -> list[Action]:
        if seat == TABLE:
            return [DrawBean(TABLE, c) for c in sorted(state.deck)] if awaiting_table(state) else []
        if not isinstance(seat, int) or not 0 <= seat < len(state.players) or not may_act(state, seat):
            return []
        out = plant_actions(state, seat)
        if state.step == "trade":
            out += trade_actions(state, seat)
        if state.count.duel:
            out += duel_actions(state, seat)
        if may_harvest_now(state, seat):
            out += [Harvest(seat, f) for f in harvestable_fields(state.players[seat])]
        if buy_refusal(state, seat) is None:
            out.append(BuyField(seat))
        return out

    def apply(self, state: BohnanzaState, action: Action) -> tuple[BohnanzaState, list[LogMessage]]:
        log: list[LogMessage] = []
        if isinstance(action, CorrectCoins):
            return apply_correct_coins(state, action, log), log
        if isinstance(action, CorrectField):
            return apply_correct_field(state, action, log), log
        if isinstance(action, CorrectHand):
            return apply_correct_hand(state, action, log), log
        if state.over:
            raise IllegalAction("the game is over: the host can start a new one")
        seat = action.seat
        if seat == HOST:
            if not isinstance(action, EndTrading):
                raise IllegalAction("the host does not {action}; the players do", action=action.kind.replace("_", " "))
        elif seat == TABLE:
            if not isinstance(action, DrawBean):
                raise IllegalAction("the table only reveals cards taken from the deck")
        elif isinstance(action, DrawBean):
            raise IllegalAction("cards taken from the real deck are revealed by the table: tap them on its reader")
        elif seat not in self.current_seats(state):
            raise self._not_now(state, action)
        handler = HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction("{action} is not a Bohnanza action", action=action.kind)
        return handler(state, action, log), log

    def _not_now(self, state: BohnanzaState, action: Action) -> NotYourTurn:
        """Why a seat that may not act now was refused, as precisely as the action allows."""
        seat = action.seat
        if not isinstance(seat, int) or not 0 <= seat < len(state.players):
            return NotYourTurn("there is no player {seat}: the players are 1 to {count}", seat=seat_param(seat),
                               count=len(state.players))
        # Harvests and the third field are allowed at any time, so their own reason is the precise one.
        if isinstance(action, BuyField) and (refusal := buy_refusal(state, seat)):
            return NotYourTurn(refusal.template, **refusal.params)
        if isinstance(action, Harvest) and state.step != "deal":
            if not may_harvest_now(state, seat):
                return NotYourTurn("with two players you harvest only on your own turn; wait for it")
            if refusal := harvest_refusal(state.players[seat], action.field):
                return NotYourTurn(refusal.template, **refusal.params)
        if state.step == "deal":
            return NotYourTurn("the table is still dealing: wait until every hand is dealt")
        if isinstance(action, TRADE_ACTIONS):
            if state.count.duel:
                return NotYourTurn("there is no trading in the two-player game")
            if state.step in ("plant_set_aside", "draw"):
                return NotYourTurn(
                    "trading is over for this turn: {active} ended it; the next turn trades again",
                    active=state.active,
                )
            if state.step != "trade":
                return NotYourTurn(
                    "trading comes after {active} has turned up the cards (step 2); wait until then",
                    active=state.active,
                )
        if state.step == "trade":
            return NotYourTurn(
                "you have nothing to do now: no more offers this turn, {limit} have been made "
                "(option offers_per_turn); wait for the next turn",
                limit=state.rules.offers_per_turn,
            )
        active = {"active": state.active}
        # One whole sentence for each step the active player may be in.
        if state.step == "duel_offer":
            return NotYourTurn("you have nothing to do now: {active} is taking the cards you left; wait", **active)
        if state.step == "plant":
            return NotYourTurn(
                "you have nothing to do now: {active} is planting from the hand; trading comes after the turn-up",
                **active,
            )
        if state.step == "turn_up":
            return NotYourTurn(
                "you have nothing to do now: {active} is turning up cards; trading comes next", **active
            )
        if state.step == "duel_plant":
            return NotYourTurn(
                "you have nothing to do now: {active} is planting the turned-up cards; the rest come to you",
                **active,
            )
        if state.step == "plant_set_aside":
            return NotYourTurn(
                "you have nothing to do now: {active} is planting the set-aside cards; wait for your turn", **active
            )
        if state.step == "draw":
            return NotYourTurn("you have nothing to do now: {active} is drawing; wait for your turn", **active)
        return NotYourTurn("the game is over: the host can start a new one")

    def is_over(self, state: BohnanzaState) -> bool:
        return state.over

    def scores(self, state: BohnanzaState) -> dict[str, Any]:
        return standings(state)

    # The public part of the last state viewed: every seat's view of a change starts from it (8 views of one state
    # in a 7-player fan-out). States are immutable, so the state object itself is the key.
    _public: tuple[BohnanzaState, list[Seat], dict[str, Any]] | None = None

    def view(self, state: BohnanzaState, seat: Seat | None) -> dict[str, Any]:
        kept = self._public
        if kept is not None and kept[0] is state:
            _, current, public = kept
        else:
            current = list(self.current_seats(state))
            public = public_view(state, current)
            self._public = (state, current, public)
        if isinstance(seat, int) and 0 <= seat < len(state.players):
            return private_view(state, seat, current, public)
        return dict(public)

    # -- the table --------------------------------------------------------------------------------
    def board_jobs(self, before: BohnanzaState | None, action: Action | None,
                   after: BohnanzaState) -> list[LogMessage]:
        return table.board_jobs(before, action, after)

    def now(self, state: BohnanzaState) -> Now:
        return table.what_now(state)

    def series(self, state: BohnanzaState) -> dict[str, list[int]]:
        return table.series(state)

    def round_of(self, state: BohnanzaState) -> int:
        return table.round_of(state)

    def tie_break(self, state: BohnanzaState) -> LogMessage | None:
        return table.tie_break(state)

    def correction_forms(self, state: BohnanzaState) -> dict[str, dict[str, Any]]:
        return {**super().correction_forms(state), **correction_forms(state)}

    def indistinguishable(self, state: BohnanzaState, seat: Seat | None, rng: random.Random) -> BohnanzaState:
        return indistinguishable(state, seat, rng)

    def turn_id(self, state: BohnanzaState) -> int:
        return state.turn

    def reveals_information(self, before: BohnanzaState, action: Action, after: BohnanzaState) -> bool:
        return action.seat == TABLE or (not before.rules.physical and before.deck != after.deck)

    def cards(self) -> tuple[str, ...]:
        return beans.CARDS

    def card_words(self, card: str) -> Words:
        return beans.card_words(card) if card in beans.BEAN_OF else super().card_words(card)

    def tag_action(self, state: BohnanzaState, card: str) -> Action:
        return tag_action(state, card)

    def bots(self) -> dict[str, Bot]:
        from companion.games.bohnanza.bots import TraderBot

        return {"random": RandomBot(), "trader": TraderBot()}

    def hints(self, state: BohnanzaState, seat: Seat) -> dict[str, Any]:
        if not isinstance(seat, int) or not 0 <= seat < len(state.players):
            return {}
        return hints(state, seat)


GAME = BohnanzaGame()
