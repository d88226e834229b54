"""The worked examples of the Azul and Azul Mini rulebooks (and the Green Box text), each as a
position. The pictures are not in the text: where a wall is needed, the test builds one that
matches what the example says."""

from __future__ import annotations

import pytest

from referee.engine import IllegalMoveError
from tests.engine.positions import board, coloured_wall, legal, play, position

AZUL_BOOKS = ["azul", "azul-mini"]  # the same examples appear in both rulebooks


@pytest.mark.parametrize("ruleset", AZUL_BOOKS)
def test_rulebook_first_turns_peter_martin_andrea(ruleset: str) -> None:
    # 3 players. Peter takes 2 black from a factory, the rest goes to the centre; Martin takes the
    # yellow tile from a factory and its 3 red go to the centre; Andrea takes those 3 red from the
    # centre and, first to take from the centre, the start-player marker onto her floor's
    # leftmost space.
    game = position(ruleset, players=3, factories=["KKBW", "YRRR", "BBYY"])
    play(game, "1K2")
    assert game.to_state()["centre"] == "BW"
    play(game, "2Y1")
    assert game.to_state()["centre"] == "BRRRW"
    play(game, "CR3")
    st = game.to_state()
    andrea = st["boards"][2]
    assert andrea["lines"][2] == "RRR" and andrea["floor"] == ""
    assert andrea["has_marker"] is True and st["marker_in_centre"] is False
    assert st["centre"] == "BW"


@pytest.mark.parametrize("ruleset", AZUL_BOOKS)
def test_rulebook_andrea_yellow_tiles(ruleset: str) -> None:
    # Wall rows 2 and 3 hold yellow; pattern line 4 holds 1 blue. She picks 2 yellow.
    andrea = board(lines=["", "", "", "B", ""], wall=coloured_wall({1: "Y", 2: "Y"}))
    game = position(ruleset, boards=[andrea], factories=["YYRK", "BBBW"])
    assert {m for m in legal(game) if m.startswith("1Y")} == {"1Y1", "1Y5", "1YF"}
    for text, rule in (
        ("1Y2", "row-has-colour"),
        ("1Y3", "row-has-colour"),
        ("1Y4", "line-has-other-colour"),
    ):
        with pytest.raises(IllegalMoveError) as info:
            game.push_notation(text)
        assert info.value.rule == rule
    # (A) 1 in the first pattern line, the excess on the floor
    a = play(game.copy(), "1Y1").to_state()["boards"][0]
    assert a["lines"][0] == "Y" and a["floor"] == "Y"
    # (B) both in the fifth pattern line
    b = play(game.copy(), "1Y5").to_state()["boards"][0]
    assert b["lines"][4] == "YY" and b["floor"] == ""
    # (C) both on the floor
    c = play(game.copy(), "1YF").to_state()["boards"][0]
    assert c["floor"] == "YY" and c["lines"] == ["", "", "", "B", ""]


@pytest.mark.parametrize("ruleset", AZUL_BOOKS)
def test_rulebook_oliver_wall_tiling(ruleset: str) -> None:
    # Peter (Azul) / Oliver (Azul Mini): line 2 complete with 2 red -> red space, 1 point; line 3
    # incomplete, ignored; line 4 complete blue -> 1 point; line 5 incomplete. Then the rest of
    # lines 2 and 4 goes to the lid; lines 3 and 5 stay.
    oliver = board(lines=["", "R", "YY", "BBBB", "KK"], score=0)
    game = position(ruleset, boards=[oliver], factories=["R", "W"])
    play(game, "1R2", "2W1")  # seat 1 ends the round
    st = game.to_state()
    me = st["boards"][0]
    assert me["wall"][1] == "...R."
    assert me["wall"][3] == "...B."
    assert me["lines"] == ["", "", "YY", "", "KK"]
    assert game.scores[0] == 2
    assert st["lid"] == "BBBR"


@pytest.mark.parametrize("ruleset", AZUL_BOOKS)
def test_rulebook_scoring_red_tile_alone_scores_1(ruleset: str) -> None:
    wall = coloured_wall({0: "B", 4: "W"})
    game = position(
        ruleset, boards=[board(lines=["", "", "RR", "", ""], wall=wall)], factories=["R"]
    )
    play(game, "1R3")
    assert game.scores[0] == 1


@pytest.mark.parametrize("ruleset", AZUL_BOOKS)
def test_rulebook_scoring_yellow_3_horizontal(ruleset: str) -> None:
    # Row 1 holds blue and red around the yellow space: B Y R -> 3 points.
    game = position(ruleset, boards=[board(wall=coloured_wall({0: "BR"}))], factories=["Y"])
    play(game, "1Y1")
    assert game.to_state()["boards"][0]["wall"][0] == "BYR.."
    assert game.scores[0] == 3


@pytest.mark.parametrize("ruleset", AZUL_BOOKS)
def test_rulebook_scoring_blue_3_vertical(ruleset: str) -> None:
    # Column 3: red on row 1 above, yellow on row 2 ... blue goes to row 3 column 3; with the red
    # (row 1) and yellow (row 2) above it: 3 vertically linked tiles.
    wall = coloured_wall({0: "R", 1: "Y"})
    game = position(
        ruleset, boards=[board(lines=["", "", "BB", "", ""], wall=wall)], factories=["B"]
    )
    play(game, "1B3")
    assert [r[2] for r in game.to_state()["boards"][0]["wall"][:3]] == ["R", "Y", "B"]
    assert game.scores[0] == 3


@pytest.mark.parametrize("ruleset", AZUL_BOOKS)
def test_rulebook_scoring_yellow_4_plus_3_is_7(ruleset: str) -> None:
    # 4 horizontally linked tiles and 3 vertically linked ones, the new yellow in both.
    wall = coloured_wall({0: "K", 1: "R", 2: "KWB"})
    game = position(
        ruleset, boards=[board(lines=["", "", "YY", "", ""], wall=wall, score=10)], factories=["Y"]
    )
    play(game, "1Y3")
    assert game.scores[0] == 17


@pytest.mark.parametrize("ruleset", AZUL_BOOKS)
def test_rulebook_floor_4_tiles_and_marker_lose_8(ruleset: str) -> None:
    # Peter / Oliver: 4 tiles and the start-player marker on the floor: -1 -1 -2 -2 -2 = -8.
    game = position(ruleset, boards=[board(floor="RRK", score=20)], centre="Y", factories=["B"])
    play(game, "CYF")  # the marker first, then the yellow tile: 5 spaces
    st = game.to_state()["boards"][0]
    assert st["has_marker"] and len(st["floor"]) == 4
    play(game, "1B5")
    assert game.scores[0] == 20 - 8
    # the marker goes in front of its owner, who starts the next round
    assert game.round_starter == 0


@pytest.mark.parametrize("ruleset", AZUL_BOOKS)
def test_rulebook_end_bonuses_row_column_colour(ruleset: str) -> None:
    # 2 per complete row, 7 per complete column, 10 per colour with all 5 tiles.
    # Seat 0 completes row 1 (+5 for placing), has column 1 and all five blue.
    wall = coloured_wall({0: "BYRK", 1: "WB", 2: "KB", 3: "RB", 4: "YB"})
    game = position(ruleset, boards=[board(wall=wall, score=40)], factories=["W"])
    play(game, "1W1")
    assert game.is_over()
    assert game.scores[0] == 40 + 5 + 2 + 7 + 10


@pytest.mark.parametrize("ruleset", AZUL_BOOKS)
def test_rulebook_game_ends_after_the_round_a_row_is_completed(ruleset: str) -> None:
    game = position(
        ruleset,
        boards=[board(wall=coloured_wall({3: "BYRK"}), lines=["", "", "", "WWW", ""])],
        factories=["W", "B"],
    )
    play(game, "1W4")
    assert not game.is_over()
    play(game, "2B1")
    assert game.is_over()


def test_greenbox_example_marker_and_3_tiles_lose_6() -> None:
    # "If you have 4 tiles in the Floor Line (black meeple + 3 tiles) you loose a total of 6
    # points (-1 -1 -2 -2 = -6)."
    game = position(
        "azul-greenbox", boards=[board(floor="RR", score=10)], centre="Y", factories=["B"]
    )
    play(game, "CYF", "1B5")
    assert game.scores[0] == 10 - 6


def test_azul_mini_variant_special_case_no_valid_space_all_tiles_to_floor() -> None:
    # Azul Mini, Variant Play, special case: no valid space for the tile of a pattern line ->
    # all tiles of that line go to the floor line.
    # Row 1's only free space is column 5, which already holds blue (row 5).
    wall = ["YRKW.", ".....", ".....", ".....", "....B"]
    game = position("azul-gray", boards=[board(wall=wall, score=10)], factories=["B"])
    play(game, "1B1")
    assert game.to_state()["boards"][0]["wall"][0] == "YRKW."
    assert game.scores[0] == 10 - 1  # one tile on the floor
    assert not game.is_over()


def test_azul_mini_variant_no_colour_twice_in_a_row_either() -> None:
    # "keep in mind that in each horizontal line, no color may appear more than once either"
    game = position(
        "azul-gray",
        boards=[board(wall=["..B..", ".....", ".....", ".....", "....."])],
        factories=["BBYR"],
    )
    with pytest.raises(IllegalMoveError) as info:
        game.push_notation("1B1")
    assert info.value.rule == "row-has-colour"


def test_azul_variant_no_colour_twice_in_a_column() -> None:
    game = position(
        "azul-gray",
        boards=[board(wall=[".....", "..B..", ".....", ".....", "....."])],
        factories=["B"],
    )
    play(game, "1B1")
    assert game.phase == "wall"
    assert "1@3" not in legal(game)
    with pytest.raises(IllegalMoveError) as info:
        game.push_notation("1@3")
    assert info.value.rule == "column-has-colour"
