"""One test per Shifting Stones ruling in RULINGS.md, each an action script from a known table."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from stones_table import GRID, HANDS, all_cards, digital, play, play_logged, rows, table, with_scored

from companion.core import TABLE, IllegalAction, NotYourTurn
from companion.games.shifting_stones import GAME
from companion.games.shifting_stones.actions import (
    DrawPattern,
    EndTurn,
    FlipStone,
    ScoreCard,
    SetGrid,
    ShiftStones,
    SkipTurn,
)
from companion.games.shifting_stones.patterns import FACES as FACE_NAMES
from companion.games.shifting_stones.patterns import PATTERNS, STONE_COUNTS, kind


def draws(*cards: str) -> list[DrawPattern]:
    return [DrawPattern(TABLE, c) for c in cards]


def unused(state, count: int, points: int | None = None) -> list[str]:
    """Cards the companion has not placed anywhere yet (still in the unseen physical deck)."""
    placed = set(all_cards(state))
    free = [c for c, p in PATTERNS.items() if c not in placed and (points is None or p.points == points)]
    return free[:count]


# -- stones and grid ------------------------------------------------------------------------------------------


def test_stones_sun_moon_1_fish_bird_2_horse_boat_3_seed_tree_3_in_a_random_3x3_grid():
    grids = set()
    for seed in range(20):
        grid = digital(2, seed).grid
        assert len(grid) == 9
        counts = Counter(kind(FACE_NAMES.index(f)) for f in grid)
        assert [counts[k] for k in range(4)] == list(STONE_COUNTS)
        grids.add(grid)
    assert len(grids) > 15  # a random start


def test_the_physical_starting_grid_is_one_table_action_with_the_real_stones():
    config = GAME.make_config(2, "physical")
    state = GAME.setup(config, random.Random(3))
    assert state.grid == () and GAME.current_seats(state) == (TABLE,)
    two_suns = rows("sun sun horse", "bird seed boat", "tree horse seed")
    with pytest.raises(IllegalAction, match="this grid has 2 sun/moon"):
        GAME.apply(state, SetGrid(TABLE, two_suns))
    with pytest.raises(IllegalAction, match="'star' is not a stone face"):
        GAME.apply(state, SetGrid(TABLE, ("star",) * 9))
    with pytest.raises(IllegalAction, match="a grid has 9 stones"):
        GAME.apply(state, SetGrid(TABLE, GRID[:8]))
    state = play(state, SetGrid(TABLE, GRID))
    assert state.grid == GRID
    with pytest.raises(IllegalAction, match="already set"):
        GAME.apply(state, SetGrid(TABLE, GRID))


def test_the_grid_has_a_fixed_top_for_everyone():
    # Every seat's view shows the same grid rows, top row first, exactly as the table entered them.
    state = table(HANDS)
    for seat in (None, 0, 1):
        assert GAME.view(state, seat)["grid"]["rows"] == [list(GRID[0:3]), list(GRID[3:6]), list(GRID[6:9])]


# -- hands and the turn ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_hands_hold_four_cards(players):
    state = digital(players, seed=players)
    assert [len(p.hand) for p in state.players] == [4] * players
    in_game = 16 if players == 1 else 72
    assert len(state.deck) == in_game - 4 * players


def test_shift_discards_a_card_and_swaps_two_orthogonally_adjacent_stones():
    state = table(HANDS)
    state, log = play_logged(state, ShiftStones(0, "SS05", 3, 4))
    assert state.grid[3:6] == ("seed", "bird", "boat")
    assert state.players[0].hand == ("SS11", "SS44", "SS10")
    assert state.discard == ("SS05",)
    assert "discarded SS05 and swapped the left bird with the centre seed" in log[0].render()
    with pytest.raises(IllegalAction, match="not side by side"):
        GAME.apply(state, ShiftStones(0, "SS10", 0, 4))  # diagonal
    with pytest.raises(IllegalAction, match="not side by side"):
        GAME.apply(state, ShiftStones(0, "SS10", 0, 2))  # same row, not neighbours
    with pytest.raises(IllegalAction, match="two different stones"):
        GAME.apply(state, ShiftStones(0, "SS10", 4, 4))
    # Cells are 0-8 on the wire; a person reads the stones counted 1-9 (cell 9 is the tenth stone).
    with pytest.raises(IllegalAction, match=r"no stone 10: the stones are 1 \(top left\) to 9 \(bottom right\)"):
        GAME.apply(state, ShiftStones(0, "SS10", 8, 9))
    with pytest.raises(IllegalAction, match=r"SS14 is not in your hand: use a card of your hand, or skip$"):
        GAME.apply(state, ShiftStones(0, "SS14", 0, 1))  # seat 1's card: its place stays secret
    with pytest.raises(IllegalAction, match="SS05 is not in your hand: it is in the discard pile"):
        GAME.apply(state, ShiftStones(0, "SS05", 0, 1))


def test_flip_discards_a_card_and_turns_one_stone_over():
    state = table(HANDS)
    state, log = play_logged(state, FlipStone(0, "SS10", 0), FlipStone(0, "SS05", 5))
    assert state.grid[0] == "moon" and state.grid[5] == "horse"
    assert state.discard == ("SS10", "SS05")
    assert "flipped the top left stone from sun to moon" in log[0].render()
    state = play(state, FlipStone(0, "SS44", 0))
    assert state.grid[0] == "sun"


def test_score_reveals_a_matching_card_and_keeps_it_face_up():
    state = table(HANDS)
    with pytest.raises(IllegalAction, match=r"SS05 .*bird horse.* does not match the grid"):
        GAME.apply(state, ScoreCard(0, "SS05"))
    state = play(state, ScoreCard(0, "SS44"))
    assert state.players[0].scored == ("SS44",) and "SS44" not in state.players[0].hand
    public = GAME.view(state, None)
    assert [c["card"] for c in public["players"][0]["scored"]] == ["SS44"]
    assert public["players"][0]["points"] == 2


def test_several_cards_score_in_one_turn():
    state = play(table(HANDS), ScoreCard(0, "SS11"), ScoreCard(0, "SS44"))
    assert state.players[0].scored == ("SS11", "SS44")
    assert GAME.scores(state)["points"][0] == 3


def test_a_card_scores_once_even_if_its_pattern_shows_twice():
    grid = rows("horse horse horse", "seed tree tree", "fish bird sun")
    state = table([["SS10", "SS11", "SS05", "SS44"], HANDS[1]], grid=grid)
    state = play(state, ScoreCard(0, "SS10"))
    with pytest.raises(IllegalAction, match="SS10 is not in your hand: it is already scored by seat 1; use a card "
                                            "of your hand"):
        GAME.apply(state, ScoreCard(0, "SS10"))
    assert GAME.scores(state)["points"][0] == 1


def test_any_number_of_actions_in_any_order_while_you_have_cards():
    state = table(HANDS)
    state = play(
        state,
        ScoreCard(0, "SS11"),  # seed boat, on the grid
        ShiftStones(0, "SS10", 3, 4),  # bird and seed: the middle row reads seed bird boat
        FlipStone(0, "SS44", 5),  # boat to horse: bird horse now shows
        ScoreCard(0, "SS05"),
    )
    assert state.players[0].scored == ("SS11", "SS05") and state.players[0].hand == ()
    assert GAME.legal_actions(state, 0) == [EndTurn(0)]
    with pytest.raises(IllegalAction, match="not in your hand"):
        GAME.apply(state, FlipStone(0, "SS44", 0))


def test_ending_the_turn_draws_back_up_to_four():
    state = play(table(HANDS), FlipStone(0, "SS05", 0), ScoreCard(0, "SS11"), EndTurn(0))
    # Physical deck: the table owes seat 0 two cards before seat 1 plays.
    assert state.phase == "draw" and state.pending == (0, 0)
    assert GAME.current_seats(state) == (TABLE,)
    with pytest.raises(NotYourTurn, match="drawing a card for seat 1"):
        GAME.apply(state, EndTurn(1))
    state = play(state, *draws("SS60", "SS61"))
    assert state.players[0].hand == ("SS44", "SS10", "SS60", "SS61")
    assert GAME.current_seats(state) == (1,)
    # Digital deck: drawn at once.
    state = digital(2)
    card = state.players[0].hand[0]
    top = state.deck[:1]
    state = play(state, FlipStone(0, card, 4), EndTurn(0))
    assert len(state.players[0].hand) == 4 and state.players[0].hand[-1:] == top and state.turn == 1


def test_a_hand_of_more_than_four_draws_nothing_at_the_end_of_the_turn():
    state = play(table(HANDS), SkipTurn(0), *draws("SS60", "SS61"), EndTurn(1), *draws())
    assert len(state.players[0].hand) == 6
    state = play(state, FlipStone(0, "SS05", 0), EndTurn(0))
    assert len(state.players[0].hand) == 5 and state.turn == 1 and state.pending == ()


def test_skip_draws_two_and_ends_the_turn():
    state, log = play_logged(table(HANDS), SkipTurn(0))
    assert state.pending == (0, 0)
    state = play(state, *draws("SS60", "SS61"))
    assert len(state.players[0].hand) == 6 and state.turn == 1
    assert "skipped the turn" in log[0].render()


def test_skip_replaces_every_action():
    state = play(table(HANDS), ScoreCard(0, "SS11"))
    assert SkipTurn(0) not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="already acted this turn"):
        GAME.apply(state, SkipTurn(0))


def test_never_two_skips_in_a_row():
    state = play(table(HANDS), SkipTurn(0), *draws("SS60", "SS61"), EndTurn(1))
    assert GAME.view(state, None)["players"][0]["skipped_last_turn"] is True
    assert SkipTurn(0) not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="never two skips in a row"):
        GAME.apply(state, SkipTurn(0))
    state = play(state, EndTurn(0), EndTurn(1))  # a turn without a skip in between
    assert SkipTurn(0) in GAME.legal_actions(state, 0)


def test_an_empty_deck_reshuffles_the_discards():
    # A digital game down to its last deck card, everything else on the discard pile.
    state = digital(2, seed=4)
    state = dataclasses.replace(state, deck=state.deck[:1], discard=state.deck[1:])
    last = state.deck[0]
    before = sorted(all_cards(state))
    hand = state.players[0].hand
    state, log = play_logged(state, FlipStone(0, hand[0], 0), FlipStone(0, hand[1], 0), EndTurn(0))
    assert any("shuffled into a new deck" in m.render() for m in log)
    assert state.players[0].hand[:3] == (hand[2], hand[3], last)
    assert state.discard == () and len(state.deck) == len(before) - 8  # all but the eight cards in hands
    assert sorted(all_cards(state)) == before  # nothing created or lost
    assert state.reshuffles == 1


def test_an_empty_physical_deck_takes_back_the_discards_for_the_table_to_shuffle():
    state = table(HANDS)
    # Every card but one has been seen and discarded: the real deck holds that one card.
    rest = unused(state, 72)
    state = dataclasses.replace(state, discard=tuple(rest[1:]))
    assert GAME.view(state, None)["deck_size"] == 1
    state = play(state, FlipStone(0, "SS05", 0), FlipStone(0, "SS10", 0), EndTurn(0))
    assert GAME.legal_actions(state, TABLE) == [DrawPattern(TABLE, rest[0])]
    state, log = play_logged(state, DrawPattern(TABLE, rest[0]))
    assert any("shuffled into a new deck" in m.render() for m in log)
    assert state.discard == () and "SS05" in state.returned
    assert DrawPattern(TABLE, "SS05") in GAME.legal_actions(state, TABLE)
    with pytest.raises(IllegalAction, match="SS11 cannot come from the deck: it is in seat 1's hand; tap the card "
                                            "just drawn"):
        GAME.apply(state, DrawPattern(TABLE, "SS11"))
    state = play(state, DrawPattern(TABLE, "SS05"))
    assert "SS05" in state.players[0].hand and "SS05" not in state.returned


# -- the end ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "target"), [(2, 10), (3, 9), (4, 8), (5, 7)])
def test_the_end_starts_once_a_player_has_scored_10_9_8_7_cards(players, target):
    state = table(_hands(players))
    state = with_scored(state, 0, unused(state, target - 2))
    state = play(state, ScoreCard(0, "SS11"))
    assert not state.final_round
    state = play(state, ScoreCard(0, "SS44"))
    assert state.final_round and len(state.players[0].scored) == target
    view = GAME.view(state, None)
    assert view["final_round"] is True and view["end_trigger"] == target


def _hands(players: int) -> list[list[str]]:
    taken = {c for h in HANDS for c in h}
    spare = [c for c in PATTERNS if c not in taken]
    return HANDS + [spare[4 * i : 4 * i + 4] for i in range(players - 2)]


def test_the_round_is_finished_so_all_players_had_equal_turns():
    state = table(_hands(3))
    state = play(state, EndTurn(0))  # seat 0's first turn
    state = with_scored(state, 1, unused(state, 8))
    state = play(state, ScoreCard(1, "SS14"))  # seat 1 reaches 9 cards
    assert state.final_round
    state = play(state, EndTurn(1), *draws(*unused(state, 1)))
    assert not GAME.is_over(state) and GAME.current_seats(state) == (2,)
    state = play(state, EndTurn(2))  # the last seat of the round: no draw, the game ends
    assert GAME.is_over(state) and state.pending == ()
    assert GAME.current_seats(state) == ()
    with pytest.raises(IllegalAction, match="the game is over"):
        GAME.apply(state, EndTurn(0))


def test_the_game_ends_at_once_when_the_last_seat_of_the_round_triggers_it():
    state = play(table(HANDS), EndTurn(0))
    state = with_scored(state, 1, unused(state, 9))
    state = play(state, ScoreCard(1, "SS14"), EndTurn(1))
    assert GAME.is_over(state)


def test_score_is_the_sum_of_points_plus_3_to_every_player_tied_for_most_1_point_cards():
    state = table(_hands(3))
    ones, twos, threes, fives = (unused(state, 3, p) for p in (1, 2, 3, 5))
    state = with_scored(state, 0, [ones[0], ones[1], fives[0]])  # 1 + 1 + 5, two 1-point cards
    state = with_scored(state, 1, [ones[2], twos[0], twos[1]])  # 1 + 2 + 2, one 1-point card
    state = with_scored(state, 2, [threes[0], threes[1]])  # 3 + 3, none
    scores = GAME.scores(state)
    assert scores["points"] == [7, 5, 6]
    assert scores["bonus"] == [3, 0, 0]
    assert scores["scores"] == [10, 5, 6] and scores["winners"] == [0]
    state = with_scored(state, 2, [threes[0], threes[1], *unused(state, 2, 1)])  # now also two 1-point cards
    scores = GAME.scores(state)
    assert scores["bonus"] == [3, 0, 3] and scores["scores"] == [10, 5, 11]


def test_nobody_earns_the_bonus_without_a_1_point_card():
    state = table(HANDS)
    state = with_scored(state, 0, unused(state, 1, 2))
    assert GAME.scores(state)["bonus"] == [0, 0]


def test_tied_totals_share_the_win():
    state = table(HANDS)
    state = with_scored(state, 0, unused(state, 8, 2))  # 16 points, no 1-point card
    state = with_scored(state, 1, unused(state, 6, 3))  # 18 points, no 1-point card
    state = play(state, ScoreCard(0, "SS11"), ScoreCard(0, "SS44"))  # 10 cards: 19 points, one 1-point card
    state = play(state, EndTurn(0), *draws(*unused(state, 2)))
    state = play(state, ScoreCard(1, "SS14"), EndTurn(1))  # 19 points, one 1-point card: both earn the bonus
    assert GAME.is_over(state)
    scores = GAME.scores(state)
    assert scores["points"] == [19, 19] and scores["bonus"] == [3, 3]
    assert scores["scores"] == [22, 22] and scores["winners"] == [0, 1]
    assert GAME.view(state, None)["scores"]["winners"] == [0, 1]


# -- solo -------------------------------------------------------------------------------------------------------


def test_solo_deck_is_16_random_cards_8_one_4_two_3_three_1_five_points():
    decks = set()
    for seed in range(5):
        state = digital(1, seed)
        cards = list(state.deck) + list(state.players[0].hand)
        assert len(cards) == 16 == len(set(cards))
        assert Counter(PATTERNS[c].points for c in cards) == {1: 8, 2: 4, 3: 3, 5: 1}
        decks.add(frozenset(cards))
    assert len(decks) == 5
    # Physical: the table builds it; a second 5-point card cannot come out of it.
    state = table([["SS68", "SS11", "SS14", "SS21"]])
    state = play(state, FlipStone(0, "SS11", 0), EndTurn(0))
    assert GAME.view(state, None)["deck_size"] == 12
    with pytest.raises(IllegalAction, match="all 1 of its 5-point cards have been seen"):
        GAME.apply(state, DrawPattern(TABLE, "SS69"))
    assert DrawPattern(TABLE, "SS69") not in GAME.legal_actions(state, TABLE)


def test_solo_a_turn_that_ends_without_scoring_is_a_strike_a_skip_included():
    state = table([["SS11", "SS05", "SS10", "SS50"]])
    state, log = play_logged(state, FlipStone(0, "SS05", 0), EndTurn(0))
    assert state.strikes == 1 and any("strike 1 of 4" in m.render() for m in log)
    state = play(state, DrawPattern(TABLE, "SS60"), SkipTurn(0), *draws("SS61", "SS62"))
    assert state.strikes == 2
    state = play(state, ScoreCard(0, "SS11"), EndTurn(0))
    assert state.strikes == 2


def test_solo_the_fourth_strike_loses():
    state = table([["SS11", "SS05", "SS10", "SS50"]])
    state = play(state, EndTurn(0), SkipTurn(0), *draws("SS60", "SS61"), EndTurn(0), SkipTurn(0))
    assert state.strikes == 4 and GAME.is_over(state)
    scores = GAME.scores(state)
    assert scores["result"] == "lost" and scores["winners"] == []


def test_solo_scoring_all_16_wins():
    hand = ["SS11", "SS14", "SS21", "SS44"]  # all four show on GRID: three 1-point cards and a 2-point card
    state = table([hand])
    rest = {1: 5, 2: 3, 3: 3, 5: 1}  # the other twelve cards of the solo deck
    state = with_scored(state, 0, [c for p, n in rest.items() for c in unused(state, n, p)])
    assert GAME.view(state, None)["deck_size"] == 0
    state = play(state, *(ScoreCard(0, c) for c in hand[:3]))
    assert not GAME.is_over(state)
    state = play(state, ScoreCard(0, hand[3]))
    assert GAME.is_over(state)
    scores = GAME.scores(state)
    assert scores["result"] == "won" and scores["winners"] == [0] and scores["scored_cards"] == [16]


# -- physical mode --------------------------------------------------------------------------------------------


def test_physical_deck_any_unseen_card_may_be_revealed_into_the_drawing_seats_hand():
    state = play(table(HANDS), FlipStone(0, "SS05", 0), EndTurn(0))
    seen = {c for h in HANDS for c in h}
    assert GAME.legal_actions(state, TABLE) == [DrawPattern(TABLE, c) for c in sorted(set(PATTERNS) - seen)]
    state = play(state, DrawPattern(TABLE, "SS72"))
    assert state.players[0].hand[-1] == "SS72" and state.turn == 1
    assert GAME.view(state, None)["deck_size"] == 63  # 72, less 8 dealt and 1 drawn


def test_physical_a_tap_of_a_card_known_elsewhere_is_refused_with_where_it_is():
    state = play(table(HANDS), ScoreCard(0, "SS11"), FlipStone(0, "SS05", 0), EndTurn(0))
    with pytest.raises(IllegalAction, match=r"SS11 .* cannot be the card drawn: it is already scored by seat 1; tap "
                                             "the card just drawn"):
        GAME.tag_action(state, "SS11")
    with pytest.raises(IllegalAction, match="it is in the discard pile"):
        GAME.tag_action(state, "SS05")
    with pytest.raises(IllegalAction, match="enroll this tag first"):
        GAME.tag_action(state, "XX99")
    assert GAME.tag_action(state, "SS70") == DrawPattern(TABLE, "SS70")


def test_physical_a_tap_of_a_matching_hand_card_scores_it():
    state = table(HANDS)
    assert GAME.tag_action(state, "SS44") == ScoreCard(0, "SS44")
    with pytest.raises(IllegalAction, match="does not match the grid now"):
        GAME.tag_action(state, "SS05")
    with pytest.raises(IllegalAction, match=r"SS14 .* is in seat 2's hand"):
        GAME.tag_action(state, "SS14")
    with pytest.raises(IllegalAction, match="not drawn yet"):
        GAME.tag_action(state, "SS70")
    assert len(GAME.cards()) == 72 and GAME.card_label("SS05") == "pattern SS05 (bird horse, 1 point)"
