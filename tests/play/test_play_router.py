"""The input router, rule by rule: what each seat button, key and tag means in each phase of each game.

Scenarios are real sessions (SQLite in memory) brought to the phase in question by an action script or by bots,
then pressed; no server is involved (test_play_stack.py runs the same inputs through the whole table).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest

from companion.core.registry import get_game
from companion.core.seats import HOST, TABLE
from companion.games.bohnanza.actions import Harvest, PlantBean, TurnUpCards
from companion.games.bohnanza.beans import bean_of
from companion.games.power_grid.actions import Bid, DeclineToOpen, EndBuying, Fire, OpenAuction, Pass
from companion.games.shifting_stones.actions import EndTurn, FlipStone, ScoreCard, SetGrid, ShiftStones, SkipTurn
from companion.games.shifting_stones.patterns import FACES, PATTERNS, matches
from companion.link.events import KEYS, BoardEvent
from companion.play.router import (
    Act,
    Note,
    Press,
    Refuse,
    Router,
    Undo,
    key_press,
    seat_press,
    tap,
)
from companion.store import Session, Store
from companion.testing.harness import choose_actor, playout


def uid_for(index: int) -> str:
    return f"04{index:012X}"


def table(name: str, players: int, mode: str = "digital", seed: int = 1, **options: Any) -> Session:
    store = Store(":memory:")
    for i, card in enumerate(get_game(name).cards()):
        store.enroll_tag(uid_for(i), name, card)
    return Session.create(store, name, players, seed=seed, mode=mode, options=options)  # type: ignore[arg-type]


def play_until(session: Session, reached: Callable[[Any], bool], seed: int = 0, limit: int = 3000,
               bot: str = "random") -> None:
    """Legal moves chosen by a bot until the state is the one wanted."""
    rng = random.Random(seed)
    chooser = session.game.bots()[bot]
    for _ in range(limit):
        if reached(session.state):
            return
        pick = choose_actor(session.game, session.state, rng)
        assert pick is not None, "the game ended before the scenario was reached"
        seat, legal = pick
        action = chooser.choose(session.game, session.state, seat, legal, rng) or rng.choice(legal)
        session.submit(action, seat)
    raise AssertionError("the scenario was not reached")


def press(router: Router, p: Press) -> Any:
    return router.decide_press(p)


def carry_out(session: Session, decision: Any) -> None:
    assert isinstance(decision, Act), decision
    session.submit(decision.action, decision.actor, decision.state_id)


# -- common to every game --------------------------------------------------------------------------------
def test_an_unknown_tag_is_refused_with_enroll_this_tag_first():
    router = Router(table("power_grid", 3))
    decision = router.decide(BoardEvent("tag", uid="04DEADBEEF0000", present=True))
    assert isinstance(decision, Refuse) and "enroll this tag first" in decision.reason


def test_a_tag_of_another_game_is_refused_with_what_card_it_is():
    session = table("power_grid", 3)
    session.store.enroll_tag("04AA", "bohnanza", "chili-01")
    decision = Router(session).decide(BoardEvent("tag", uid="04AA", present=True))
    assert isinstance(decision, Refuse)
    assert "Chili Bean 1 of 18 of Bohnanza" in decision.reason and "not a Power Grid card" in decision.reason


def test_releases_snapshots_and_a_card_taken_off_the_reader_mean_nothing():
    router = Router(table("power_grid", 3))
    for event in (BoardEvent("button", button=0, action="down"), BoardEvent("button", button=0, action="up"),
                  BoardEvent("key", key="5", action="down"), BoardEvent("tag", uid=uid_for(3), present=False),
                  BoardEvent("snapshot", uid=uid_for(3), present=True), BoardEvent("connected")):
        assert router.decide(event) is None


def test_a_seat_button_beyond_the_players_is_refused():
    decision = Router(table("bohnanza", 3)).decide_press(seat_press(5))
    assert isinstance(decision, Refuse) and "no seat 5" in decision.reason


def test_undo_undoes_the_last_action_as_the_seat_that_made_it():
    session = table("bohnanza", 3)
    router = Router(session)
    active = session.state.active
    carry_out(session, press(router, seat_press(active)))
    decision = press(router, key_press("undo"))
    assert decision == Undo(active, session.state_id)
    session.undo(decision.actor, decision.state_id)
    assert session.state.planted == 0


def test_undo_of_the_hosts_action_needs_undo_held():
    session = table("power_grid", 3)
    router = Router(session)
    carry_out(session, press(router, key_press("ok")))  # the host's choice of regions
    decision = press(router, key_press("undo"))
    assert isinstance(decision, Refuse) and "hold UNDO" in decision.reason
    assert press(router, key_press("undo", "long")) == Undo(HOST, session.state_id)


def test_undo_held_is_the_hosts_undo_which_alone_takes_back_a_reveal():
    session = table("shifting_stones", 2, "physical")
    router = Router(session)
    faces = ("sun", "fish", "bird", "horse", "horse", "boat", "seed", "seed", "tree")
    for face in faces:
        assert isinstance(press(router, key_press(str(FACES.index(face) + 1))), Note)
    carry_out(session, press(router, key_press("ok")))
    decision = press(router, key_press("undo"))
    assert decision == Undo(TABLE, session.state_id)
    with pytest.raises(Exception, match="revealed hidden cards"):
        session.undo(decision.actor, decision.state_id)
    assert press(router, key_press("undo", "long")) == Undo(HOST, session.state_id)


def test_after_the_end_only_undo_means_anything():
    game = get_game("shifting_stones")
    session = table("shifting_stones", 1, seed=2)
    for action in playout(game, 1, 2, bots={0: game.bots()["greedy"]}, check=False).actions:
        session.submit(action, action.seat)
    assert game.is_over(session.state)
    router = Router(session)
    assert press(router, seat_press(0, "long")) == Refuse("the game is over")
    assert isinstance(press(router, key_press("undo", "long")), Undo)


# -- Power Grid ------------------------------------------------------------------------------------------
def power_grid_auction(players: int = 3, mode: str = "digital") -> tuple[Session, Router]:
    session = table("power_grid", players, mode)
    router = Router(session)
    carry_out(session, press(router, key_press("ok")))
    return session, router


def test_power_grid_ok_plays_in_the_regions_the_companion_proposes():
    session = table("power_grid", 4)
    proposed = session.state.proposed_regions
    decision = Router(session).decide_press(key_press("ok"))
    assert isinstance(decision, Act) and decision.actor == HOST and decision.action.regions == proposed


def test_power_grid_a_tap_of_a_plant_in_the_current_market_opens_its_auction_at_its_number():
    session, router = power_grid_auction()
    chooser = session.state.chooser()
    plant = session.state.current_market()[1]
    decision = press(router, tap(f"plant-{plant:02d}"))
    assert decision.action == OpenAuction(chooser, plant, plant)
    future = session.state.future_market()[0]
    refused = press(router, tap(f"plant-{future:02d}"))
    assert isinstance(refused, Refuse) and "future market" in refused.reason


def test_power_grid_the_bidders_button_raises_the_bid_by_one_and_held_passes():
    session, router = power_grid_auction()
    plant = session.state.current_market()[0]
    carry_out(session, press(router, tap(f"plant-{plant:02d}")))
    bidder = session.state.auction.turn
    assert press(router, seat_press(bidder)).action == Bid(bidder, plant + 1)
    assert press(router, seat_press(bidder, "double")).action == Bid(bidder, plant + 1)
    assert press(router, seat_press(bidder, "long")).action == Pass(bidder)


def test_power_grid_only_the_bidder_bids_the_others_hear_whose_turn_it_is():
    session, router = power_grid_auction()
    plant = session.state.current_market()[0]
    carry_out(session, press(router, tap(f"plant-{plant:02d}")))
    bidder = session.state.auction.turn
    other = next(s for s in range(3) if s != bidder)
    decision = press(router, seat_press(other))
    assert isinstance(decision, Refuse) and f"seat {bidder + 1}'s turn to bid" in decision.reason  # counted from 1


def test_power_grid_a_bid_beyond_the_money_is_refused_without_telling_the_money():
    session, router = power_grid_auction()
    chooser = session.state.chooser()
    money = session.state.players[chooser].money  # everyone starts with the same Elektro
    session.submit(OpenAuction(chooser, session.state.current_market()[0], money), chooser)
    bidder = session.state.auction.turn
    decision = press(router, seat_press(bidder))
    assert decision == Refuse(f"seat {bidder + 1} cannot pay {money + 1} Elektro", bidder)


def test_power_grid_the_chooser_holds_the_button_to_buy_no_plant_and_a_press_asks_for_a_tap():
    session = table("power_grid", 3)
    router = Router(session)
    play_until(session, lambda s: s.phase == "auction" and s.round == 2 and s.auction is None and s.discard is None
               and s.chooser() is not None and not s.draws)
    chooser = session.state.chooser()
    assert press(router, seat_press(chooser, "long")).action == DeclineToOpen(chooser)
    decision = press(router, seat_press(chooser))
    assert isinstance(decision, Refuse) and "tap the card of the plant" in decision.reason


def test_power_grid_a_held_button_finishes_buying_and_a_press_says_buying_is_on_the_phone():
    session = table("power_grid", 3)
    router = Router(session)
    play_until(session, lambda s: s.phase == "resources")
    buyer = session.state.queue[0]
    assert press(router, seat_press(buyer, "long")).action == EndBuying(buyer)
    decision = press(router, seat_press(buyer))
    assert isinstance(decision, Refuse) and "on your phone" in decision.reason


def test_power_grid_in_bureaucracy_a_press_fires_the_proposal_and_held_fires_nothing():
    session = table("power_grid", 3)
    router = Router(session)
    play_until(session, lambda s: s.phase == "bureaucracy")
    seat = session.state.queue[0]
    proposal = session.legal_actions(seat)[0]
    assert press(router, seat_press(seat)).action == proposal
    assert press(router, seat_press(seat, "long")).action == Fire(seat, ())


def test_power_grid_physical_draw_a_tap_reveals_the_plant_and_buttons_wait_for_it():
    session, router = power_grid_auction(3, "physical")
    play_until(session, lambda s: s.draws > 0 and bool(s.deck))
    seat = 0
    decision = press(router, seat_press(seat))
    assert isinstance(decision, Refuse) and "tap it first" in decision.reason
    candidate = session.legal_actions(TABLE)[0]
    card = "step-3" if candidate.kind == "reveal_step3" else f"plant-{candidate.plant:02d}"
    decision = press(router, tap(card))
    assert decision.actor == TABLE and decision.action == candidate


# -- Bohnanza --------------------------------------------------------------------------------------------
def test_bohnanza_the_active_button_plants_the_front_card_into_the_field_of_its_bean():
    session = table("bohnanza", 3)
    router = Router(session)
    state = session.state
    active, front = state.active, state.players[state.active].hand[0]
    decision = press(router, seat_press(active))
    assert decision.action == PlantBean(active, front, 0)
    carry_out(session, decision)
    second = session.state.players[active].hand[0]
    again = press(router, seat_press(active, "double"))
    field = 0 if bean_of(second) == bean_of(front) else 1
    assert again.action == PlantBean(active, second, field)


def test_bohnanza_held_button_turns_up_the_cards_then_ends_trading():
    session = table("bohnanza", 3)
    router = Router(session)
    active = session.state.active
    carry_out(session, press(router, seat_press(active)))
    decision = press(router, seat_press(active, "long"))
    assert decision.action == TurnUpCards(active)
    carry_out(session, decision)
    assert session.state.step == "trade"
    assert press(router, seat_press(active, "long")).action.kind == "end_trading"
    assert isinstance(press(router, seat_press(active)), Note)


def test_bohnanza_keys_harvest_for_the_seat_pressed_last_else_for_the_active_player():
    now = [100.0]
    session = table("bohnanza", 3)
    router = Router(session, clock=lambda: now[0])
    active = session.state.active
    carry_out(session, press(router, seat_press(active)))
    assert press(router, key_press("1")).action == Harvest(active, 0)
    other = (active + 1) % 3
    assert isinstance(press(router, seat_press(other)), Note)
    assert press(router, key_press("2")).action == Harvest(other, 1)
    now[0] += 11  # the choice of seat lasts ten seconds
    assert press(router, key_press("3")).action == Harvest(active, 2)
    press(router, seat_press(other))
    assert isinstance(press(router, key_press("back")), Note)
    assert press(router, key_press("1")).action == Harvest(active, 0)


def test_bohnanza_a_front_card_fitting_no_field_is_refused_without_naming_it():
    session = table("bohnanza", 4)

    def front_fits_no_field(s: Any) -> bool:
        p = s.players[s.active]
        if s.step != "plant" or s.planted or not p.hand:
            return False
        return all(f and bean_of(f[0]) != bean_of(p.hand[0]) for f in p.fields)

    play_until(session, front_fits_no_field, seed=3, bot="trader")
    state = session.state
    front = state.players[state.active].hand[0]
    decision = Router(session).decide_press(seat_press(state.active))
    assert isinstance(decision, Refuse) and "fits no field" in decision.reason
    assert front not in decision.reason and bean_of(front) not in decision.reason.lower()


def test_bohnanza_tags_are_refused_when_the_companion_deals():
    session = table("bohnanza", 3)
    decision = Router(session).decide(BoardEvent("tag", uid=uid_for(0), present=True))
    assert isinstance(decision, Refuse) and "deals digitally" in decision.reason


def test_bohnanza_physical_each_card_taken_from_the_deck_is_tapped():
    session = table("bohnanza", 2, "physical")
    router = Router(session)
    assert session.state.step == "deal"
    card = session.legal_actions(TABLE)[0].card
    decision = press(router, tap(card))
    assert decision.actor == TABLE and decision.action.card == card
    refused = press(router, seat_press(0))
    assert isinstance(refused, Refuse) and "tap the card taken from the deck" in refused.reason


# -- Shifting Stones -------------------------------------------------------------------------------------
def stones_in_play(seed: int = 1, mode: str = "digital", players: int = 2) -> tuple[Session, Router]:
    session = table("shifting_stones", players, mode, seed=seed)
    return session, Router(session)


def test_stones_the_keypad_enters_the_grid_back_takes_a_face_back_and_ok_sets_it():
    session = table("shifting_stones", 2, "physical")
    router = Router(session)
    faces = ["moon", "fish", "bird", "horse", "boat", "horse", "seed", "tree", "seed"]
    for face in faces[:3]:
        press(router, key_press(str(FACES.index(face) + 1)))
    note = press(router, key_press("back"))
    assert isinstance(note, Note) and note.text.endswith("moon fish")
    refused = press(router, key_press("ok"))
    assert isinstance(refused, Refuse) and "2 are entered" in refused.reason
    for face in faces[2:]:
        press(router, key_press(str(FACES.index(face) + 1)))
    decision = press(router, key_press("ok"))
    assert decision.action == SetGrid(TABLE, tuple(faces)) and decision.actor == TABLE
    assert isinstance(press(router, key_press("9")), Refuse)


def test_stones_a_key_then_a_neighbours_key_shifts_and_the_same_key_twice_flips():
    session, router = stones_in_play()
    seat = session.state.turn
    assert isinstance(press(router, key_press("5")), Note)
    shift = press(router, key_press("6"))
    assert isinstance(shift.action, ShiftStones) and (shift.action.a, shift.action.b) == (4, 5)
    assert shift.action.card in session.state.players[seat].hand
    press(router, key_press("1"))
    flip = press(router, key_press("1"))
    assert isinstance(flip.action, FlipStone) and flip.action.cell == 0


def test_stones_a_key_not_next_to_the_picked_stone_picks_that_one_instead():
    _session, router = stones_in_play()
    press(router, key_press("1"))
    note = press(router, key_press("9"))
    assert isinstance(note, Note) and "not side by side" in note.text
    shift = press(router, key_press("8"))
    assert (shift.action.a, shift.action.b) == (8, 7)


def test_stones_a_picked_stone_is_forgotten_once_the_grid_changes():
    session, router = stones_in_play()
    press(router, key_press("5"))
    carry_out(session, press(router, key_press("5")))  # flipped: the pick is used up
    assert isinstance(press(router, key_press("6")), Note)  # a fresh pick, not a shift of 5 and 6


def test_stones_a_tapped_hand_card_not_on_the_grid_pays_for_the_next_move():
    session, router = stones_in_play(seed=5)
    seat = session.state.turn
    hand = session.state.players[seat].hand
    unmatched = [c for c in hand if not matches(session.state.codes(), PATTERNS[c])]
    assert unmatched
    for card in unmatched:
        note = press(router, tap(card))
        assert isinstance(note, Note) and card not in note.text
        press(router, key_press("2"))
        shift = press(router, key_press("3"))
        assert shift.action == ShiftStones(seat, card, 1, 2)


def test_stones_a_tap_of_a_hand_card_on_the_grid_scores_it():
    session, router = stones_in_play()
    play_until(session, lambda s: s.phase == "play" and any(
        matches(s.codes(), PATTERNS[c]) for c in s.players[s.turn].hand), seed=2)
    seat = session.state.turn
    card = next(c for c in session.state.players[seat].hand if matches(session.state.codes(), PATTERNS[c]))
    assert press(router, tap(card)).action == ScoreCard(seat, card)


def test_stones_the_players_button_held_ends_the_turn_and_pressed_twice_skips():
    session, router = stones_in_play()
    seat = session.state.turn
    assert isinstance(press(router, seat_press(seat)), Note)
    assert press(router, seat_press(seat, "double")).action == SkipTurn(seat)
    assert press(router, seat_press(seat, "long")).action == EndTurn(seat)
    refused = press(router, seat_press(1 - seat, "long"))
    assert isinstance(refused, Refuse) and f"seat {seat + 1}'s turn" in refused.reason


# -- every game: the plans, and nothing private on the shared screen ---------------------------------------------
CONFIGS = [("power_grid", 3, "physical", "heuristic"), ("power_grid", 2, "digital", "random"),
           ("bohnanza", 4, "digital", "trader"), ("bohnanza", 2, "physical", "random"),
           ("shifting_stones", 3, "physical", "greedy"), ("shifting_stones", 1, "digital", "random")]


@pytest.mark.parametrize(("name", "players", "mode", "bot"), CONFIGS)
def test_every_move_the_controller_can_make_is_made_by_its_planned_inputs(name, players, mode, bot):
    game = get_game(name)
    script = playout(game, players, 7, mode=mode, bots={s: game.bots()[bot] for s in range(players)}, check=False)
    session = table(name, players, mode, seed=7)
    router = Router(session)
    by_board = 0
    for action in script.actions:
        plan = router.plan(action)
        if plan is not None:
            by_board += 1
            for i, p in enumerate(plan):
                decision = router.decide_press(p)
                if i < len(plan) - 1:
                    assert isinstance(decision, Note), (p, decision)
                else:
                    assert isinstance(decision, Act) and decision.action == action
        session.submit(action, action.seat)
    assert session.state == script.final_state
    assert by_board > len(script.actions) // 4


def private_words(session: Session) -> set[str]:
    """The ids and names of every card in a hand, and with hidden money every seat's Elektro."""
    state, game = session.state, session.game
    words: set[str] = set()
    for p in getattr(state, "players", ()):
        for card in getattr(p, "hand", ()):
            words |= {card, game.card_label(card)}
    return words


@pytest.mark.parametrize(("name", "players", "mode"), [("bohnanza", 3, "physical"), ("bohnanza", 2, "digital"),
                                                      ("shifting_stones", 3, "physical"),
                                                      ("shifting_stones", 2, "digital"), ("power_grid", 3, "digital")])
def test_no_note_or_refusal_names_a_private_card_or_anyones_money(name, players, mode):
    """Random presses and taps at random moments: what the router says goes to the shared screen, so it must
    not name a card in a hand (unless that card was just tapped, and so shown) nor a seat's money."""
    game = get_game(name)
    session = table(name, players, mode, seed=9)
    router = Router(session, clock=lambda: 0.0)
    rng = random.Random(9)
    cards = game.cards()
    inputs = [seat_press(s, g) for s in range(players) for g in ("press", "long", "double")]
    inputs += [key_press(k, g) for k in KEYS if k != "undo" for g in ("press", "long")]
    checked = 0
    for _ in range(250):
        if game.is_over(session.state):
            break
        for p in rng.sample(inputs, 6) + [tap(rng.choice(cards)) for _ in range(3)]:
            secret = private_words(session) - ({p.card, game.card_label(p.card)} if p.card else set())
            decision = router.decide_press(p)
            if isinstance(decision, Note | Refuse):
                text = decision.text if isinstance(decision, Note) else decision.reason
                assert not any(w in text for w in secret), (p, text)
                assert "you have" not in text, (p, text)  # a seat's money or coins, as the rules tell the seat
                checked += 1
            elif isinstance(decision, Act) and any(w in str(decision.action.to_json()) for w in secret):
                game.apply(session.state, decision.action)  # a move with a hidden card is never refused
        pick = choose_actor(game, session.state, rng)
        assert pick is not None
        seat, legal = pick
        session.submit(rng.choice(legal), seat)
    assert checked > 100


def test_each_input_describes_itself_for_people():
    assert seat_press(2, "long").describe() == "seat button 3 held"
    assert key_press("5").describe() == "key 5"
    assert key_press("ok").describe() == "OK"
    assert tap("plant-13").describe() == "tap of plant-13"
    assert dataclasses.replace(seat_press(0), gesture="double").describe() == "seat button 1 pressed twice"


def test_a_refusal_and_a_note_carry_their_template_and_params_for_translation():
    session, router = power_grid_auction()
    chooser = session.state.chooser()
    other = next(s for s in range(3) if s != chooser)
    decision = press(router, seat_press(other))
    assert isinstance(decision, Refuse) and decision.reason == f"seat {chooser + 1} chooses the next plant"
    assert decision.template == "{player} chooses the next plant" and decision.params == {"player": chooser}
    beyond = press(router, seat_press(7))
    assert isinstance(beyond, Refuse) and beyond.template == "there is no seat {number} at this table of {players}"
    assert beyond.params == {"number": 7, "players": 3}
    stones = table("shifting_stones", 2)
    while not stones.state.grid or stones.state.pending:
        seat = stones.game.current_seats(stones.state)[0]
        stones.submit(stones.game.legal_actions(stones.state, seat)[0], seat)
    note = press(Router(stones), key_press("1"))
    assert isinstance(note, Note) and note.template.startswith("the {cell} stone is picked")
    assert note.params == {"cell": "top left"} and note.text.startswith("the top left stone is picked")
