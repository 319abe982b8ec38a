"""The Shifting Stones engine: setup, who acts, legal actions, dispatch to the rules, secrets and NFC taps."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from companion.core.actions import Action
from companion.core.errors import IllegalAction, NotYourTurn
from companion.core.game import Bot, ChanceEvent, Game, GameConfig, OptionSpec, RandomBot, chance_rng
from companion.core.log import LogMessage, msg
from companion.core.seats import HOST, TABLE, Seat
from companion.core.table import Now
from companion.core.words import Words
from companion.games.shifting_stones import hints, scoring, table, turns, views
from companion.games.shifting_stones.actions import (
    ALL_ACTIONS,
    CorrectGrid,
    CorrectScore,
    DrawPattern,
    EndTurn,
    FlipStone,
    ScoreCard,
    SetGrid,
    ShiftStones,
    SkipTurn,
)
from companion.games.shifting_stones.bots import GreedyBot
from companion.games.shifting_stones.deck import composition, deal, reveal
from companion.games.shifting_stones.patterns import (
    CARD_IDS,
    CELLS,
    NEIGHBOURS,
    PATTERNS,
    check_grid,
    matches,
    random_grid,
)
from companion.games.shifting_stones.state import StonesState, evolve, located, place, possible_draws

# How many example grids legal_actions offers the table while the starting grid is awaited: the table may enter
# any of the 2,580,480 grids the stones can make (SetGrid checks it), far too many to list.
GRID_EXAMPLES = 8
# A host correction never needs more than a whole game's points (72 cards of at most 5).
MAX_CORRECTION = 400


@lru_cache(maxsize=4096)
def _moves_with(seat: int, card: str) -> tuple[Action, ...]:
    """Every shift and flip paying with this card (the same 21 every time: built once)."""
    shifts = tuple(ShiftStones(seat, card, a, b) for a, b in NEIGHBOURS)
    return shifts + tuple(FlipStone(seat, card, cell) for cell in CELLS)


class ShiftingStones(Game[StonesState]):
    name = "shifting_stones"
    title = "Shifting Stones"
    min_players = 1
    max_players = 5
    options = (
        OptionSpec("hints", bool, True, "phones show exact hints: fewest shifts and flips per card, and the best turn"),
    )
    action_kinds = ALL_ACTIONS
    # What the whole table may hear of a refusal: whose move it is, and the controller's own hints.
    public_refusals = frozenset({
        "the table is still setting up: waiting for the starting grid and the dealt cards",
        "the table is still setting up: waiting for the starting grid",
        "the table is still setting up: waiting for the dealt cards",
        "the table is drawing a card for {player}",
        "no card is being drawn now and the grid is set",
        "it is {player}'s turn",
        "tap the card drawn from the deck first",
        "OK means nothing during a turn: keys pick stones, the seat button ends the turn",
        "{player} has no card left to pay for a move",
        "enter the starting grid first: keys 1–8 name the faces, row by row from the top left",
        "the grid has nine stones and {entered} are entered",
        "keys 1–8 are the faces: {faces}",
        "nine faces are entered: OK enters the grid, BACK takes the last one back",
    })
    state_type = StonesState
    chance_events = (
        ChanceEvent("grid", "the starting grid of stones (physical: entered once, keypad or host page)", SetGrid),
        ChanceEvent("deck", "the pattern cards dealt and drawn (physical: each drawn card is tapped)", DrawPattern),
    )
    # Random play scores rarely (a score is one legal action among ~90), so its games run to 5,000-15,000 actions.
    max_game_length = 40_000

    # -- setup and turn order --------------------------------------------------------------------------------
    def setup(self, config: GameConfig, rng: random.Random) -> StonesState:
        players = config.players
        seed = rng.randrange(2**31)
        grid = random_grid(rng) if config.chance_mode("grid") == "digital" else ()
        deck_mode = config.chance_mode("deck")
        hands, deck, pending = deal(players, deck_mode, rng)
        return StonesState(
            players=hands,
            grid=grid,
            deck=deck,
            returned=frozenset(),
            discard=(),
            composition=composition(players),
            deck_mode=deck_mode,
            phase="play" if grid and not pending else "setup",
            turn=0,
            turns_taken=0,
            acted=0,
            scored_this_turn=0,
            pending=pending,
            final_round=False,
            strikes=0,
            result="",
            seed=seed,
            reshuffles=0,
            show_hints=bool(config.option("hints")),
        )

    def current_seats(self, state: StonesState) -> tuple[Seat, ...]:
        return views.current_seats(state)

    def legal_actions(self, state: StonesState, seat: Seat) -> list[Action]:
        if seat not in self.current_seats(state):
            return []
        if seat == TABLE:
            out: list[Action] = []
            if not state.grid:
                rng = chance_rng(state.seed, "grid examples")
                out += [SetGrid(TABLE, random_grid(rng)) for _ in range(GRID_EXAMPLES)]
            if state.pending:
                out += [DrawPattern(TABLE, c) for c in possible_draws(state)]
            return out
        assert isinstance(seat, int)
        hand = state.players[seat].hand
        grid = state.codes()
        out: list[Action] = [ScoreCard(seat, c) for c in hand if matches(grid, PATTERNS[c])]
        for c in hand:
            out += _moves_with(seat, c)
        if not state.acted and not state.current.skipped_last_turn:
            out.append(SkipTurn(seat))
        out.append(EndTurn(seat))
        return out

    # -- applying actions ------------------------------------------------------------------------------------
    def apply(self, state: StonesState, action: Action) -> tuple[StonesState, list[LogMessage]]:
        if isinstance(action, (CorrectScore, CorrectGrid)):
            return self._correct(state, action)
        if action.seat == HOST:
            raise IllegalAction("the host only corrects the score or the grid; {action} is a player's move",
                                action=action.kind)
        if state.phase == "over":
            raise IllegalAction("the game is over: the host can start a new one")
        if action.seat not in self.current_seats(state):
            raise self._whose_move(state, action.seat)
        if action.seat == TABLE:
            if isinstance(action, SetGrid):
                return self._set_grid(state, action)
            if isinstance(action, DrawPattern):
                new, log = reveal(state, action.card)
                return self._after_draws(new), log
            raise IllegalAction(
                "the table enters the grid and the cards drawn; {action} is a player's move", action=action.kind
            )
        if isinstance(action, ShiftStones):
            return turns.shift(state, action)
        if isinstance(action, FlipStone):
            return turns.flip(state, action)
        if isinstance(action, ScoreCard):
            return turns.score(state, action)
        if isinstance(action, EndTurn):
            return turns.end_turn(state, skipped=False)
        if isinstance(action, SkipTurn):
            return turns.end_turn(state, skipped=True)
        raise IllegalAction("{action} is the table's to enter, not a player's", action=action.kind)

    def _whose_move(self, state: StonesState, seat: Seat) -> NotYourTurn:
        if state.phase == "setup" and not state.grid and state.pending:
            return NotYourTurn("the table is still setting up: the starting grid and the dealt cards come first; "
                               "then the game starts")
        if state.phase == "setup" and not state.grid:
            return NotYourTurn("the table is still setting up: the starting grid comes first; then the game starts")
        if state.phase == "setup":
            return NotYourTurn("the table is still setting up: the dealt cards come first; then the game starts")
        if state.phase == "draw":
            return NotYourTurn("the table is drawing a card for {player}: the game goes on once it is tapped",
                               player=state.pending[0])
        if seat == TABLE:
            return NotYourTurn("no card is being drawn now and the grid is set: the table waits for the next end of "
                               "a turn")
        return NotYourTurn("it is {player}'s turn; yours comes in seat order", player=state.turn)

    def _set_grid(self, state: StonesState, action: SetGrid) -> tuple[StonesState, list[LogMessage]]:
        if state.grid:
            raise IllegalAction("the starting grid is already set; the host can correct it")
        grid = check_grid(action.faces)
        state = self._after_draws(evolve(state, grid=grid))
        return state, [msg("The table set the starting grid: {faces}", faces=grid)]

    def _after_draws(self, state: StonesState) -> StonesState:
        """Once the table owes no more cards: the game starts (setup) or the next turn does (draw)."""
        if state.pending:
            return state
        if state.phase == "draw":
            return turns.next_turn(state)
        if state.phase == "setup" and state.grid:
            return evolve(state, phase="play")
        return state

    def _correct(self, state: StonesState, action: CorrectScore | CorrectGrid) -> tuple[StonesState, list[LogMessage]]:
        if action.seat != HOST:
            raise IllegalAction("only the host makes corrections: ask the host")
        if isinstance(action, CorrectGrid):
            grid = check_grid(action.faces)
            state = self._after_draws(evolve(state, grid=grid, last_cells=()))
            return state, [msg("The host corrected the grid to {faces}", faces=grid)]
        if not 0 <= action.target < len(state.players):
            raise IllegalAction("there is no player {number}: players are 1 to {players}", number=action.target + 1,
                                players=len(state.players))
        if action.delta == 0:
            raise IllegalAction("a correction of 0 points changes nothing: add or take away at least 1 point")
        if abs(action.delta) > MAX_CORRECTION:
            raise IllegalAction("a correction is at most {limit} points either way: make a bigger one in steps",
                                limit=MAX_CORRECTION)
        players = list(state.players)
        p = players[action.target]
        if scoring.points(state, action.target) + action.delta < 0:
            raise IllegalAction("{player} has {points} points and a score cannot go below 0: take away at most "
                                "{points}", player=action.target,
                                points=scoring.points(state, action.target))
        players[action.target] = evolve(p, correction=p.correction + action.delta)
        return evolve(state, players=tuple(players)), [
            msg("The host corrected {player}'s score by {delta}", player=action.target, delta=action.delta)
        ]

    # -- results and views -----------------------------------------------------------------------------------
    def is_over(self, state: StonesState) -> bool:
        return state.phase == "over"

    def scores(self, state: StonesState) -> dict[str, Any]:
        return scoring.summary(state)

    def view(self, state: StonesState, seat: Seat | None) -> dict[str, Any]:
        return views.view(state, seat)

    # -- the table --------------------------------------------------------------------------------
    def board_jobs(self, before: StonesState | None, action: Action | None, after: StonesState) -> list[LogMessage]:
        return table.board_jobs(before, action, after)

    def now(self, state: StonesState) -> Now:
        return table.what_now(state)

    def series(self, state: StonesState) -> dict[str, list[int]]:
        return table.series(state)

    def round_of(self, state: StonesState) -> int:
        return table.round_of(state)

    def tie_break(self, state: StonesState) -> LogMessage | None:
        return table.tie_break(state)

    def hints(self, state: StonesState, seat: Seat) -> dict[str, Any]:
        if not state.show_hints:
            return {"disabled": True}
        if not isinstance(seat, int) or state.phase == "over":
            return {}
        return hints.advice(state, seat)

    def indistinguishable(self, state: StonesState, seat: Seat | None, rng: random.Random) -> StonesState:
        others = [s for s in range(len(state.players)) if s != seat]
        pool = [c for s in others for c in state.players[s].hand]
        if state.deck_mode == "digital":
            pool += state.deck
        elif not state.solo:
            # Every card of the game is in play: what the seat has not seen may be in any hidden place.
            pool += sorted(state.returned) + sorted(set(CARD_IDS) - located(state))
        rng.shuffle(pool)
        players = list(state.players)
        for s in others:
            size = len(players[s].hand)
            players[s] = evolve(players[s], hand=tuple(pool[:size]))
            pool = pool[size:]
        if state.deck_mode == "digital":
            return evolve(state, players=tuple(players), deck=tuple(pool))
        if state.solo:
            return state
        return evolve(state, players=tuple(players), returned=frozenset(pool[: len(state.returned)]))

    # -- undo ------------------------------------------------------------------------------------------------
    def turn_id(self, state: StonesState) -> int:
        return state.turns_taken

    def reveals_information(self, before: StonesState, action: Action, after: StonesState) -> bool:
        if action.seat == TABLE:
            return True
        return after.deck != before.deck or after.reshuffles != before.reshuffles

    # -- physical cards --------------------------------------------------------------------------------------
    def cards(self) -> tuple[str, ...]:
        return CARD_IDS

    def warm_up(self) -> None:
        # Every card placement's swap table and every card's table of layouts (about a second of CPU, 15 MB): the
        # first hints' budget then goes to the search.
        from companion.games.shifting_stones import distance

        distance.warm_up()

    def card_words(self, card: str) -> Words:
        pattern = PATTERNS.get(card)
        return pattern.words() if pattern else super().card_words(card)

    def tag_action(self, state: StonesState, card: str) -> Action:
        if card not in PATTERNS:
            raise IllegalAction("'{card}' is not a Shifting Stones card: enroll this tag first", card=card)
        if state.phase == "over":
            raise IllegalAction("the game is over: the host can start a new one")
        if state.pending:
            if card in possible_draws(state):
                return DrawPattern(TABLE, card)
            raise _not_drawable(state, card)
        if not state.grid:
            raise IllegalAction("no card scores before the starting grid is set: enter the grid first")
        seat = state.turn
        if card in state.players[seat].hand:
            if matches(state.codes(), PATTERNS[card]):
                return ScoreCard(seat, card)
            raise IllegalAction(
                "pattern {card} ({pattern}) does not match the grid now: shift or flip stones first",
                card=card, pattern=PATTERNS[card].text()
            )
        raise _elsewhere(state, card)

    # -- bots ------------------------------------------------------------------------------------------------
    def bots(self) -> dict[str, Bot]:
        return {"random": RandomBot(), "greedy": GreedyBot()}


# A tapped card the game cannot use now, described as on the host page's card list (its id and its pattern), then
# where it is: one whole sentence for each place.


def _not_drawable(state: StonesState, card: str) -> IllegalAction:
    kind, owner = place(state, card)
    about = {"card": card, "pattern": PATTERNS[card].text()}
    if kind == "scored" and state.solo:
        return IllegalAction("pattern {card} ({pattern}) cannot be the card drawn: it is already scored; tap the "
                             "card just drawn",
                             **about)
    if kind == "scored":
        return IllegalAction(
            "pattern {card} ({pattern}) cannot be the card drawn: it is already scored by {player}; tap the card just "
            "drawn",
            player=owner,
            **about,
        )
    if kind == "hand":
        return IllegalAction(
            "pattern {card} ({pattern}) cannot be the card drawn: it is in {player}'s hand; tap the card just drawn",
            player=owner, **about
        )
    if kind == "discard":
        return IllegalAction("pattern {card} ({pattern}) cannot be the card drawn: it is in the discard pile; tap "
                             "the card "
                         "just drawn", **about)
    # Cards are drawn only from a physical deck, whose returned cards may all be drawn: the rest are unseen.
    return IllegalAction("pattern {card} ({pattern}) cannot be the card drawn: it is not drawn yet; tap the card just "
                         "drawn", **about)


def _elsewhere(state: StonesState, card: str) -> IllegalAction:
    """The card is not in the hand of the seat whose turn it is."""
    kind, owner = place(state, card)
    about = {"card": card, "pattern": PATTERNS[card].text()}
    if kind == "scored" and state.solo:
        return IllegalAction("pattern {card} ({pattern}) is already scored: tap a card of the hand whose turn it is",
                             **about)
    if kind == "scored":
        return IllegalAction("pattern {card} ({pattern}) is already scored by {player}: tap a card of the hand "
                             "whose turn "
                             "it is", player=owner, **about)
    if kind == "hand":
        return IllegalAction("pattern {card} ({pattern}) is in {player}'s hand: tap a card of the hand whose turn "
                             "it is",
                             player=owner, **about)
    if kind == "discard":
        return IllegalAction("pattern {card} ({pattern}) is in the discard pile: tap a card of the hand whose turn "
                             "it is",
                             **about)
    if kind == "deck":
        return IllegalAction("pattern {card} ({pattern}) is in the deck: it scores once it is drawn", **about)
    if kind == "outside":
        return IllegalAction("pattern {card} ({pattern}) is not in this game's deck: put it aside", **about)
    return IllegalAction("pattern {card} ({pattern}) is not drawn yet: it scores once it is drawn", **about)


GAME = ShiftingStones()
