"""Every classic rule of /work/shared/RULES.md, one test (or a few) per rule, named for it."""

from __future__ import annotations

import pytest

from referee.engine import ClassicGame, IllegalMoveError, new_game
from tests.engine.positions import (
    COLOURS,
    FLOOR_LOSS,
    board,
    coloured_wall,
    dealt,
    legal,
    play,
    position,
    state,
    tiles_in,
)

CLASSIC = ["azul", "azul-mini", "azul-gray", "azul-greenbox"]


def illegal_rule(game: ClassicGame, text: str) -> str:
    """The rule named by the IllegalMoveError that `text` raises (and it must raise)."""
    before = game.to_state()
    with pytest.raises(IllegalMoveError) as info:
        game.push_notation(text)
    assert game.to_state() == before, "an illegal move must leave the game unchanged"
    assert text.upper() not in legal(game)
    return info.value.rule


# ------------------------------------------------------------------ tiles, factories, layout
@pytest.mark.parametrize("ruleset", CLASSIC)
def test_tiles_are_five_colours_of_twenty(ruleset: str) -> None:
    st = new_game(ruleset, 2, seed=3).to_state()
    assert tiles_in(st) == {c: 20 for c in COLOURS}


@pytest.mark.parametrize("ruleset", CLASSIC)
@pytest.mark.parametrize(("players", "factories"), [(2, 5), (3, 7), (4, 9)])
def test_factory_count_5_7_9_for_2_3_4_players_with_4_tiles_each(
    ruleset: str, players: int, factories: int
) -> None:
    st = new_game(ruleset, players, seed=11).to_state()
    assert len(st["factories"]) == factories
    assert all(len(f) == 4 for f in st["factories"])
    assert len(st["bag"]) == 100 - 4 * factories
    assert st["centre"] == "" and st["marker_in_centre"] is True


@pytest.mark.parametrize("row", range(5))
@pytest.mark.parametrize("colour", COLOURS)
def test_coloured_wall_layout_row_r_colour_c_at_column_c_plus_r_mod_5(
    row: int, colour: str
) -> None:
    lines = [""] * 5
    lines[row] = colour * row  # one short of full
    game = position(boards=[board(lines=lines)], factories=[colour])
    play(game, f"1{colour}{row + 1}")  # the last tile of the round fills the line
    wall = game.to_state()["boards"][0]["wall"]
    expected = (COLOURS.index(colour) + row) % 5
    assert wall[row] == "." * expected + colour + "." * (4 - expected)


def test_coloured_wall_rows_read_byrkw_then_wbyrk() -> None:
    full = coloured_wall({r: COLOURS for r in range(5)})
    assert full[0] == "BYRKW"
    assert full[1] == "WBYRK"
    assert full[4] == "YRKWB"


def test_coloured_wall_state_refuses_a_tile_off_its_column() -> None:
    from referee.engine import EngineError

    with pytest.raises(EngineError, match="column"):
        position(
            boards=[board(wall=["Y....", ".....", ".....", ".....", "....."])], factories=["B"]
        )


# ------------------------------------------------------------------ taking and placing
def test_full_pattern_line_cannot_be_chosen() -> None:
    game = position(boards=[board(lines=["", "RR", "", "", ""])], factories=["RRBK"])
    assert illegal_rule(game, "1R2") == "line-full"
    assert {"1R3", "1RF"} <= legal(game)


def test_row_rule_forbids_colour_already_on_wall_row() -> None:
    game = position(boards=[board(wall=coloured_wall({2: "R"}))], factories=["RRBK"])
    assert illegal_rule(game, "1R3") == "row-has-colour"
    assert {"1R1", "1R2", "1R4", "1R5", "1RF"} <= legal(game)


def test_pattern_line_holds_only_one_colour() -> None:
    game = position(boards=[board(lines=["", "", "", "B", ""])], factories=["YYRK"])
    assert illegal_rule(game, "1Y4") == "line-has-other-colour"


def test_all_tiles_to_floor_always_allowed_even_when_no_line_accepts_the_colour() -> None:
    every_row_has_yellow = coloured_wall({r: "Y" for r in range(5)})
    game = position(boards=[board(wall=every_row_has_yellow)], factories=["YYRK", "BBBW"])
    assert {m for m in legal(game) if m.startswith("1Y")} == {"1YF"}
    play(game, "1YF")
    assert game.to_state()["boards"][0]["floor"] == "YY"


def test_all_tiles_to_floor_allowed_even_when_a_line_accepts_them() -> None:
    game = position(factories=["BBYR", "KKKW"])
    assert {"1BF", "1B1", "1B5", "2KF"} <= legal(game)
    play(game, "2KF")
    assert game.to_state()["boards"][0]["floor"] == "KKK"
    assert game.to_state()["boards"][0]["lines"] == [""] * 5


def test_excess_tiles_beyond_the_pattern_line_go_to_the_floor() -> None:
    game = position(factories=["RRRB", "KKKW"])
    play(game, "1R2")
    b = game.to_state()["boards"][0]
    assert b["lines"][1] == "RR" and b["floor"] == "R"


def test_factory_rest_goes_to_the_centre() -> None:
    game = position(factories=["RRYB", "KKKW"])
    play(game, "1R3")
    st = game.to_state()
    assert st["factories"][0] == "" and st["centre"] == "BY"


def test_no_such_factory_is_refused_with_its_rule() -> None:
    game = position(factories=["RRYB"])
    assert illegal_rule(game, "7R3") == "no-such-factory"
    assert illegal_rule(game, "2R3") == "source-lacks-colour"
    assert illegal_rule(game, "CR3") == "source-lacks-colour"


# ------------------------------------------------------------------ floor line
@pytest.mark.parametrize("tiles", range(8))
def test_floor_line_seven_spaces_penalties_1_1_2_2_2_3_3(tiles: int) -> None:
    game = position(boards=[board(floor="R" * tiles, score=20)], factories=["B"])
    play(game, "1B5")  # the last tile: the round ends
    assert game.round == 3
    assert game.scores[0] == 20 - FLOOR_LOSS[tiles]
    assert FLOOR_LOSS[tiles] == sum((1, 1, 2, 2, 2, 3, 3)[:tiles])


def test_floor_overflow_goes_to_lid_without_penalty() -> None:
    game = position(boards=[board(floor="RRRRR", score=30)], factories=["KKKK", "B"])
    play(game, "1KF")
    st = game.to_state()
    assert st["boards"][0]["floor"] == "RRRRRKK"
    assert st["lid"] == "KK"
    play(game, "2B5")
    assert game.scores[0] == 30 - 14
    assert tiles_in(game.to_state()) == {c: 20 for c in COLOURS}


# ------------------------------------------------------------------ start-player marker
def test_start_marker_first_to_take_from_centre_takes_it() -> None:
    game = position(factories=["RRYB", "KKKW"], turn=0)
    play(game, "1R2", "CY1")  # seat 1 is first to take from the centre
    st = game.to_state()
    assert st["marker_in_centre"] is False
    assert st["boards"][1]["has_marker"] is True
    assert st["boards"][0]["has_marker"] is False
    play(game, "CB1")  # seat 0 takes from the centre later: no marker
    st = game.to_state()
    assert st["boards"][0]["has_marker"] is False and st["boards"][1]["has_marker"] is True


def test_start_marker_on_leftmost_free_floor_space_before_the_tiles_of_that_turn() -> None:
    # 5 tiles on the floor; the marker takes space 6, one black tile space 7, two to the lid.
    game = position(boards=[board(floor="RRRRR")], centre="KKK", factories=["B"])
    play(game, "CKF")
    st = game.to_state()
    assert st["boards"][0]["has_marker"] is True
    assert st["boards"][0]["floor"] == "RRRRRK"
    assert st["lid"] == "KK"


def test_start_marker_costs_a_floor_space() -> None:
    game = position(boards=[board(score=10)], centre="K", factories=["B"])
    play(game, "CK1", "1B5")
    assert game.scores[0] == 10 + 1 - 1  # 1 point for the black tile, -1 for the marker


def test_start_marker_on_full_floor_costs_nothing_but_still_starts_next_round() -> None:
    game = position(
        boards=[board(floor="RRRRRRR", score=20)],
        centre="K",
        factories=["B"],
        turn=0,
        round_starter=1,
    )
    play(game, "CKF")
    st = game.to_state()
    assert st["boards"][0]["has_marker"] is True
    assert st["lid"] == "K"
    play(game, "1B5")  # seat 1 ends the round
    assert game.scores[0] == 20 - 14
    assert game.round == 3
    assert game.round_starter == 0 and game.turn == 0


def test_start_marker_holder_starts_next_round() -> None:
    game = position(centre="K", factories=["B"], turn=1, round_starter=0)
    play(game, "CK1", "1B5")  # seat 1 takes from the centre
    assert game.round == 3 and game.round_starter == 1 and game.turn == 1
    assert game.to_state()["marker_in_centre"] is True


def test_start_marker_is_never_counted_as_a_tile() -> None:
    game = position(boards=[board(score=5)], centre="KK", factories=["B"])
    play(game, "CKF", "1B5")
    st = game.to_state()
    assert tiles_in(st) == {c: 20 for c in COLOURS}
    assert "M" not in st["lid"] + st["bag"] + "".join(st["factories"])


def test_nobody_took_from_centre_same_player_starts_next_round() -> None:
    # Single-colour factories leave nothing in the centre: nobody takes the marker.
    game = dealt(
        players=2,
        first_player=1,
        rounds=[
            (["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"], ["1B5", "2Y4", "3R3", "4KF", "5WF"]),
        ],
    )
    assert game.round == 2
    assert game.round_starter == 1 and game.turn == 1


# ------------------------------------------------------------------ score
def test_score_clamped_at_zero_after_floor_penalty() -> None:
    game = position(boards=[board(floor="RRRRR", score=3)], factories=["B"])
    play(game, "1B1")  # +1 for the blue tile, -6 for the floor: 3 + 1 - 6 < 0
    assert game.scores[0] == 0
    assert game.round_scores[-1][0] == 0


def test_score_clamp_comes_after_wall_points_and_floor_penalty_together() -> None:
    # 0 + 3 (red next to blue and yellow) - 2 (two floor tiles) = 1; clamping the penalty
    # before adding the wall points would give 3.
    game = position(
        boards=[board(wall=coloured_wall({0: "BY"}), floor="KK", score=0)], factories=["R"]
    )
    play(game, "1R1")
    assert game.scores[0] == 1


def test_score_never_negative_with_empty_wall_and_full_floor() -> None:
    game = position(boards=[board(floor="RRRRRR", score=0)], factories=["KK"])
    play(game, "1KF")
    assert game.scores == (0, 0)


# ------------------------------------------------------------------ wall scoring
def test_wall_scoring_lone_tile_scores_1() -> None:
    game = position(
        boards=[board(wall=coloured_wall({0: "B", 4: "K"}), lines=["", "", "RR", "", ""])],
        factories=["R"],
    )
    play(game, "1R3")
    assert game.scores[0] == 1


def test_wall_scoring_horizontal_run_counts_new_tile() -> None:
    game = position(
        boards=[board(wall=coloured_wall({2: "KW"}), lines=["", "", "BB", "", ""])], factories=["B"]
    )
    play(game, "1B3")  # row 3: K W B at columns 1-3
    assert game.to_state()["boards"][0]["wall"][2] == "KWB.."
    assert game.scores[0] == 3


def test_wall_scoring_vertical_run_counts_new_tile() -> None:
    # Column 1 (0-based 0): B row 0, W row 1; placing K on row 2 column 0.
    game = position(
        boards=[board(wall=coloured_wall({0: "B", 1: "W"}), lines=["", "", "KK", "", ""])],
        factories=["K"],
    )
    play(game, "1K3")
    assert game.to_state()["boards"][0]["wall"][2][0] == "K"
    assert game.scores[0] == 3


def test_wall_scoring_is_horizontal_plus_vertical_not_minus_one() -> None:
    # Row 3 holds K W B in columns 1-3; column 4 holds K (row 1) and R (row 2).
    # Yellow goes to row 3 column 4: 4 horizontally + 3 vertically = 7 (H + V - 1 would be 6).
    wall = coloured_wall({0: "K", 1: "R", 2: "KWB"})
    game = position(boards=[board(lines=["", "", "YY", "", ""], wall=wall)], factories=["Y"])
    play(game, "1Y3")
    assert game.to_state()["boards"][0]["wall"][2] == "KWBY."
    assert game.scores[0] == 7


def test_wall_tiling_scores_each_tile_as_it_is_placed() -> None:
    # Lines 1 and 2 both complete: B on row 1 column 1 (alone: 1), then W on row 2 column 1
    # next to it vertically (2).
    game = position(boards=[board(lines=["", "WW", "", "", ""])], factories=["B"])
    play(game, "1B1")
    assert game.scores[0] == 3


def test_remaining_tiles_of_a_tiled_line_go_to_the_lid_incomplete_lines_stay() -> None:
    game = position(boards=[board(lines=["", "", "", "RRR", "YY"])], factories=["R", "B"])
    play(game, "1R4")
    assert game.to_state()["lid"] == ""
    play(game, "2B1")
    st = game.to_state()
    assert st["boards"][0]["lines"] == ["", "", "", "", "YY"]
    assert st["lid"] == "RRR"
    assert st["boards"][1]["wall"][0] == "B...."


# ------------------------------------------------------------------ end of the game
def test_game_ends_after_the_wall_tiling_in_which_a_row_is_completed() -> None:
    game = position(boards=[board(wall=coloured_wall({0: "BYRK"}), score=10)], factories=["W", "B"])
    play(game, "1W1")
    assert not game.is_over() and game.phase == "take"  # tiles on the line are not on the wall
    play(game, "2B5")
    assert game.is_over() and game.phase == "over"
    assert game.legal_moves() == ()
    assert game.to_state()["boards"][0]["wall"][0] == "BYRKW"
    with pytest.raises(IllegalMoveError) as info:
        game.push_notation("1B1")
    assert info.value.rule == "game-over"


def test_completed_column_alone_does_not_end_the_game() -> None:
    column_0_but_row_4 = coloured_wall({0: "B", 1: "W", 2: "K", 3: "R"})
    game = position(
        boards=[board(wall=column_0_but_row_4, lines=["", "", "", "", "YYYY"])], factories=["Y"]
    )
    play(game, "1Y5")  # yellow on row 5 column 1 completes column 1
    assert [r[0] for r in game.to_state()["boards"][0]["wall"]] == list("BWKRY")
    assert not game.is_over() and game.round == 3


def test_end_bonuses_2_per_row_7_per_column_10_per_colour() -> None:
    # Row 1 gets its last tile (white): +5 for the row of 5. Then column 1 is full (+7), blue
    # is on every row (+10), row 1 is complete (+2).
    wall = coloured_wall({0: "BYRK", 1: "WB", 2: "KB", 3: "RB", 4: "YB"})
    game = position(boards=[board(wall=wall, score=10)], factories=["W"])
    play(game, "1W1")
    assert game.is_over()
    assert game.round_scores[-1] == (15, 0)
    assert game.scores == (15 + 2 + 7 + 10, 0)


def test_end_bonus_per_complete_row_counts_every_row() -> None:
    wall = coloured_wall({0: "BYRKW", 1: "WBYRK", 2: "KWB"})
    game = position(boards=[board(wall=wall, score=0)], factories=["K"], turn=1)
    play(game, "1K1")  # seat 1 takes it: only the existing rows count
    assert game.is_over()
    # seat 0: 2 rows (+4); columns 1-3 hold 3 tiles each: no column, no colour bonus
    assert game.scores[0] == 4


# ------------------------------------------------------------------ winner
def _finished(scores: list[int], rows: list[int]) -> ClassicGame:
    boards = [
        board(score=s, wall=coloured_wall({r: COLOURS for r in range(n)}))
        for s, n in zip(scores, rows, strict=True)
    ]
    st = state(players=len(scores), boards=boards, phase="over", turn=-1)
    return ClassicGame.from_state(st, seed=1)


def test_winner_has_highest_score() -> None:
    assert _finished([40, 52], [1, 1]).ranks() == (2, 1)


def test_tie_broken_by_more_complete_rows() -> None:
    assert _finished([50, 50], [1, 2]).ranks() == (2, 1)
    assert _finished([50, 50, 50], [2, 1, 3]).ranks() == (2, 3, 1)


def test_tie_with_equal_rows_is_a_shared_rank() -> None:
    assert _finished([50, 50], [1, 1]).ranks() == (1, 1)
    assert _finished([50, 50, 40], [2, 2, 3]).ranks() == (1, 1, 3)


def test_tie_break_in_a_played_game() -> None:
    # Both end on 9; seat 0 has one complete row, seat 1 none.
    b0 = board(wall=coloured_wall({0: "BYRK"}), score=2)
    b1 = board(wall=coloured_wall({4: "Y"}), score=8)
    game = position(boards=[b0, b1], factories=["W", "B"])
    play(game, "1W1", "2B1")  # seat 0: 2 + 5 = 7, +2 for the row = 9. seat 1: 8 + 1 = 9
    assert game.is_over()
    assert game.round_scores[-1] == (7, 9)
    assert game.scores == (9, 9)
    assert game.ranks() == (1, 2)


# ------------------------------------------------------------------ bag and lid
def _bag_and_lid(bag: str, **kwargs) -> ClassicGame:  # type: ignore[no-untyped-def]
    st = state(**kwargs)
    rest = st["bag"]
    for ch in bag:
        rest = rest.replace(ch, "", 1)
    st["bag"], st["lid"] = bag, rest
    return ClassicGame.from_state(st, seed=5)


def test_bag_empty_while_filling_pours_the_lid_in_and_goes_on() -> None:
    game = _bag_and_lid("KKKKKK", factories=["B"])
    play(game, "1B5")
    st = game.to_state()
    assert game.round == 3 and game.phase == "take"
    assert all(len(f) == 4 for f in st["factories"])
    assert "".join(st["factories"]).count("K") >= 6  # the bag's tiles were all drawn first
    assert st["lid"] == ""  # poured into the bag
    assert tiles_in(st) == {c: 20 for c in COLOURS}


def test_bag_and_lid_both_empty_round_starts_with_factories_as_they_are() -> None:
    # 4 players. Each wall: columns 1-4 full (20 tiles, 4 of each colour), no row complete.
    # Pattern lines hold 14 more tiles, the centre 1, the bag 5 (4 white, 1 blue), lid empty.
    wall = coloured_wall(
        {r: "".join(c for c in COLOURS if (COLOURS.index(c) + r) % 5 != 4) for r in range(5)}
    )
    boards = [
        board(wall=wall, lines=["", "K", "RR", "YYY", "BB"]),
        board(wall=wall, lines=["", "K", "RR", "Y", ""]),
        board(wall=wall, lines=["", "K", "", "", ""]),
        board(wall=wall, lines=["", "K", "", "", ""]),
    ]
    game = position(players=4, boards=boards, centre="B")
    assert game.to_state()["bag"] == "BWWWW"
    play(game, "CB5")
    st = game.to_state()
    assert game.round == 3 and not game.is_over()
    assert [len(f) for f in st["factories"]] == [4, 1, 0, 0, 0, 0, 0, 0, 0]
    assert st["bag"] == "" and st["lid"] == ""
    assert sorted("".join(st["factories"])) == sorted("BWWWW")
    assert len(game.legal_moves()) > 0


# ------------------------------------------------------------------ gray wall
def test_gray_wall_player_chooses_any_free_column_without_that_colour() -> None:
    wall = [".....", ".....", ".....", "..B..", "....."]  # column 3 holds blue already
    game = position("azul-gray", boards=[board(wall=wall)], factories=["B"])
    play(game, "1B1")
    assert game.phase == "wall" and game.turn == 0
    assert game.to_state()["wall_line"] == 1
    assert legal(game) == {"1@1", "1@2", "1@4", "1@5"}
    assert illegal_rule(game, "1@3") == "column-has-colour"
    play(game, "1@4")
    assert game.to_state()["boards"][0]["wall"][0] == "...B."
    assert game.phase == "take" and game.round == 3
    assert game.scores[0] == 1


def test_gray_wall_choices_in_one_phase_see_the_earlier_ones() -> None:
    game = position("azul-gray", boards=[board(lines=["", "BB", "", "", ""])], factories=["B"])
    play(game, "1B1", "1@1")
    assert game.phase == "wall" and game.to_state()["wall_line"] == 2
    assert legal(game) == {"2@2", "2@3", "2@4", "2@5"}  # column 1 holds blue now
    play(game, "2@2")
    assert game.to_state()["boards"][0]["wall"][:2] == ["B....", ".B..."]


def test_gray_wall_only_one_legal_column_is_decided_without_asking() -> None:
    # Columns 1-4 hold blue already (rows 2-5): blue on row 1 can only go to column 5.
    wall = [".....", "B....", ".B...", "..B..", "...B."]
    game = position("azul-gray", boards=[board(wall=wall)], factories=["B", "W"])
    play(game, "1B1", "2W5")  # seat 1 ends the round; seat 0 is not asked for a column
    assert game.phase == "take" and game.round == 3
    assert game.to_state()["boards"][0]["wall"][0] == "....B"


def test_gray_wall_completing_a_row_ends_the_game() -> None:
    wall = ["YRKW.", ".....", ".....", ".....", "....."]
    game = position("azul-gray", boards=[board(wall=wall)], factories=["B", "W"])
    play(game, "1B1", "2W5")
    assert game.to_state()["boards"][0]["wall"][0] == "YRKWB"
    assert game.is_over()


def test_gray_wall_no_legal_column_sends_all_tiles_of_the_line_to_floor() -> None:
    # Row 5: the only free space is column 5, which already holds blue (row 1).
    wall = ["....B", ".....", ".....", ".....", "YRKW."]
    game = position(
        "azul-gray",
        boards=[board(wall=wall, lines=["", "", "", "", "BBBB"], score=20)],
        factories=["B"],
    )
    play(game, "1B5")
    st = game.to_state()
    assert game.round == 3 and game.phase == "take"
    assert st["boards"][0]["wall"][4] == "YRKW."
    assert st["boards"][0]["lines"][4] == ""
    assert game.scores[0] == 20 - FLOOR_LOSS[5]  # five tiles on the floor
    assert tiles_in(st) == {c: 20 for c in COLOURS}


def test_gray_wall_no_legal_column_overflow_goes_to_lid_without_penalty() -> None:
    wall = ["....B", ".....", ".....", ".....", "YRKW."]
    game = position(
        "azul-gray",
        boards=[board(wall=wall, lines=["", "", "", "", "BBBB"], floor="RRRR", score=20)],
        factories=["B"],
    )
    play(game, "1B5")
    assert game.scores[0] == 20 - 14  # 4 + 5 tiles, only 7 spaces count
    assert tiles_in(game.to_state()) == {c: 20 for c in COLOURS}


# ------------------------------------------------------------------ Green Box
def test_greenbox_colour_may_not_be_in_two_pattern_lines() -> None:
    game = position(
        "azul-greenbox", boards=[board(lines=["", "R", "", "", ""])], factories=["RRYB"]
    )
    assert illegal_rule(game, "1R3") == "colour-in-other-line"
    assert illegal_rule(game, "1R5") == "colour-in-other-line"
    assert {"1R2", "1RF"} <= legal(game)


def test_greenbox_full_line_still_blocks_its_colour_until_wall_tiling() -> None:
    game = position(
        "azul-greenbox", boards=[board(lines=["R", "", "", "", ""])], factories=["RRYB", "K"]
    )
    assert {m for m in legal(game) if m.startswith("1R")} == {"1RF"}


def test_greenbox_colour_free_again_after_wall_tiling() -> None:
    game = position("azul-greenbox", boards=[board(lines=["R", "", "", "", ""])], factories=["K"])
    play(game, "1K5")
    assert game.round == 3
    st = game.to_state()
    assert st["boards"][0]["lines"][0] == ""
    bag = st["bag"] + st["factories"][0]
    for _ in range(4):
        bag = bag.replace("R", "", 1)
    st["factories"][0], st["bag"] = "RRRR", bag
    game = ClassicGame.from_state(st, seed=1)
    # line 1 is closed by the row rule (red is on wall row 1), line 5 holds black;
    # lines 2-4 are open to red again
    assert {m for m in legal(game) if m.startswith("1R")} == {"1R2", "1R3", "1R4", "1RF"}


def test_classic_allows_a_colour_in_two_pattern_lines() -> None:
    game = position("azul", boards=[board(lines=["", "R", "", "", ""])], factories=["RRYB"])
    assert {"1R2", "1R3", "1R5"} <= legal(game)


@pytest.mark.parametrize("ruleset", CLASSIC)
def test_is_legal_agrees_with_legal_moves(ruleset: str) -> None:
    from referee.engine.classic.moves import ALL_MOVES

    game = position(
        ruleset, boards=[board(lines=["", "R", "", "", ""])], factories=["RRYB", "KKKW"]
    )
    legal_now = set(game.legal_moves())
    assert {m for m in ALL_MOVES if game.is_legal(m)} == legal_now


def test_greenbox_is_legal_agrees_with_legal_moves() -> None:
    game = new_game("azul-greenbox", 2, seed=0)
    move = game.parse_move("1" + game.to_state()["factories"][0][0] + "1")
    assert move in game.legal_moves()
    assert game.is_legal(move)
