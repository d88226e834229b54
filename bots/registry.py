"""The built-in bots by name: `module:Class`, launched as `python -m sdk.run module:Class`.

A built-in may take parameters, written after its name: `mcts:iterations=400`,
`search:depth=3` (`NAME:KEY=VALUE[,KEY=VALUE...]`, on the command line and in a TOML entry's
`builtin`). Each is a positive whole number passed to the bot's class as a keyword argument.
The search bots' parameters are fixed budgets: a move then costs the same work on any machine at
any load, so a reference ladder of them replays exactly (within the move's time limit).
"""

from __future__ import annotations

BUILTIN_BOTS: dict[str, str] = {
    "random": "bots.random_bot:RandomBot",
    "greedy": "bots.greedy_bot:GreedyBot",
    "search": "bots.search_bot:SearchBot",
    "mcts": "bots.mcts_bot:MctsBot",
}

# The parameters each built-in takes: name -> what it means.
BUILTIN_PARAMS: dict[str, dict[str, str]] = {
    "search": {"depth": "plies searched per move, whatever the clock (iterative deepening "
                        "stops there)"},
    "mcts": {"iterations": "simulations per move, whatever the clock"},
}


def parse_builtin(spec: str) -> tuple[str, dict[str, int]] | None:
    """`(name, parameters)` of a built-in spec (`mcts`, `mcts:iterations=400`), None when `spec`
    names no built-in; ValueError, saying what the bot takes, for a parameter it does not take
    or a value that is not a positive whole number."""
    name, sep, rest = spec.strip().partition(":")
    if name not in BUILTIN_BOTS or (sep and "=" not in rest):
        return None  # not a built-in (a `module:Class` or a file's `path.py:Class`)
    takes = BUILTIN_PARAMS.get(name, {})
    params: dict[str, int] = {}
    for item in rest.split(",") if sep else []:
        key, eq, value = (part.strip() for part in item.partition("="))
        if key not in takes:
            offered = ("; ".join(f"{k}: {v}" for k, v in takes.items())
                       if takes else "no parameters")
            raise ValueError(f"the built-in bot {name} has no parameter {key!r}; it takes "
                             f"{offered} (e.g. mcts:iterations=400)")
        if not eq or not value.isdigit() or int(value) < 1:
            raise ValueError(f"{name}: {key} must be a positive whole number, not {value!r} "
                             f"(e.g. {name}:{key}=400)")
        params[key] = int(value)
    return name, params


def builtin_target(spec: str) -> str | None:
    """What `python -m sdk.run` runs for a built-in spec: `module:Class`, with its parameters
    as `?key=value,...` (`sdk.run.load_bot` reads them); None when `spec` names no built-in."""
    found = parse_builtin(spec)
    if found is None:
        return None
    name, params = found
    query = ",".join(f"{k}={v}" for k, v in params.items())
    return BUILTIN_BOTS[name] + (f"?{query}" if query else "")
