"""The opponents of a single-agent environment: any entry a tournament takes that is a Python
bot, built and played in this process (no referee, no bot process), as `sdk.local` plays them."""

from __future__ import annotations

import random
import time
from functools import partial
from importlib.metadata import entry_points
from typing import Any

from referee.engine import Game
from sdk.bot import Bot, Clock, GameInfo
from sdk.local import public_game
from sdk.run import load_bot_class
from sdk.state import LazyGame

BOTS_GROUP = "azul_arena.bots"  # the built-in bots' entry points (pyproject.toml)


def _builtins() -> dict[str, Any]:
    return {point.name: point for point in entry_points(group=BOTS_GROUP)}


def load_opponent(spec: Any) -> Bot:
    """A bot from `spec`: a built-in name (`random`, `mcts:iterations=50`), `path/bot.py[:Class]`,
    `package.module:Class`, a Bot subclass or a Bot. ValueError says what is wrong."""
    if isinstance(spec, Bot):
        return spec
    if isinstance(spec, type) and issubclass(spec, Bot):
        return spec()
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"an opponent is a bot entry such as 'random' or 'bot.py', not {spec!r}")
    name, sep, rest = spec.strip().partition(":")
    builtins = _builtins()
    if name in builtins and (not sep or "=" in rest):
        cls = builtins[name].load()
        bot: Bot = cls(**_parameters(name, rest, cls))
        return bot
    if spec.endswith(".py") or ".py:" in spec or (sep and "/" not in spec):
        try:
            return load_bot_class(spec)()
        except SystemExit as exc:  # load_bot_class's message for a bot that does not load
            raise ValueError(str(exc)) from None
        except (OSError, ImportError) as exc:
            raise ValueError(f"opponent {spec!r}: {exc}") from None
    raise ValueError(
        f"opponent {spec!r} cannot run in-process: give a built-in ({', '.join(sorted(builtins))}, "
        "with parameters as NAME:KEY=VALUE), a Python bot file path/bot.py[:Class] or "
        "package.module:Class (bot folders in other languages and command lines need the referee)"
    )


def _parameters(name: str, text: str, cls: type[Bot]) -> dict[str, int]:
    takes = cls.parameters
    params: dict[str, int] = {}
    for item in text.split(",") if text else []:
        key, _, value = (part.strip() for part in item.partition("="))
        if key not in takes:
            offered = ", ".join(takes) or "no parameters"
            raise ValueError(
                f"the built-in bot {name} has no parameter {key!r} (it takes {offered})"
            )
        params[key] = cls.parameter(name, key, value)
    return params


class Opponents:
    """The bots of the seats the learner does not play, each fed as under the referee: a game
    rebuilt from the public state (never the real bag order), a fresh clock per move, and a
    random legal move (counted in `faults`) when it answers late, raises or returns an
    illegal move."""

    def __init__(self, specs: list[Any], time_per_move: float) -> None:
        self.bots = [load_opponent(spec) for spec in specs]
        self.time_per_move = time_per_move
        self.faults = 0
        self.rng = random.Random()

    def start(self, game: Game, learner: int, seed: int) -> None:
        """Seat the bots around `learner` for a new game; `seed` seeds their choices."""
        self.rng.seed(seed)
        self.seats: dict[int, Bot] = {}
        others = [s for s in range(game.players) if s != learner]
        names = tuple("learner" if s == learner else "opponent" for s in range(game.players))
        for i, seat in enumerate(others):
            bot = self.bots[i % len(self.bots)] if len(self.bots) < len(others) else self.bots[i]
            if bot in self.seats.values():  # one spec for several seats: a bot each
                bot = type(bot)()
            self.seats[seat] = bot
            bot.rng.seed(self.rng.getrandbits(63))
            bot.on_game_start(GameInfo("rl", game.ruleset.name, game.players, seat, names))

    def play(self, game: Game) -> None:
        """Play the bots' moves until it is the learner's turn or the game is over."""
        while not game.is_over() and game.turn in self.seats:
            bot = self.seats[game.turn]
            legal = game.legal_moves()
            view = LazyGame(
                partial(public_game, game.copy(), self.rng.getrandbits(63)),
                partial(tuple, legal),
            )
            bot.clock = Clock(move_time=self.time_per_move)
            began = time.monotonic()
            try:
                move = bot.choose_move(view)  # type: ignore[arg-type]  # it stands for a Game
            except Exception as exc:  # a faulty bot must not stop the game
                bot.log.warning("choose_move raised %r", exc)
                move = None
            late = time.monotonic() - began > self.time_per_move * 2
            if move is None or late or not (type(move) is type(legal[0]) and move in legal):
                self.faults += 1
                move = self.rng.choice(legal)
            game.push(move)
