"""sdk.pavilion's evaluation on hand-written Summer Pavilion states (docs/protocol.md format):
it knows the stars and their bonuses, windows/statues/pillars, the wild colour and kept tiles."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest

from referee.engine import game_from_state
from sdk.pavilion import (
    DEAD_KEPT,
    KEPT,
    NEXT_WILD_KEPT,
    START_TOKEN,
    STRUCTURES,
    evaluate_board,
    move_gains,
    next_round_values,
    project_board,
)

EMPTY = "......"


def state(**board: Any) -> dict[str, Any]:
    me = {
        "score": 10,
        "stars": [EMPTY] * 7,
        "tiles": "",
        "kept": "",
        "passed": False,
        "has_marker": False,
    }
    me.update(board)
    other = {
        "score": 10,
        "stars": [EMPTY] * 7,
        "tiles": "",
        "kept": "",
        "passed": False,
        "has_marker": False,
    }
    return {
        "ruleset": "pavilion",
        "players": 2,
        "round": 2,
        "turn": 0,
        "phase": "play",
        "round_starter": 0,
        "wild_order": "PGOYBR",
        "wild": "G",
        "factories": [""] * 5,
        "centre": "",
        "marker_in_centre": False,
        "supply": "PGOYBRPGOY",
        "bag": "",
        "depot": "",
        "bonus_owed": 0,
        "boards": [me, other],
    }


def value(**board: Any) -> float:
    return evaluate_board(state(**board), 0)


def test_the_score_counts_point_for_point() -> None:
    assert value(score=15) - value(score=10) == 5


def test_a_fuller_star_is_worth_more_and_the_last_tiles_most() -> None:
    stars = [EMPTY] * 7
    values = []
    for filled in range(7):
        stars[1] = "P" * filled + "." * (6 - filled)
        values.append(value(stars=list(stars)))
    gains = [b - a for a, b in itertools.pairwise(values)]
    assert all(g > 0 for g in gains)
    assert gains[-1] > 3 * gains[0]  # the tile that completes the star earns its bonus


def test_purple_s_star_is_worth_more_than_red_s() -> None:
    # Full-star bonuses: purple 20, red 14 (stars 1 and 3).
    purple = [EMPTY] * 7
    purple[1] = "PPPPP."
    red = [EMPTY] * 7
    red[3] = "RRRRR."
    assert value(stars=purple) > value(stars=red)


def test_covering_a_number_on_every_star_is_credited() -> None:
    # Space 4 covered on six of the seven stars: most of the way to the 16-point bonus.
    across = [("..." + c + "..") for c in "PPORBYG"]
    across[0] = EMPTY
    assert value(stars=across) > value()


def test_a_wild_tile_in_hand_is_worth_more_than_another() -> None:
    assert value(tiles="G") > value(tiles="P") > value(tiles="")


def test_kept_tiles_help_before_the_last_round_and_cost_in_it() -> None:
    assert value(kept="PP") > value()
    last = state(kept="PP")
    last["round"] = 6
    plain = state()
    plain["round"] = 6
    assert evaluate_board(last, 0) < evaluate_board(plain, 0)


def test_a_structure_one_space_from_done_is_credited() -> None:
    window = [EMPTY] * 7
    window[2] = "....O."  # star 2 (orange), space 5 of the window 5-6
    assert value(stars=window) > value(stars=[EMPTY] * 7) + 0.5


def test_structures_cover_every_window_statue_and_pillar() -> None:
    kinds = [tiles for _, tiles in STRUCTURES]
    assert kinds.count(3) == kinds.count(2) == kinds.count(1) == 6
    # Star 6's statue goes on to star 1 (spaces 3 and 4), as RULES.md says.
    assert ((6, 0), (6, 1), (1, 2), (1, 3)) in [spaces for spaces, _ in STRUCTURES]
    # Purple's pillar uses centre spaces 5 and 6.
    assert ((1, 1), (1, 2), (0, 4), (0, 5)) in [spaces for spaces, _ in STRUCTURES]


def test_at_the_end_the_value_is_the_score() -> None:
    over = state(score=33, tiles="GGG", kept="PP", stars=["PPPPP."] * 7)
    over["phase"] = "over"
    assert evaluate_board(over, 0) == 33


def test_the_state_is_not_changed() -> None:
    s = state(tiles="GPO", stars=["P....."] * 7)
    before = copy.deepcopy(s)
    evaluate_board(s, 0)
    assert s == before


# project_board: the hand played out onto the seat's own stars, then the pass.


def projected(**board: Any) -> float:
    return project_board(state(**board), 0)


def test_with_nothing_in_hand_the_projection_is_the_evaluation() -> None:
    stars = ["P.....", "PP....", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY]
    assert projected(stars=stars) == value(stars=stars)


def test_tiles_that_fit_are_worth_more_than_tiles_that_do_not() -> None:
    # Red's star is full and the centre holds red: three red tiles can go nowhere, three
    # purple ones can (purple's star is empty). The plain evaluation cannot tell them apart.
    stars = ["R.....", EMPTY, EMPTY, "RRRRRR", EMPTY, EMPTY, EMPTY]
    assert value(stars=stars, tiles="PPP") == value(stars=stars, tiles="RRR")
    assert projected(stars=stars, tiles="PPP") > projected(stars=stars, tiles="RRR") + 2


def test_a_hand_that_fits_nowhere_keeps_four_tiles_and_drops_the_rest() -> None:
    stars = ["R.....", EMPTY, EMPTY, "RRRRRR", EMPTY, EMPTY, EMPTY]
    assert projected(stars=stars, tiles="RRRRRR") == value(stars=stars, score=8, kept="RRRR")


def test_wild_tiles_pay_for_a_placement() -> None:
    # Space 3 of purple's star costs 3: one purple tile and two wild (green, round 2) ones
    # place it between spaces 1-2 and 4 (a run of 4: 4 points). The green tiles have no
    # place of their own (green's star is full, the centre holds green).
    stars = ["G.....", "PP.P..", EMPTY, EMPTY, EMPTY, EMPTY, "GGGGGG"]
    after = ["G.....", "PPPP..", EMPTY, EMPTY, EMPTY, EMPTY, "GGGGGG"]
    assert projected(stars=stars, tiles="PGG") == value(stars=after, score=14)


def test_the_last_round_s_leftovers_cost_a_point_each() -> None:
    stars = ["R.....", EMPTY, EMPTY, "RRRRRR", EMPTY, EMPTY, EMPTY]
    last = state(stars=stars, tiles="RR")
    last["round"] = 6
    assert project_board(last, 0) == evaluate_board(last, 0) - 2 * 0.45 - 2


def test_projecting_does_not_change_the_state() -> None:
    s = state(tiles="PGGOY", stars=["P....."] * 7)
    before = copy.deepcopy(s)
    project_board(s, 0)
    assert s == before


def test_while_taking_tiles_with_room_stay_in_hand_and_dead_ones_are_passed() -> None:
    # Orange's star has spaces 5 and 6 left (cost 5 and 6) and the centre holds orange: two
    # orange tiles cannot be placed yet but more may come while the taking goes on; red has
    # no room left at all. In the placement phase both are passed (kept).
    stars = ["OR....", EMPTY, "OOOO..", "RRRRRR", EMPTY, EMPTY, EMPTY]
    taking = state(stars=stars, tiles="OORR")
    taking["phase"] = "take"
    held = state(stars=stars, tiles="OO", kept="RR")
    held["phase"] = "take"
    assert project_board(taking, 0) == evaluate_board(held, 0)
    assert projected(stars=stars, tiles="OORR") == value(stars=stars, kept="OORR")


# project_board(next_round=True): the tiles kept over the round's end valued by next round.


def round_3(**board: Any) -> dict[str, Any]:
    """Round 3 of the standard wild order: orange is wild, yellow will be next round."""
    s = state(**board)
    s["round"], s["wild"] = 3, "O"
    return s


# Purple has no room left (its star is full, the centre holds purple); yellow has room on its
# star but not for one tile (spaces 5 and 6 cost 5 and 6) and the centre holds yellow too.
NO_ROOM = ["PY....", "PPPPPP", EMPTY, EMPTY, EMPTY, "YYYY..", EMPTY]


def test_next_round_values_know_next_round_s_wild_colour_and_dead_colours() -> None:
    worth = next_round_values(round_3(), NO_ROOM)
    assert worth["Y"] == NEXT_WILD_KEPT
    assert worth["P"] == DEAD_KEPT
    assert worth["G"] == worth["R"] == KEPT
    last = round_3()
    last["round"] = 6
    assert set(next_round_values(last, NO_ROOM).values()) == {-1.0}


def test_the_projection_keeps_next_round_s_wild_tile_over_dead_ones() -> None:
    # Five purple tiles and a yellow one, none placeable: keep four, drop two. This round's
    # order keeps purple (the wild orange first, then as they come); next round's keeps the
    # yellow tile, wild next round, and values the dead purple ones at little.
    s = round_3(stars=NO_ROOM, tiles="PPPPPY")
    plain = round_3(stars=NO_ROOM, score=8, kept="PPPP")
    ahead = round_3(stars=NO_ROOM, score=8, kept="YPPP")
    assert project_board(s, 0) == evaluate_board(plain, 0)
    expected = evaluate_board(ahead, 0) + NEXT_WILD_KEPT + 3 * DEAD_KEPT - 4 * KEPT
    assert abs(project_board(s, 0, next_round=True) - expected) < 1e-9


def test_the_projection_s_memory_tells_wild_orders_apart() -> None:
    # The same board in games of two wild orders (option `wild_order`, e.g. one bot process
    # playing both): next round's wild colour differs, and so does what a kept tile is worth.
    # The projection remembers boards it has valued; it must not answer one order's board with
    # the other's value.
    standard = round_3(stars=NO_ROOM, tiles="PPPPPY")
    other = round_3(stars=NO_ROOM, tiles="PPPPPY")
    other["wild_order"] = "PGOBYR"  # blue, not yellow, after orange
    assert next_round_values(standard, NO_ROOM)["Y"] == NEXT_WILD_KEPT
    assert next_round_values(other, NO_ROOM)["Y"] != NEXT_WILD_KEPT
    first = project_board(standard, 0, next_round=True)
    second = project_board(other, 0, next_round=True)
    assert second < first  # the yellow tile kept is no longer next round's wild
    assert project_board(standard, 0, next_round=True) == first


def test_a_seat_that_passed_is_valued_by_what_it_kept() -> None:
    passed_yellow = round_3(stars=NO_ROOM, kept="YY", passed=True)
    passed_purple = round_3(stars=NO_ROOM, kept="PP", passed=True)
    assert project_board(passed_yellow, 0) == project_board(passed_purple, 0)
    assert (
        project_board(passed_yellow, 0, next_round=True)
        > project_board(passed_purple, 0, next_round=True) + 1
    )


def test_the_start_player_token_is_worth_its_first_moves_before_the_last_round() -> None:
    holder = round_3(stars=NO_ROOM, tiles="PY", has_marker=True)
    other = round_3(stars=NO_ROOM, tiles="PY")
    assert project_board(holder, 0) == project_board(other, 0)
    gained = project_board(holder, 0, next_round=True) - project_board(other, 0, next_round=True)
    assert abs(gained - START_TOKEN) < 1e-9
    holder["round"] = other["round"] = 6
    assert project_board(holder, 0, next_round=True) == project_board(other, 0, next_round=True)


def test_the_quick_guess_keeps_next_round_s_wild_tile_over_a_dead_one() -> None:
    # Five purple tiles (no room left) and a yellow one (wild next round): passes keeping as
    # many tiles used to tie, so the bots chose which to keep at random.
    s = round_3(stars=NO_ROOM, tiles="PPPPPY")
    seen = s["supply"] + "".join(b["tiles"] + "".join(b["stars"]) for b in s["boards"])
    s["bag"] = "".join(c * (22 - seen.count(c)) for c in "PGOYBR")  # the game's 132 tiles
    game = game_from_state(s, 1)
    passes = {str(m): m for m in game.legal_moves() if m.is_pass}
    gains = dict(zip(passes, move_gains(game.to_state(), list(passes.values())), strict=True))
    assert gains["pass:PPPY"] - gains["pass:PPPP"] == pytest.approx(NEXT_WILD_KEPT - DEAD_KEPT)
    assert gains["pass:Y"] > gains["pass:P"]
    assert max(gains, key=gains.__getitem__) == "pass:PPPY"
