"""The Bot base class: subclass it, implement `choose_move`, and you have a complete bot."""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # annotations only: a bot process says Hello before it loads the engine
    from referee.engine import Game, Move


# Seconds kept back from every move by default (see Clock.budget): at 0.05 s a move, a budget
# of 20 ms leaves the transport and a loaded 2-core machine 80 ms with the referee's 50 ms grace.
RESERVE = 0.03


@dataclass
class Clock:
    """The time a bot has for the move it is choosing, as the referee granted it.

    `move_time` is the limit for this move; `bank` the time bank left beyond it. Both are in
    seconds and were measured at the referee, which keeps a small grace margin for the network:
    aim to answer before `deadline` and you are safe.
    """

    move_time: float = float("inf")
    bank: float = 0.0
    started: float = field(default_factory=time.monotonic)

    @property
    def deadline(self) -> float:
        """`time.monotonic()` value by which the answer should be sent (bank included)."""
        return self.started + self.move_time + self.bank

    def remaining(self) -> float:
        """Seconds left for this move, time bank included (never negative)."""
        return max(0.0, self.deadline - time.monotonic())

    def budget(self, fraction: float = 0.8, reserve: float = RESERVE) -> float:
        """A safe thinking budget: `fraction` of what is left of this move's limit, and never
        more than that time less `reserve` seconds; the bank is not touched.

        The referee's clock runs from sending the request to reading the answer, so it also
        counts what the bot cannot see: the request and the answer on their way, the bot's
        process waiting for a core, the referee's own loop. On a busy machine that is tens of
        milliseconds whatever the time control, hence a fixed reserve beside the fraction."""
        left = self.started + self.move_time - time.monotonic()
        return max(0.0, min(left * fraction, left - reserve))


@dataclass(frozen=True)
class GameInfo:
    """What a bot learns when a game starts: the ruleset, the seats and which seat it plays."""

    game_id: str
    ruleset: str
    players: int
    seat: int
    names: tuple[str, ...] = ()
    # This seat's seed for this game (GameStart.bot_seed; 0: the referee sent none). The SDK has
    # already seeded `Bot.rng` with it.
    seed: int = 0


@dataclass(frozen=True)
class GameResult:
    """What a bot learns when a game ends."""

    game_id: str
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    reason: str = "completed"


class Bot:
    """Base class for bots. Override `choose_move`; the other hooks are optional.

        class MyBot(Bot):
            def choose_move(self, state):
                return state.legal_moves()[0]

    `state` stands for a real engine `Game` (the same engine the referee runs), built the first
    time the bot uses it (sdk.state.LazyGame; `state.game` is the Game itself): copy it and push
    moves to look ahead. `self.clock` is this move's clock; `self.log` writes to the bot's log
    file. `self.rng` is a `random.Random` seeded at each game start with the seed the referee
    gives this seat (GameInfo.seed): draw every random choice from it and the game replays move
    for move (`azul-arena replay rerun`).
    """

    name: ClassVar[str] = ""
    version: ClassVar[str] = "0.1"
    # Rulesets this bot plays; empty means every ruleset of the classic family.
    rulesets: ClassVar[tuple[str, ...]] = ()
    # Keyword arguments of its constructor an entry may set, name -> what it means: a built-in
    # bot's `NAME:KEY=VALUE` (`mcts:iterations=400`); each a whole number.
    parameters: ClassVar[dict[str, str]] = {}
    # Those of `parameters` that may be 0 (a switch: `expert:net=0`); the others are at least 1.
    may_be_zero: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def parameter(cls, name: str, key: str, text: str) -> int:
        """The value `text` gives parameter `key` of built-in bot `name` (`NAME:KEY=VALUE`): a
        whole number, at least 1 unless `key` is one of `may_be_zero`. ValueError says what."""
        least = 0 if key in cls.may_be_zero else 1
        if not text.isdigit() or int(text) < least:
            kind = "whole number (0 or more)" if least == 0 else "positive whole number"
            raise ValueError(
                f"{name}: {key} must be a {kind}, not {text!r} (e.g. {name}:{key}={least or 400})"
            )
        return int(text)

    def __init__(self) -> None:
        self.clock = Clock()
        self.rng = random.Random()
        self.log = logging.getLogger(f"bot.{self.display_name}")

    @property
    def display_name(self) -> str:
        """The name the bot plays under: `name`, or the class name when it is left empty."""
        return self.name or type(self).__name__

    def choose_move(self, state: Game) -> Move:
        """Return one of `state.legal_moves()`; called once per decision, under `self.clock`."""
        raise NotImplementedError(f"{type(self).__name__} must implement choose_move(state)")

    def on_game_start(self, info: GameInfo) -> None:
        """Called when a game starts, before the first move request."""

    def on_game_over(self, result: GameResult) -> None:
        """Called when a game ends, whatever the reason."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.display_name!r} v{self.version}>"


def describe(bot: Bot) -> dict[str, Any]:
    """The handshake facts about a bot: name, version and rulesets."""
    return {"name": bot.display_name, "version": bot.version, "rulesets": list(bot.rulesets)}
