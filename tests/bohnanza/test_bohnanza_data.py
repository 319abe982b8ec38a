"""The project's own Bohnanza data: 154 cards in 11 beans, the beanometers, and the removals by player count."""

from __future__ import annotations

import pytest

from companion.games.bohnanza.beans import (
    BEANS,
    CARDS,
    DATA,
    PLAYER_COUNTS,
    bean_of,
    beans_in_play,
    card_label,
    cards_in_play,
)


def test_154_cards_in_11_beans():
    assert len(BEANS) == 11
    assert sum(b.count for b in BEANS.values()) == 154 == DATA["total_cards"]
    assert len(CARDS) == len(set(CARDS)) == 154


def test_bean_counts_from_the_rulebook():
    counts = {b.id: b.count for b in BEANS.values()}
    assert counts == {
        "coffee": 24, "wax": 22, "blue": 20, "chili": 18, "stink": 16, "green": 14,
        "soy": 12, "black_eyed": 10, "red": 8, "garden": 6, "cocoa": 4,
    }


@pytest.mark.parametrize(
    ("players", "removed", "in_play"),
    [(2, {"garden", "cocoa"}, 144), (3, {"cocoa"}, 150), (4, {"coffee"}, 130), (5, {"coffee"}, 130),
     (6, {"cocoa", "garden"}, 144), (7, {"cocoa", "garden"}, 144)],
)
def test_removed_beans_by_player_count(players, removed, in_play):
    assert set(PLAYER_COUNTS[players].removed) == removed
    assert len(cards_in_play(players)) == in_play
    assert set(beans_in_play(players)) == set(BEANS) - removed


def test_beanometers_pay_more_for_more_beans_and_at_most_four():
    for bean in BEANS.values():
        needed = [n for n, _ in bean.beanometer]
        coins = [c for _, c in bean.beanometer]
        assert needed == sorted(needed) and coins == sorted(coins)
        assert max(coins) <= 4 and max(needed) <= bean.count
        assert bean.coins(0) == bean.coins(1) == 0


@pytest.mark.parametrize(
    ("bean", "beans", "coins"),
    [("chili", 2, 0), ("chili", 3, 1), ("chili", 8, 3), ("chili", 9, 4), ("chili", 18, 4),
     ("stink", 7, 3), ("red", 2, 1), ("red", 5, 4), ("garden", 1, 0), ("garden", 2, 2), ("garden", 3, 3),
     ("garden", 6, 3), ("cocoa", 4, 4), ("coffee", 11, 3), ("blue", 6, 2)],
)
def test_beanometer_pays_the_printed_coins(bean, beans, coins):
    assert BEANS[bean].coins(beans) == coins


def test_player_count_rules():
    assert PLAYER_COUNTS[2].duel and PLAYER_COUNTS[2].turn_up == 3 and PLAYER_COUNTS[2].draw == 2
    assert [PLAYER_COUNTS[n].exhaustions_to_end for n in range(2, 8)] == [1, 2, 3, 3, 3, 3]
    assert [PLAYER_COUNTS[n].draw for n in range(3, 8)] == [3, 3, 3, 4, 4]
    assert [PLAYER_COUNTS[n].third_field_cost for n in range(2, 8)] == [3, None, 3, 3, 2, 2]
    assert PLAYER_COUNTS[3].fields == 3
    assert PLAYER_COUNTS[2].field_coins_to == "box"
    for n in range(2, 8):
        assert len(PLAYER_COUNTS[n].hands) == n


def test_card_ids_name_the_bean_and_its_number():
    assert "chili-03" in CARDS and bean_of("black_eyed-10") == "black_eyed"
    assert card_label("chili-03") == "Chili Bean 3 of 18"
