"""Fit the weights of `bots/expert/learned.py` (classic Azul) or `pavilion_value.py` (Summer
Pavilion) on self-play games and write `bots/expert/weights.py` or `pavilion_weights.py` (a
development tool; the bot reads only the weights):

    python -m bots.expert.fit --games 600 --iterations 120 --workers 2
    python -m bots.expert.fit --ruleset azul-gray --games 600 --iterations 100
    python -m bots.expert.fit --ruleset pavilion --games 400 --iterations 100 --workers 2
    python -m bots.expert.fit --ruleset pavilion --players 4 --games 240 --iterations 100
    python -m bots.expert.fit --ruleset pavilion --bot expert --out /tmp/weights.py
    python -m bots.expert.fit --ruleset pavilion --games 1200 --iterations 100 --holdout 5 --out F

A gray wall (`--ruleset azul-gray`) has weights of its own, `bots/expert/gray_weights.py`.
Each game is `mcts:iterations=N` (`--bot expert`: the expert's own play, with the weights it
has now) against itself (`--players`, 2 by default; seeds 0..games-1: the same games on any
machine); at every round's start each seat's board is a sample, its target the points that
seat still scored by the game's end (Summer Pavilion: less the bonuses already certain). One
least-squares fit per number of rounds left (ridge-regularised: a rare feature's weight stays
small). Summer Pavilion keeps a table per number of players: a run replaces its own and keeps
the others. `--holdout K` also measures the fit on games it has not seen: fitted without every
K-th game (seed % K == 0), its rms error on those (the weights written are still fitted on all
games). Needs numpy (the rl extra).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from functools import partial
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from bots.expert import pavilion_value
from bots.expert.bot import ExpertBot
from bots.expert.learned import BUCKETS, NAMES, bucket, features
from bots.expert.values import rounds_left, wall_cells
from bots.mcts_bot import MctsBot
from referee.engine import new_game

# --ruleset: the module each writes (classic Azul's coloured wall, its gray wall, Summer Pavilion).
WEIGHT_FILES = {
    "azul": "weights.py",
    "azul-gray": "gray_weights.py",
    "pavilion": "pavilion_weights.py",
}
# --bot: whose self-play the weights are fitted on (expert-net: `expert:net=1`, the network's
# own play, `bots.expert.train`'s later generations).
BOTS: dict[str, Callable[..., MctsBot | ExpertBot]] = {
    "mcts": MctsBot,
    "expert": partial(ExpertBot, net=0),  # the linear fit's play, as the first weights were made
    "expert-net": partial(ExpertBot, net=1),
}

Sample = tuple[int, Any, int, float]  # (bucket, features, seat, score at the sample)
Job = tuple[int, int, int, str, str]  # (seed, iterations, players, bot, ruleset)


def seat_boards(game: Any) -> list[tuple[int, list[float]]]:
    """(bucket, features) of every seat of a ClassicGame at a round's start (a gray wall's
    with its colours: `cells`)."""
    rounds = rounds_left(game._wall)
    out = []
    for p in range(game.players):
        b = 5 * p
        lines = list(zip(game._line_colour[b : b + 5], game._line_count[b : b + 5], strict=True))
        wall = game._wall[p]
        cells = wall_cells(wall, game._cells[p]) if game._gray else None
        out.append((bucket(rounds), features(wall, lines, game.turn == p, cells)))
    return out


def make_bots(seed: int, iterations: int, players: int, bot: str) -> list[Any]:
    """The self-play game's bots, one a seat, each with a seed of its own."""
    return [BOTS[bot](seed=seed * 10 + p, iterations=iterations) for p in range(players)]


def play(
    args: Job, boards: Callable[[Any], list[tuple[int, Any]]] = seat_boards
) -> list[tuple[int, Any, float]]:
    """One self-play game's samples: (bucket, features, points still scored); `boards` reads
    them off the game at each round's start (`bots.expert.train`: the raw boards instead)."""
    seed, iterations, players, bot, ruleset = args
    game = new_game(ruleset, players, seed=seed)
    bots = make_bots(seed, iterations, players, bot)
    samples: list[Sample] = []
    current = -1
    while not game.is_over():
        if game.round != current:
            current = game.round
            for p, (row, feats) in enumerate(boards(game)):
                samples.append((row, feats, p, game.scores[p]))
        game.push(bots[game.turn].choose_move(game.copy()))
    final = game.scores
    return [(row, feats, float(final[p] - score)) for row, feats, p, score in samples]


def pavilion_boards(state: dict[str, Any]) -> list[tuple[int, list[float], float]]:
    """(bucket, features, certain bonuses) of every seat of a pavilion state at a round's start
    (rounds 2-6: the board the last round's end left; bucket = rounds still to play - 1)."""
    ruleset, wild, rounds = state["ruleset"], state["wild"], 7 - state["round"]
    out = []
    for p, board in enumerate(state["boards"]):
        stars, starts = board["stars"], state["round_starter"] == p
        feats = pavilion_value.features(ruleset, stars, board["tiles"], wild, starts)
        out.append((rounds - 1, feats, pavilion_value.certain_bonus(ruleset, stars)))
    return out


def play_pavilion(args: Job) -> list[tuple[int, list[float], float]]:
    """One Summer Pavilion self-play game's samples: (bucket, features, points still scored
    beyond the bonuses already certain)."""
    seed, iterations, players, bot, _ = args
    game = new_game("pavilion", players, seed=seed)
    bots = make_bots(seed, iterations, players, bot)
    samples: list[Sample] = []
    current = 1
    while not game.is_over():
        if game.round != current:
            current = game.round
            for p, (row, feats, certain) in enumerate(pavilion_boards(game.to_state())):
                samples.append((row, feats, p, game.scores[p] + certain))
        game.push(bots[game.turn].choose_move(game.copy()))
    final = game.scores
    return [(row, feats, float(final[p] - base)) for row, feats, p, base in samples]


def fit(
    samples: list[tuple[int, list[float], float]],
    ridge: float,
    names: tuple[str, ...] = NAMES,
    buckets: int = BUCKETS,
) -> list[list[float]]:
    """Least squares of the points still scored on the features, one fit per bucket."""
    import numpy as np

    weights = []
    for row in range(buckets):
        chosen = [(f, y) for b, f, y in samples if b == row]
        if not chosen:
            weights.append([0.0] * len(names))
            continue
        x = np.array([f for f, _ in chosen])
        y = np.array([y for _, y in chosen])
        penalty = ridge * np.eye(len(names))
        penalty[0, 0] = 0.0  # the bias is not shrunk
        w = np.linalg.solve(x.T @ x + penalty, x.T @ y)
        residual = y - x @ w
        print(f"rounds left {row + 1}: {len(chosen)} samples, rms error {residual.std():.2f}")
        weights.append([round(float(v), 4) for v in w])
    return weights


def errors(
    weights: list[list[float]], samples: list[tuple[int, list[float], float]]
) -> list[tuple[int, float]]:
    """(samples, rms error) of `weights` on `samples`, by bucket (0, nan: none there)."""
    out = []
    for row, w in enumerate(weights):
        misses = [
            sum(wi * fi for wi, fi in zip(w, feats, strict=True)) - target
            for sample_row, feats, target in samples
            if sample_row == row
        ]
        rms = (sum(m * m for m in misses) / len(misses)) ** 0.5 if misses else float("nan")
        out.append((len(misses), rms))
    return out


def held_out(
    games: list[list[tuple[int, list[float], float]]],
    every: int,
    ridge: float,
    names: tuple[str, ...],
    buckets: int,
) -> None:
    """Print the fit's rms error on the games it was not fitted on: game g (seed g) held out
    where g % `every` == 0, the rest fitted as `fit` does."""
    train = [s for g, game in enumerate(games) if g % every for s in game]
    test = [s for g, game in enumerate(games) if not g % every for s in game]
    print(f"held out: one game in {every} ({len(test)} samples), fitted on the rest")
    found = errors(fit(train, ridge, names, buckets), test)
    for row, (count, rms) in enumerate(found):
        print(f"held out, rounds left {row + 1}: {count} samples, rms error {rms:.2f}")
    total = sum(c * r * r for c, r in found if c) / max(1, sum(c for c, _ in found))
    print(f"held out, all: rms error {total**0.5:.2f}")


def write(weights: list[list[float]], path: Path, note: str, command: str) -> None:
    """`bots/expert/weights.py` (or `gray_weights.py`): classic Azul's weights, by rounds left."""
    lines = [
        '"""The weights of `bots/expert/learned.py`, by rounds left (1, 2, 3, 4+), in the order',
        f"of `learned.NAMES`. Written by `{command}`:",
        f"{note}.",
        '"""',
        "",
        "WEIGHTS: tuple[tuple[float, ...], ...] = (",
    ]
    for rounds, row in enumerate(weights, start=1):
        more = "+" if rounds == BUCKETS else ""
        lines.append(f"    (  # {rounds}{more} rounds left")
        lines.extend(f"        {v!r},  # {name}" for name, v in zip(NAMES, row, strict=True))
        lines.append("    ),")
    lines.append(")")
    path.write_text("\n".join(lines) + "\n")


PavilionTables = dict[int, tuple[str, list[list[float]]]]  # players: (how fitted, weights)


def read_pavilion(path: Path) -> PavilionTables:
    """The tables a pavilion weights module holds (none if there is no such file yet)."""
    if not path.exists():
        return {}
    scope: dict[str, Any] = {}
    exec(compile(path.read_text(), str(path), "exec"), scope)  # our own generated module
    return {
        players: (scope["NOTES"][players], [list(row) for row in table])
        for players, table in scope["WEIGHTS"].items()
    }


def write_pavilion(tables: PavilionTables, path: Path) -> None:
    """`bots/expert/pavilion_weights.py`: a table of weights per number of players (a seat's
    share of the tiles, and so its future, differs with the players), each by rounds left."""
    names = pavilion_value.NAMES
    lines = [
        '"""The weights of `bots/expert/pavilion_value.py` by players, then by rounds left (1, 2,',
        "3, 4, 5), in the order of `pavilion_value.NAMES`. Written by",
        "`python -m bots.expert.fit --ruleset pavilion --players N`, which replaces table N:",
        *(f"{players} players: {tables[players][0]}." for players in sorted(tables)),
        '"""',
        "",
        "NOTES: dict[int, str] = {",
        *(f'    {players}: "{tables[players][0]}",' for players in sorted(tables)),
        "}",
        "",
        "WEIGHTS: dict[int, tuple[tuple[float, ...], ...]] = {",
    ]
    for players in sorted(tables):
        lines.append(f"    {players}: (")
        for rounds, row in enumerate(tables[players][1], start=1):
            lines.append(f"        (  # {players} players, {rounds} rounds left")
            lines.extend(
                f"            {v!r},  # {name}" for name, v in zip(names, row, strict=True)
            )
            lines.append("        ),")
        lines.append("    ),")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", choices=tuple(WEIGHT_FILES), default="azul")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--iterations", type=int, default=120)
    parser.add_argument("--bot", choices=tuple(BOTS), default="mcts", help="whose self-play")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ridge", type=float, default=10.0)
    parser.add_argument(
        "--holdout", type=int, default=0, help="K: also the rms error on every K-th game, unseen"
    )
    parser.add_argument("--out", type=Path, help="default: the ruleset's weights module")
    args = parser.parse_args()
    if args.holdout < 0 or args.holdout == 1:
        parser.error(f"--holdout {args.holdout}: hold out one game in K, K 2 or more (0: none)")
    pavilion = args.ruleset == "pavilion"
    names = pavilion_value.NAMES if pavilion else NAMES
    out = args.out or Path(__file__).with_name(WEIGHT_FILES[args.ruleset])
    jobs = [
        (seed, args.iterations, args.players, args.bot, args.ruleset) for seed in range(args.games)
    ]
    with Pool(args.workers) as pool:
        games = pool.map(play_pavilion if pavilion else play, jobs, chunksize=4)
    buckets = pavilion_value.BUCKETS if pavilion else BUCKETS
    if args.holdout > 1:
        held_out(games, args.holdout, args.ridge, names, buckets)
    samples = [s for game in games for s in game]
    weights = fit(samples, args.ridge, names, buckets)
    note = f"{args.games} games of {args.bot}:iterations={args.iterations}"
    if pavilion:  # one table per number of players: the others are kept
        tables = read_pavilion(out)
        tables[args.players] = (note, weights)
        write_pavilion(tables, out)
    else:
        command = "python -m bots.expert.fit" + (
            f" --ruleset {args.ruleset}" if args.ruleset != "azul" else ""
        )
        write(weights, out, f"{note}, {args.players} players", command)
    for name, *row in zip(names, *weights, strict=True):
        print(f"{name:14s}" + "".join(f"{v:9.2f}" for v in row))


if __name__ == "__main__":
    main()
