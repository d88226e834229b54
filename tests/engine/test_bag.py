"""The bag both families draw from (referee/engine/bag.py): a random draw, the refill when the bag
runs out, and the check of a recorded draw, which must accept exactly what a draw could give."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine import EngineError, RecordError, new_game
from referee.engine.bag import ONE, draw, packed_total, take

NAMES = ("blue", "yellow", "red", "black", "white", "green")


def packed(counts: list[int]) -> int:
    return sum(n * ONE[c] for c, n in enumerate(counts))


counts = st.lists(st.integers(0, 20), min_size=5, max_size=6)
words = st.lists(st.integers(0, 2**32 - 1), min_size=40, max_size=40)


@given(counts, counts, words, st.integers(0, 40))
def test_a_draw_takes_from_the_bag_then_the_refill_and_its_record_checks(
    bag_counts: list[int], refill_counts: list[int], rand: list[int], count: int
) -> None:
    bag, refill = packed(bag_counts), packed(refill_counts)
    drawn, bag_after, refill_after = draw(bag, refill, rand, count)
    # Every tile is accounted for: drawn, left in the bag, or still set aside.
    assert len(drawn) + packed_total(bag_after) + packed_total(refill_after) == packed_total(
        bag
    ) + packed_total(refill)
    assert len(drawn) == min(count, packed_total(bag) + packed_total(refill))
    if len(drawn) <= packed_total(bag):
        assert refill_after == refill  # the refill is poured only once the bag is empty
    # The same tiles read from a record leave the bag and the refill in the same state.
    checked = take(
        bag, refill, drawn, count, what="the deal", refill_name="lid", colour_names=NAMES
    )
    assert checked == (bag_after, refill_after)


def test_a_draw_follows_the_words_colour_by_colour() -> None:
    bag = packed([2, 1, 0, 0, 3])
    # Word 0 picks the first tile (blue); a word near 2**32 picks the last one (white).
    assert draw(bag, 0, [0, 2**32 - 1], 2)[0] == [0, 4]


def test_a_record_cannot_draw_more_of_a_colour_than_the_bag_holds() -> None:
    with pytest.raises(RecordError, match="3 red tiles drawn but the bag holds only 2") as err:
        take(
            packed([5, 5, 2, 5, 5]),
            0,
            [2, 2, 2, 0],
            4,
            what="the deal",
            refill_name="lid",
            colour_names=NAMES,
            round=3,
        )
    assert err.value.round == 3


def test_a_record_cannot_stop_short_while_tiles_are_left() -> None:
    with pytest.raises(RecordError, match="although the bag or the depot still held tiles"):
        take(
            packed([5, 5, 5, 5, 5]),
            0,
            [0, 1],
            4,
            what="the supply refill",
            refill_name="depot",
            colour_names=NAMES,
        )
    # With bag and refill empty after the draw, a short draw is what the rules give.
    assert take(
        packed([1, 1, 0, 0, 0]), 0, [0, 1], 4, what="x", refill_name="lid", colour_names=NAMES
    ) == (0, 0)


def test_a_record_that_needs_more_than_the_refill_holds_is_refused() -> None:
    with pytest.raises(RecordError, match=r"the bag \(1\) and the lid \(0\) cannot give that many"):
        take(
            packed([1, 0, 0, 0, 0]),
            packed([0, 4, 0, 0, 0]),
            [0, 0, 1, 1],
            4,
            what="the deal",
            refill_name="lid",
            colour_names=NAMES,
        )


def test_an_option_is_refused_by_the_rulesets_without_it_and_names_those_with_it() -> None:
    with pytest.raises(
        EngineError, match=r"azul has no option wild_order .*pavilion, pavilion-mono"
    ):
        new_game("azul", wild_order="PGOYBR")
    assert new_game("pavilion", wild_order="GOPYBR").to_state()["wild_order"] == "GOPYBR"
