"""No server path reaches a participant: what the server shows or exports (a validation's
reason, details and log, an archive's refusal, the exported records) has the server's own
folders replaced: a bot's folder by /bot (where its sandbox shows it), the data folder by
<server>, the temporary folder by <tmp>."""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.conf import settings

SERVER, TMP = "<server>", "<tmp>"


def _spellings(path: Path) -> list[str]:
    """A folder as given and as resolved (a symbolic link in the way spells it twice)."""
    return list(dict.fromkeys([str(path), str(path.resolve())]))


def replacements(bot_dir: Path | None = None) -> list[tuple[str, str]]:
    """(server path, what is shown instead), the longest path first (a bot's folder is inside
    the data folder, which may be inside the temporary one)."""
    pairs = [(p, "/bot") for p in _spellings(bot_dir)] if bot_dir is not None else []
    pairs += [(p, SERVER) for p in _spellings(Path(settings.HOME))]
    pairs += [(p + "/", TMP + "/") for p in _spellings(Path(tempfile.gettempdir()))]
    pairs = [(p, shown) for p, shown in pairs if p not in ("", "/")]
    return sorted(pairs, key=lambda pair: len(pair[0]), reverse=True)


def hide_paths(text: str, bot_dir: Path | None = None) -> str:
    """`text` with the server's paths replaced (see the module docstring)."""
    return str(hide_in(text, replacements(bot_dir)))


def hide_in(value: Any, pairs: Iterable[tuple[str, str]] | None = None) -> Any:
    """`value` (JSON: dicts, lists, strings...) with the server's paths replaced in every
    string, keys included."""
    pairs = list(replacements() if pairs is None else pairs)
    if isinstance(value, str):
        for path, shown in pairs:
            value = value.replace(path, shown)
        return value
    if isinstance(value, dict):
        return {hide_in(k, pairs): hide_in(v, pairs) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [hide_in(v, pairs) for v in value]
    return value
