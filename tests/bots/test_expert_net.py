"""The expert's value network (`learned.net_value`, `expert:net=1`) and its training pipeline
(`python -m bots.expert.train`)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bots.expert import ExpertBot
from bots.expert.learned import NET_INPUTS, features, net_forward, net_inputs, net_value
from bots.expert.values import leaf_values, rounds_left, use_net
from bots.greedy_bot import GreedyBot
from referee.engine import new_game
from sdk.local import play_local


def _round_starts(seed: int, count: int) -> list[Any]:
    """Positions at a round's start (the network's leaves) of a random classic game."""
    game, rng = new_game("azul", players=2, seed=seed), random.Random(seed)
    out: list[Any] = []
    current = game.round
    while not game.is_over() and len(out) < count:
        if game.round != current:
            current = game.round
            out.append(game.copy())
        game.push(rng.choice(game.legal_moves()))
    return out


def _boards(game: Any) -> list[tuple[int, list[tuple[int, int]], bool, int]]:
    out = []
    for seat in range(2):
        b = 5 * seat
        pairs = zip(game._line_colour[b : b + 5], game._line_count[b : b + 5], strict=True)
        lines = [(c, n) if n else (-1, 0) for c, n in pairs]
        out.append((game._wall[seat], lines, game.turn == seat, rounds_left(game._wall)))
    return out


def test_the_inputs_read_the_wall_the_lines_aims_and_the_rounds_left() -> None:
    wall = 1 << 0 | 1 << 6  # row 0 column 0, row 1 column 1
    lines = [(-1, 0), (-1, 0), (2, 2), (-1, 0), (-1, 0)]  # 2 of 3 tiles of colour 2 in row 2
    x = net_inputs(wall, lines, True, 2)
    assert len(x) == NET_INPUTS
    blocks, cells, aims, hot = x[:68], x[68:93], x[93:118], x[118:]
    assert [i for i, v in enumerate(cells) if v] == [0, 6]
    assert aims[5 * 2 + (2 + 2) % 5] == pytest.approx(2 / 3) and sum(aims) == pytest.approx(2 / 3)
    assert hot == [0.0, 1.0, 0.0, 0.0]
    # The hand-made features (the bias dropped) in the block of 2 rounds left, the rest 0.
    assert blocks[17:34] == features(wall, lines, True)[1:]
    assert not any(blocks[:17] + blocks[34:])
    assert blocks[17 + 16] == 1.0  # the first-player marker (learned.NAMES' `starts`)


def test_the_forward_pass_is_numpys_on_the_shipped_weights() -> None:
    """The bot's plain-Python pass, sparse over the inputs, against a dense numpy reference
    on real boards of random games and on random inputs."""
    np = pytest.importorskip("numpy")
    from bots.expert import learned, net_weights

    w1, b1 = np.array(net_weights.W1), np.array(net_weights.B1)
    w2, b2 = np.array(net_weights.W2), net_weights.B2
    assert w1.shape == (NET_INPUTS, len(b1) + 1) and w2.shape == b1.shape

    def reference(x: list[float]) -> float:  # the hidden layer, and the linear term (W1[:, -1])
        dense = np.array(x) @ w1
        return float(np.maximum(0.0, dense[:-1] + b1) @ w2 + dense[-1] + b2)

    inputs = [net_inputs(*board) for game in _round_starts(3, 4) for board in _boards(game)]
    rng = random.Random(2)
    inputs += [[rng.choice((0.0, 0.0, 1.0, rng.uniform(-3, 3))) for _ in range(NET_INPUTS)]]
    outputs = [reference(x) for x in inputs]
    assert len(set(outputs)) > 4  # trained weights: the boards are told apart
    for x, want in zip(inputs, outputs, strict=True):
        assert net_forward(x, learned._W1, learned._B1, learned._W2, learned._B2) == (
            pytest.approx(want, rel=1e-9, abs=1e-9)
        )


def test_with_the_network_a_leaf_is_the_score_after_tiling_plus_its_future() -> None:
    games = _round_starts(11, 3)
    try:
        for game in games:
            use_net(True)
            with_net = leaf_values(game)
            use_net(False)
            linear = leaf_values(game)
            for seat, board in enumerate(_boards(game)):
                assert with_net[seat] == pytest.approx(game.scores[seat] + net_value(*board))
            assert with_net != linear
    finally:
        use_net(False)


def test_the_network_bot_is_deterministic_at_a_fixed_budget_and_plays_its_own_moves() -> None:
    def moves(net: int | None) -> list[str]:
        bots = [ExpertBot(seed=5, iterations=60, net=net), GreedyBot(seed=5)]
        return play_local(bots, ruleset="azul", seed=9, time_per_move=5.0).moves

    with_net = moves(1)
    assert with_net == moves(1)
    assert with_net == moves(None)  # the default in 2-player classic Azul: the network's
    assert with_net != moves(0)  # the option changes the values the search sees


def test_the_option_refuses_values_other_than_1() -> None:
    with pytest.raises(ValueError, match="net=2"):
        ExpertBot(net=2)


def test_the_training_is_resumable_and_deterministic_for_a_seed(tmp_path: Any) -> None:
    """Two tiny runs from nothing give the same weights; a rerun on the first's folder plays
    and fits nothing again (its chunks and checkpoint are reused) and writes them too."""
    import importlib.util
    import subprocess
    import sys

    pytest.importorskip("numpy")

    def train(folder: str, out: str) -> str:
        command = [sys.executable, "-m", "bots.expert.train", "--games", "4", "--chunk", "2"]
        command += ["--iterations", "15", "--epochs", "2", "--holdout", "4", "--workers", "1"]
        command += ["--hidden", "8", "--generations", "1"]
        command += ["--dir", str(tmp_path / folder), "--out", str(tmp_path / out)]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        return done.stdout

    first = train("a", "a.py")
    assert "games 0-1" in first and "games 2-3" in first and "epoch 2" in first
    assert "linear fit, held out" in first
    train("b", "b.py")
    again = train("a", "c.py")
    assert "games 0-1" not in again and "epoch 1:" not in again  # resumed: all done already

    def weights(name: str) -> tuple[Any, ...]:
        spec = importlib.util.spec_from_file_location(name[:-3], tmp_path / name)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        assert len(module.W1) == NET_INPUTS and len(module.W1[0]) == 9 and len(module.B1) == 8
        return module.W1, module.B1, module.W2, module.B2

    assert weights("a.py") == weights("b.py") == weights("c.py")


def test_other_weights_loaded_value_the_leaves_until_the_shipped_are_back() -> None:
    """`values.load_net`: the network's values follow the weights loaded, the board values
    cached under the old ones forgotten (a leaf valued before is valued afresh)."""
    from bots.expert import learned, net_weights
    from bots.expert.values import load_net

    shipped = ([list(r) for r in net_weights.W1], list(net_weights.B1), list(net_weights.W2))
    game = _round_starts(4, 2)[-1]
    boards = _boards(game)
    try:
        use_net(True)
        before = leaf_values(game)
        load_net(*shipped[:2], [2 * v for v in shipped[2]], net_weights.B2 + 5.0)
        assert learned._W2 == [2 * v for v in net_weights.W2]
        doubled = leaf_values(game)
        for seat, board in enumerate(boards):
            assert doubled[seat] == pytest.approx(game.scores[seat] + net_value(*board))
        assert doubled != before
        load_net(*shipped, net_weights.B2)
        assert leaf_values(game) == before
    finally:
        load_net(*shipped, net_weights.B2)
        use_net(False)


def test_a_second_generation_plays_with_the_first_networks_weights(tmp_path: Any) -> None:
    """`--generations 2`: the second self-play is `expert:net=1` valuing by the first
    generation's network as written (its hash names the games), reproducible from nothing and
    resumable."""
    import importlib.util
    import subprocess
    import sys

    pytest.importorskip("numpy")
    from bots.expert.train import tag

    def train(folder: str, out: str, generations: int) -> str:
        command = [sys.executable, "-m", "bots.expert.train", "--games", "4", "--chunk", "2"]
        command += ["--iterations", "12", "--epochs", "2", "--holdout", "4", "--workers", "1"]
        command += ["--hidden", "4", "--generations", str(generations)]
        command += ["--dir", str(tmp_path / folder), "--out", str(tmp_path / out)]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        return done.stdout

    def weights(name: str) -> dict[str, Any]:
        spec = importlib.util.spec_from_file_location(name[:-3], tmp_path / name)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return {"w1": module.W1, "b1": module.B1, "w2": module.W2, "b2": module.B2}

    second = train("a", "a2.py", 2)
    first = train("a", "a1.py", 1)  # the first generation alone: all on disk already
    assert "games 0-1" not in first and "epoch 1:" not in first
    played_by = tag(weights("a1.py"))
    assert f"generation 2: self-play with network {played_by}" in second
    assert len(list((tmp_path / "a").glob(f"games-{played_by}-12-*.json"))) == 2
    assert weights("a2.py") != weights("a1.py")
    assert "generation(s) of 4 games of expert:iterations=12,net=1" in (
        (tmp_path / "a2.py").read_text().replace("\n", " ")
    )
    again = train("a", "a3.py", 2)
    assert "games 0-1" not in again and "epoch 1:" not in again  # resumed: all done already
    train("b", "b2.py", 2)
    assert weights("a2.py") == weights("b2.py") == weights("a3.py")
