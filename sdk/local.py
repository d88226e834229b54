"""Play bots against each other in this process: no referee, no gRPC, no bot processes.

    from sdk.local import play_local
    from bots.greedy_bot import GreedyBot
    from bots.random_bot import RandomBot

    result = play_local([GreedyBot(), RandomBot(seed=1)], ruleset="azul", seed=7)
    result.scores, result.ranks, result.illegal, result.timeouts

Each decision gets a fresh `Clock` of `time_per_move` seconds, as under the referee. A bot that
answers later than `time_per_move + grace`, raises, or returns an illegal move gets a fault
counted against its seat and a random legal move is played for it (the referee's default
policy), so one game always completes. The bots see the game rebuilt from its public state, as
under the referee: never the game itself, nor its random generator (a copy would deal a bot's
simulations the real game's next tiles).
Use it for fast tests and for quick experiments; `azul-arena match` runs the real thing.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from functools import partial

from referee.engine import Game, game_from_state, new_game
from sdk.bot import Bot, Clock, GameInfo, GameResult
from sdk.state import LazyGame


@dataclass
class LocalResult:
    """The outcome of one local game; lists are per seat."""

    ruleset: str
    seed: int | None
    scores: list[int]
    ranks: list[int]
    moves: list[str]  # every move in notation, in order
    illegal: list[int]
    timeouts: list[int]
    errors: list[int]  # exceptions raised by choose_move
    think_time: list[float]  # seconds spent in choose_move
    decisions: list[int]
    record: dict = field(default_factory=dict)  # type: ignore[type-arg]

    @property
    def faults(self) -> int:
        return sum(self.illegal) + sum(self.timeouts) + sum(self.errors)

    @property
    def max_move_time(self) -> float:
        return self._max

    _max: float = 0.0


def play_local(
    bots: list[Bot],
    ruleset: str = "azul",
    seed: int | None = None,
    time_per_move: float = 0.1,
    grace: float = 0.05,
    first_player: int = 0,
    game_id: str = "local",
    options: dict[str, str] | None = None,
) -> LocalResult:
    """Play one game between `bots` (2-4, in seat order) and return its LocalResult.
    `options` are the ruleset's options by name, as text (its family's schema checks them)."""
    players = len(bots)
    game = new_game(
        ruleset, players=players, seed=seed, first_player=first_player, **(options or {})
    )
    names = tuple(b.display_name for b in bots)
    fallback = random.Random(seed)
    # Seeds of the bots' rebuilt games: reproducible with `seed`, unrelated to the real deals.
    view_seeds = random.Random(None if seed is None else f"sdk.local views {seed}")
    for seat, bot in enumerate(bots):
        bot.on_game_start(GameInfo(game_id, ruleset, players, seat, names))
    illegal, timeouts, errors = [0] * players, [0] * players, [0] * players
    think, decisions = [0.0] * players, [0] * players
    moves: list[str] = []
    slowest = 0.0
    while not game.is_over():
        seat = game.turn
        bot = bots[seat]
        legal = game.legal_moves()
        # The same stand-in the referee's bots get (sdk.state), built on first use from this
        # position (a copy: the game moves on after the answer) and the public state alone.
        view = LazyGame(
            partial(public_game, game.copy(), view_seeds.getrandbits(63)),
            partial(tuple, legal),  # the legal moves as they are
        )
        bot.clock = Clock(move_time=time_per_move)
        began = time.monotonic()
        try:
            move = bot.choose_move(view)  # type: ignore[arg-type]  # it stands for a Game
        except Exception as exc:  # a faulty bot must not stop the game
            bot.log.warning("choose_move raised %r", exc)
            errors[seat] += 1
            move = None
        spent = time.monotonic() - began
        think[seat] += spent
        decisions[seat] += 1
        slowest = max(slowest, spent)
        if spent > time_per_move + grace:
            timeouts[seat] += 1
        # The family's own move class only: a string or another object that compares equal
        # is not a move (under the referee it would not be either).
        if move is not None and not (type(move) is type(legal[0]) and move in legal):
            illegal[seat] += 1
            move = None
        if move is None:
            move = fallback.choice(legal)
        moves.append(str(move))
        game.push(move)
    scores, ranks = list(game.scores), list(game.ranks())
    for bot in bots:
        bot.on_game_over(GameResult(game_id, tuple(scores), tuple(ranks)))
    result = LocalResult(
        ruleset,
        seed,
        scores,
        ranks,
        moves,
        illegal,
        timeouts,
        errors,
        think,
        decisions,
        game.record(list(names)),
    )
    result._max = slowest
    return result


def public_game(game: Game, seed: int) -> Game:
    """`game` as a bot under the referee gets it: rebuilt from its public state, its bag's
    future draws seeded with `seed`."""
    return game_from_state(game.to_state(), seed)
