"""Shifting Stones at the controller: the keypad is the grid (two neighbours swap, one key twice flips), taps score."""

from __future__ import annotations

from companion.core.actions import Action
from companion.core.errors import IllegalAction, NotYourTurn
from companion.core.seats import TABLE
from companion.games.shifting_stones.actions import (
    DrawPattern,
    EndTurn,
    FlipStone,
    ScoreCard,
    SetGrid,
    ShiftStones,
    SkipTurn,
)
from companion.games.shifting_stones.hints import spend_order, turn_plan
from companion.games.shifting_stones.patterns import CELL_NAMES, FACES, NEIGHBOUR_SET, PATTERNS, matches
from companion.games.shifting_stones.state import StonesState
from companion.play.router import Binding, Context, Decision, Note, Press, key_press, note, seat_press, tap

# Which card a shift or flip spends, when none was tapped, comes from the best-turn search.
SEARCHES = True

FACE_KEYS = ", ".join(f"{i + 1} {face}" for i, face in enumerate(FACES))

BINDINGS: tuple[Binding, ...] = (
    Binding("setup: the starting grid (physical stones)", "keys 1–8",
            f"the face of the next stone, row by row from the top left ({FACE_KEYS})"),
    Binding("setup: the starting grid (physical stones)", "BACK", "takes the last face back"),
    Binding("setup: the starting grid (physical stones)", "OK", "enters the nine faces (`set_grid`)"),
    Binding("a card is owed (physical deck)", "tap the card drawn", "it goes to the hand of the seat drawing"),
    Binding("a turn", "tap a card of your hand that is on the grid", "scores it"),
    Binding("a turn", "tap a card of your hand that is not on the grid",
            "that card pays for the next shift or flip (otherwise the companion spends the card the hints would)"),
    Binding("a turn", "a key of the 3×3 keypad", "picks that stone"),
    Binding("a turn", "then the key of a neighbour in its row or column", "swaps the two stones (a shift)"),
    Binding("a turn", "then the same key again", "turns the stone over (a flip)"),
    Binding("a turn", "then any other key", "picks that stone instead"),
    Binding("a turn", "BACK", "forgets the picked stone and the card to pay with"),
    Binding("a turn", "the player's seat button held", "ends the turn: draw back up to 4"),
    Binding("a turn", "the player's seat button pressed twice", "skips: draw 2 instead of acting"),
)


def interpret(ctx: Context, press: Press) -> Decision:
    state: StonesState = ctx.state
    if press.source == "tag":
        assert press.card is not None
        return _tap(ctx, state, press.card)
    if not state.grid:
        return _grid_entry(ctx, press)
    if state.pending:
        raise IllegalAction("tap the card drawn from the deck first")
    seat = state.turn
    if press.source == "seat":
        if press.seat != seat:
            raise NotYourTurn("it is {player}'s turn", player=seat)
        if press.gesture == "long":
            return ctx.act(EndTurn(seat))
        if press.gesture == "double":
            return ctx.act(SkipTurn(seat))
        return Note("hold the seat button to end the turn, press it twice to skip", seat)
    if press.is_key("back"):
        ctx.memory.picked = None
        ctx.memory.spend = None
        return Note("no stone picked", seat)
    digit = press.digit
    if digit is None:
        raise IllegalAction("OK means nothing during a turn: keys pick stones, the seat button ends the turn")
    return _stone(ctx, state, seat, digit - 1, press)


def _tap(ctx: Context, state: StonesState, card: str) -> Decision:
    seat = state.turn
    in_hand = state.grid and not state.pending and state.phase == "play" and card in state.players[seat].hand
    if in_hand and not matches(state.codes(), PATTERNS[card]):
        ctx.memory.spend = card
        # Which card it is stays on the phone and in the hand: the table sees it once it is discarded.
        return Note("that card pays for the next shift or flip", seat)
    return ctx.act(ctx.game.tag_action(state, card))


def _stone(ctx: Context, state: StonesState, seat: int, cell: int, press: Press) -> Decision:
    memory = ctx.memory
    picked = memory.picked if memory.picked_state == ctx.state_id else None
    if press.gesture == "double":
        picked = cell
    if picked is None:
        memory.picked, memory.picked_state = cell, ctx.state_id
        return note("the {cell} stone is picked: a neighbour's key swaps them, this key again flips it", seat,
                    cell=CELL_NAMES[cell])
    if picked == cell:
        action: Action = FlipStone(seat, _spend(ctx, state, seat, (cell,)), cell)
    elif tuple(sorted((picked, cell))) in NEIGHBOUR_SET:
        action = ShiftStones(seat, _spend(ctx, state, seat, (picked, cell)), picked, cell)
    else:
        memory.picked, memory.picked_state = cell, ctx.state_id
        return note("the {picked} and {cell} stones are not side by side: the {cell} stone is picked instead", seat,
                    picked=CELL_NAMES[picked], cell=CELL_NAMES[cell])
    decision = ctx.checked(action)
    memory.picked = None
    memory.spend = None
    return decision


def _spend(ctx: Context, state: StonesState, seat: int, cells: tuple[int, ...]) -> str:
    """The card that pays for a move: the one tapped for it, else the one the hints would spend on this move, else
    the cheapest to lose (fewest points, not on the grid)."""
    hand = state.players[seat].hand
    if not hand:
        raise IllegalAction("{player} has no card left to pay for a move", player=seat)
    if ctx.memory.spend in hand:
        return ctx.memory.spend  # type: ignore[return-value]
    # Bounded by positions, not by the clock: the card a press spends must not depend on the machine's load.
    _points, plan, _exact = turn_plan(state, seat)
    moves = [a for a in plan if isinstance(a, ShiftStones | FlipStone)]
    if moves:
        first = moves[0]
        planned = (first.cell,) if isinstance(first, FlipStone) else (first.a, first.b)
        if sorted(planned) == sorted(cells):
            return first.card
    scored = {a.card for a in plan if isinstance(a, ScoreCard)}
    order = spend_order(hand, scored, state.codes()) or spend_order(hand, set(), state.codes())
    return order[0]


def _grid_entry(ctx: Context, press: Press) -> Decision:
    faces = ctx.memory.faces
    if press.source == "seat":
        raise IllegalAction("enter the starting grid first: keys 1–8 name the faces, row by row from the top left")
    if press.is_key("back"):
        if faces:
            faces.pop()
        return _progress(faces)
    if press.is_key("ok"):
        if len(faces) < 9:
            raise IllegalAction("the grid has nine stones and {entered} are entered", entered=len(faces))
        decision = ctx.checked(SetGrid(TABLE, tuple(faces)))
        faces.clear()
        return decision
    digit = press.digit
    if digit is None or digit > len(FACES):
        raise IllegalAction("keys 1–8 are the faces: {faces}", faces=FACE_KEYS)
    if len(faces) >= 9:
        raise IllegalAction("nine faces are entered: OK enters the grid, BACK takes the last one back")
    faces.append(FACES[digit - 1])
    return _progress(faces)


def _progress(faces: list[str]) -> Note:
    if not faces:
        return note("the grid so far: nothing entered")
    return note("the grid so far ({entered} of 9): {faces}", entered=len(faces), faces=tuple(faces),
                english=f"the grid so far ({len(faces)} of 9): {' '.join(faces)}")


def candidates(ctx: Context, action: Action) -> list[list[Press]]:
    seat = action.seat
    if isinstance(action, DrawPattern | ScoreCard):
        return [[tap(action.card)]]
    if isinstance(action, SetGrid):
        keys = [key_press(str(FACES.index(f) + 1)) for f in action.faces if f in FACES]
        return [[key_press("back")] * len(ctx.memory.faces) + keys + [key_press("ok")]]
    if not isinstance(seat, int):
        return []
    if isinstance(action, EndTurn):
        return [[seat_press(seat, "long")]]
    if isinstance(action, SkipTurn):
        return [[seat_press(seat), seat_press(seat, "double")]]
    if isinstance(action, ShiftStones | FlipStone):
        cells = [action.cell, action.cell] if isinstance(action, FlipStone) else [action.a, action.b]
        orders = [cells, cells[::-1]] if cells[0] != cells[1] else [cells]
        out = []
        for prefix in ([], [key_press("back")]):
            for arm in ([], [tap(action.card)]):
                for order in orders:
                    out.append([*prefix, *arm, *(key_press(str(c + 1)) for c in order)])
        return out
    return []
