"""Tournament entries: who plays, under which name, launched how.

An entry is a unique name plus a *spec* the referee's launcher understands:

- a built-in bot name (`random`, `greedy`, ...), with parameters if it takes any
  (`mcts:iterations=400`, `search:depth=3`: referee.parse_builtin),
- a Python file `path/bot.py` or `path/bot.py:ClassName`,
- a bot folder whose bot.toml says how its bot starts (any language; referee/folders.py),
- a command line (anything containing a space), e.g. `java -jar bot.jar`.

On the command line an entry is `SPEC` or `NAME=SPEC`; in a TOML file (for a class of 300
students) it is a table with `name` and one of `builtin`, `file`, `folder` or `command`, and
optionally `memory` (its limit: bytes, or "512M", "2G") and `env` (variables it gets: NAME or
NAME=VALUE).
The file may also say how every bot runs: `isolation`, `bot_env`, `ponder` (see `RunOptions`).
"""

from __future__ import annotations

import contextlib
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Names appear in tables, CSV files and the database: keep them printable and short.
_NAME_RE = re.compile(r"^[A-Za-z0-9_.@+\-]{1,64}$")


class EntryError(ValueError):
    """A bad entry list: the message says which entry and what is wrong."""


@dataclass(frozen=True)
class Entry:
    """One tournament entry: a unique `name` and the `spec` the bot launcher runs."""

    name: str
    spec: str
    memory: int | None = None  # its memory limit in bytes (None: the run's)
    env: tuple[str, ...] = ()  # variables it gets: NAME (the referee's value) or NAME=VALUE

    def options(self) -> dict[str, Any]:
        """What is set beyond name and spec (for the stored config)."""
        return {k: v for k, v in (("memory", self.memory), ("env", list(self.env))) if v}

    @classmethod
    def with_options(cls, name: str, spec: str, options: dict[str, Any]) -> Entry:
        """The entry `name` of `spec` with the stored `options` (what `options()` wrote)."""
        return cls(name, spec, options.get("memory"), tuple(options.get("env", ())))


@dataclass
class RunOptions:
    """How every bot of a run is started, from the entries file (the command line overrides)."""

    isolation: str | None = None
    bot_env: list[str] = field(default_factory=list)
    ponder: bool | None = None


_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.IGNORECASE)


def parse_size(value: str | int, what: str = "memory") -> int:
    """Bytes from 536870912, "512M", "512MiB" or "2G"; EntryError for anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    else:
        found = _SIZE_RE.match(str(value))
        if not found:
            raise EntryError(
                f"{what} {value!r} is not a size: give bytes or a number with K, M or G (512M, 2G)"
            )
        scale = 1024 ** "_kmgt".index((found[2] or "_").lower())
        number = int(float(found[1]) * scale)
    if number < 64 << 20:
        raise EntryError(f"{what} {value!r} is too small: a bot needs at least 64M")
    return number


def resolve_env(names: list[str] | tuple[str, ...], where: str = "--bot-env") -> dict[str, str]:
    """NAME (its value here) or NAME=VALUE items as a dict; EntryError for a NAME not set."""
    env: dict[str, str] = {}
    for item in names:
        name, sep, value = item.partition("=")
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name):
            raise EntryError(f"{where}: {item!r} is not NAME or NAME=VALUE")
        if not sep:
            if name not in os.environ:
                raise EntryError(
                    f"{where}: {name} is not set in this environment (set it, or give {name}=VALUE)"
                )
            value = os.environ[name]
        env[name] = value
    return env


def _check_name(name: str, where: str) -> str:
    if not _NAME_RE.match(name):
        raise EntryError(
            f"{where}: entry name {name!r} must be 1-64 characters of letters, digits and _ . @ + -"
        )
    return name


# File names that say nothing of the bot (the kits' and the SDK's conventions): such an entry is
# named after its folder.
GENERIC_STEMS = frozenset({"bot", "main", "__main__", "player", "agent"})


def default_name(spec: str) -> str:
    """The name an entry gets when none is given: the bot name, file stem (the folder's name for
    a generic file name such as bot.py) or program name."""
    from referee import FolderError, is_folder_entry, python_bot, read_folder

    spec = spec.strip()
    if python_bot(spec) is not None:  # a Python bot's folder: the folder's name
        return Path(spec).resolve().name
    if is_folder_entry(spec):  # bot.toml's name, else the folder's
        try:
            named = read_folder(spec).name
        except FolderError:  # launching it will say what is wrong
            named = ""
        return named or Path(spec).resolve().name
    if " " in spec:  # a command line: the program's base name
        program = spec.split()[0]
        return Path(program).stem or program
    from referee import parse_builtin

    with contextlib.suppress(ValueError):  # a bad parameter: launching it will say so
        builtin = parse_builtin(spec)
        if builtin is not None and builtin[1]:  # mcts:iterations=400 -> mcts-iterations400
            return "-".join([builtin[0], *(f"{k}{v}" for k, v in builtin[1].items())])
    path, _, cls = spec.partition(":")
    if path.endswith(".py"):
        stem = Path(path).stem
        if stem in GENERIC_STEMS:  # alice/bot.py is alice (and bob/bot.py no duplicate "bot")
            stem = Path(path).resolve().parent.name or stem
        return f"{stem}.{cls}" if cls else stem
    return spec


def parse_entry(text: str) -> Entry:
    """Parse one command-line entry: `SPEC` or `NAME=SPEC`."""
    text = text.strip()
    if not text:
        raise EntryError("an entry is empty")
    name, sep, spec = text.partition("=")
    # `NAME=SPEC` only when the part before `=` looks like a name (commands may contain `=`).
    if sep and _NAME_RE.match(name) and spec.strip():
        return Entry(name, spec.strip())
    return Entry(_check_name(default_name(text), f"entry {text!r}"), text)


def check_unique(entries: list[Entry]) -> list[Entry]:
    """Raise `EntryError` naming every duplicated name; return the list unchanged otherwise."""
    seen: dict[str, int] = {}
    for entry in entries:
        seen[entry.name] = seen.get(entry.name, 0) + 1
    dups = sorted(name for name, count in seen.items() if count > 1)
    if dups:
        raise EntryError(
            "entry names must be unique; repeated: "
            + ", ".join(dups)
            + " (give each its own name, e.g. `alice=random bob=random`)"
        )
    return entries


def parse_entries(texts: list[str]) -> list[Entry]:
    """Parse command-line entries and check their names are unique."""
    return check_unique([parse_entry(t) for t in texts])


def check_spec(spec: str) -> None:
    """Raise `EntryError` if `spec` cannot be launched (see `referee.launcher.check_entry`): an
    unknown built-in, a missing .py file, or a command line whose program cannot be found."""
    from referee import builtin_bots, check_entry, entry_argv

    try:
        entry_argv(spec)
    except ValueError as exc:
        message = str(exc)
        if "built-in" not in message:
            message += f" (the built-ins are {', '.join(sorted(builtin_bots()))})"
        raise EntryError(
            message + "; an entry is a built-in bot, path/bot.py[:Class], a bot "
            "folder or a command line in quotes"
        ) from None
    try:
        check_entry(spec)
    except ValueError as exc:
        raise EntryError(str(exc)) from None


def check_entries(entries: list[Entry]) -> list[Entry]:
    """Raise `EntryError` naming the first entry that cannot be launched (see `check_spec`)."""
    for entry in entries:
        try:
            check_spec(entry.spec)
        except EntryError as exc:
            raise EntryError(f"entry {entry.name!r}: {exc}") from None
    return entries


def _check_toml_value(kind: str, value: str, where: str) -> None:
    if kind == "builtin":
        from referee import builtin_bots, parse_builtin

        try:
            found = parse_builtin(value)
        except ValueError as exc:
            raise EntryError(f"{where}: {exc}") from None
        if found is None:
            raise EntryError(
                f"{where}: unknown built-in bot {value!r}; the built-ins are "
                + ", ".join(sorted(builtin_bots()))
                + " (with parameters: mcts:iterations=400, search:depth=3)"
            )
        return
    try:
        check_spec(value)
    except EntryError as exc:
        raise EntryError(f"{where}: {exc}") from None


def load_entries_toml(path: Path) -> list[Entry]:
    """Read entries from a TOML file.

    ```toml
    [[entry]]
    name = "alice"
    file = "students/alice/bot.py"      # relative to this TOML file
    [[entry]]
    name = "baseline"
    builtin = "greedy"
    [[entry]]
    name = "mcts400"
    builtin = "mcts:iterations=400"     # a fixed budget: the same moves at any load
    [[entry]]
    name = "bob"
    command = "java -jar bob.jar"
    [[entry]]
    name = "carol"
    folder = "students/carol"           # a bot folder (its bot.toml), relative to this file
    ```
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise EntryError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError:
        raise EntryError(f"{path} is not a text (UTF-8) TOML file") from None
    except tomllib.TOMLDecodeError as exc:
        raise EntryError(f"{path} is not valid TOML: {exc}") from exc
    items = data.get("entry", data.get("entries"))
    if not isinstance(items, list) or not items:
        raise EntryError(f"{path}: expected a list of [[entry]] tables")
    entries = [
        _toml_entry(item, f"{path}: entry {i}", path.parent) for i, item in enumerate(items, 1)
    ]
    return check_unique(entries)


def _toml_entry(item: Any, where: str, base: Path) -> Entry:
    """One `[[entry]]` table as an Entry (paths relative to `base`), or EntryError saying what is
    wrong with it (`where`: the file and the entry's number)."""
    if not isinstance(item, dict):
        raise EntryError(f"{where}: expected a table")
    misplaced = sorted({"isolation", "bot_env", "ponder"} & set(item))
    if misplaced:
        raise EntryError(
            f"{where}: {', '.join(misplaced)} applies to every bot: put it at "
            "the top of the file, before the first [[entry]]"
        )
    kinds = [k for k in ("builtin", "file", "folder", "command") if k in item]
    if len(kinds) != 1:
        raise EntryError(f"{where}: give exactly one of builtin, file, folder or command")
    kind = kinds[0]
    value = item[kind]
    if not isinstance(value, str) or not value.strip():
        raise EntryError(f"{where}: {kind} must be a non-empty string")
    value = _toml_spec(kind, value, where, base)
    name = item.get("name") or default_name(value)
    if not isinstance(name, str):
        raise EntryError(f"{where}: name must be a string")
    memory = parse_size(item["memory"], f"{where}: memory") if "memory" in item else None
    env = item.get("env", [])
    if not isinstance(env, list) or not all(isinstance(e, str) for e in env):
        raise EntryError(f"{where}: env must be a list of NAME or NAME=VALUE strings")
    resolve_env(env, f"{where}: env")
    return Entry(_check_name(name, where), value.strip(), memory, tuple(env))


def _toml_spec(kind: str, value: str, where: str, base: Path) -> str:
    """The launcher's spec for an entry's `builtin`, `file`, `folder` or `command` (a relative
    path is the TOML file's), checked."""
    if kind == "file":
        file_part, colon, cls = value.partition(":")
        file_path = Path(file_part)
        if not file_path.is_absolute():
            file_path = base / file_path
        if not file_path.is_file():
            raise EntryError(f"{where}: no such bot file {file_path}")
        return f"{file_path}{colon}{cls}"
    if kind == "folder":
        folder_path = Path(value.strip())
        if not folder_path.is_absolute():
            folder_path = base / folder_path
        if not folder_path.is_dir():
            raise EntryError(f"{where}: no such bot folder {folder_path}")
        value = str(folder_path)
    _check_toml_value(kind, value.strip(), where)
    return value


def load_run_options(path: Path) -> RunOptions:
    """The run-wide keys of an entries file: `isolation = "sandbox"`, `bot_env = ["NAME"]`,
    `ponder = true` (EntryError for a wrong type; the file was read by load_entries_toml)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    options = RunOptions()
    if "isolation" in data:
        if not isinstance(data["isolation"], str):
            raise EntryError(f"{path}: isolation must be none, process or sandbox")
        options.isolation = data["isolation"]
    if "bot_env" in data:
        env = data["bot_env"]
        if not isinstance(env, list) or not all(isinstance(e, str) for e in env):
            raise EntryError(f"{path}: bot_env must be a list of NAME or NAME=VALUE strings")
        resolve_env(env, f"{path}: bot_env")
        options.bot_env = env
    if "ponder" in data:
        if not isinstance(data["ponder"], bool):
            raise EntryError(f"{path}: ponder must be true or false")
        options.ponder = data["ponder"]
    return options
