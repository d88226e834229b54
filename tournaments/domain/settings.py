"""A match's settings, declared once: `MatchSettings`.

Every game of a tournament, a compare, a contest's ladder or its final is played with one of
these. Each field carries what the rooms above need to know of it, so that none of them
declares it again:

- `flag` and `help` (and `typer`'s extra keywords): the command line's option
  (`tournaments.commands.match_options` adds it to a command that asks for the field);
- `stored`: how a tournament's database keeps it in its run key (`TournamentConfig.to_json`,
  compared on every resume): "always", "unless-default" (a key added after databases existed,
  left out at its default so that older databases resume unchanged), or "never" (how a run is
  played, not what it is);
- `to_match_config` is the one door to the referee's `MatchConfig` for a scheduled game.

A new match setting is one field here, plus one line where a command exposes it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from referee import MatchConfig

Stored = Literal["always", "unless-default", "never"]


def setting(
    default: Any,
    help: str = "",  # the name typer gives it
    *,
    flag: str | None = None,
    stored: Stored = "always",
    **typer_options: Any,
) -> Any:
    """A `MatchSettings` field with its metadata (see the module's docstring)."""
    meta = {"flag": flag, "help": help, "stored": stored, "typer": typer_options}
    return field(default=default, metadata=meta)


# referee.clocks.CPU_CEILING, written out so that --help needs no import of the referee.
CLOCK_HELP = (
    "What a move's time limit counts: wall (the default: time from request to answer) "
    "| cpu (the CPU time the bot's processes used, from its cgroup: load from others "
    "costs it nothing; a wall-clock ceiling of 4x the limit still ends a move in which "
    "it sleeps or is starved; docs/security.md). A tournament stores it; a resume keeps it."
)


@dataclass(frozen=True)
class MatchSettings:
    """How the games of a run are played: the rules, the clock, the faults, how bots run."""

    ruleset: str = setting("azul", "Ruleset every game uses.", flag="--ruleset")
    # The ruleset's options, name to value as text (checked by its family's schema). On the
    # command line they are --option KEY=VALUE (tournaments.commands.common.parse_options).
    options: dict[str, str] = field(
        default_factory=dict, metadata={"flag": None, "help": "", "stored": "unless-default"}
    )
    time_per_move: float = setting(1.0, "Seconds per move.", flag="--time-per-move", min=0.001)
    time_bank: float = setting(
        0.0,
        "Seconds in all a bot may overrun its moves' limits by over a game, a chess clock's "
        "reserve (default 0: none).",
        flag="--time-bank",
        stored="unless-default",
        min=0.0,
    )
    fault_policy: str = setting(
        "random",
        "On a timeout or illegal move: 'random' (random legal move + a strike) or 'forfeit'.",
        flag="--fault-policy",
    )
    # None: not given (a tournament resolves it to the stored one on a resume, else to wall).
    clock: str | None = setting(None, CLOCK_HELP, flag="--clock", stored="unless-default")
    # none | process | sandbox; None: not given (the strongest this machine offers, or on a
    # resume the stored one).
    isolation: str | None = setting(
        None,
        "How bots run: none | process | sandbox (default: the strongest this machine "
        "offers; docs/security.md).",
        flag="--isolation",
    )
    ponder: bool = setting(
        False,
        "Let bots think on the others' time (default: a bot is frozen between its moves).",
        flag="--ponder",
    )
    # NAME or NAME=VALUE for every bot; a database stores the names only (values may be secret).
    bot_env: tuple[str, ...] = setting(
        (),
        "A variable every bot gets (repeat it); bots get no other of yours.",
        flag="--bot-env",
        metavar="NAME[=VALUE]",
    )
    # The bots are told their seats, not the entries' names (MatchConfig.anonymous).
    anonymous: bool = setting(
        False,
        "Tell the bots their seats (seat 1, seat 2, ...), not whom they play, as a contest "
        "server does: no bot can pick out a friend's or a rival's by name.",
        flag="--anonymous",
        stored="unless-default",
    )
    # The longest a bot folder's build may take, whatever its bot.toml asks (None: no limit).
    build_timeout: float | None = setting(None, stored="never")
    # The tournament's seed as the key of every bot's seed (referee.seeds); None: each game's
    # bot seeds derived from its deal seed instead. A tournament stores its seed itself.
    seed: int | None = setting(None, stored="never")
    # Every game of one deal gives a seat the same bot seed (a compare's duplicate pairs: common
    # random numbers, so bots that choose alike play alike); False: each game its own seeds.
    seeds_by_deal: bool = setting(False, stored="never")

    def stored(self) -> dict[str, Any]:
        """The fields a tournament's run key keeps, as its database has always written them."""
        data: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            how, value = f.metadata["stored"], getattr(self, f.name)
            if how == "never" or (how == "unless-default" and value == _default(f)):
                continue
            data[f.name] = value
        data["bot_env"] = [item.partition("=")[0] for item in self.bot_env]
        return data

    def to_match_config(
        self, seed: int, bot_seeds: tuple[int, ...] = (), **referee_only: Any
    ) -> MatchConfig:
        """The referee's `MatchConfig` of one game dealt from `seed`, its bots seeded with
        `bot_seeds`; `referee_only` are MatchConfig's own fields that no tournament sets
        (a person's seat time, no time limit for a debugger, ...)."""
        from referee import MatchConfig

        return MatchConfig(
            ruleset=self.ruleset,
            options=dict(self.options),
            seed=seed,
            time_per_move=self.time_per_move,
            time_bank=self.time_bank,
            fault_policy=self.fault_policy,  # type: ignore[arg-type]  # MatchConfig converts it
            clock=self.clock or "wall",  # type: ignore[arg-type]  # likewise
            anonymous=self.anonymous,
            bot_seeds=bot_seeds,
            **referee_only,
        )


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return f.default


def option_fields() -> list[dataclasses.Field[Any]]:
    """The fields a command may expose as options (those with a flag)."""
    return [f for f in dataclasses.fields(MatchSettings) if f.metadata["flag"]]
