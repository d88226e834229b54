"""An adapter bot: gleb-t/AzulBot's C++ MCTS (2-player classic Azul) playing through our SDK.

Not part of the package: an outside engine, measured against the reference bots
(docs/strength.md, "Against an outside engine"; `azul-arena bench outside`). AzulBot is public
source without a licence file, so nothing of it is kept here: this adapter needs its Python
module `azulcpp` (built from that project's own sources, with its own setup files) importable,
from `--module-dir DIR` or the environment variable AZULBOT_DIR. Without it the bot refuses to
start and says so.

Each move the adapter maps our engine's state onto AzulBot's `AzulState` (`to_azulbot`), grows
a fresh `MctsBot` tree for the thinking time (`--fraction` of the move's clock after the SDK's
reserve, as `Clock.budget` gives it: 0.6 by default, the share `mcts` gives itself), and maps
its move back onto one of our legal moves (`to_ours`). The tree is freed at the start of the
next move, inside that move's budget: freed on return it would delay the answer past the
budget (some 40 ms for a 1 s tree on a loaded machine). With the author's settings:
`explorationWeight` 20 and `samplingWidth` 10 (AzulBot's benchmark and command-line bot).

What AzulBot does not model, and why it does not matter here: the box lid (its bag refill counts
the tiles not on any board, which is the bag plus the lid), the colours on the floor (only their
number is scored), and the floor's 7-slot cap (it scores at most 7 slots, as we do).

Run it as a command-line entry:
    python tests/outside/azulbot/adapter.py --module-dir /path/to/azulcpp-dir
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

# Run by path (a command-line entry), this file must find the SDK: the project's root.
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import sdk  # after the path above

COLOURS = "BYRKW"  # our colour letters; AzulBot's Color is 1 + this index (0 is Empty)
CENTRE = 9  # our source number of the centre (referee.engine.classic.moves.CENTRE)
FLOOR = 5  # our floor line, and AzulBot's floor "queue"
FLOOR_SLOTS = 7  # our floor keeps 7 tiles (the rest go to the lid); AzulBot scores 7 at most
N_FACTORIES = 5  # 2 players: AzulBot's bins 0-4; its bin 5 is the centre ("pool")
EXPLORATION = 20.0  # the author's tuned explorationWeight (AzulBot's benchmark_azul.py)
SAMPLING_WIDTH = 10  # outcomes sampled at a chance node (its default)
STEPS_PER_CHECK = 16  # simulations between two looks at the clock (a few ms)


class MissingEngine(RuntimeError):
    """AzulBot's `azulcpp` module cannot be imported: the message says where it was looked for."""


def load_azulcpp(module_dir: str | None = None) -> ModuleType:
    """AzulBot's compiled module, from `module_dir` (else AZULBOT_DIR, else the import path)."""
    where = module_dir or os.environ.get("AZULBOT_DIR", "")
    if where:
        if not Path(where).is_dir():
            raise MissingEngine(f"AzulBot's module folder {where} does not exist")
        sys.path.insert(0, where)
    try:
        return importlib.import_module("azulcpp")
    except ImportError as exc:
        raise MissingEngine(
            f"cannot import AzulBot's module azulcpp ({exc}) from "
            f"{where or 'the import path'}: build gleb-t/AzulBot's Python module from its "
            "own sources and give its folder as --module-dir or AZULBOT_DIR"
        ) from None


def _counts(letters: str) -> list[int]:
    """Tiles per AzulBot colour (index 0, Empty, always 0) of a string of our colour letters."""
    counts = [0] * (len(COLOURS) + 1)
    for letter in letters:
        counts[COLOURS.index(letter) + 1] += 1
    return counts


def player_state(cpp: ModuleType, board: dict[str, Any]) -> Any:
    """One of our boards (to_state) as AzulBot's PlayerState."""
    player = cpp.PlayerState()
    for row, cells in enumerate(board["wall"]):
        for col, letter in enumerate(cells):
            if letter in COLOURS:
                player.set_wall(row, col, cpp.Color(COLOURS.index(letter) + 1))
    for row, line in enumerate(board["lines"]):
        if line:
            player.set_queue(row, cpp.Color(COLOURS.index(line[0]) + 1), len(line))
    # The start-player marker takes a floor slot in both engines.
    player.floorCount = len(board["floor"]) + int(board["has_marker"])
    player.score = board["score"]
    return player


def to_azulbot(cpp: ModuleType, state: dict[str, Any]) -> Any:
    """Our 2-player classic state (Game.to_state(), in its take phase) as AzulBot's AzulState."""
    if state["players"] != 2 or len(state["factories"]) != N_FACTORIES:
        raise ValueError("AzulBot plays 2-player classic Azul only")
    ours = cpp.AzulState()
    ours.bag = _counts(state["bag"])
    for index, factory in enumerate([*state["factories"], state["centre"]]):
        for colour, count in enumerate(_counts(factory)):
            if count:
                ours.set_bin(index, cpp.Color(colour), count)
    ours.players = [player_state(cpp, board) for board in state["boards"]]
    ours.nextPlayer = state["turn"]
    ours.poolWasTouched = not state["marker_in_centre"]
    holder = [i for i, board in enumerate(state["boards"]) if board["has_marker"]]
    # Who starts the next round: the marker's holder, else (untouched centre) this round's starter.
    ours.firstPlayer = holder[0] if holder else state["round_starter"]
    ours.roundIndex = state["round"] - 1
    return ours


def to_ours(move: Any, legal: tuple[Any, ...]) -> Any:
    """AzulBot's Move as the one of our `legal` moves it means; ValueError if none is."""
    source = move.sourceBin if move.sourceBin < N_FACTORIES else CENTRE
    colour = int(move.color) - 1
    for candidate in legal:
        if (candidate.source, candidate.colour, candidate.line) == (
            source,
            colour,
            move.targetQueue,
        ):
            return candidate
    raise ValueError(f"AzulBot's move {move!r} is none of our legal moves")


class AzulBotAdapter(sdk.Bot):
    """gleb-t/AzulBot's MctsBot, a fresh tree each move, for the move's thinking time."""

    name = "azulbot"
    version = "0.2"  # AzulBot's own version (its setup.py)
    rulesets = ("azul",)

    def __init__(self, module_dir: str | None = None, fraction: float = 0.6) -> None:
        super().__init__()
        self.cpp = load_azulcpp(module_dir)
        self.game = self.cpp.Azul()
        self.fraction = fraction
        self.simulations = 0  # in the last move
        self.tree: Any = None  # the last move's, freed at the start of the next

    def choose_move(self, state: Any) -> Any:
        self.tree = None  # free the last tree first: its time is this move's
        legal = state.legal_moves()
        if len(legal) == 1:
            return legal[0]
        deadline = time.monotonic() + self.clock.budget(self.fraction)
        self.tree = self.cpp.MctsBot(self.game, to_azulbot(self.cpp, state.to_state()),
                                     SAMPLING_WIDTH, EXPLORATION)  # fmt: skip
        self.simulations = 0
        while True:  # at least one batch: the tree needs a visit to name a move
            self.tree.step_n(STEPS_PER_CHECK)
            self.simulations += STEPS_PER_CHECK
            if time.monotonic() >= deadline:
                break
        return to_ours(self.tree.get_best_move(), legal)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="gleb-t/AzulBot's MCTS as an Azul Arena bot.")
    parser.add_argument("--module-dir", help="folder holding AzulBot's azulcpp module")
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
        bot = AzulBotAdapter(args.module_dir, args.fraction)
    except MissingEngine as exc:
        raise SystemExit(str(exc)) from None
    sdk.run(bot, rest)


if __name__ == "__main__":
    main()
