"""The match settings as a command's options, from their one declaration
(`tournaments.domain.settings.MatchSettings`: each field's flag, help and limits).

    @tournament_app.command("run")
    @match_options("ruleset", "time_per_move", "clock")
    def run(..., match: MatchSettings) -> None: ...

adds --ruleset, --time-per-move and --clock to `run` (after its own options, in that order)
and hands it one `match: MatchSettings` holding what was given. A new match flag is a field in
`MatchSettings` and its name in the list of each command that exposes it.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

from tournaments.domain.settings import MatchSettings, option_fields

F = TypeVar("F", bound=Callable[..., Any])

# The option's type as typer reads it: a repeatable option for a tuple, the value for the rest.
_CLI_TYPES: dict[str, Any] = {
    "str": str,
    "float": float,
    "bool": bool,
    "str | None": str | None,
    "float | None": float | None,
    "tuple[str, ...]": list[str] | None,
}


def _parameter(f: dataclasses.Field[Any]) -> inspect.Parameter:
    meta = f.metadata
    cli_type = _CLI_TYPES[str(f.type)]
    default = None if cli_type == list[str] | None else f.default
    option = typer.Option(meta["flag"], help=meta["help"], **meta["typer"])
    return inspect.Parameter(
        f.name, inspect.Parameter.KEYWORD_ONLY, default=default,
        annotation=Annotated[cli_type, option],
    )  # fmt: skip


def match_options(*names: str) -> Callable[[F], F]:
    """Expose the `MatchSettings` fields `names` as options of the decorated command, which
    takes them as one keyword argument `match: MatchSettings` instead."""
    by_name = {f.name: f for f in option_fields()}
    unknown = [name for name in names if name not in by_name]
    if unknown:
        raise ValueError(f"no match setting with an option: {', '.join(unknown)}")

    def decorate(command: F) -> F:
        # The command's own annotations as objects (its module's names), beside the added ones.
        hints = typing.get_type_hints(command, include_extras=True)
        signature = inspect.signature(command)
        own = [
            p.replace(annotation=hints[p.name])
            for p in signature.parameters.values()
            if p.name != "match"
        ]
        added = [_parameter(by_name[name]) for name in names]

        @functools.wraps(command)
        def with_settings(**given: Any) -> Any:
            values = {name: given.pop(name) for name in names}
            if "bot_env" in values:
                values["bot_env"] = tuple(values["bot_env"] or ())
            return command(**given, match=MatchSettings(**values))

        parameters = [*own, *added]
        with_settings.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=parameters, return_annotation=hints.get("return")
        )
        with_settings.__annotations__ = {p.name: p.annotation for p in parameters}
        return with_settings  # type: ignore[return-value]

    return decorate
