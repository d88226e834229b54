"""Fit the weights of `bots/expert/learned.py` on self-play games and write
`bots/expert/weights.py` (a development tool; the bot reads only the weights):

    python -m bots.expert.fit --games 600 --iterations 120 --workers 2

Each game is `mcts:iterations=N` against itself (2 players, classic Azul, seeds 0..games-1:
the same games on any machine); at every round's start each seat's board is a sample, its
target the points that seat still scored by the game's end. One least-squares fit per number
of rounds left (ridge-regularised: a rare feature's weight stays small). Needs numpy (the rl
extra).
"""

from __future__ import annotations

import argparse
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from bots.expert.learned import BUCKETS, NAMES, bucket, features
from bots.expert.values import rounds_left
from bots.mcts_bot import MctsBot
from referee.engine import new_game

Sample = tuple[int, list[float], int, int]  # (bucket, features, seat, score at the sample)


def seat_boards(game: Any) -> list[tuple[int, list[float]]]:
    """(bucket, features) of every seat of a ClassicGame at a round's start."""
    rounds = rounds_left(game._wall)
    out = []
    for p in range(game.players):
        b = 5 * p
        lines = list(zip(game._line_colour[b : b + 5], game._line_count[b : b + 5], strict=True))
        out.append((bucket(rounds), features(game._wall[p], lines, game.turn == p)))
    return out


def play(args: tuple[int, int, int]) -> list[tuple[int, list[float], float]]:
    """One self-play game's samples: (bucket, features, points still scored)."""
    seed, iterations, players = args
    game = new_game("azul", players, seed=seed)
    bots = [MctsBot(seed=seed * 10 + p, iterations=iterations) for p in range(players)]
    samples: list[Sample] = []
    current = -1
    while not game.is_over():
        if game.round != current:
            current = game.round
            for p, (row, feats) in enumerate(seat_boards(game)):
                samples.append((row, feats, p, game.scores[p]))
        game.push(bots[game.turn].choose_move(game.copy()))
    final = game.scores
    return [(row, feats, float(final[p] - score)) for row, feats, p, score in samples]


def fit(samples: list[tuple[int, list[float], float]], ridge: float) -> list[list[float]]:
    """Least squares of the points still scored on the features, one fit per bucket."""
    import numpy as np

    weights = []
    for row in range(BUCKETS):
        chosen = [(f, y) for b, f, y in samples if b == row]
        if not chosen:
            weights.append([0.0] * len(NAMES))
            continue
        x = np.array([f for f, _ in chosen])
        y = np.array([y for _, y in chosen])
        penalty = ridge * np.eye(len(NAMES))
        penalty[0, 0] = 0.0  # the bias is not shrunk
        w = np.linalg.solve(x.T @ x + penalty, x.T @ y)
        residual = y - x @ w
        print(f"rounds left {row + 1}: {len(chosen)} samples, rms error {residual.std():.2f}")
        weights.append([round(float(v), 4) for v in w])
    return weights


def write(weights: list[list[float]], path: Path, note: str) -> None:
    lines = [
        '"""The weights of `bots/expert/learned.py`, by rounds left (1, 2, 3, 4+), in the order',
        "of `learned.NAMES`. Written by `python -m bots.expert.fit`:",
        f"{note}.",
        '"""',
        "",
        "WEIGHTS: tuple[tuple[float, ...], ...] = (",
    ]
    for rounds, row in enumerate(weights, start=1):
        lines.append(f"    (  # {rounds}{'+' if rounds == BUCKETS else ''} rounds left")
        lines.extend(f"        {v!r},  # {name}" for name, v in zip(NAMES, row, strict=True))
        lines.append("    ),")
    lines.append(")")
    path.write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--iterations", type=int, default=120)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ridge", type=float, default=10.0)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("weights.py"))
    args = parser.parse_args()
    jobs = [(seed, args.iterations, args.players) for seed in range(args.games)]
    with Pool(args.workers) as pool:
        games = pool.map(play, jobs, chunksize=4)
    samples = [s for game in games for s in game]
    weights = fit(samples, args.ridge)
    note = f"{args.games} games of mcts:iterations={args.iterations}, {args.players} players"
    write(weights, args.out, note)
    for name, *row in zip(NAMES, *weights, strict=True):
        print(f"{name:14s}" + "".join(f"{v:9.2f}" for v in row))


if __name__ == "__main__":
    main()
