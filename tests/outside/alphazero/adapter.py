"""An adapter bot: cestpasphoto/alpha-zero-general's Azul network and MCTS (2-player classic
Azul) playing through our SDK.

Not part of the package: an outside engine, measured against the reference bots
(docs/strength.md, "Against an outside engine"; `azul-arena bench outside`). Its engine needs
numba and onnxruntime, heavy and never dependencies of this project, so it runs in a scratch
folder outside the repository (`--dir DIR`, else ALPHAZERO_DIR, else
~/.cache/azul-arena/alphazero), which holds:
- `venv/`: a Python environment with numpy, numba, onnxruntime and colorama
  (tests/outside/alphazero/setup.sh makes it from the package registry);
- `alpha-zero-general/`: a checkout of that project (its root: MCTS.py, azul/...);
- `alpha-zero-general/azul/pretrained.onnx`: its network azul/pretrained.pt exported to ONNX
  with the project's own chkpt_to_onnx.py.
Without one of them the bot refuses to start and says which.

This process speaks the referee's protocol; a worker process in the scratch environment
(worker.py beside this file) holds the engine, its network and its search tree, one JSON line
a request. Each move the adapter maps our state onto the engine's board (`to_alphazero`),
lets it search for `--fraction` of the move's clock after the SDK's reserve (0.6 by default,
the share mcts gives itself: about 0.57 s of a 1 s move), with the network's own settings
(worker.SETTINGS) and the tree kept from move to move within a game, and maps the most visited
action back onto one of our legal moves (`to_ours`).

The worker compiles the engine's numba code before the bot says Hello: half a minute of CPU,
more than the referee's default 10 s from launch to Hello (`bench outside --startup-timeout`).

Run it as a command-line entry:
    python tests/outside/alphazero/adapter.py --dir ~/.cache/azul-arena/alphazero
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

# Run by path (a command-line entry), this file must find the SDK: the project's root.
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import sdk  # after the path above

WORKER = Path(__file__).with_name("worker.py")
DEFAULT_DIR = Path("~/.cache/azul-arena/alphazero")
COLOURS = "BYRKW"  # our colour letters, in the engine's order (Blue, Yellow, Red, Black, White)
CENTRE = 9  # our source number of the centre (referee.engine.classic.moves.CENTRE)
N_FACTORIES = 5  # 2 players
MAX_SCORE = 127  # the engine keeps scores in int8


class MissingEngine(RuntimeError):
    """A part of the scratch folder is missing: the message says which and what to do."""


@dataclass(frozen=True)
class Scratch:
    """The scratch folder's parts (see the module's docstring)."""

    root: Path

    @property
    def python(self) -> Path:
        return self.root / "venv" / "bin" / "python"

    @property
    def engine(self) -> Path:
        return self.root / "alpha-zero-general"

    @property
    def model(self) -> Path:
        return self.engine / "azul" / "pretrained.onnx"

    def missing(self) -> str | None:
        """What is not there, with what to do about it; None when all is."""
        guide = "(docs/strength.md, Against an outside engine)"
        if not self.python.exists():
            return (
                f"no scratch environment at {self.python}: run "
                f"tests/outside/alphazero/setup.sh {self.root} {guide}"
            )
        if not (self.engine / "MCTS.py").exists() or not (self.engine / "azul").is_dir():
            return (
                f"no alpha-zero-general checkout at {self.engine}: put a checkout of "
                f"cestpasphoto/alpha-zero-general there {guide}"
            )
        if not self.model.exists():
            return (
                f"no network at {self.model}: export azul/pretrained.pt to ONNX with that "
                f"project's chkpt_to_onnx.py {guide}"
            )
        return None


def scratch(folder: str | None = None) -> Scratch:
    """The scratch folder: `folder`, else ALPHAZERO_DIR, else the default; MissingEngine,
    saying what to do, when a part of it is not there."""
    where = Scratch(Path(folder or os.environ.get("ALPHAZERO_DIR") or DEFAULT_DIR).expanduser())
    problem = where.missing()
    if problem:
        raise MissingEngine(problem)
    return where


class Worker:
    """The engine's process in the scratch environment (worker.py), one request at a time."""

    def __init__(self, where: Scratch) -> None:
        self.process = subprocess.Popen(
            [str(where.python), str(WORKER), "--engine", str(where.engine),
             "--model", str(where.model)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            # Their numba caches (the functions it can cache) go beside the checkout, kept
            # from run to run; one thread for numba as for onnxruntime.
            env={**os.environ, "NUMBA_CACHE_DIR": str(where.root / "numba-cache"),
                 "NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
        )  # fmt: skip
        self.ready = self._answer()["ready"]  # seconds it took to load and compile

    def _answer(self) -> dict[str, Any]:
        stdout: IO[str] | None = self.process.stdout
        line = stdout.readline() if stdout else ""
        if not line:
            code = self.process.wait()
            raise RuntimeError(f"the AlphaZero worker exited with {code} (its errors: the log)")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"the AlphaZero worker failed: {answer['error']}")
        return answer

    def ask(self, op: str, **request: Any) -> dict[str, Any]:
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(json.dumps({"op": op, **request}) + "\n")
        stdin.flush()
        return self._answer()

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()  # end of input ends it
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _counts(letters: str, sixth: int = 0) -> list[int]:
    """Tiles per colour, then the 6th column of the engine's row."""
    counts = Counter(letters)
    return [*(counts[c] for c in COLOURS), sixth]


def to_alphazero(state: dict[str, Any]) -> list[list[int]]:
    """Our 2-player classic state (Game.to_state()) as the engine's 23x6 board, seats in our
    order (the worker turns it to the mover's view).

    Rows: 0 the scores and the round; 1 the bag; 2 the discards (our lid plus the tiles on the
    floors: the engine discards a floor's tiles as they fall); 3 the centre (6th column: the
    first-player marker still there); 4-8 the factories; 9-10 each line's colour (-1: empty;
    6th column: the marker taken); 11-12 each line's tile count (6th column: the floor's,
    marker included); 13-22 the walls, 1 where a tile is."""
    if state["players"] != 2 or state["ruleset"] != "azul":
        raise ValueError("the AlphaZero network plays 2-player classic Azul only")
    boards = state["boards"]
    scores = [min(board["score"], MAX_SCORE) for board in boards]
    rows = [[*scores, state["round"], 0, 0, 0]]
    rows.append(_counts(state["bag"]))
    rows.append(_counts(state["lid"] + "".join(board["floor"] for board in boards)))
    rows.append(_counts(state["centre"], int(state["marker_in_centre"])))
    rows.extend(_counts(factory) for factory in state["factories"])
    for board in boards:
        colours = [COLOURS.index(line[0]) if line else -1 for line in board["lines"]]
        rows.append([*colours, int(board["has_marker"])])
    for board in boards:
        counts = [len(line) for line in board["lines"]]
        rows.append([*counts, len(board["floor"]) + int(board["has_marker"])])
    for board in boards:
        rows.extend([*(int(cell != ".") for cell in row), 0] for row in board["wall"])
    return rows


def to_action(move: Any) -> int:
    """One of our moves as the engine's action number: source (0 the centre, 1-5 the
    factories) * 30 + colour * 6 + line (5 the floor)."""
    source = 0 if move.source == CENTRE else move.source + 1
    return int(source * 30 + move.colour * 6 + move.line)


def to_ours(action: int, legal: tuple[Any, ...]) -> Any:
    """The engine's action as the one of our `legal` moves it means; ValueError if none is."""
    for move in legal:
        if to_action(move) == action:
            return move
    raise ValueError(f"the engine's action {action} is none of our legal moves")


class AlphaZeroAdapter(sdk.Bot):
    """The AlphaZero network's MCTS, its tree kept between the moves of a game."""

    name = "alphazero"
    version = "azul-pretrained"
    rulesets = ("azul",)

    def __init__(self, folder: str | None = None, fraction: float = 0.6) -> None:
        super().__init__()
        self.worker = Worker(scratch(folder))
        self.fraction = fraction
        self.simulations: list[int] = []  # each searched move's, this game

    def on_game_start(self, info: sdk.GameInfo) -> None:
        self.worker.ask("new_game")
        self.simulations = []

    def on_game_over(self, result: sdk.GameResult) -> None:
        if self.simulations:
            self.log.info(
                "%d moves searched, %.0f simulations a move (median)",
                len(self.simulations),
                statistics.median(self.simulations),
            )

    def choose_move(self, state: Any) -> Any:
        legal = state.legal_moves()
        if len(legal) == 1:
            return legal[0]
        ours = state.to_state()
        # A deadline, not a duration: the worker's wait for a core counts in the move's time.
        deadline = time.monotonic() + self.clock.budget(self.fraction)
        answer = self.worker.ask(
            "think", board=to_alphazero(ours), player=ours["turn"], deadline=deadline
        )
        self.simulations.append(answer["simulations"])
        return to_ours(answer["action"], legal)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="cestpasphoto/alpha-zero-general's Azul network as an Azul Arena bot."
    )
    parser.add_argument(
        "--dir", help="the scratch folder (default: ALPHAZERO_DIR, else ~/.cache/azul-arena/...)"
    )
    parser.add_argument(
        "--fraction",
        type=float,
        default=0.6,
        help="share of the move's clock (after the SDK's reserve) to think (default 0.6, as mcts)",
    )
    args, rest = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    if not 0 < args.fraction <= 1:
        parser.error(f"--fraction must be in (0, 1], not {args.fraction}")
    try:
        bot = AlphaZeroAdapter(args.dir, args.fraction)
    except MissingEngine as exc:
        raise SystemExit(str(exc)) from None
    sdk.run(bot, rest)


if __name__ == "__main__":
    main()
