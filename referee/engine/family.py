"""A game family as one descriptor: its name, rulesets, option schema and engine, and where the
layers above find its codec, SDK helpers, view and RL encoding.

The registry here is the only list of families: `register(family)` adds the family's rulesets
and engine; every layer asks `family_of(ruleset)` and loads its own part with `family.part(...)`
(the module named in the descriptor, whose constant is named for the part: CODEC, HELPERS,
VIEW, ENCODING). The engine names those modules as strings, so it imports nothing above it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from referee.engine.errors import EngineError
from referee.engine.game import ENGINES, Game
from referee.engine.rulesets import RULESETS, Ruleset, get_ruleset

# The parts of a family that live above the engine, and the constant each part's module defines.
Part = Literal["codec", "helpers", "view", "rl"]
_CONSTANT: Final[dict[str, str]] = {
    "codec": "CODEC",
    "helpers": "HELPERS",
    "view": "VIEW",
    "rl": "ENCODING",
}


@dataclass(frozen=True)
class Option:
    """One option of a family's games (as OpenSpiel's parameter_specification): its name, its
    default, a line of help, and `check`, which turns a value given as text into what the engine
    takes, or raises EngineError (or ValueError) saying what is allowed."""

    name: str
    default: str
    help: str
    check: Callable[[str], Any] = str


@dataclass(frozen=True)
class Family:
    """Everything the platform knows of one game family, in one place.

    `engine` plays every ruleset of `rulesets` and takes each option of `options` as a keyword
    argument. `codec`, `helpers`, `view` and `rl` name the modules of its parts in the layers
    above (a `FamilyCodec` CODEC in the protocol, a `FamilyHelpers` HELPERS in the SDK, a
    `FamilyView` VIEW for people, an `sdk.rl.encoding.Encoding` class ENCODING for learning
    agents); an empty name: the layer's generic part (the protocol sends the state as JSON; the
    SDK has no evaluation helpers; the viewer lists the moves; sdk.rl says the family has no
    encoding yet).
    """

    name: str
    engine: type[Game]
    rulesets: tuple[Ruleset, ...]
    options: tuple[Option, ...] = ()
    codec: str = ""
    helpers: str = ""
    view: str = ""
    rl: str = ""
    # The parts imported so far (not an argument: a copy made by dataclasses.replace starts afresh).
    _parts: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def option(self, name: str) -> Option | None:
        """The option called `name`, or None."""
        return next((o for o in self.options if o.name == name), None)

    def options_help(self) -> str:
        """The options this family has, for an error message or a help text."""
        if not self.options:
            return "no options"
        listed = "; ".join(f"{o.name} (default {o.default}): {o.help}" for o in self.options)
        return f"the options {listed}"

    def check_options(self, given: Mapping[str, str]) -> dict[str, Any]:
        """`given` (option name -> value as text) checked against the schema: the values the
        engine takes. EngineError names an unknown option (and lists the known ones) or says
        what a bad value may be."""
        checked: dict[str, Any] = {}
        for name, text in given.items():
            option = self.option(name)
            if option is None:
                raise EngineError(
                    f"{self.name} games have no option {name!r}; they have {self.options_help()}"
                )
            try:
                checked[name] = option.check(text)
            except (EngineError, ValueError) as exc:
                reason = str(exc)
                for prefix in (f"{name}: ", f"{name} {text!r}: "):  # the option named once
                    reason = reason.removeprefix(prefix)
                raise EngineError(f"option {name}={text}: {reason}") from None
        return checked

    def part(self, kind: Part) -> Any:
        """This family's part in a layer above the engine (None when it names none), imported
        the first time it is asked for."""
        if kind not in self._parts:
            module = getattr(self, kind)
            found = getattr(importlib.import_module(module), _CONSTANT[kind]) if module else None
            self._parts[kind] = found
        return self._parts[kind]


# Every registered family by name, in registration order.
FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Make `family` playable: its rulesets join RULESETS and its engine plays them. A family
    of a package outside the project (a plug-in, a test's) registers itself so; re-registering
    the same family is harmless, a name already taken by another is an error."""
    known = FAMILIES.get(family.name)
    if known is not None and known.engine is not family.engine:
        raise EngineError(f"a family called {family.name!r} is already registered")
    for rules in family.rulesets:
        if rules.family != family.name:
            raise EngineError(f"ruleset {rules.name} says family {rules.family}, not {family.name}")
        taken = RULESETS.get(rules.name)
        if taken is not None and taken.family != family.name:
            raise EngineError(f"ruleset {rules.name} is already one of the {taken.family} family")
    if family.engine.family != family.name:
        raise EngineError(
            f"{family.engine.__name__} plays {family.engine.family}, not {family.name}"
        )
    FAMILIES[family.name] = family
    ENGINES[family.name] = family.engine
    for rules in family.rulesets:
        RULESETS[rules.name] = rules
    return family


def family_of(ruleset: str) -> Family:
    """The family that plays `ruleset` (EngineError listing the rulesets for an unknown one)."""
    return FAMILIES[get_ruleset(ruleset).family]


def check_options(ruleset: str, given: Mapping[str, str]) -> dict[str, Any]:
    """`given` checked against the options of `ruleset`'s family (see Family.check_options);
    an unknown option's error says which options the ruleset has and which rulesets have it."""
    family = family_of(ruleset)
    for name in given:
        if family.option(name) is None:
            takers = [r for r in RULESETS if family_of(r).option(name) is not None]
            elsewhere = f" (these rulesets do: {', '.join(takers)})" if takers else ""
            raise EngineError(
                f"{ruleset} has no option {name}{elsewhere}; {ruleset} has {family.options_help()}"
            )
    return family.check_options(given)
