"""Train the expert's value network (`learned.net_value`, classic Azul, 2 players) from nothing
and write `bots/expert/net_weights.py` (a development tool, like `fit.py`; needs numpy, the rl
extra):

    nice -n 15 python -m bots.expert.train                      # the shipped weights
    python -m bots.expert.train --games 400 --out /tmp/w.py     # a smaller run
    python -m bots.expert.train --generations 1                 # the first network alone
    python -m bots.expert.train --generations 2 --own-games     # the second, on its games alone

Two stages a generation, each resumable from its checkpoints in `--dir` (a rerun with the same
options skips what is done). The first generation's self-play is the plain expert's, each later
one's `expert:net=1` valuing by the network the generation before fitted (its weights as
written, rounded: the same as shipping it), so a run from nothing reproduces every generation:

1. Self-play: `--games` games of `expert:iterations=N` against itself (`fit.play`, seeds
   0..games-1, the same games on any machine), in chunks of `--chunk` games (named by the
   network that played them, a hash of its weights, after the first generation), each chunk's
   samples saved as one JSON file: at every round's start each seat's raw board (wall, lines,
   first-player marker, rounds left) and its target, the points that seat still scored by the
   game's end (the linear fit's target).
2. Fitting: a one-hidden-layer network beside a linear term on `learned.net_inputs`, by Adam
   on the squared error (minibatches drawn from `--seed`), the targets TD(lambda)'s (`--td`);
   every K-th game (`--holdout`) is held out and the network's rms error on its outcomes
   printed beside the linear fit's (`fit.fit`, refitted on the same training games: the bar to
   clear). A checkpoint (`fit-*.npz`, some 100 KB) after each epoch. A later generation fits
   every generation's games (the held-out ones of its own excepted), or with `--own-games`
   its own alone (which played worse: docs/notes/expert-net.md).

The CPU time spent (both stages, every run that added to `--dir`) is printed and written into
the weights module's docstring.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import textwrap
import time
from functools import partial
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from bots.expert import fit
from bots.expert.learned import BUCKETS, NAMES, bucket, features, net_forward, net_inputs
from bots.expert.values import load_net, rounds_left

TD_AFTER = 3  # epochs fitted on the outcomes before the network's own values bootstrap any

Raw = tuple[int, list[tuple[int, int]], bool, int]  # wall, lines, starts, rounds left
Sample = tuple[Raw, float]  # a board and the points its seat still scored
Net = dict[str, Any]  # w1, b1, w2, b2 (as `write` writes them), held_out_rms


DECIMALS = 6  # of the weights as written: a few hundred KB at most


def rounded(net: Net) -> Net:
    """The weights as `write` writes them: what a bot reading them values by."""
    return {
        "w1": [[round(v, DECIMALS) for v in row] for row in net["w1"]],
        "b1": [round(v, DECIMALS) for v in net["b1"]],
        "w2": [round(v, DECIMALS) for v in net["w2"]],
        "b2": round(net["b2"], DECIMALS),
        "held_out_rms": net["held_out_rms"],
    }


def tag(net: Net) -> str:
    """A short hash of the weights: names the games they played and the fits on them."""
    weights = [net["w1"], net["b1"], net["w2"], net["b2"]]
    return hashlib.sha256(json.dumps(weights).encode()).hexdigest()[:10]


def _load(net: Net) -> None:
    """A self-play worker's start: value by `net` (the generation before's)."""
    load_net(net["w1"], net["b1"], net["w2"], net["b2"])


def raw_boards(game: Any) -> list[tuple[int, Raw]]:
    """(bucket, raw board) of every seat of a ClassicGame at a round's start (`fit.play`'s
    `boards`)."""
    rounds = rounds_left(game._wall)
    out = []
    for p in range(game.players):
        b = 5 * p
        lines = [
            (c, n) if 0 < n < r + 1 else (-1, 0)
            for r, (c, n) in enumerate(
                zip(game._line_colour[b : b + 5], game._line_count[b : b + 5], strict=True)
            )
        ]
        out.append((bucket(rounds), (game._wall[p], lines, game.turn == p, rounds)))
    return out


def cpu_seconds() -> float:
    """User and system CPU of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


class Ledger:
    """The CPU seconds every run spent on `--dir`, kept in `cpu.json` there."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "cpu.json"
        self.spent: dict[str, float] = (
            json.loads(self.path.read_text()) if self.path.exists() else {}
        )
        self.mark = cpu_seconds()

    def add(self, stage: str) -> None:
        now = cpu_seconds()
        self.spent[stage] = self.spent.get(stage, 0.0) + now - self.mark
        self.mark = now
        self.path.write_text(json.dumps(self.spent, indent=1) + "\n")

    def hours(self) -> float:
        return sum(self.spent.values()) / 3600


def self_play(
    args: argparse.Namespace, folder: Path, ledger: Ledger, player: Net | None
) -> list[list[Sample]]:
    """Every game's samples, playing the chunks not yet on disk: the plain expert's games, or
    with `player` (a network) `expert:net=1`'s valuing by it."""
    games: list[list[Sample]] = []
    play = partial(fit.play, boards=raw_boards)
    bot, prefix = ("expert", "games") if player is None else ("expert-net", f"games-{tag(player)}")
    for start in range(0, args.games, args.chunk):
        seeds = range(start, min(start + args.chunk, args.games))
        path = folder / f"{prefix}-{args.iterations}-{seeds[0]}-{seeds[-1]}.json"
        if not path.exists():
            began = time.monotonic()
            jobs = [(seed, args.iterations, 2, bot, "azul") for seed in seeds]
            # A pool a chunk: its workers' CPU counted once joined.
            pool = Pool(args.workers, _load, (player,)) if player else Pool(args.workers)
            played = pool.map(play, jobs, chunksize=2)
            pool.close()
            pool.join()
            chunk = [[[list(raw), target] for _, raw, target in game] for game in played]
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(chunk))
            tmp.rename(path)  # a chunk on disk is whole
            ledger.add("self-play")
            print(f"games {seeds[0]}-{seeds[-1]}: {time.monotonic() - began:.0f} s", flush=True)
        for game in json.loads(path.read_text()):
            games.append([(_raw(raw), float(target)) for raw, target in game])  # JSON: lists
    return games


def _raw(raw: list[Any]) -> Raw:
    wall, lines, starts, rounds = raw
    return int(wall), [(int(c), int(n)) for c, n in lines], bool(starts), int(rounds)


def linear_error(train: list[Sample], test: list[Sample], ridge: float) -> float:
    """The linear fit's rms error on `test`, fitted on `train` (`fit.fit`, the bot's today)."""

    def rows(samples: list[Sample]) -> list[tuple[int, list[float], float]]:
        return [
            (bucket(raw[3]), features(raw[0], raw[1], raw[2]), target) for raw, target in samples
        ]

    weights = fit.fit(rows(train), ridge, NAMES, BUCKETS)
    found = fit.errors(weights, rows(test))
    total = sum(c * r * r for c, r in found if c) / max(1, sum(c for c, _ in found))
    return float(total**0.5)


def successors(games: list[list[Sample]], players: int = 2) -> list[int]:
    """For each sample of `games` (flattened in order) the index of the same seat's sample at
    the next round's start, -1 after the game's last round (`fit.play` lists a round's
    samples seat by seat)."""
    out: list[int] = []
    at = 0
    for game in games:
        out.extend(at + k + players if k + players < len(game) else -1 for k in range(len(game)))
        at += len(game)
    return out


def train_net(
    args: argparse.Namespace,
    train_games: list[list[Sample]],
    test: list[Sample],
    folder: Path,
    player: Net | None = None,
) -> Net:
    """Adam on the squared error; returns the weights with the input standardisation folded
    into the first layer (the bot feeds raw inputs). With `--td` below 1 the targets after the
    first epochs are TD(lambda)'s: `td` of the game's own outcome, the rest the points scored
    by the next round's start plus the network's value of the board there (less noise: one
    round's luck instead of the game's)."""
    import numpy as np

    train = [s for game in train_games for s in game]
    following = np.array(successors(train_games))
    x = np.array([net_inputs(*raw) for raw, _ in train])
    y = np.array([target for _, target in train])
    has_next = following >= 0
    nxt = np.where(has_next, following, 0)
    xt = np.array([net_inputs(*raw) for raw, _ in test]) if test else x[:0]
    yt = np.array([target for _, target in test]) if test else y[:0]
    mean, sd = x.mean(axis=0), x.std(axis=0)
    sd[sd < 1e-6] = 1.0
    xs, xts = (x - mean) / sd, (xt - mean) / sd
    y_mean = float(y.mean())
    rng = np.random.default_rng(args.seed)
    n_in, width = x.shape[1], args.hidden
    params = {
        "w1": rng.normal(0.0, (2.0 / n_in) ** 0.5, (n_in, width)),
        "b1": np.zeros(width),
        "w2": rng.normal(0.0, 0.1 / width**0.5, width),  # small: the linear term leads
        "b2": np.array(y_mean),
        "v": np.zeros(n_in),  # the linear term
    }
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    # Named by every setting the run's course depends on: another setting starts afresh.
    settings = [args.seed, args.hidden, args.epochs, args.batch, args.lr, args.decay, args.td]
    if player is not None:  # a later generation: named by the network whose games it fits
        settings = [tag(player), *settings, not args.own_games]
    state = folder / f"fit-{'-'.join(map(str, [*settings, len(train)]))}.npz"
    epoch, step = 0, 0
    if state.exists():  # resume: the parameters, Adam's moments and the generator's state
        saved = np.load(state, allow_pickle=False)
        params = {k: saved[k] for k in params}
        moments = {k: (saved[f"m_{k}"], saved[f"v_{k}"]) for k in params}
        epoch, step = int(saved["epoch"]), int(saved["step"])
        rng.bit_generator.state = json.loads(str(saved["rng"]))

    def predict(inputs: Any) -> tuple[Any, Any]:
        hidden = np.maximum(0.0, inputs @ params["w1"] + params["b1"])
        return hidden, hidden @ params["w2"] + inputs @ params["v"] + params["b2"]

    def rms(inputs: Any, targets: Any) -> float:
        return float(np.sqrt(np.mean((predict(inputs)[1] - targets) ** 2)))

    while epoch < args.epochs:
        lr = args.lr * (0.1 ** (epoch / max(1, args.epochs)))  # decays tenfold over the run
        aim = y
        if args.td < 1.0 and epoch >= TD_AFTER:
            bootstrap = y - y[nxt] + predict(xs[nxt])[1]
            aim = np.where(has_next, args.td * y + (1 - args.td) * bootstrap, y)
        order = rng.permutation(len(xs))
        for at in range(0, len(order), args.batch):
            pick = order[at : at + args.batch]
            xb, yb = xs[pick], aim[pick]
            step += 1
            _adam(params, moments, _gradients(params, xb, yb, args.decay), lr, step)
        epoch += 1
        line = f"epoch {epoch}: train rms {rms(xs, y):.3f}"
        if len(xts):
            line += f", held out rms {rms(xts, yt):.3f}"
        print(line, flush=True)
        extra = {f"m_{k}": m for k, (m, _) in moments.items()}
        extra |= {f"v_{k}": v for k, (_, v) in moments.items()}
        tmp = state.with_name(state.stem + ".tmp.npz")
        np.savez(
            tmp,
            **params,
            **extra,
            epoch=epoch,
            step=step,
            rng=json.dumps(rng.bit_generator.state),
        )
        tmp.rename(state)
    # Raw inputs x: (x - mean) / sd @ W = x @ (W / sd) - (mean / sd) @ W.
    w1 = np.hstack([params["w1"], params["v"][:, None]]) / sd[:, None]
    b1 = params["b1"] - (mean / sd) @ params["w1"]
    b2 = params["b2"] - (mean / sd) @ params["v"]
    return {
        "w1": [[float(v) for v in row] for row in w1],
        "b1": [float(v) for v in b1],
        "w2": [float(v) for v in params["w2"]],
        "b2": float(b2),
        "held_out_rms": rms(xts, yt) if len(xts) else float("nan"),
    }


def _gradients(params: dict[str, Any], xb: Any, yb: Any, decay: float) -> dict[str, Any]:
    """The gradient of half the mean squared error on a minibatch, plus `decay`'s L2."""
    import numpy as np

    hidden = np.maximum(0.0, xb @ params["w1"] + params["b1"])
    out = hidden @ params["w2"] + xb @ params["v"] + params["b2"]
    err = (out - yb) / len(yb)
    dh = np.outer(err, params["w2"]) * (hidden > 0)
    return {
        "w1": xb.T @ dh + decay * params["w1"],
        "b1": dh.sum(axis=0),
        "w2": hidden.T @ err + decay * params["w2"],
        "b2": np.array(err.sum()),
        "v": xb.T @ err + decay * params["v"],
    }


def _adam(
    params: dict[str, Any], moments: dict[str, Any], grads: dict[str, Any], lr: float, step: int
) -> None:
    """One step of Adam (0.9, 0.999), in place."""
    import numpy as np

    for k, g in grads.items():
        m, v = moments[k]
        m[...] = 0.9 * m + 0.1 * g
        v[...] = 0.999 * v + 0.001 * g * g
        params[k] = params[k] - lr * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)


def write(net: dict[str, Any], path: Path, note: str) -> None:
    """The weights module the bot reads (`bots/expert/net_weights.py`), rounded to `DECIMALS`,
    as data: formatters leave its rows as written."""

    def numbers(values: list[float], indent: str) -> list[str]:
        texts = [repr(float(round(v, DECIMALS))) for v in values]
        return textwrap.wrap(
            ", ".join(texts) + ",", 96, initial_indent=indent, subsequent_indent=indent
        )

    lines = [
        '"""The weights of `bots/expert/learned.net_value` (its inputs: `learned.net_inputs`;',
        "each row of W1 ends with the input's linear weight), written by",
        "`python -m bots.expert.train`:",
        *textwrap.wrap(note + ".", 96),
        '"""',
        "",
        "# fmt: off",
        "W1: tuple[tuple[float, ...], ...] = (",
    ]
    for row in net["w1"]:
        lines += ["    (", *numbers(row, "        "), "    ),"]
    lines += [")", "B1: tuple[float, ...] = (", *numbers(net["b1"], "    "), ")"]
    lines += ["W2: tuple[float, ...] = (", *numbers(net["w2"], "    "), ")"]
    lines += [f"B2: float = {float(round(net['b2'], DECIMALS))!r}", "# fmt: on"]
    path.write_text("\n".join(lines) + "\n")


def check(net: dict[str, Any], samples: list[Sample]) -> None:
    """The written weights through the bot's own forward pass against numpy's on a few
    samples (the standardisation was folded in: the two must agree)."""
    import numpy as np

    w1, b1, w2 = np.array(net["w1"]), np.array(net["b1"]), np.array(net["w2"])
    for raw, _ in samples[:50]:
        x = net_inputs(*raw)
        ours = net_forward(x, net["w1"], net["b1"], net["w2"], net["b2"])
        dense = np.array(x) @ w1
        theirs = float(np.maximum(0.0, dense[:-1] + b1) @ w2 + dense[-1] + net["b2"])
        if abs(ours - theirs) > 1e-6 * max(1.0, abs(theirs)):
            raise SystemExit(f"forward passes disagree: {ours} against {theirs}")


def fit_generation(
    args: argparse.Namespace,
    games: list[list[Sample]],
    earlier: list[list[Sample]],
    ledger: Ledger,
    player: Net | None,
) -> Net:
    """One generation's network, fitted on `games` (every K-th held out) and `earlier`."""
    every = args.holdout or len(games) + 1
    train_games = earlier + [game for g, game in enumerate(games) if g % every]
    train = [s for game in train_games for s in game]
    test = [s for g, game in enumerate(games) if not g % every for s in game]
    print(f"{len(train)} samples to fit, {len(test)} held out (one game in {args.holdout})")
    if test:
        print(f"linear fit, held out: rms error {linear_error(train, test, args.ridge):.3f}")
    net = train_net(args, train_games, test, args.dir, player)
    check(net, train)
    ledger.add("fitting")
    return net


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--iterations", type=int, default=100, help="the self-play's budget")
    parser.add_argument("--chunk", type=int, default=50, help="games a checkpoint")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=32, help="hidden units")
    parser.add_argument("--epochs", type=int, default=25)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--decay", type=float, default=3e-2, help="L2 on the weights")
    parser.add_argument(
        "--td", type=float, default=0.0, help="TD(lambda)'s lambda (1: the outcome alone)"
    )
    parser.add_argument("--ridge", type=float, default=10.0, help="the linear fit's, compared")
    parser.add_argument("--holdout", type=int, default=10, help="K: every K-th game unseen")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--generations", type=int, default=3, help="later ones: the network's own self-play"
    )
    parser.add_argument(
        "--own-games", action="store_true", help="a later generation fits its own games alone"
    )
    parser.add_argument("--dir", type=Path, default=Path("arena-data/expert-train"))
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("net_weights.py"))
    args = parser.parse_args()
    for name in (
        "games",
        "iterations",
        "chunk",
        "workers",
        "hidden",
        "epochs",
        "batch",
        "generations",
    ):
        if getattr(args, name) < 1:
            parser.error(f"--{name} {getattr(args, name)}: give 1 or more")
    if args.holdout == 1 or args.holdout < 0:
        parser.error(f"--holdout {args.holdout}: hold out one game in K, K 2 or more (0: none)")
    args.dir.mkdir(parents=True, exist_ok=True)
    ledger = Ledger(args.dir)
    player: Net | None = None  # the network of the generation before (None: the plain expert)
    earlier: list[list[Sample]] = []  # the generations before's games (not `--own-games`)
    for generation in range(1, args.generations + 1):
        if player is not None:
            print(f"generation {generation}: self-play with network {tag(player)}", flush=True)
        games = self_play(args, args.dir, ledger, player)
        net = fit_generation(args, games, [] if args.own_games else earlier, ledger, player)
        earlier += games
        player = rounded(net)
        print(f"generation {generation}: network {tag(player)}", flush=True)
    hours = ledger.hours()
    played = f"{args.games} games of expert:iterations={args.iterations}"
    if args.generations > 1:
        played += (
            f", then {args.generations - 1} generation(s) of {args.games} games of"
            f" expert:iterations={args.iterations},net=1 valuing by the network before"
            + ("" if args.own_games else " (fitted on every generation's games)")
        )
    note = (
        f"{played}, 2 players; {args.hidden} hidden units, {args.epochs} epochs, seed"
        f" {args.seed}; held out rms error {net['held_out_rms']:.2f} points; {hours:.2f} CPU-hours"
    )
    write(net, args.out, note)
    print(f"wrote {args.out}: {note}")


if __name__ == "__main__":
    main()
