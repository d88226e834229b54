"""The AlphaZero engine's side of the adapter: runs in the scratch environment (numba,
onnxruntime; never this project's), loads cestpasphoto/alpha-zero-general's Azul rules and MCTS
from its own checkout and its network from an ONNX export, and answers the adapter
(tests/outside/alphazero/adapter.py) one JSON line per request on stdin/stdout.

It imports nothing of this project: the adapter, in the project's environment, speaks the
referee's protocol through the SDK; this process only knows the engine's board (a 23x6 int8
array, the layout its AzulLogicNumba.py describes) and its action numbers.

Requests (`op`) and answers:
- `think` {board, player, deadline} -> {action, simulations}: grow the search tree from the
  board seen by `player` until `deadline` (a `time.monotonic()` value: the adapter's clock and
  this one are the machine's), then the most visited action (as its pit.py plays).
- `new_game` -> {}: a fresh tree (one game's nodes are of no use to the next).
- `legal` {board, player} -> {legal: [actions]}; `apply` {board, player, action} -> {board,
  next, ended}: the engine's own rules, for the tests that hold them against ours.
A failed request answers {error}; end of input ends the process.

Before its first answer (`{"ready": ...}`) it compiles the engine's numba code by searching a
few positions: the jit-compiled board class cannot be cached and takes some seconds (tens on a
loaded machine), which the referee must not count as thinking time.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, TextIO

# The network's own search settings, as its checkpoint (azul/pretrained.pt) records them and
# its pit.py reads them: exploration 0.5, first-play urgency 0.05 below the parent's value,
# forced playouts, one "universe" (one fixed draw of the tiles at each round's end).
SETTINGS = {
    "cpuct": 0.5,
    "fpu": 0.05,
    "forced_playouts": True,
    "universes": 1,
    "numMCTSSims": 0,  # unused: the clock decides (think)
    "prob_fullMCTS": 1.0,
    "no_mem_optim": False,
}
WARM_UP_MOVES = 4  # positions searched before answering `ready`, both seats to move
WARM_UP_SEARCHES = 8  # simulations at each


class Settings(dict[str, Any]):
    """Their MCTS reads its settings as attributes (their utils.dotdict)."""

    def __getattr__(self, name: str) -> Any:
        return self[name]


class OnnxNet:
    """The network as their MCTS calls it (`predict(board, valid)` -> policy, values): the
    ONNX export of azul/pretrained.pt, on one CPU thread, as their GenericNNetWrapper runs it."""

    def __init__(self, path: Path) -> None:
        import numpy as np

        ort = importlib.import_module("onnxruntime")  # the scratch environment's only
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        self.np = np
        self.session = ort.InferenceSession(
            str(path), sess_options=options, providers=["CPUExecutionProvider"]
        )

    def predict(self, board: Any, valid: Any) -> tuple[Any, Any]:
        np = self.np
        pi, v = self.session.run(
            None,
            {
                "board": board.astype(np.float32)[None],
                "valid_actions": np.asarray(valid, dtype=np.bool_)[None],
            },
        )
        return np.exp(pi[0]), v[0]  # the network's policy is log-softmax


class Engine:
    """Their game, MCTS and network, one tree per game."""

    def __init__(self, engine_dir: Path, model: Path) -> None:
        sys.path.insert(0, str(engine_dir))  # their modules import each other from its root
        import numpy as np

        self.np = np
        self.mcts_module = importlib.import_module("MCTS")
        self.game = importlib.import_module("azul.AzulGame").AzulGame()
        self.net = OnnxNet(model)
        self.settings = Settings(SETTINGS)
        self.new_game()

    def new_game(self) -> None:
        self.mcts = self.mcts_module.MCTS(self.game, self.net, self.settings)
        self.round = 0

    def board(self, rows: list[list[int]]) -> Any:
        board = self.np.array(rows, dtype=self.np.int8)
        if board.shape != tuple(self.game.getBoardSize()):
            raise ValueError(f"a board is {self.game.getBoardSize()}, not {board.shape}")
        return board

    def _forget_past_rounds(self, round_number: int) -> None:
        """Drop the nodes of rounds before this one: the round is part of a node's board, so
        they cannot be reached again. (Their own clean-up waits 20 rounds, more than a game.)"""
        if round_number == self.round:
            return
        self.round = round_number
        nodes = self.mcts.nodes_data
        for key in [k for k, node in nodes.items() if node[6] < round_number]:
            del nodes[key]

    def think(self, rows: list[list[int]], player: int, deadline: float) -> dict[str, Any]:
        canonical = self.game.getCanonicalForm(self.board(rows), player)
        self._forget_past_rounds(int(self.game.getRound(canonical)))
        mcts, seeds = self.mcts, self.mcts_module.magic_seeds
        universes = self.settings.universes
        steps = 0
        # As their MCTS.getActionProb, with the clock in place of a number of simulations: the
        # step number drives the forced playouts, the seed the tiles drawn at a round's end.
        # Two at least: the first may only expand the root.
        while steps < 2 or time.monotonic() < deadline:
            mcts.step = steps
            mcts.random_seed = seeds[steps % universes] if universes > 0 else -1
            mcts.search(canonical, dirichlet_noise=False, forced_playouts=True)
            steps += 1
        counts = mcts.nodes_data[self.game.stringRepresentation(canonical)][5]
        return {"action": int(self.np.argmax(counts)), "simulations": steps}

    def legal(self, rows: list[list[int]], player: int) -> dict[str, Any]:
        valid = self.game.getValidMoves(self.board(rows), player)
        return {"legal": [int(a) for a in self.np.flatnonzero(valid)]}

    def apply(self, rows: list[list[int]], player: int, action: int) -> dict[str, Any]:
        board, following = self.game.getNextState(self.board(rows), player, action)
        ended = self.game.getGameEnded(board, 0)
        return {"board": board.tolist(), "next": int(following), "ended": ended.tolist()}

    def warm_up(self) -> None:
        """Compile their numba code: searches from both seats, rounds' ends included (the
        search plays past them), then a fresh tree."""
        board, player = self.game.getInitBoard(), 0
        for _ in range(WARM_UP_MOVES):
            canonical = self.game.getCanonicalForm(board, player)
            for step in range(WARM_UP_SEARCHES):
                self.mcts.step = step
                self.mcts.search(canonical, forced_playouts=True)
            action = int(self.np.flatnonzero(self.game.getValidMoves(board, player))[0])
            board, player = self.game.getNextState(board, player, action)
            self.game.getGameEnded(board, 0)
        self.new_game()


def serve(engine: Engine, requests: TextIO, answers: TextIO) -> None:
    for line in requests:
        try:
            request = json.loads(line)
            op = request.get("op")
            if op == "think":
                answer = engine.think(request["board"], request["player"], request["deadline"])
            elif op == "new_game":
                engine.new_game()
                answer = {}
            elif op == "legal":
                answer = engine.legal(request["board"], request["player"])
            elif op == "apply":
                answer = engine.apply(request["board"], request["player"], request["action"])
            else:
                answer = {"error": f"unknown request {op!r}"}
        except Exception as exc:  # the adapter reports it: a broken request is its fault
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="alpha-zero-general's checkout")
    parser.add_argument("--model", required=True, help="azul/pretrained.pt exported to ONNX")
    args = parser.parse_args()
    # The answers get the real stdout; whatever their code prints goes to stderr (the log).
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    began = time.monotonic()
    engine = Engine(Path(args.engine), Path(args.model))
    engine.warm_up()
    answers.write(json.dumps({"ready": round(time.monotonic() - began, 2)}) + "\n")
    answers.flush()
    serve(engine, sys.stdin, answers)


if __name__ == "__main__":
    main()
