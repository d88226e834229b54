"""The reference bots play complete games of every classic ruleset with 2, 3 and 4 players,
without an illegal move, an exception or a timeout; greedy beats random; the helpers agree with
the public state."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from bots.greedy_bot import GreedyBot
from bots.mcts_bot import MctsBot
from bots.random_bot import RandomBot
from bots.search_bot import SearchBot
from referee import builtin_bots
from referee.engine import new_game
from sdk.helpers import boards, boards_from_state, evaluate, placement_points, round_end_score
from sdk.local import play_local
from sdk.run import load_bot_class

RULESETS = ("azul", "azul-mini", "azul-gray", "azul-greenbox")
TIME = 0.02  # seconds per move: short; the bots check their clock (GRACE absorbs the machine)
GRACE = 1.0  # generous: a loaded 2-core machine can deschedule a process for 100s of ms
BOTS = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot, "mcts": MctsBot}


def test_registry_names_load_as_bot_classes() -> None:
    assert set(BOTS) <= set(builtin_bots())
    for name, cls in BOTS.items():
        assert load_bot_class(builtin_bots()[name]) is cls


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("name", ["greedy", "random"])  # search, mcts: test_ladder_bots
def test_bot_plays_every_ruleset_with_2_3_4_players(name: str, ruleset: str) -> None:
    for players in (2, 3, 4):
        # The bot under test in a different seat each time, random opponents elsewhere.
        seat = players - 2
        seats = [RandomBot(seed=s) for s in range(players)]
        seats[seat] = BOTS[name]()
        result = play_local(
            seats, ruleset=ruleset, seed=100 + players, time_per_move=TIME, grace=GRACE
        )
        where = f"{name} {ruleset} {players}p"
        assert result.illegal[seat] == 0, where
        assert result.errors[seat] == 0, where
        assert result.timeouts[seat] == 0, f"{where}: slowest {result.max_move_time:.3f} s"
        assert result.decisions[seat] >= 5, where
        assert len(result.scores) == players and min(result.ranks) == 1


def test_greedy_beats_random_over_a_seeded_match() -> None:
    wins = 0
    for game in range(6):
        greedy_seat = game % 2
        seats = (
            [RandomBot(seed=game), GreedyBot(seed=game)]
            if greedy_seat
            else [GreedyBot(seed=game), RandomBot(seed=game)]
        )
        result = play_local(seats, seed=game // 2, time_per_move=1.0)
        wins += result.ranks[greedy_seat] == 1 and result.ranks[1 - greedy_seat] == 2
    assert wins >= 5


def test_search_and_mcts_use_the_clock_they_are_given() -> None:
    game = new_game("azul", players=2, seed=3)
    for bot in (SearchBot(), MctsBot(seed=1)):
        from sdk import Clock

        bot.clock = Clock(move_time=0.05)
        move = bot.choose_move(game.copy())
        assert move in game.legal_moves()
        # Before the limit, give or take what a loaded machine takes away (a bot that ignored
        # its clock would search for seconds).
        assert time.monotonic() - bot.clock.started < 0.05 + GRACE


def test_mcts_searches_as_long_as_its_budget_and_no_longer() -> None:
    """Counted, not timed: a fixed budget is exactly that many simulations under a clock it fits
    in, and a clock already spent (a process descheduled past its deadline) stops the search
    after its first simulation, whatever the budget."""
    from sdk import Clock

    game = new_game("azul", players=2, seed=3)
    fixed = MctsBot(seed=1, iterations=60)
    fixed.clock = Clock(move_time=600.0)
    fixed.choose_move(game.copy())
    assert fixed.simulations == 60
    late = MctsBot(seed=1, iterations=60)
    late.clock = Clock(started=time.monotonic() - 5.0, move_time=0.05)  # spent long ago
    assert late.choose_move(game.copy()) in game.legal_moves()
    assert late.simulations == 1


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("ruleset", ["azul", "pavilion"])
def test_mcts_with_more_players_tries_few_replies_and_reaches_its_own_next_move(
    ruleset: str, players: int
) -> None:
    """Counted, not timed: below the move it plays, an opponent's node has at most
    `opponent_widths[players]` children, the bot's own at most `width`, and the tree holds the
    bot's next move (two or three opponents' replies down)."""
    from sdk import Clock

    game = new_game(ruleset, players=players, seed=5)
    bot = MctsBot(seed=1, iterations=800)
    bot.clock = Clock(move_time=600.0)
    me = game.turn
    bot.choose_move(game.copy())
    assert bot.tree is not None
    stack, own_next_move = [bot.tree[1]], False
    while stack:
        node = stack.pop()
        movers = {child.mover for child in node.children}
        if movers == {me}:
            own_next_move = True
            assert len(node.children) <= bot.width
        elif movers:
            assert len(node.children) <= bot.opponent_widths[players]
        stack.extend(node.children)
    assert own_next_move, "the tree stops before the bot's next move"


def test_helper_boards_agree_with_the_public_state() -> None:
    for ruleset in ("azul", "azul-gray", "azul-greenbox"):
        for players in (2, 4):
            game = new_game(ruleset, players=players, seed=players)
            rng = random.Random(players)
            while not game.is_over():
                assert boards(game) == boards_from_state(game.to_state())
                game.push(rng.choice(game.legal_moves()))


def test_placement_points_follow_the_rulebook_example() -> None:
    # Rulebook: a tile joining a row run of 4 and a column run of 3 scores 4 + 3 = 7.
    wall = 0
    for column in (0, 1, 3):
        wall |= 1 << (5 * 2 + column)  # row 2: tiles left and right of column 2
    for row in (0, 1):
        wall |= 1 << (5 * row + 2)  # column 2: two tiles above row 2
    assert placement_points(wall, 2, 2) == 4 + 3
    assert placement_points(0, 0, 0) == 1
    assert placement_points(1 << 1, 0, 0) == 2  # a horizontal pair


def test_round_end_score_matches_the_engine() -> None:
    # Just before the last take of a round, the boards of every seat but the mover are final:
    # the helper must predict the engine's score after wall-tiling and floor for each of them.
    rng = random.Random(5)
    checked = 0
    for seed in range(10):
        game = new_game("azul", players=3, seed=seed)
        while not game.is_over():
            move = rng.choice(game.legal_moves())
            after = game.copy()
            after.push(move)
            if after.round != game.round and not after.is_over():
                for seat in range(game.players):
                    if seat != game.turn:
                        assert round_end_score(game, seat) == after.scores[seat]
                        checked += 1
            game.push(move)
        assert evaluate(game, 0) == game.scores[0]  # at the end, the value is the score
    assert checked > 50


@pytest.mark.parametrize("ruleset", ["azul", "pavilion"])
def test_search_answers_even_when_its_move_time_is_gone_before_it_starts(ruleset: str) -> None:
    """A process descheduled past its deadline still owes a move, at once: not the root's
    ordering (tens of ms in a 4-player Summer Pavilion placement phase) but the quick guess."""
    from sdk.bot import Clock
    from sdk.helpers import move_gains

    bot = SearchBot()
    game = new_game(ruleset, 4, seed=7)
    greedy = GreedyBot(seed=1)
    while ruleset == "pavilion" and game.to_state()["phase"] == "take":
        game.push(greedy.choose_move(game))  # on to the placement phase: hundreds of moves
    bot.clock = Clock(started=time.monotonic() - 5.0, move_time=0.02)  # spent long ago
    assert bot.clock.budget() == 0.0
    move = bot.choose_move(game)
    moves = game.legal_moves()
    gains = move_gains(game, moves)
    assert move == moves[gains.index(max(gains))]
    assert bot.depth_reached == 0


def _searched_widths(bot: SearchBot, game: Any) -> list[tuple[int, int]]:
    """Let `bot` choose a move in `game` with a minute to think; (the seat to move, the
    width asked for) of every node whose moves its search ordered."""
    from sdk.bot import Clock

    ordered: list[tuple[int, int]] = []
    order = bot._ordered

    def counted(state: Any, width: int) -> Any:
        ordered.append((state.turn, width))
        return order(state, width)

    bot._ordered = counted  # type: ignore[method-assign]
    bot.clock = Clock(started=time.monotonic(), move_time=60.0)
    assert bot.choose_move(game) in game.legal_moves()
    return ordered


def test_search_prunes_with_three_players_and_reaches_its_own_next_move() -> None:
    """With 3 players the search is paranoid (every opponent against me): a two-sided game,
    so alpha-beta prunes. Iterative deepening to depth 4 (my move, both replies, my next
    move) orders far fewer nodes than the whole tree of its widths would need (16 at the root,
    6 below: 16 + 112 + 688 = 816 nodes for depths 2, 3 and 4), which max-n searched in full."""
    bot = SearchBot(depth=4)
    game = new_game("azul", 3, seed=11)
    ordered = _searched_widths(bot, game)
    assert bot.depth_reached == 4
    assert {width for seat, width in ordered if seat != game.turn} == {bot.width}  # all replies
    full = 16 + (16 + 16 * 6) + (16 + 16 * 6 + 16 * 36)
    assert len(ordered) < full / 2, f"{len(ordered)} nodes ordered of {full}"


def test_search_with_four_players_lets_each_opponent_play_its_own_best_move() -> None:
    """Classic Azul with 4 players: an opponent's node orders its moves once and follows only
    the best for that opponent (width 1), so only my moves branch; depth 8 (my move, three
    replies, my next move and three more) is searched and played. With 3 players, and in Summer
    Pavilion, every opponent still plays against me."""
    bot = SearchBot(depth=8)
    game = new_game("azul", 4, seed=11)
    widths = _searched_widths(bot, game)
    assert bot.depth_reached == 8
    opponents = {width for seat, width in widths if seat != game.turn}
    assert opponents == {1}, "an opponent's node orders for its single best move"
    assert (game.turn, bot.width) in widths  # my own moves below the root still branch
    assert ("classic", 3) not in SearchBot.greedy_opponents
    assert not any(family == "pavilion" for family, _ in SearchBot.greedy_opponents)


def test_search_values_a_position_against_the_mean_of_its_opponents() -> None:
    bot = SearchBot()
    bot.me = 1
    assert bot._value([10.0, 20.0, 4.0, 7.0]) == 20.0 - 7.0
    assert bot._value([10.0, 20.0]) == 10.0  # two players: my lead


def test_search_s_root_width_is_a_parameter_for_small_change_tests() -> None:
    # `search:depth=2,root=6`: the small change docs/improving.md measures version tests on.
    from referee.launcher import builtin_target
    from sdk.run import load_bot

    narrow = load_bot(builtin_target("search:depth=2,root=6") or "")
    assert isinstance(narrow, SearchBot)
    assert (narrow.depth, narrow.root_width) == (2, 6)
    assert SearchBot().root_width == 16  # the class's own width is untouched
    game = new_game("azul", players=2, seed=5)
    assert narrow.choose_move(game) in game.legal_moves()
