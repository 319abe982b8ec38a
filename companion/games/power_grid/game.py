"""Power Grid's rules engine: setup, whose turn it is, the legal actions, and applying them."""

from __future__ import annotations

import dataclasses
import random
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
    Seat,
    msg,
)
from companion.core.table import Now
from companion.core.words import Words
from companion.games.power_grid import auction, building, bureaucracy, regions, resources, table
from companion.games.power_grid import instructions as say
from companion.games.power_grid.actions import (
    ACTION_KINDS,
    AdjustMoney,
    Bid,
    BuildCity,
    BuyResources,
    ChooseRegions,
    CorrectHouse,
    CorrectStock,
    DeclineToOpen,
    DiscardPlant,
    EndBuilding,
    EndBuying,
    FinishDiscard,
    Fire,
    MovePlant,
    MoveResources,
    OpenAuction,
    Pass,
    RevealPlant,
    RevealStep3,
    SwapPlants,
)
from companion.games.power_grid.corrections import correct_house, correct_stock, move_plant, swap_plants
from companion.games.power_grid.corrections import correction_forms as forms_now
from companion.games.power_grid.data import (
    COUNTS,
    INITIAL_MARKET,
    MAPS,
    PLANTS,
    STARTING_MONEY,
    STEP3,
    TOP_OF_DECK,
    TRACKS,
)
from companion.games.power_grid.flow import advance
from companion.games.power_grid.market import check_reveal, not_available, resolve_draw, reveal_candidates
from companion.games.power_grid.state import Player, PowerGridState
from companion.i18n import N_

PLANT_DRAW = "plant_draw"
CORRECTIONS: dict[type[Action], Any] = {
    CorrectHouse: correct_house, CorrectStock: correct_stock, MovePlant: move_plant, SwapPlants: swap_plants,
}
# A host correction of money: more than the bank ever hands out in a game is a typing slip.
MAX_CORRECTION = 10_000


class PowerGrid(Game[PowerGridState]):
    name = "power_grid"
    title = "Power Grid"
    min_players = 2
    max_players = 6
    options = (
        OptionSpec("map", str, "germany", "the board: germany or usa", choices=("germany", "usa")),
        OptionSpec("open_money", bool, False, "show everyone's Elektro on the table (hidden by default)"),
    )
    action_kinds = ACTION_KINDS
    # What the whole table may hear of a refusal: whose move it is, and the controller's own hints. Everything
    # about a player's money stays with whoever tried (money is hidden unless open_money).
    public_refusals = frozenset({
        "waiting for the table to reveal the plant drawn from the deck: tap that card, then play on",
        "waiting for the host to choose the regions: the host's OK takes the companion's proposal",
        "no plant is to be drawn now: the table taps a card only when the companion asks for the next plant",
        "it is {player}'s turn",
        "it is the turn of seats {players}",
        "nobody may act now: wait until the companion names whose turn it is",
        "draw the top plant of the deck and tap it first",
        "the host chooses the regions first: OK takes the companion's proposal",
        "buy resources on your phone; hold your seat button when you are done",
        "build on your phone; hold your seat button when you are done",
        "{player} has fired already",
        "nothing is pressed for now",
        "OK means nothing now",
        "there is nothing to cancel",
        "Power Grid uses the seat buttons and plant cards; the keypad means nothing here",
        "tap the card of the old plant you discard",
        "move the resources on your phone; hold your seat button (or OK) when done",
        "tap the card of the plant you put up for auction (hold your button to buy none)",
        "{player} chooses the next plant",
        "nobody is to act now",
        "{player} is discarding a plant",
        "it is {player}'s turn to bid or pass",
        # Why a seat waits: who acts now and when its own turn comes (the table sees all of it).
        "{player} buys resources now; you buy after them (reverse turn order)",
        "{player} builds now; you build after them (reverse turn order)",
        "you have finished buying resources this round; you may still move them",
        "you have finished building this round; you build again next round",
        "you have fired your plants this round; the others are firing theirs",
        "you bought plant {plant} this round: you are out of the auctions until the next round",
        "you bought a plant this round: you are out of the auctions until the next round",
        "you chose to buy no plant this round: you are out of the auctions until the next round",
        "{player} has one plant too many and is discarding one; the auctions go on after that",
        "you passed on plant {plant}: you are out of this auction; you may open the next one in turn",
        "{player} bids on plant {plant} now; your turn to bid or pass comes in turn order",
        "{player} chooses the next plant to auction now; you choose after them in turn order",
        "the host only chooses the regions and corrects money; the players make the moves",
        "there is no player {seat}: the players are 1 to {count}",
    })
    state_type = PowerGridState
    chance_events = (
        ChanceEvent(PLANT_DRAW, "a power plant is drawn from the deck (physical: tap the drawn plant)", RevealPlant),
    )
    max_game_length = 12_000

    # -- setup -----------------------------------------------------------------------------------
    def setup(self, config: GameConfig, rng: random.Random) -> PowerGridState:
        n = config.players
        map_id = config.option("map")
        if map_id not in MAPS:
            raise BadConfig("there is no map '{map}': choose germany or usa", map=map_id)
        count = COUNTS[n]
        digital = config.chance_mode(PLANT_DRAW) == "digital"
        seed = rng.getrandbits(48)
        order = list(range(n))
        rng.shuffle(order)
        proposed = regions.propose(map_id, count.regions, rng)
        rest = [p for p in sorted(PLANTS) if p not in INITIAL_MARKET and p != TOP_OF_DECK]
        if digital:
            rng.shuffle(rest)
            setup_removed = tuple(sorted(rest[: count.removed_at_setup]))
            deck = (TOP_OF_DECK, *rest[count.removed_at_setup :], STEP3)
            pool: frozenset[int] = frozenset()
        else:
            setup_removed = ()
            deck = (TOP_OF_DECK, *([0] * (len(rest) - count.removed_at_setup)), STEP3)
            pool = frozenset(rest)
        return PowerGridState(
            map=map_id,
            open_money=bool(config.option("open_money")),
            seed=seed,
            digital=digital,
            phase="regions",
            round=1,
            step=1,
            order=tuple(order),
            players=tuple(Player(STARTING_MONEY) for _ in range(n)),
            proposed_regions=proposed,
            market=INITIAL_MARKET,
            deck=deck,
            pool=pool,
            setup_removed=setup_removed,
            resources=(TRACKS[0].start, TRACKS[1].start, TRACKS[2].start, TRACKS[3].start),
            instructions=(*say.setup_market(n, count.removed_at_setup), say.choose_regions(count.regions)),
        )

    # -- who acts --------------------------------------------------------------------------------
    def current_seats(self, state: PowerGridState) -> tuple[Seat, ...]:
        phase = state.phase
        if phase == "over":
            return ()
        if phase == "regions":
            return (HOST,)
        if state.draws and state.deck:
            return (TABLE,)
        if phase == "auction":
            if state.discard is not None:
                return (state.discard.seat,)
            if state.auction is not None:
                return (state.auction.turn,)
            chooser = state.chooser()
            return (chooser,) if chooser is not None else ()
        if phase in ("resources", "building"):
            return state.queue[:1]
        if phase == "bureaucracy":
            return state.queue
        return ()

    def legal_actions(self, state: PowerGridState, seat: Seat) -> list[Action]:
        if seat not in self.current_seats(state):
            # Resources move between one's own plants at any time (RULINGS), also while others act. Such a move
            # changes nobody's turn, so no count of moves limits it (the playouts only ask the seats that act).
            if self._moves_any_time(state, seat):
                assert isinstance(seat, int)
                return list(resources.move_options(state.players[seat], seat))
            return []
        if seat == TABLE:
            return [RevealStep3(TABLE) if c == STEP3 else RevealPlant(TABLE, c) for c in reveal_candidates(state)]
        if seat == HOST:
            proposed = state.proposed_regions
            others = [s for s in regions.valid_sets(state.map, state.counts.regions) if s != proposed]
            return [ChooseRegions(HOST, s) for s in (proposed, *others)]
        assert isinstance(seat, int)
        player = state.players[seat]
        phase = state.phase
        out: list[Action] = []
        if phase == "auction":
            pending = state.discard
            if pending is not None:
                # First a rearrangement of what the plants hold (offered a few times), then the discard, then
                # where the discarded plant's resources go.
                others = tuple(h.plant for h in player.plants if h.plant != pending.plant)
                if pending.plant is None:
                    out += [DiscardPlant(seat, h.plant) for h in player.plants if h.plant != pending.new_plant]
                    if state.moves < resources.MOVES_OFFERED:
                        out += resources.move_options(player, seat)
                    return out
                out += resources.move_options(player, seat, sources=(pending.plant,))
                if state.moves < resources.MOVES_OFFERED:
                    out += resources.move_options(player, seat, sources=others, targets=others)
                out.append(FinishDiscard(seat))
                return out
            if state.auction is not None:
                out += [Bid(seat, a) for a in auction.bid_amounts(state.auction.price + 1, player.money)]
                out.append(Pass(seat))
            else:
                for plant in state.current_market():
                    out += [OpenAuction(seat, plant, b) for b in auction.bid_amounts(plant, player.money)]
                if not auction.must_buy(state, seat):
                    out.append(DeclineToOpen(seat))
            # Resources move at any time (RULINGS), also on one's own turn to bid or choose.
            if state.moves < resources.MOVES_OFFERED:
                out += resources.move_options(player, seat)
            return out
        if phase == "resources":
            out += resources.buy_options(state, seat)
            if state.moves < resources.MOVES_OFFERED:
                out += resources.move_options(player, seat)
            out.append(EndBuying(seat))
            return out
        if phase == "building":
            out += building.build_options(state, seat)
            out.append(EndBuilding(seat))
            if state.moves < resources.MOVES_OFFERED:
                out += resources.move_options(player, seat)
            return out
        if phase == "bureaucracy":
            out += bureaucracy.fire_options(state, seat)  # the best firing first: bots and hints take it
            if state.moves < resources.MOVES_OFFERED:
                out += resources.move_options(player, seat)
            return out
        return out

    # -- applying actions ------------------------------------------------------------------------
    def apply(self, state: PowerGridState, action: Action) -> tuple[PowerGridState, list[LogMessage]]:
        if isinstance(action, AdjustMoney):
            return self._adjust_money(state, action)
        if isinstance(action, CorrectHouse | CorrectStock | MovePlant | SwapPlants):
            if state.phase == "over":
                raise IllegalAction("the game is over; only money can still be corrected")
            fix = CORRECTIONS[type(action)]
            new, log = fix(dataclasses.replace(state, instructions=()), action)
            new = dataclasses.replace(new, fixes=new.fixes + 1)
            if self.current_seats(new) != self.current_seats(state):  # a refill the real table must reveal
                new = dataclasses.replace(new, turn_no=new.turn_no + 1, moves=0)
            return new, log
        seats = self.current_seats(state)
        if action.seat not in seats:
            if isinstance(action, MoveResources) and self._moves_any_time(state, action.seat):
                return self._move_off_turn(state, action)
            raise self._not_your_turn(state, action, seats)
        start = dataclasses.replace(state, instructions=())
        new, log = self._dispatch(start, action)
        log = list(log)
        new = advance(new, log)
        if self.current_seats(new) != seats or new.phase != state.phase or new.round != state.round:
            new = dataclasses.replace(new, turn_no=new.turn_no + 1, moves=0)
        return new, log

    @staticmethod
    def _moves_any_time(state: PowerGridState, seat: Seat) -> bool:
        """Resources move between one's own plants at any time of the game (RULINGS)."""
        return isinstance(seat, int) and 0 <= seat < state.n and state.phase not in ("regions", "over")

    def _move_off_turn(
        self, state: PowerGridState, action: MoveResources
    ) -> tuple[PowerGridState, list[LogMessage]]:
        # Nobody's turn changes, so neither the turn id nor the count of moves offered to the acting seat does.
        new, log = resources.move(dataclasses.replace(state, instructions=()), action)
        return dataclasses.replace(new, moves=state.moves), log

    def _not_your_turn(self, state: PowerGridState, action: Action, seats: tuple[Seat, ...]) -> NotYourTurn:
        """Why this seat may not act now, and what it can do instead, as precisely as the moment allows."""
        seat = action.seat
        if state.phase == "over":
            return NotYourTurn("the game is over: the host can start a new one")
        if seats == (TABLE,):
            return NotYourTurn("waiting for the table to reveal the plant drawn from the deck: tap that card, then "
                               "play on")
        if seats == (HOST,):
            return NotYourTurn("waiting for the host to choose the regions: the host's OK takes the companion's "
                               "proposal")
        if seat == TABLE:
            return NotYourTurn("no plant is to be drawn now: the table taps a card only when the companion asks for "
                               "the next plant")
        if seat == HOST:
            return NotYourTurn("the host only chooses the regions and corrects money; the players make the moves")
        if not isinstance(seat, int) or not 0 <= seat < state.n:
            return NotYourTurn("there is no player {seat}: the players are 1 to {count}",
                               seat=seat + 1 if isinstance(seat, int) else str(seat), count=state.n)
        players = tuple(s for s in seats if isinstance(s, int))
        if state.phase == "auction":
            return _auction_turn(state, seat, players)
        if state.phase == "resources":
            if seat not in state.queue:
                return NotYourTurn("you have finished buying resources this round; you may still move them")
            return NotYourTurn(
                "{player} buys resources now; you buy after them (reverse turn order)", player=players[0]
            )
        if state.phase == "building":
            if seat not in state.queue:
                return NotYourTurn("you have finished building this round; you build again next round")
            return NotYourTurn("{player} builds now; you build after them (reverse turn order)", player=players[0])
        if state.phase == "bureaucracy":
            return NotYourTurn("you have fired your plants this round; the others are firing theirs")
        return NotYourTurn("nobody may act now: wait until the companion names whose turn it is")

    def _dispatch(self, state: PowerGridState, action: Action) -> tuple[PowerGridState, list[LogMessage]]:
        phase = state.phase
        reveal = isinstance(action, RevealPlant | RevealStep3)
        if (action.seat == TABLE) != reveal:
            raise IllegalAction("only the table reveals drawn plants, and it does nothing else")
        if reveal:
            card = STEP3 if isinstance(action, RevealStep3) else action.plant  # type: ignore[attr-defined]
            check_reveal(state, card)
            state, todo, log = resolve_draw(state, card)
            return dataclasses.replace(state, instructions=(*state.instructions, *todo)), log
        if (action.seat == HOST) != isinstance(action, ChooseRegions):
            raise IllegalAction("the host chooses the regions; players make every other move")
        if isinstance(action, ChooseRegions):
            return regions.choose(state, tuple(action.regions))
        if phase == "auction" and not (isinstance(action, MoveResources) and state.discard is None):
            return self._auction(state, action)
        if isinstance(action, MoveResources):
            return resources.move(state, action)
        if phase == "resources":
            if isinstance(action, BuyResources):
                return resources.buy(state, action)
            if isinstance(action, EndBuying):
                return dataclasses.replace(state, queue=state.queue[1:]), [
                    msg("{player} finished buying", player=action.seat)
                ]
            raise IllegalAction("now is the time to buy resources, not to {action}: buy, or finish buying",
                                action=kind_words(action))
        if phase == "building":
            if isinstance(action, BuildCity):
                return building.build(state, action)
            if isinstance(action, EndBuilding):
                return dataclasses.replace(state, queue=state.queue[1:]), [
                    msg("{player} finished building", player=action.seat)
                ]
            raise IllegalAction("now is the time to build, not to {action}: build, or finish building",
                                action=kind_words(action))
        if phase == "bureaucracy":
            if isinstance(action, Fire):
                return bureaucracy.fire(state, action)
            raise IllegalAction("now is the time to fire plants, not to {action}: fire your plants",
                                action=kind_words(action))
        raise IllegalAction(
            "{action} is not possible now: choose one of the moves your phone offers",
            action=kind_words(action)
        )

    def _auction(self, state: PowerGridState, action: Action) -> tuple[PowerGridState, list[LogMessage]]:
        if state.discard is not None:
            return auction.over_the_limit(state, action)
        if state.auction is not None:
            if isinstance(action, Bid):
                return auction.bid(state, action)
            if isinstance(action, Pass):
                return auction.pass_(state, action)
            raise IllegalAction("plant {plant} is on auction: bid or pass", plant=state.auction.plant)
        if isinstance(action, OpenAuction):
            return auction.open_auction(state, action)
        if isinstance(action, DeclineToOpen):
            return auction.decline(state, action)
        raise IllegalAction("choose a plant to auction, or buy none this round")

    def _adjust_money(self, state: PowerGridState, action: AdjustMoney) -> tuple[PowerGridState, list[LogMessage]]:
        if action.seat != HOST:
            raise IllegalAction("only the host corrects money: ask the host")
        if not 0 <= action.target < state.n:
            raise IllegalAction("there is no player {seat}: the players are 1 to {count}", seat=action.target + 1,
                                count=state.n)
        if abs(action.delta) > MAX_CORRECTION:
            raise IllegalAction("a correction is at most {limit} Elektro either way: make a bigger one in steps",
                                limit=MAX_CORRECTION)
        player = state.players[action.target]
        if player.money + action.delta < 0:
            raise IllegalAction(
                "{player} has only {money} Elektro, so a correction takes away at most that",
                player=action.target,
                money=player.money,
            )
        state = resources.set_player(
            state, action.target, dataclasses.replace(player, money=player.money + action.delta)
        )
        state = dataclasses.replace(state, corrections=state.corrections + action.delta)
        return state, [
            msg("The host corrected {player}'s Elektro by {delta}", player=action.target, delta=action.delta)
        ]

    def correction_forms(self, state: PowerGridState) -> dict[str, dict[str, Any]]:
        # The board's corrections are offered as lists of what is on it, once there is a board (regions chosen).
        base = {k: v for k, v in super().correction_forms(state).items()
                if k not in {c.kind for c in CORRECTIONS}}
        return {**base, **forms_now(state)}

    # -- the end ---------------------------------------------------------------------------------
    def is_over(self, state: PowerGridState) -> bool:
        return state.phase == "over"

    def scores(self, state: PowerGridState) -> dict[str, Any]:
        from companion.games.power_grid.views import final_scores

        return final_scores(state)

    def view(self, state: PowerGridState, seat: Seat | None) -> dict[str, Any]:
        from companion.games.power_grid.views import view

        return view(self, state, seat)

    # -- the table --------------------------------------------------------------------------------
    def board_jobs(self, before: PowerGridState | None, action: Action | None,
                   after: PowerGridState) -> list[LogMessage]:
        return table.board_jobs(before, action, after)

    def now(self, state: PowerGridState) -> Now:
        return table.what_now(state)

    def series(self, state: PowerGridState) -> dict[str, list[int]]:
        return table.series(state)

    def round_of(self, state: PowerGridState) -> int:
        return state.round

    def tie_break(self, state: PowerGridState) -> LogMessage | None:
        return table.tie_break(state)

    def indistinguishable(self, state: PowerGridState, seat: Seat | None, rng: random.Random) -> PowerGridState:
        players = state.players
        if not state.open_money and state.phase != "over":
            players = tuple(
                p if s == seat else dataclasses.replace(p, money=rng.randint(0, 300)) for s, p in enumerate(players)
            )
        deck = list(state.deck)
        setup_removed = state.setup_removed
        if state.digital:
            if STEP3 in deck:
                # Above the Step 3 card the order is secret (except plant 13 still on top); below it, the plants
                # put back in phase 5 are known. The plants removed at setup could be any of the secret ones.
                start = 1 if deck and deck[0] == TOP_OF_DECK else 0
                end = deck.index(STEP3)
                secret = deck[start:end] + list(setup_removed)
                rng.shuffle(secret)
                deck[start:end] = secret[: end - start]
                setup_removed = tuple(sorted(secret[end - start :]))
            elif state.step3_out:
                rng.shuffle(deck)
        return dataclasses.replace(state, players=players, deck=tuple(deck), setup_removed=setup_removed)

    def turn_id(self, state: PowerGridState) -> int:
        return state.turn_no

    def reveals_information(self, before: PowerGridState, action: Action, after: PowerGridState) -> bool:
        return action.seat == TABLE or after.drawn > before.drawn

    # -- physical cards --------------------------------------------------------------------------
    def cards(self) -> tuple[str, ...]:
        return (*(f"plant-{p:02d}" for p in sorted(PLANTS)), "step-3")

    def card_words(self, card: str) -> Words:
        number = _card_number(card)
        return Words(N_("the Step 3 card")) if number == STEP3 else Words(N_("plant {n}"), {"n": number})

    def tag_action(self, state: PowerGridState, card: str) -> Action:
        number = _card_number(card)
        seats = self.current_seats(state)
        if TABLE in seats:
            check_reveal(state, number)
            return RevealStep3(TABLE) if number == STEP3 else RevealPlant(TABLE, number)
        if state.phase == "auction" and len(seats) == 1 and isinstance(seats[0], int):
            seat = seats[0]
            pending = state.discard
            if pending is not None and pending.plant is None:
                if state.players[seat].holding(number) is not None and number != pending.new_plant:
                    return DiscardPlant(seat, number)
            elif state.auction is None and pending is None and number in state.current_market():
                return OpenAuction(seat, number, number)
        raise not_available(state, number)

    # -- helpers ---------------------------------------------------------------------------------
    def bots(self) -> dict[str, Any]:
        from companion.games.power_grid.bots import HeuristicBot

        return {**super().bots(), "heuristic": HeuristicBot()}

    def hints(self, state: PowerGridState, seat: Seat) -> dict[str, Any]:
        from companion.games.power_grid.hints import hints

        return hints(state, seat)


def _auction_turn(state: PowerGridState, seat: int, players: tuple[int, ...]) -> NotYourTurn:
    """Phase 2: why this seat waits — out of the auctions this round, out of this auction, or not yet its turn."""
    if seat in state.bought:
        if len(state.bought_plants) != len(state.bought):  # a state saved before the plants were recorded
            return NotYourTurn("you bought a plant this round: you are out of the auctions until the next round")
        return NotYourTurn(
            "you bought plant {plant} this round: you are out of the auctions until the next round",
            plant=state.bought_plants[state.bought.index(seat)],
        )
    if seat in state.done:
        return NotYourTurn("you chose to buy no plant this round: you are out of the auctions until the next round")
    if state.discard is not None:
        return NotYourTurn(
            "{player} has one plant too many and is discarding one; the auctions go on after that",
            player=state.discard.seat,
        )
    running = state.auction
    if running is not None:
        if seat not in running.active:
            return NotYourTurn(
                "you passed on plant {plant}: you are out of this auction; you may open the next one in turn",
                plant=running.plant,
            )
        return NotYourTurn("{player} bids on plant {plant} now; your turn to bid or pass comes in turn order",
                           player=players[0], plant=running.plant)
    return NotYourTurn(
        "{player} chooses the next plant to auction now; you choose after them in turn order", player=players[0]
    )


def _card_number(card: str) -> int:
    if card == "step-3":
        return STEP3
    if card.startswith("plant-") and card[6:].isdigit() and int(card[6:]) in PLANTS:
        return int(card[6:])
    raise IllegalAction("'{card}' is not a Power Grid card; enroll this tag first", card=card)


def kind_words(action: Action) -> str:
    """An action's kind as refusals name it ("open auction")."""
    return action.kind.replace("_", " ")
