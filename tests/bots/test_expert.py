"""The expert bot: legal and on time in every ruleset with 2-4 players, the same moves at a
fixed budget with the same seed, exact round ends that agree with a brute-force search, and
stronger than greedy over a short seeded match."""

from __future__ import annotations

import math
import time
from typing import Any

import pytest

import sdk
from bots.expert import ExpertBot
from bots.expert.solver import RoundSolver
from bots.expert.values import candidate_moves, leaf_values
from bots.greedy_bot import GreedyBot
from bots.mcts_bot import MCTS_SHARE
from bots.random_bot import RandomBot
from referee import MatchConfig
from referee.engine import new_game
from referee.engine.pavilion import PASS_MOVE
from sdk import Clock
from sdk.bot import RESERVE
from sdk.local import play_local

CLASSIC = ("azul", "azul-mini", "azul-gray", "azul-greenbox")
PAVILION = ("pavilion", "pavilion-mono")
GRACE = MatchConfig().grace  # what the referee forgives beyond the move time


@pytest.mark.parametrize("ruleset", CLASSIC + PAVILION)
def test_expert_plays_every_ruleset_with_2_3_4_players_legally(ruleset: str) -> None:
    for players in (2, 3, 4):
        seat = players - 2
        seats: list[sdk.Bot] = [RandomBot(seed=s) for s in range(players)]
        seats[seat] = ExpertBot(seed=1, iterations=30)  # fixed and small: seconds per game
        result = play_local(seats, ruleset=ruleset, seed=40 + players, time_per_move=1.0)
        where = f"expert {ruleset} {players}p"
        assert result.illegal[seat] == 0 and result.errors[seat] == 0, where
        assert result.timeouts[seat] == 0, where
        assert result.decisions[seat] >= 5, where


@pytest.mark.parametrize("ruleset", ["azul", "pavilion"])
def test_expert_is_deterministic_at_a_fixed_budget(ruleset: str) -> None:
    def moves() -> list[str]:
        bots = [ExpertBot(seed=5, iterations=40), GreedyBot(seed=5)]
        return play_local(bots, ruleset=ruleset, seed=9, time_per_move=5.0).moves

    assert moves() == moves()


@pytest.mark.parametrize("ruleset", ["azul", "pavilion"])
def test_expert_answers_within_its_clock(ruleset: str) -> None:
    """At 0.05 s a move (the quickest control of the reference bots) no decision runs past
    the move's limit by more than what a busy machine takes away (the process's CPU time,
    not the wall clock's, is the bot's own doing)."""
    game = new_game(ruleset, players=2, seed=3)
    bot = ExpertBot(seed=2)
    while not game.is_over() and game.round < 3:
        bot.clock = Clock(move_time=0.05)
        cpu = time.thread_time()
        move = bot.choose_move(game.copy())
        assert time.thread_time() - cpu < 0.05 + GRACE
        assert move in game.legal_moves()
        game.push(move)


def _brute_force(state: Any, me: int, round_no: int) -> float:
    """My lead at the round's end under plain minimax over every legal move (2 players)."""
    if state.round != round_no or state.is_over():
        values = leaf_values(state)
        return values[me] - values[1 - me]
    results = []
    for move in state.legal_moves():
        child = state.copy()
        child.push(move)
        results.append(_brute_force(child, me, round_no))
    return max(results) if state.turn == me else min(results)


def test_the_exact_round_end_agrees_with_brute_force() -> None:
    """The solver (pruned moves, alpha-beta, a table) finds the value of plain minimax over
    every legal move, floor dumps and duplicate factories included."""
    checked = 0
    for seed in range(12):
        game = new_game("azul", players=2, seed=seed)
        while game.round == 1 and sum(len(s) for s in _sources(game)) > 7:
            game.push(min(game.legal_moves(), key=str))
        if game.round != 1:
            continue
        solver = RoundSolver(game.turn, 10**7, time.monotonic() + 60, 6.0)
        move = solver.best_move(game)
        after = game.copy()
        after.push(move)
        me = game.turn
        assert _brute_force(after, me, 1) == pytest.approx(_brute_force(game, me, 1))
        checked += 1
    assert checked >= 6


def _sources(game: Any) -> list[str]:
    state = game.to_state()
    return [*state["factories"], state["centre"]]


def test_candidates_drop_duplicate_factories_and_needless_floor_dumps() -> None:
    """Duplicate factories always; floor dumps of tiles a line accepts only on a gray wall
    (searched there, they changed nothing): the learned value of a coloured wall may prefer a
    dump, so the search keeps them there (the brute-force test above checks the agreement)."""
    for ruleset, dumps_kept in (("azul", True), ("azul-gray", False)):
        game = new_game(ruleset, players=4, seed=2)
        moves = game.legal_moves()
        kept = candidate_moves(game)
        assert len(kept) < len(moves)
        assert len({(game._factories[m.source], m.colour, m.line) for m in kept if m.source < 9})
        lines = {(m.source, m.colour) for m in kept if m.line != 5}
        dumps = [m for m in kept if m.line == 5 and (m.source, m.colour) in lines]
        assert bool(dumps) == dumps_kept, ruleset
        distinct = {(game._factories[m.source], m.colour, m.line) for m in kept if m.source < 9}
        assert len(distinct) == len([m for m in kept if m.source < 9]), ruleset


def test_pavilion_candidates_drop_passes_that_keep_fewer_tiles_than_they_could() -> None:
    """A kept tile is worth at least the point its discard costs now, so only the passes that
    keep as many tiles as they may (at most 4) are searched, where every discard costs its
    point (the score at least the tiles held); placements all stay, and the game analysis
    (`keep_dumps`) still sees every legal move."""
    pruned = whole = 0
    for seed in range(6):
        game = new_game("pavilion", players=2, seed=seed)
        while not game.is_over():
            moves = game.legal_moves()
            if game.phase == "play":
                board = game.to_state()["boards"][game.turn]
                held = len(board["tiles"])
                kept = candidate_moves(game)
                passes = {m for m in moves if m.kind == PASS_MOVE}
                if board["score"] >= held:
                    assert {m for m in passes if m.n_keep == min(4, held)} == set(kept) & passes
                    pruned += len(moves) > len(kept)
                    # The premise: each tile more discarded costs a point now (at the game's
                    # end a kept tile costs it too).
                    full, none = game.copy(), game.copy()
                    full.push(next(m for m in kept if m.kind == PASS_MOVE))
                    none.push(next(m for m in passes if m.n_keep == 0))
                    gained = full.scores[game.turn] - none.scores[game.turn]
                    assert gained == (0 if full.is_over() else min(4, held))
                else:
                    assert kept == list(moves)
                    whole += 1
                assert set(moves) - passes <= set(kept)
                assert candidate_moves(game, keep_dumps=True) == list(moves)
            game.push(moves[(seed * 7 + len(moves)) % len(moves)])
    assert pruned >= 20 and whole >= 1, (pruned, whole)


def test_expert_beats_greedy_over_a_seeded_match() -> None:
    """Fixed budgets and seeds: the same games on any machine. Expert wins nearly all and by
    a clear margin (measured: 8 of 8, by 30 points on average)."""
    wins, margin = 0, 0
    for game in range(8):
        seat = game % 2  # seats swapped over the same deal
        bots = [ExpertBot(seed=game, iterations=60), GreedyBot(seed=game)]
        if seat:
            bots.reverse()
        result = play_local(bots, ruleset="azul", seed=300 + game // 2, time_per_move=5.0)
        wins += result.ranks[seat] < result.ranks[1 - seat]
        margin += result.scores[seat] - result.scores[1 - seat]
    assert wins >= 6, wins
    assert margin / 8 >= 8, margin / 8


def test_the_learned_value_credits_a_fuller_line_and_the_first_move() -> None:
    """What self-play showed and the fitted weights (bots/expert/weights.py) must keep
    saying, with any number of rounds left: a started line nearer done is worth more, and so
    is taking first next round."""
    from bots.expert.learned import future_points

    wall = sum(1 << (5 * r + r) for r in range(3))
    for rounds in (1, 2, 3, 4):
        nearly = [(-1, 0)] * 4 + [(2, 4)]  # row 4: 4 of 5 tiles of colour 2
        barely = [(-1, 0)] * 4 + [(2, 1)]
        assert future_points(wall, nearly, False, rounds) > future_points(
            wall, barely, False, rounds
        )
        assert future_points(wall, barely, True, rounds) > future_points(
            wall, barely, False, rounds
        )


def test_a_gray_walls_features_read_its_colours_and_the_columns_left() -> None:
    """On a gray wall a colour is wherever its tiles went (`cells`), and a started line's tile
    will take the best column still open to its colour: none left, the line scores nothing."""
    from bots.expert.learned import NAMES, features

    # Row 0: colour 1 in column 0; row 1: colour 1 in column 1, colour 3 in column 2.
    cells = {0: 1, 6: 1, 7: 3}
    wall = sum(1 << bit for bit in cells)
    colours_1 = NAMES.index("colours_1")
    line_points = NAMES.index("line_points")
    empty = [(-1, 0)] * 5
    plain = features(wall, empty, False, cells)
    assert plain[colours_1] == 1.0  # colour 3: one tile; colour 1 has two
    assert plain[NAMES.index("colours_2")] == 1.0
    # Row 2, 1 of 3 tiles of colour 3: column 2 holds a 3 already, so 0, 1, 3 or 4; column 1
    # joins row 1's tile above it (2 points, the best), the others score 1.
    line = [(-1, 0), (-1, 0), (3, 1), (-1, 0), (-1, 0)]
    assert features(wall, line, False, cells)[line_points] == pytest.approx(2 / 3)
    # Row 2 in colour 1: columns 0 and 1 hold a 1 already, so 2, 3 or 4; column 2 joins the 3
    # above it (2 points).
    line = [(-1, 0), (-1, 0), (1, 1), (-1, 0), (-1, 0)]
    assert features(wall, line, False, cells)[line_points] == pytest.approx(2 / 3)
    # Row 4 in colour 0: columns 0-3 hold a 0 already and column 4 is taken: nowhere to go.
    full = {0: 0, 6: 0, 12: 0, 18: 0, 24: 2}
    blocked_wall = sum(1 << bit for bit in full)
    line = [(-1, 0)] * 4 + [(0, 1)]
    assert features(blocked_wall, line, False, full)[line_points] == 0.0


@pytest.mark.parametrize("ruleset", ["azul", "azul-gray"])
def test_the_leaf_value_is_the_score_after_tiling_plus_the_learned_future(ruleset: str) -> None:
    """At a round's start (a leaf of the tree) the value is the seat's score plus
    `learned.future_points` of its board, with the first-player marker's holder to move; on a
    gray wall by the gray wall's weights (`gray_weights.py`), its colours as placed."""
    import random

    from bots.expert.learned import future_points
    from bots.expert.values import NET, rounds_left, use_net, wall_cells

    game, rng = new_game(ruleset, players=2, seed=11), random.Random(11)
    while game.round < 3 or game.phase != "take":
        game.push(rng.choice(game.legal_moves()))
    use_net(False)  # the linear fit's value (a bot that played before may have left the network's)
    try:
        values = leaf_values(game)
    finally:
        use_net(NET)
    for seat in range(2):
        b = 5 * seat
        lines = list(zip(game._line_colour[b : b + 5], game._line_count[b : b + 5], strict=True))
        lines = [(c, n) if n else (-1, 0) for c, n in lines]
        wall, starts, rounds = game._wall[seat], game.turn == seat, rounds_left(game._wall)
        cells = wall_cells(wall, game._cells[seat]) if game._gray else None
        future = future_points(wall, lines, starts, rounds, cells)
        assert values[seat] == pytest.approx(game.scores[seat] + future)
        if cells is not None:  # tiles placed in two rounds, valued not as a coloured wall
            assert cells
            assert future != future_points(wall, lines, starts, rounds)
    assert game._gray == (ruleset == "azul-gray")


def test_a_round_that_ends_the_game_is_valued_exactly() -> None:
    """Once a row will be full at the round's end, every seat's leaf value is its final score
    as the round stands (the round's points, the floor, the end bonuses), no guess of rounds to
    come: checked at every such position of a few random games."""
    import random

    from bots.expert.values import _full_lines, _rounds_left_cached
    from sdk.helpers import boards, end_bonus, round_end_score, tile_full_lines

    checked = 0
    for seed in range(4):
        game, rng = new_game("azul", players=2, seed=seed), random.Random(seed)
        while not game.is_over():
            if _rounds_left_cached(game._wall, _full_lines(game._line_count)) == 0:
                for seat, board in enumerate(boards(game)):
                    final = round_end_score(game, seat) + end_bonus(tile_full_lines(board)[1])
                    assert leaf_values(game)[seat] == pytest.approx(final)
                checked += 1
            game.push(rng.choice(game.legal_moves()))
    assert checked >= 4


def test_the_fit_recovers_weights_from_self_play_boards(tmp_path: Any) -> None:
    """`python -m bots.expert.fit`'s parts: one self-play game gives a sample per seat and
    round, the least-squares fit finds weights that generated the targets, and the written
    module holds them."""
    import importlib.util
    import random

    pytest.importorskip("numpy")  # the fit needs it (the rl extra); the bot does not
    from bots.expert.fit import fit, play, write
    from bots.expert.learned import BUCKETS, NAMES

    samples = play((7, 10, 2, "mcts", "azul"))
    assert len(samples) >= 2 * 4  # two seats, four rounds or more
    assert all(len(f) == len(NAMES) and y >= 0 for _, f, y in samples)
    gray = play((7, 10, 2, "mcts", "azul-gray"))  # `--ruleset azul-gray`: its own games
    assert len(gray) >= 2 * 4 and gray != samples
    rng = random.Random(1)
    truth = [[rng.uniform(-2, 2) for _ in NAMES] for _ in range(BUCKETS)]
    boards = [(b, f) for _ in range(30) for b, f, _ in samples]
    rows = [[f[0]] + [g + rng.random() for g in f[1:]] for _, f in boards]  # varied features
    synthetic = [
        (b, f, sum(w * x for w, x in zip(truth[b], f, strict=True)))
        for (b, _), f in zip(boards, rows, strict=True)
    ]
    weights = fit(synthetic, ridge=0.0)
    for b in {b for b, _, _ in synthetic}:
        assert weights[b] == pytest.approx(truth[b], abs=1e-3)
    path = tmp_path / "weights.py"
    write(weights, path, "a test", "python -m bots.expert.fit")
    spec = importlib.util.spec_from_file_location("weights_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert [list(row) for row in module.WEIGHTS] == weights


def test_the_fit_reads_a_gray_walls_colours_where_they_were_placed() -> None:
    """`fit --ruleset azul-gray`'s samples are the gray wall's features: its colours from the
    cells the tiles took, which a coloured wall's reading of the same bits gets wrong."""
    import random

    from bots.expert.fit import seat_boards
    from bots.expert.learned import bucket, features
    from bots.expert.values import rounds_left, wall_cells

    game, rng = new_game("azul-gray", players=2, seed=5), random.Random(5)
    while game.round < 3 or game.phase != "take":
        game.push(rng.choice(game.legal_moves()))
    misread = 0
    for seat, (row, feats) in enumerate(seat_boards(game)):
        b = 5 * seat
        lines = list(zip(game._line_colour[b : b + 5], game._line_count[b : b + 5], strict=True))
        wall, starts = game._wall[seat], game.turn == seat
        assert feats == features(wall, lines, starts, wall_cells(wall, game._cells[seat]))
        assert row == bucket(rounds_left(game._wall))
        misread += feats != features(wall, lines, starts)  # as if the colours were fixed
    assert misread


def test_the_fit_measures_itself_on_games_it_was_not_fitted_on(capsys: Any) -> None:
    """`fit --holdout K`: every K-th game (by seed) is left out of a fit and the fit's rms error
    measured on those games alone: fitted on targets that are a line up to noise of +-1, the
    line is found and its error on unseen games is the noise's size."""
    pytest.importorskip("numpy")  # the fit needs it (the rl extra); the bot does not
    from bots.expert.fit import errors, held_out

    weights = [[1.0, 2.0], [0.0, 1.0]]
    samples = [(0, [1.0, 1.0], 3.0), (0, [1.0, 2.0], 4.0), (1, [1.0, 3.0], 3.0)]
    assert errors(weights, samples) == [(2, pytest.approx(0.5**0.5)), (1, 0.0)]
    games = [
        [(0, [1.0, float(x)], 2.0 + 3.0 * x + (1 if (g + x) % 2 else -1)) for x in range(10)]
        for g in range(10)
    ]
    held_out(games, 5, 0.0, ("bias", "x"), 1)
    out = capsys.readouterr().out
    assert "held out: one game in 5 (20 samples), fitted on the rest" in out  # games 0 and 5
    assert "rounds left 1: 80 samples, rms error 1.00" in out  # the fit, in sample
    assert "held out, rounds left 1: 20 samples, rms error 1.00" in out
    assert "held out, all: rms error 1.00" in out


def test_an_exact_search_that_ran_out_leaves_its_solved_positions_to_the_next() -> None:
    """An attempt that did not fit its node budget is not lost: a search given its table
    finishes in fewer positions than one from nothing, and agrees with it."""
    from bots.expert.solver import OutOfBudget

    game = new_game("azul", players=2, seed=3)
    while sum(len(s) for s in _sources(game)) > 9:
        game.push(min(game.legal_moves(), key=str))
    far = time.monotonic() + 60
    fresh = RoundSolver(game.turn, 10**7, far, 6.0)
    best = fresh.best_move(game)
    table: dict[Any, Any] = {}
    with pytest.raises(OutOfBudget):
        RoundSolver(game.turn, fresh.nodes // 2, far, 6.0, table).best_move(game)
    assert table  # the finished nodes of the attempt
    again = RoundSolver(game.turn, 10**7, far, 6.0, table)
    assert again.best_move(game) == best
    assert again.nodes < fresh.nodes


def test_the_exact_search_is_tried_only_where_its_estimate_fits() -> None:
    """A failed exact attempt's time is lost to the tree: at a fixed budget (20 positions a
    simulation) a whole game's attempts all finish, and the round ends are still solved. Tried
    on tiles left alone, 8 of 27 attempts of this game ran out."""
    from bots.expert.solver import estimated_nodes

    game = new_game("azul", players=2, seed=0)
    # The linear fit's values, which the estimate's margin was tuned on (with the network's,
    # 1 attempt of this game runs out).
    bot = ExpertBot(seed=0, iterations=30, net=0)
    bot.on_game_start(sdk.GameInfo("g", "azul", 2, 0))
    tried = solved = 0
    while not game.is_over():
        move = bot.choose_move(game.copy())
        tried += bot.solver_nodes > 0
        solved += bot.solved
        if bot.solver_nodes:
            # The estimate is the right size: within a factor of 8 of the search it stands for
            # (the table of earlier attempts of the round only makes the search smaller).
            assert bot.solver_nodes <= 8 * estimated_nodes(game)
        game.push(move)
    assert solved >= 10
    assert tried == solved


def test_expert_thinks_the_share_of_its_time_it_is_given() -> None:
    """`expert:percent=25` (the quarter-time measurement's bot) budgets a quarter of what mcts
    does on the same clock, `percent=100` mcts's own; the expert unbounded thinks all the clock
    affords but the SDK's reserve; a share outside 1-100 is refused with what to give."""
    from sdk.run import load_bot

    quarter = load_bot("bots.expert:ExpertBot?percent=25")
    equal, whole = ExpertBot(percent=100), ExpertBot()
    quarter.clock = equal.clock = whole.clock = Clock(move_time=1.0)
    mcts = Clock(move_time=1.0).budget(MCTS_SHARE)
    assert isinstance(quarter, ExpertBot)
    assert quarter.budget() == pytest.approx(mcts / 4, rel=0.05)
    assert equal.budget() == pytest.approx(mcts, rel=0.05)
    assert mcts < whole.budget() <= 1.0 - RESERVE
    with pytest.raises(ValueError, match="1 to 100"):
        ExpertBot(percent=0)
    # A command line's query is held to an entry's rule: a switch may be 0, a share may not.
    linear = load_bot("bots.expert:ExpertBot?net=0")
    assert isinstance(linear, ExpertBot) and linear.net is False
    with pytest.raises(ValueError, match="percent must be a positive whole number, not '-5'"):
        load_bot("bots.expert:ExpertBot?percent=-5")


def _pavilion_positions(ruleset: str, seed: int) -> Any:
    """Every position of a game of greedy bots (they fill stars, random moves seldom do) of
    `ruleset`, 2 players, in order."""
    game, bots = new_game(ruleset, players=2, seed=seed), [GreedyBot(seed=seed + s) for s in (0, 1)]
    while not game.is_over():
        yield game
        game.push(bots[game.turn].choose_move(game.copy()))
    yield game


@pytest.mark.parametrize("ruleset", PAVILION)
def test_the_pavilion_bonuses_counted_certain_are_the_engines(ruleset: str) -> None:
    """`pavilion_value.certain_bonus` (full stars, numbers covered on all seven stars) is the
    engine's own end bonus of the board, on both sides of the board (a monochrome star scores
    by the colours it was filled with)."""
    from bots.expert.pavilion_value import certain_bonus

    earned = 0
    for seed in range(3):
        for game in _pavilion_positions(ruleset, seed):
            for seat, board in enumerate(game.to_state()["boards"]):
                bonus = game.end_bonus(seat)
                assert certain_bonus(ruleset, board["stars"]) == bonus
                earned += bonus > 0
    assert earned  # some board earned one


def test_the_pavilion_leaf_is_the_projected_board_plus_its_learned_future() -> None:
    """Inside rounds 1-5 a seat's leaf value is the board mcts's projection leaves (its hand
    placed and passed: `sdk.pavilion.place_and_pass`) valued by the learned future, the tiles
    still held at their worth in hand; in round 6 the game's end as that board stands: the
    bonuses earned, a point a kept tile, nothing learned."""
    from bots.expert.pavilion_value import certain_bonus, future_points
    from sdk.pavilion import ROUNDS, TILE, WILD_TILE, place_and_pass

    rounds = set()
    for game in _pavilion_positions("pavilion", 4):
        if game.is_over():
            assert leaf_values(game) == [float(s) for s in game.scores]
            continue
        state = game.to_state()
        values = leaf_values(game)
        for seat, board in enumerate(state["boards"]):
            score, stars, held, kept = place_and_pass(state, seat, next_round=True)
            value = score + sum(WILD_TILE if t == state["wild"] else TILE for t in held)
            if state["round"] == ROUNDS:
                value += certain_bonus("pavilion", stars) - len(kept)
            else:
                wild = state["wild_order"][state["round"]]
                left = ROUNDS - state["round"]
                value += future_points("pavilion", stars, kept, wild, board["has_marker"], left, 2)
            assert values[seat] == pytest.approx(value)
        rounds.add(state["round"])
    assert rounds == set(range(1, ROUNDS + 1))


def test_the_pavilion_leaf_uses_the_weights_of_its_number_of_players() -> None:
    """A seat's share of the tiles, and so its future, differs with the players: with 4 the
    leaves are the learned value with the weights fitted on 4-player games
    (`pavilion_weights.WEIGHTS[4]`, which value the same board otherwise than the 2-player
    ones); with 3, for which no table is shipped, mcts's projection
    (`round_end_values(next_round=True)`)."""
    import random

    from bots.expert.pavilion_value import board_value, future_points
    from bots.expert.pavilion_weights import WEIGHTS
    from sdk.helpers import round_end_values

    assert sorted(WEIGHTS) == [2, 4]
    for players in (3, 4):
        game, rng = new_game("pavilion", players=players, seed=players), random.Random(players)
        for _ in range(60):
            public = game.to_state()
            if players == 4:
                assert leaf_values(game) == [board_value(public, s) for s in range(players)]
            else:
                assert leaf_values(game) == round_end_values(game, next_round=True)
            game.push(rng.choice(game.legal_moves()))
    stars = ["PP.P..", "OO....", "......", "BBBB..", "......", "G.....", "RY...."]
    for rounds in range(1, 6):
        four = future_points("pavilion", stars, "YRR", "Y", False, rounds, 4)
        assert four != future_points("pavilion", stars, "YRR", "Y", False, rounds, 2)


def test_the_pavilion_learned_value_credits_the_token_and_a_kept_wild_tile() -> None:
    """What the fitted weights (bots/expert/pavilion_weights.py) must keep saying with any
    number of rounds to play: taking first next round is worth something, and so is a kept
    tile of the next round's wild colour (it pays for any placement)."""
    from bots.expert.pavilion_value import future_points

    stars = ["PP.P..", "OO....", "......", "BBBB..", "......", "G.....", "RY...."]
    for rounds in range(1, 6):

        def value(hand: str, starts: bool, rounds: int = rounds) -> float:
            return future_points("pavilion", stars, hand, "Y", starts, rounds)

        assert value("", True) > value("", False)
        assert value("Y", False) > value("", False)


def test_the_pavilion_fit_plays_self_play_boards_and_writes_its_weights(tmp_path: Any) -> None:
    """`python -m bots.expert.fit --ruleset pavilion`'s parts: a self-play game gives a sample
    per seat at each round's start after the first (the target: points still scored beyond
    the certain bonuses), and the written module holds a table of fitted weights per number of
    players in the value's order: a fit for 3 players replaces that table, keeps the others."""
    import importlib.util

    pytest.importorskip("numpy")  # the fit needs it (the rl extra); the bot does not
    from bots.expert import pavilion_value
    from bots.expert.fit import fit, play_pavilion, read_pavilion, write_pavilion

    samples = play_pavilion((3, 10, 2, "mcts", "pavilion"))
    assert sorted(b for b, _, _ in samples) == sorted(list(range(5)) * 2)
    assert all(len(f) == len(pavilion_value.NAMES) for _, f, _ in samples)
    weights = fit(samples * 5, 10.0, pavilion_value.NAMES, pavilion_value.BUCKETS)
    path = tmp_path / "pavilion_weights.py"
    assert read_pavilion(path) == {}
    write_pavilion({2: ("a test", weights)}, path)
    three = play_pavilion((4, 10, 3, "mcts", "pavilion"))
    assert sorted(b for b, _, _ in three) == sorted(list(range(5)) * 3)
    three_weights = fit(three * 5, 10.0, pavilion_value.NAMES, pavilion_value.BUCKETS)
    tables = read_pavilion(path)
    tables[3] = ("another test", three_weights)
    write_pavilion(tables, path)
    spec = importlib.util.spec_from_file_location("pavilion_weights_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert {n: [list(row) for row in t] for n, t in module.WEIGHTS.items()} == {
        2: weights,
        3: three_weights,
    }
    assert module.NOTES == {2: "a test", 3: "another test"}
    assert "--ruleset pavilion --players N" in path.read_text()


def test_the_fit_can_learn_from_the_experts_own_games() -> None:
    """`fit --bot expert`: the self-play games are the expert's (fixed budget, so the same
    samples every run), one sample per seat at each round's start after the first."""
    from bots.expert.fit import make_bots, play_pavilion

    assert {type(bot).__name__ for bot in make_bots(3, 4, 2, "expert")} == {"ExpertBot"}
    samples = play_pavilion((3, 4, 2, "expert", "pavilion"))
    assert sorted(b for b, _, _ in samples) == sorted(list(range(5)) * 2)
    assert samples == play_pavilion((3, 4, 2, "expert", "pavilion"))


def test_rewards_with_more_players_are_each_seats_expected_share_of_the_others_beaten() -> None:
    """With 3-4 players a seat's reward is its mean chance of finishing above each other seat
    (so one minus its expected rank's share): the rewards add up to half the seats, a seat far
    ahead of all gets nearly 1 and a seat in the middle about a half, whoever leads; with 2
    players it is the sigmoid of the lead, as ever."""
    from bots.expert.values import lead_rewards, rewards

    sigmoid = [1 / (1 + math.exp(-1)), 1 / (1 + math.exp(1))]
    assert rewards([10.0, 4.0], 6.0) == pytest.approx(sigmoid)
    for values in ([50.0, 10.0, 12.0], [3.0, 3.0, 3.0, 3.0], [40.0, 20.0, 0.0, 21.0]):
        assert sum(rewards(values, 6.0)) == pytest.approx(len(values) / 2)
    top, middle, bottom = rewards([100.0, 50.0, 0.0], 6.0)
    assert top > 0.99 and middle == pytest.approx(0.5, abs=0.01) and bottom < 0.01
    # A second place close behind is worth more than the same second place far behind.
    assert rewards([30.0, 29.0, 0.0], 6.0)[1] > rewards([60.0, 29.0, 0.0], 6.0)[1]
    # The game analysis's reward stays the lead over the best other seat, in points once its
    # logit is taken: a second place 50 points behind has about none.
    assert lead_rewards([100.0, 50.0, 0.0], 6.0)[1] < 0.01
    assert lead_rewards([10.0, 4.0], 6.0) == rewards([10.0, 4.0], 6.0)
