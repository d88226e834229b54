"""Summer Pavilion: every rule of RULES.md's "Summer Pavilion" part, each as its own test.

Stars: 0 = centre, 1 purple, 2 orange, 3 red, 4 blue, 5 yellow, 6 green. In round 1 purple is wild.
"""

from __future__ import annotations

import pytest

from referee.engine import IllegalMoveError, PavilionGame, new_game
from tests.engine.pavilion_positions import board, play, position, tile_count

STAR_LETTER = {1: "P", 2: "O", 3: "R", 4: "B", 5: "Y", 6: "G"}


def moves(game: PavilionGame) -> set[str]:
    return {str(m) for m in game.legal_moves()}


def star(number: int, spaces: str) -> str:
    """Star `number` with a tile on each of `spaces` ("1256"): its own colour, or on the centre
    star the colour P G O Y B R by space (all different)."""
    return "".join(
        (STAR_LETTER[number] if number else "PGOYBR"[k]) if str(k + 1) in spaces else "."
        for k in range(6)
    )


def stars(cells: list[tuple[int, int]]) -> dict[int, str]:
    """Stars with a tile on each (star, space) of `cells` (spaces 1-6)."""
    out: dict[int, str] = {}
    for s in sorted({s for s, _ in cells}):
        out[s] = star(s, "".join(str(k) for t, k in cells if t == s))
    return out


def placing(cells: list[tuple[int, int]], tiles: str, **kwargs: object) -> PavilionGame:
    """Seat 0 to play (round 1 unless told) with tiles on `cells` and `tiles` in hand."""
    kwargs.setdefault("boards", [board(stars=stars(cells), tiles=tiles)])
    return position(phase="play", **kwargs)  # type: ignore[arg-type]


# --- tiles, setup ------------------------------------------------------------------------------
def test_132_tiles_22_of_each_colour_in_colour_order_p_g_o_y_b_r() -> None:
    s = new_game("pavilion", 2, seed=1).to_state()
    assert tile_count(s) == {c: 22 for c in "PGOYBR"}
    assert s["bag"] == "".join(sorted(s["bag"], key="PGOYBR".index))


def test_everyone_starts_at_5_points() -> None:
    assert new_game("pavilion", 4, seed=1).scores == (5, 5, 5, 5)


@pytest.mark.parametrize(("players", "factories"), [(2, 5), (3, 7), (4, 9)])
def test_factories_5_7_9_filled_with_4_tiles_from_the_bag(players: int, factories: int) -> None:
    s = new_game("pavilion", players, seed=1).to_state()
    assert [len(f) for f in s["factories"]] == [4] * factories
    assert len(s["bag"]) == 132 - 10 - 4 * factories


def test_supply_holds_10_tiles_at_the_start() -> None:
    s = new_game("pavilion", 2, seed=3).to_state()
    assert len(s["supply"]) == 10 and "." not in s["supply"]


def test_standard_wild_order_is_purple_green_orange_yellow_blue_red() -> None:
    game = new_game("pavilion", 2, seed=3)
    wilds: list[tuple[int, str]] = []
    while not game.is_over():
        if not wilds or wilds[-1][0] != game.round:
            wilds.append((game.round, game.to_state()["wild"]))
        game.push(game.legal_moves()[-1])
    assert "".join(w for _, w in wilds) == "PGOYBR"


def test_wild_order_variant_sets_the_wild_colour_of_each_round() -> None:
    game = new_game("pavilion", 2, seed=3, wild_order="RBYOGP")
    assert game.to_state()["wild"] == "R"
    game = position(round=3, wild_order="RBYOGP", factories=["YYBO"])
    assert game.to_state()["wild"] == "Y"
    assert moves(game) == {"1B", "1O"}


# --- acquiring tiles ---------------------------------------------------------------------------
def test_take_all_of_one_colour_from_a_factory_rest_to_the_centre() -> None:
    game = play(position(factories=["RRYY", "GOBB"]), "1R")
    s = game.to_state()
    assert s["boards"][0]["tiles"] == "RR" and s["centre"] == "YY" and s["factories"][0] == ""
    assert s["turn"] == 1


def test_take_with_wild_tiles_there_takes_exactly_one_wild() -> None:
    game = play(position(factories=["GPPY"]), "1G")
    s = game.to_state()
    assert s["boards"][0]["tiles"] == "PG" and s["centre"] == "PY"


def test_take_from_only_wild_tiles_takes_exactly_one() -> None:
    game = position(factories=["PPPP"])
    assert moves(game) == {"1P"}
    s = play(game, "1P").to_state()
    assert s["boards"][0]["tiles"] == "P" and s["centre"] == "PPP"


def test_take_without_wild_tiles_takes_only_the_colour() -> None:
    s = play(position(factories=["BBOO"]), "1B").to_state()
    assert s["boards"][0]["tiles"] == "BB" and s["centre"] == "OO"


def test_the_wild_colour_cannot_be_chosen_when_another_colour_is_there() -> None:
    game = position(factories=["PPGO"])
    assert moves(game) == {"1G", "1O"}
    with pytest.raises(IllegalMoveError) as exc:
        game.push_notation("1P")
    assert exc.value.rule == "wild-taken-alone"


@pytest.mark.parametrize(
    ("centre", "move", "taken", "left"),
    [
        ("PPYYY", "CY", "PYYY", "P"),  # wild plus colour
        ("PPP", "CP", "P", "PP"),  # only wild tiles: exactly one
        ("GGO", "CG", "GG", "O"),  # no wild tile
    ],
)
def test_take_from_the_centre_with_and_without_wild(
    centre: str, move: str, taken: str, left: str
) -> None:
    s = play(position(centre=centre, marker_in_centre=False), move).to_state()
    assert s["boards"][0]["tiles"] == taken and s["centre"] == left


def test_first_take_from_the_centre_takes_the_token_and_loses_a_point_per_tile() -> None:
    # The rulebook's Tom: three yellow and a wild tile, 4 points lost.
    s = play(position(centre="PYYY", factories=["GGBB"]), "CY").to_state()
    assert s["boards"][0]["score"] == 1 and s["boards"][0]["has_marker"]
    assert not s["marker_in_centre"]


def test_later_takes_from_the_centre_lose_nothing() -> None:
    game = position(
        centre="GGOO",
        marker_in_centre=False,
        boards=[board(), board(has_marker=True)],
        factories=["BBBB"],
    )
    s = play(game, "CG").to_state()
    assert s["boards"][0]["score"] == 5 and not s["boards"][0]["has_marker"]


@pytest.mark.parametrize(("score", "after"), [(0, 0), (2, 0), (3, 0), (9, 5)])
def test_start_player_loss_never_below_zero(score: int, after: int) -> None:
    game = position(centre="PGGG", factories=["BBBB"], boards=[board(score=score)])
    assert play(game, "CG").scores[0] == after


def test_acquisition_ends_when_factories_and_centre_are_empty_token_holder_starts_play() -> None:
    game = position(factories=["GGBB"], centre="Y", turn=0)
    play(game, "CY", "1G")  # seat 0 takes the token; seat 1 empties the factory, BB to the centre
    assert game.phase == "take" and game.to_state()["centre"] == "BB"
    play(game, "CB")  # seat 0 again: the last tiles
    assert game.phase == "play" and game.turn == 0


def test_nobody_took_from_the_centre_the_round_starter_starts_play() -> None:
    game = position(factories=["GGGG", "BBBB"], turn=1, round_starter=1)
    play(game, "1G", "2B")
    assert game.phase == "play" and game.turn == 1


# --- placing -----------------------------------------------------------------------------------
def test_play_phase_token_holder_then_clockwise() -> None:
    game = position(
        phase="play",
        players=3,
        turn=1,
        boards=[board(tiles="BB"), board(tiles="BB", has_marker=True), board(tiles="BB")],
    )
    play(game, "4-1B")
    assert game.turn == 2
    play(game, "4-1B")
    assert game.turn == 0


def test_space_n_costs_n_tiles_one_placed_rest_to_depot() -> None:
    game = placing([], "BBBBBBB")  # the rulebook's example A
    play(game, "4-6B")
    s = game.to_state()
    assert s["boards"][0]["stars"][4] == ".....B"
    assert s["boards"][0]["tiles"] == "B" and s["depot"] == "BBBBB"
    assert s["boards"][0]["score"] == 5 + 1


def test_too_few_tiles_cannot_pay() -> None:
    game = placing([], "BB")
    assert "4-3B" not in moves(game) and "4-2B" in moves(game)
    with pytest.raises(IllegalMoveError) as exc:
        game.push_notation("4-3B")
    assert exc.value.rule == "too-few-tiles"


def test_wild_tiles_pay_the_rest_but_one_tile_of_the_colour_is_needed() -> None:
    game = placing([], "PPPB")
    legal = moves(game)
    assert {"4-1B", "4-2B+1", "4-3B+2", "4-4B+3"} <= legal
    assert "4-5B+4" not in legal and "4-4B" not in legal
    game2 = placing([], "PPPPPP")
    assert not any(m.endswith(("+1", "+2", "+3", "+4", "+5")) for m in moves(game2))
    with pytest.raises(IllegalMoveError) as exc:
        game2.push_notation("4-2B+1")
    assert exc.value.rule == "too-few-tiles"


def test_wild_tiles_may_pay_even_with_enough_coloured_tiles() -> None:
    legal = moves(placing([], "PPBBB"))
    assert {"4-3B", "4-3B+1", "4-3B+2"} <= legal


def test_rulebook_example_c_wild_payment_goes_to_the_depot() -> None:
    game = placing([(4, 4), (4, 5)], "BBBPPP")  # the rulebook's example C
    play(game, "4-6B+3")
    s = game.to_state()
    assert s["depot"] == "PPPBB" and s["boards"][0]["tiles"] == ""
    assert s["boards"][0]["score"] == 5 + 3


def test_wild_coloured_tile_as_itself_needs_its_own_star_or_the_centre() -> None:
    legal = moves(placing([], "PPPP"))  # purple is wild in round 1
    assert {"1-1P", "1-4P", "0-1P", "0-4P"} <= legal
    assert not any(m[0] in "23456" for m in legal if "-" in m)
    game = placing([], "PPPP")
    with pytest.raises(IllegalMoveError) as exc:
        game.push_notation("4-1P")
    assert exc.value.rule == "colour-refused"


def test_wild_coloured_tile_pays_with_its_own_colour_only() -> None:
    game = placing([], "PPP")
    with pytest.raises(IllegalMoveError) as exc:
        game.push_notation("1-3P+1")
    assert exc.value.rule == "wild-pays-for-wild"
    play(game, "1-3P")
    assert game.to_state()["depot"] == "PP"


def test_a_star_takes_only_its_own_colour() -> None:
    game = placing([], "GGG")
    assert all(m.startswith(("0-", "6-")) for m in moves(game) if "-" in m)


def test_centre_star_needs_six_different_colours() -> None:
    game = placing([(0, 1), (0, 2)], "PGGYYY", round=2)  # centre holds P (space 1) and G (2)
    legal = moves(game)
    assert "0-3Y" in legal and not any(m.startswith("0-") and m[3] in "PG" for m in legal)
    with pytest.raises(IllegalMoveError) as exc:
        game.push_notation("0-3P+0")
    assert exc.value.rule == "colour-refused"


def test_only_empty_spaces() -> None:
    game = placing([(4, 1)], "B")
    assert "4-1B" not in moves(game)
    with pytest.raises(IllegalMoveError) as exc:
        game.push_notation("4-1B")
    assert exc.value.rule == "space-taken"


# --- placement score ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("covered", "space", "points"),
    [
        ("", 3, 1),  # alone
        ("2", 3, 2),  # one neighbour
        ("24", 3, 3),  # both sides
        ("12", 3, 3),  # a run of two on one side
        ("45", 3, 3),
        ("1245", 3, 5),  # joins two runs
        ("6", 1, 2),  # ring: space 6 is next to space 1
        ("56", 1, 3),
        ("2", 1, 2),
        ("12345", 6, 6),  # completes the star: all six
        ("135", 2, 3),  # the run 1-2-3; 5 stands apart
    ],
)
def test_placement_scores_one_plus_the_run_it_joins_on_a_ring(
    covered: str, space: int, points: int
) -> None:
    cells = [(3, int(k)) for k in covered]
    game = placing(cells, "RRRRRR")
    play(game, f"3-{space}R")
    assert game.scores[0] - 5 == points


def test_tiles_on_different_stars_never_connect() -> None:
    game = placing([(3, 1), (3, 2), (4, 4), (0, 3)], "BBB")
    play(game, "4-3B")
    assert game.scores[0] == 5 + 2  # blue 4 only; red 1-2 and centre 3 do not count


def test_rulebook_example_b_lone_tile_scores_one() -> None:
    game = placing([], "RRR")
    play(game, "3-3R")
    s = game.to_state()
    assert s["boards"][0]["score"] == 6 and s["depot"] == "RR" and s["boards"][0]["tiles"] == ""


def test_rulebook_example_d_wild_tiles_pay_for_orange() -> None:
    game = placing([(2, 3), (2, 5)], "OGPPP")
    play(game, "2-4O+3")
    s = game.to_state()
    assert s["boards"][0]["score"] == 5 + 3
    assert s["depot"] == "PPP" and s["boards"][0]["tiles"] == "G"


def test_rulebook_example_e_purple_as_itself_on_the_purple_star() -> None:
    game = placing([(1, 1), (1, 3)], "PPRRGGGG")
    play(game, "1-2P")
    s = game.to_state()
    assert s["boards"][0]["score"] == 5 + 3
    assert s["depot"] == "P" and s["boards"][0]["tiles"] == "GGGGRR"


def test_rulebook_example_a_one_blue_left_over() -> None:
    game = placing([], "BBBBBBB")
    play(game, "4-6B")
    assert game.hand(0) == "B" and game.scores[0] == 6


def test_rulebook_example_f_pass_keeping_four_green_discarding_two_red() -> None:
    game = placing([], "GGGGRR", boards=[board(tiles="GGGGRR", score=10)])
    play(game, "pass:GGGG")
    s = game.to_state()
    assert s["boards"][0]["kept"] == "GGGG" and s["boards"][0]["tiles"] == ""
    assert s["boards"][0]["score"] == 8 and s["depot"] == "RR" and s["boards"][0]["passed"]


def test_rulebook_turn_example() -> None:
    # Round 1, purple wild. Ina takes both red (no wild there), yellow to the centre; Andrea
    # takes a green and a purple, the other two to the centre; Tom takes three yellow and a wild
    # from the centre, the token, and loses 4 points.
    game = position(players=3, factories=["RRYY", "GPPY", "BBBO", "OOOB", "BBOO", "GGGO", "BOOG"])
    play(game, "1R")
    assert game.to_state()["centre"] == "YY"
    play(game, "2G")
    assert game.hand(1) == "PG" and game.to_state()["centre"] == "PYYY"
    play(game, "CY")
    s = game.to_state()
    assert s["boards"][2]["tiles"] == "PYYY" and s["boards"][2]["score"] == 1
    assert s["boards"][2]["has_marker"] and s["centre"] == ""


# --- bonus tiles -------------------------------------------------------------------------------
WINDOWS = [(n, [(n, 5), (n, 6)]) for n in range(1, 7)]
STATUES = [(n, [(n, 1), (n, 2), (n % 6 + 1, 3), (n % 6 + 1, 4)]) for n in range(1, 7)]
PILLARS = [(n, [(n, 2), (n, 3), (0, (n + 3) % 6 + 1), (0, (n + 4) % 6 + 1)]) for n in range(1, 7)]


def _complete(cells: list[tuple[int, int]], last: tuple[int, int]) -> PavilionGame:
    """Seat 0 places the tile on `last`, the other cells already covered."""
    s, k = last
    letter = STAR_LETTER[s] if s else "PGOYBR"[k - 1]
    game = placing([c for c in cells if c != last], letter * k, round=2)
    play(game, f"{s}-{k}{letter}")
    return game


@pytest.mark.parametrize(("n", "cells"), WINDOWS)
def test_every_window_gives_3_tiles(n: int, cells: list[tuple[int, int]]) -> None:
    for last in cells:
        game = _complete(cells, last)
        assert game.phase == "bonus" and game.bonus_owed == 3 and game.turn == 0


@pytest.mark.parametrize(("n", "cells"), STATUES)
def test_every_statue_gives_2_tiles_star_6_with_star_1(
    n: int, cells: list[tuple[int, int]]
) -> None:
    for last in cells:
        game = _complete(cells, last)
        assert game.phase == "bonus" and game.bonus_owed == 2


def test_statue_of_star_6_uses_star_1_spaces_3_and_4() -> None:
    assert STATUES[5][1] == [(6, 1), (6, 2), (1, 3), (1, 4)]
    game = _complete([(6, 1), (6, 2), (1, 3), (1, 4)], (1, 4))
    assert game.bonus_owed == 2


@pytest.mark.parametrize(("n", "cells"), PILLARS)
def test_every_pillar_gives_1_tile(n: int, cells: list[tuple[int, int]]) -> None:
    for last in cells:
        game = _complete(cells, last)
        assert game.phase == "bonus" and game.bonus_owed == 1


def test_pillar_centre_spaces_follow_rules_md() -> None:
    # purple (1): centre 5 and 6; orange (2): 6 and 1; red (3): 1 and 2.
    assert PILLARS[0][1][2:] == [(0, 5), (0, 6)]
    assert PILLARS[1][1][2:] == [(0, 6), (0, 1)]
    assert PILLARS[2][1][2:] == [(0, 1), (0, 2)]


def test_incomplete_structures_give_nothing() -> None:
    game = _complete([(1, 1), (2, 3), (2, 4)], (2, 4))  # statue 1 lacks star 1 space 2
    assert game.phase == "play" and game.turn == 1


def test_one_placement_completing_two_structures_adds_the_counts() -> None:
    cells = [(1, 1), (1, 2), (2, 3), (2, 4), (1, 3), (0, 5), (0, 6)]  # statue 1 and pillar 1
    game = _complete(cells, (1, 2))
    assert game.bonus_owed == 3


def test_one_placement_completing_three_structures() -> None:
    # Star 1 space 2 is in statue 1 and pillar 1; star 2 space 3 in statue 1 and pillar 2.
    cells = [(1, 1), (1, 2), (2, 3), (2, 4), (1, 3), (0, 5), (0, 6), (2, 2), (0, 1)]
    game = _complete(cells, (2, 3))
    assert game.bonus_owed == 2 + 1  # statue 1 + pillar 2 (pillar 1 was not touched)


def test_bonus_tiles_are_chosen_one_by_one_and_the_supply_refilled_after_the_turn() -> None:
    game = placing([(1, 5)], "PPPPPP", round=2, supply="PGOYBRPGOY")
    play(game, "1-6P")
    assert game.phase == "bonus" and game.bonus_owed == 3
    assert moves(game) == {"bonus:P", "bonus:G", "bonus:O", "bonus:Y", "bonus:B", "bonus:R"}
    play(game, "bonus:G")
    s = game.to_state()
    assert s["supply"] == "P.OYBRPGOY" and s["bonus_owed"] == 2 and s["turn"] == 0
    play(game, "bonus:G", "bonus:P")
    s = game.to_state()
    assert s["phase"] == "play" and s["turn"] == 1
    assert "." not in s["supply"]
    assert s["boards"][0]["tiles"] == "PGG"


def test_bonus_tiles_may_all_be_wild() -> None:
    game = placing([(4, 5)], "BBBBBB", supply="PPPOYBRPGO")
    play(game, "4-6B", "bonus:P", "bonus:P", "bonus:P")
    assert game.hand(0) == "PPP"


def test_bonus_tiles_beyond_the_supply_are_lost() -> None:
    game = placing([(4, 5)], "BBBBBB", supply="P.........", bag="", rest="seat 1")
    play(game, "4-6B")
    assert game.bonus_owed == 3
    play(game, "bonus:P")
    assert game.phase == "play" and game.turn == 1 and game.bonus_owed == 0
    assert game.hand(0) == "P"


def test_bonus_with_an_empty_supply_gives_nothing() -> None:
    game = placing([(4, 5)], "BBBBBB", supply="..........", bag="", rest="seat 1")
    play(game, "4-6B")
    assert game.phase == "play" and game.turn == 1


def test_no_other_move_while_bonus_tiles_are_owed() -> None:
    game = placing([(4, 5)], "BBBBBBB", supply="PGOYBPGOYB")
    play(game, "4-6B")
    with pytest.raises(IllegalMoveError) as exc:
        game.push_notation("pass")
    assert exc.value.rule == "bonus-owed"
    with pytest.raises(IllegalMoveError) as exc:
        game.push_notation("bonus:R")
    assert exc.value.rule == "supply-lacks-colour"
    play(game, "bonus:B")
    with pytest.raises(IllegalMoveError) as exc:
        game.push_notation("4-1B")
    assert exc.value.rule == "bonus-owed"


def test_supply_refill_refills_the_bag_from_the_depot_mid_round() -> None:
    game = placing([(4, 5)], "BBBBBB", bag="YY", rest="depot")
    depot = game.to_state()["depot"]
    play(game, "4-6B", "bonus:P", "bonus:G", "bonus:O")
    s = game.to_state()
    assert "." not in s["supply"] and s["depot"] == ""
    # 3 drawn: the 2 yellow of the bag, then the depot (with the 5 blue just paid) poured in.
    assert len(s["bag"]) == len(depot) + 5 + 2 - 3


def test_supply_spaces_stay_empty_when_bag_and_depot_are_empty() -> None:
    game = placing([(4, 5)], "BBBBBB", supply="P.........", bag="", rest="seat 1", round=2)
    play(game, "4-6B", "bonus:P")
    # The refill pours the depot (the 5 blue tiles just paid) into the bag and draws them all.
    s = game.to_state()
    assert s["supply"] == "BBBBB....." and s["bag"] == "" and s["depot"] == ""
    assert s["phase"] == "play" and s["turn"] == 1


# --- passing -----------------------------------------------------------------------------------
def test_pass_moves_offer_every_choice_of_up_to_4_tiles() -> None:
    game = placing([], "GGR")
    passes = {m for m in moves(game) if m.startswith("pass")}
    assert passes == {"pass", "pass:G", "pass:R", "pass:GG", "pass:GR", "pass:GGR"}


def test_pass_with_more_than_4_tiles_keeps_at_most_4_and_loses_a_point_per_discard() -> None:
    game = placing([], "GGGGGRR")
    assert not any(m.startswith("pass:") and len(m) > 9 for m in moves(game))
    play(game, "pass:GGRR")
    s = game.to_state()
    assert s["boards"][0]["score"] == 5 - 3 and s["boards"][0]["kept"] == "GGRR"
    assert s["depot"] == "GGG"


def test_pass_keeping_nothing_discards_everything() -> None:
    game = placing([], "GGO")
    play(game, "pass")
    assert game.scores[0] == 2 and game.to_state()["depot"] == "GGO"


def test_discard_loss_never_below_zero() -> None:
    game = placing([], "GGOOYYBB", boards=[board(score=2, tiles="GGOOYYBB")])
    play(game, "pass")
    assert game.scores[0] == 0


def test_keeping_tiles_not_held_is_illegal() -> None:
    game = placing([], "GG")
    with pytest.raises(IllegalMoveError) as exc:
        game.push_notation("pass:GGG")
    assert exc.value.rule == "keeps-not-held"


def test_passing_is_allowed_with_a_placement_available_and_with_no_tiles() -> None:
    assert "pass" in moves(placing([], "BBB"))
    assert moves(placing([], "")) == {"pass"}


def test_a_player_who_passed_takes_no_more_turns_round_ends_when_all_passed() -> None:
    game = position(
        phase="play",
        players=3,
        boards=[board(tiles="BBBB"), board(tiles="RRRR"), board(tiles="GG")],
    )
    play(game, "pass")
    assert game.turn == 1
    play(game, "3-1R", "pass", "3-2R")
    assert game.turn == 1  # seat 0 and seat 2 passed
    play(game, "pass")
    assert game.round == 2 and game.phase == "take"


def test_kept_tiles_join_the_tiles_at_the_next_round() -> None:
    game = position(
        phase="play", boards=[board(tiles="GGGGRR"), board(passed=True)], supply="PGOYBRPGOY"
    )
    play(game, "pass:GGGG")
    s = game.to_state()
    assert s["round"] == 2 and s["wild"] == "G"
    assert s["boards"][0]["tiles"] == "GGGG" and s["boards"][0]["kept"] == ""


def test_kept_tiles_at_the_end_lose_a_point_each() -> None:
    game = position(
        phase="play", round=6, boards=[board(tiles="GGGRR", score=20), board(passed=True, score=3)]
    )
    play(game, "pass:GGR")
    assert game.is_over()
    assert game.scores == (20 - 2 - 3, 3)
    assert game.round_scores[-1] == (18, 3)
    assert game.to_state()["boards"][0]["kept"] == ""


def test_the_token_holder_starts_the_next_round() -> None:
    game = position(
        phase="play", boards=[board(passed=True), board(has_marker=True)], turn=1, round_starter=0
    )
    play(game, "pass")
    s = game.to_state()
    assert s["round"] == 2 and s["turn"] == 1 and s["round_starter"] == 1
    assert s["marker_in_centre"] and not any(b["has_marker"] for b in s["boards"])


def test_a_deal_refills_the_bag_from_the_depot() -> None:
    game = position(
        phase="play", boards=[board(passed=True), board()], turn=1, bag="BBB", rest="depot"
    )
    depot = len(game.to_state()["depot"])
    play(game, "pass")
    s = game.to_state()
    assert all(len(f) == 4 for f in s["factories"])
    assert s["depot"] == "" and len(s["bag"]) == 3 + depot - 20


def _full_boards(bag: str, supply: str = "PGOYBRPGOY") -> PavilionGame:
    """4 players whose boards hold every tile not in the supply or the `bag`; the depot is
    empty, seats 0-2 have passed and seat 3 is to play with no tiles."""
    left = {c: 22 - supply.count(c) - bag.count(c) for c in "PGOYBR"}
    boards = []
    for seat in range(4):
        rows = {}
        for n, c in STAR_LETTER.items():
            k = min(6, left[c])
            left[c] -= k
            rows[n] = c * k + "." * (6 - k)
        boards.append(board(stars=rows, passed=seat < 3))
    assert not any(left.values())
    return position(players=4, phase="play", turn=3, supply=supply, bag=bag, boards=boards)


def test_a_deal_with_bag_and_depot_empty_fills_what_it_can() -> None:
    game = _full_boards(bag="BBBBBB")
    play(game, "pass")
    s = game.to_state()
    assert [len(f) for f in s["factories"]] == [4, 2, 0, 0, 0, 0, 0, 0, 0]
    assert s["phase"] == "take" and s["bag"] == "" and s["round"] == 2


def test_no_tile_to_deal_skips_to_the_play_phase() -> None:
    game = _full_boards(bag="")
    play(game, "pass")
    s = game.to_state()
    assert s["round"] == 2 and s["phase"] == "play" and s["factories"] == [""] * 9
    assert moves(game) == {"pass"} and s["turn"] == 3


# --- end of the game ---------------------------------------------------------------------------
def _end_with(stars_of_seat_0: dict[int, str], ruleset: str = "pavilion", score: int = 5) -> int:
    game = position(
        ruleset=ruleset,
        phase="play",
        round=6,
        turn=0,
        boards=[board(stars=stars_of_seat_0, score=score), board(passed=True)],
    )
    play(game, "pass")
    assert game.is_over()
    return game.scores[0] - score


@pytest.mark.parametrize(
    ("number", "bonus"), [(0, 12), (1, 20), (2, 17), (3, 14), (4, 15), (5, 16), (6, 18)]
)
def test_end_bonus_of_every_full_star(number: int, bonus: int) -> None:
    assert _end_with({number: star(number, "123456")}) == bonus


def test_a_star_not_full_scores_no_bonus() -> None:
    assert _end_with({1: star(1, "12345")}) == 0


@pytest.mark.parametrize(("number", "bonus"), [(1, 4), (2, 8), (3, 12), (4, 16)])
def test_end_bonus_of_every_number_covered(number: int, bonus: int) -> None:
    spaces = {s: star(s, str(number)) for s in range(7)}
    assert _end_with(spaces) == bonus
    del spaces[3]
    assert _end_with(spaces) == 0


def test_end_bonuses_add_up() -> None:
    spaces = {s: star(s, "12") for s in range(7)}
    spaces[1] = star(1, "123456")
    assert _end_with(spaces) == 4 + 8 + 20


def test_the_game_ends_after_round_6() -> None:
    game = position(phase="play", round=5, boards=[board(passed=True), board()], turn=1)
    play(game, "pass")
    assert game.round == 6 and not game.is_over()


def test_ties_share_the_rank() -> None:
    game = position(
        phase="play",
        round=6,
        boards=[board(score=9), board(score=9, passed=True), board(score=4, passed=True)],
        players=3,
    )
    play(game, "pass")
    assert game.ranks() == (1, 1, 3)


# --- pavilion-mono -------------------------------------------------------------------------------
def test_mono_any_colour_on_an_empty_star() -> None:
    game = placing([], "GGOO", ruleset="pavilion-mono", round=2)
    legal = moves(game)
    assert {f"{s}-1O" for s in range(7)} <= legal and "3-2G" in legal


def test_mono_two_same_colours_make_a_single_coloured_star() -> None:
    game = position(
        ruleset="pavilion-mono",
        phase="play",
        round=2,
        boards=[board(stars={3: "OO...."}, tiles="OOOYYY")],
    )
    legal = moves(game)
    assert "3-3O" in legal and "3-3Y" not in legal


def test_mono_two_different_colours_make_a_multicoloured_star() -> None:
    game = position(
        ruleset="pavilion-mono",
        phase="play",
        round=2,
        boards=[board(stars={3: "OY...."}, tiles="OOOBBB")],
    )
    legal = moves(game)
    assert "3-3B" in legal and "3-3O" not in legal


def test_mono_one_tile_leaves_the_choice_open() -> None:
    game = position(
        ruleset="pavilion-mono",
        phase="play",
        round=2,
        boards=[board(stars={3: "O....."}, tiles="OOBB")],
    )
    legal = moves(game)
    assert "3-2O" in legal and "3-2B" in legal


@pytest.mark.parametrize(
    ("text", "bonus"),
    [
        ("PPPPPP", 20),
        ("GGGGGG", 18),
        ("OOOOOO", 17),
        ("YYYYYY", 16),
        ("BBBBBB", 15),
        ("RRRRRR", 14),
        ("PGOYBR", 12),
    ],
)
def test_mono_end_bonus_by_the_tiles_on_the_star(text: str, bonus: int) -> None:
    assert _end_with({2: text}, ruleset="pavilion-mono") == bonus


def test_mono_space_numbers_are_the_coloured_sides_from_one_table() -> None:
    from referee.engine.pavilion.rulesets import COLOURED_SPACE_NUMBERS
    from referee.engine.rulesets import RULESETS

    assert RULESETS["pavilion-mono"].space_numbers == COLOURED_SPACE_NUMBERS
    game = position(ruleset="pavilion-mono", phase="play", round=2, boards=[board(tiles="BBBB")])
    assert "5-4B" in moves(game) and "5-5B" not in moves(game)
