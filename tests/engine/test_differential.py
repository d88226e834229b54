"""Differential tests: the project engine against the independent oracle (tests/engine/oracle.py).

Every game is played in the engine with a seeded random.Random (uniform, or biased towards
"sensible" moves so that games reach full walls and end bonuses), then its record is replayed
in the oracle step by step next to a second engine game with the same seed. At every step the
sets of legal moves (notation), the public states (docs/engine.md format, bag and lid included)
and, after every round, the round scores are compared; at the end the final scores and ranks.
The first difference fails the test with its full context.

A second group feeds hand-made records (built by the oracle with chosen deals and moves) to
both: bag running out mid-deal, floor overflow, the marker on a full floor, nobody taking from
the centre, gray-wall column choices and dead ends.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from referee.engine import ClassicGame, new_game
from tests.engine.oracle import (
    COLOURS,
    DEAL,
    FACTORY_COUNT,
    OVER,
    RULESETS,
    TAKE,
    OracleError,
    OracleGame,
    sort_tiles,
)

PLAYER_COUNTS = (2, 3, 4)
FAST_SEEDS = range(10)  # x 2 policies x 4 rulesets x 3 player counts = 240 games
SLOW_SEEDS = range(10, 160)


class Difference(AssertionError):
    pass


# ---------------------------------------------------------------------------- policies ----


def _uniform(rng: random.Random, game, moves: list[str]) -> str:
    return rng.choice(moves)


def _sensible(rng: random.Random, game, moves: list[str]) -> str:
    """Prefer pattern lines over the floor, completing lines, little overflow; some noise."""
    if game.phase != TAKE and game.phase != "take":
        return rng.choice(moves)
    if rng.random() < 0.1:
        return rng.choice(moves)
    state = game.to_state()
    board = state["boards"][state["turn"]]
    sources = {str(i + 1): f for i, f in enumerate(state["factories"])}
    sources["C"] = state["centre"]
    best, best_value = [], None
    for move in moves:
        source, colour, dest = move[0], move[1], move[2]
        count = sources[source].count(colour)
        if dest == "F":
            value = -20 - count
        else:
            line = int(dest) - 1
            room = line + 1 - len(board["lines"][line])
            placed = min(room, count)
            overflow = count - placed
            value = 2 * placed + (4 if placed == room else 0) - 3 * overflow + line * 0.1
        if source == "C" and state["marker_in_centre"]:
            value -= 1
        if best_value is None or value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return rng.choice(best)


POLICIES = {"uniform": _uniform, "sensible": _sensible}


def play_engine_game(ruleset: str, players: int, seed: int, policy: str, first_player: int = 0):
    game = new_game(ruleset, players=players, seed=seed, first_player=first_player)
    rng = random.Random(f"{ruleset}/{players}/{seed}/{policy}")
    choose = POLICIES[policy]
    while not game.is_over():
        moves = [str(m) for m in game.legal_moves()]
        game.push_notation(choose(rng, game, moves))
    return game


# ---------------------------------------------------------------------------- comparing ---


def _normalise_state(state: dict) -> dict:
    """Letters in colour order where the format leaves the order free."""
    state = json.loads(json.dumps(state))
    state["factories"] = [sort_tiles(f) for f in state["factories"]]
    for key in ("centre", "bag", "lid"):
        state[key] = sort_tiles(state[key])
    for board in state["boards"]:
        board["floor"] = sort_tiles(board["floor"])
    return state


def _state_diff(engine_state: dict, oracle_state: dict) -> list[str]:
    diffs = []
    for key in sorted(set(engine_state) | set(oracle_state)):
        if key == "boards":
            continue
        if engine_state.get(key) != oracle_state.get(key):
            diffs.append(
                f"{key}: engine {engine_state.get(key)!r} oracle {oracle_state.get(key)!r}"
            )
    for seat, (eb, ob) in enumerate(
        zip(engine_state["boards"], oracle_state["boards"], strict=True)
    ):
        for key in sorted(set(eb) | set(ob)):
            if eb.get(key) != ob.get(key):
                diffs.append(f"seat {seat} {key}: engine {eb.get(key)!r} oracle {ob.get(key)!r}")
    return diffs


def _context(label: str, record: dict, rnd: int, move_no: int, move, engine, oracle) -> str:
    return (
        f"{label}: round {rnd}, move {move_no} (next/last move {move!r}), engine phase "
        f"{engine.phase} turn {engine.turn}, oracle phase {oracle.phase} turn {oracle.turn}\n"
        f"engine state: {json.dumps(engine.to_state())}\n"
        f"oracle state: {json.dumps(oracle.to_state())}\n"
        f"record: {json.dumps(record)}"
    )


ALL_TAKES = [f"{s}{c}{d}" for s in "123456789C" for c in COLOURS for d in "12345F"]
ALL_COLUMN_CHOICES = [f"{line}@{col}" for line in "12345" for col in "12345"]


def check_illegal_refused(label, record, rnd, move_no, engine, oracle) -> None:
    """Every notation the oracle finds illegal must be refused by the engine's push."""
    from referee.engine import EngineError

    legal = oracle.legal_moves()
    for text in ALL_TAKES + ALL_COLUMN_CHOICES:
        if text in legal:
            continue
        try:
            engine.push_notation(text)
        except EngineError:
            continue
        raise Difference(
            f"engine accepted {text!r}, illegal per the oracle\n"
            + _context(label, record, rnd, move_no, text, engine, oracle)
        )


def compare_step(
    label, record, rnd, move_no, move, engine, oracle, compare_states=True, check_illegal=False
):
    engine_moves = {str(m) for m in engine.legal_moves()}
    oracle_moves = oracle.legal_moves()
    if check_illegal:
        check_illegal_refused(label, record, rnd, move_no, engine, oracle)
    if engine_moves != oracle_moves:
        raise Difference(
            f"legal moves differ\n  only engine: {sorted(engine_moves - oracle_moves)}\n"
            f"  only oracle: {sorted(oracle_moves - engine_moves)}\n"
            + _context(label, record, rnd, move_no, move, engine, oracle)
        )
    if engine.is_over() != oracle.is_over():
        raise Difference(
            f"is_over differs: engine {engine.is_over()} oracle {oracle.is_over()} "
            f"(oracle end reason {oracle.end_reason})\n"
            + _context(label, record, rnd, move_no, move, engine, oracle)
        )
    if list(map(list, engine.round_scores)) != list(map(list, oracle.round_scores)):
        raise Difference(
            f"round scores differ: engine {engine.round_scores} "
            f"oracle {oracle.round_scores}\n"
            + _context(label, record, rnd, move_no, move, engine, oracle)
        )
    if tuple(engine.scores) != tuple(oracle.scores):
        raise Difference(
            f"scores differ: engine {engine.scores} oracle {oracle.scores}\n"
            + _context(label, record, rnd, move_no, move, engine, oracle)
        )
    if compare_states:
        engine_state = _normalise_state(engine.to_state())
        oracle_state = _normalise_state(oracle.to_state())
        if oracle.is_over():
            # not specified once the game is over: whose turn it is, where the marker is
            for state in (engine_state, oracle_state):
                state["turn"] = None
                for board in state["boards"]:
                    board["has_marker"] = None
        diffs = _state_diff(engine_state, oracle_state)
        if diffs:
            raise Difference(
                "states differ:\n  "
                + "\n  ".join(diffs)
                + "\n"
                + _context(label, record, rnd, move_no, move, engine, oracle)
            )


def replay_and_compare(
    record: dict, engine_factory, label: str, check_illegal: bool = False
) -> tuple[OracleGame, int]:
    """Replay `record` in the oracle next to a fresh engine game from `engine_factory()`
    (which must deal the same factories); compare at every step. Returns (oracle, positions)."""
    players = record["players"] if isinstance(record["players"], int) else len(record["players"])
    deals = [r["factories"] for r in record["rounds"]]
    oracle = OracleGame(record["ruleset"], players, record.get("first_player", 0), deals)
    engine = engine_factory()
    positions = 0
    move_no = 0
    for rnd_index, rnd in enumerate(record["rounds"], start=1):
        for move in rnd["moves"]:
            compare_step(
                label, record, rnd_index, move_no, move, engine, oracle, check_illegal=check_illegal
            )
            positions += 1
            engine.push_notation(move)
            oracle.push(move)
            move_no += 1
    compare_step(label, record, len(record["rounds"]), move_no, None, engine, oracle)
    positions += 1
    if not oracle.is_over():
        raise Difference(
            f"record ends but the oracle's game is not over (phase {oracle.phase})\n"
            + _context(label, record, len(record["rounds"]), move_no, None, engine, oracle)
        )
    if tuple(engine.ranks()) != tuple(oracle.ranks()):
        raise Difference(
            f"ranks differ: engine {engine.ranks()} oracle {oracle.ranks()}\n"
            + _context(label, record, len(record["rounds"]), move_no, None, engine, oracle)
        )
    final = record.get("final_scores")
    if final is not None and list(final) != list(oracle.scores):
        raise Difference(
            f"record final_scores {final} != oracle {oracle.scores}\n"
            + _context(label, record, len(record["rounds"]), move_no, None, engine, oracle)
        )
    if "round_scores" in record and list(map(list, record["round_scores"])) != list(
        map(list, oracle.round_scores)
    ):
        raise Difference(
            f"record round_scores {record['round_scores']} != oracle {oracle.round_scores}"
        )
    return oracle, positions


def run_seed(
    ruleset: str, players: int, seed: int, policy: str, check_illegal: bool = False
) -> tuple[OracleGame, int]:
    game = play_engine_game(ruleset, players, seed, policy)
    record = game.record()
    label = f"{ruleset} {players}p seed={seed} policy={policy}"
    oracle, positions = replay_and_compare(
        record, lambda: new_game(ruleset, players=players, seed=seed), label, check_illegal
    )
    assert list(game.scores) == list(oracle.scores), label
    return oracle, positions


def _run_many(ruleset: str, players: int, seeds) -> dict:
    stats = Counter()
    for seed in seeds:
        for policy in POLICIES:
            oracle, positions = run_seed(ruleset, players, seed, policy)
            stats["games"] += 1
            stats["positions"] += positions
            stats[f"end: {oracle.end_reason}"] += 1
            stats["full columns"] += sum(b.complete_columns() for b in oracle.boards)
            stats["full colours"] += sum(b.complete_colours() for b in oracle.boards)
            stats["lid pours"] += oracle.lid_pours
            stats["gray lines to floor"] += oracle.gray_lines_to_floor
            stats["gray auto-placed"] += oracle.gray_auto_placed
            stats["marker on full floor"] += oracle.marker_on_full_floor
    return stats


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_engine_matches_oracle(ruleset: str, players: int) -> None:
    stats = _run_many(ruleset, players, FAST_SEEDS)
    assert stats["games"] == 2 * len(FAST_SEEDS)
    # the sensible policy must reach real endings, not only floor-heavy random play
    assert stats["end: complete row"] + stats["end: gray dead end"] >= len(FAST_SEEDS)


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_engine_matches_oracle_many_seeds(ruleset: str, players: int) -> None:
    _run_many(ruleset, players, SLOW_SEEDS)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_engine_refuses_what_the_oracle_finds_illegal(ruleset: str, players: int) -> None:
    """push() of every notation outside the oracle's legal set raises (is_legal agrees)."""
    for policy in POLICIES:
        run_seed(ruleset, players, 100, policy, check_illegal=True)


@pytest.mark.parametrize("first_player", [1, 2])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_engine_matches_oracle_other_first_player(ruleset: str, first_player: int) -> None:
    for seed in range(3):
        for policy in POLICIES:
            game = play_engine_game(ruleset, 3, seed, policy, first_player=first_player)
            record = game.record()
            assert record["first_player"] == first_player
            replay_and_compare(
                record,
                lambda s=seed: new_game(ruleset, players=3, seed=s, first_player=first_player),
                f"{ruleset} 3p seed={seed} first_player={first_player} policy={policy}",
            )


# ---------------------------------------------------------------------------- hand-made ---


def sorted_deal(oracle: OracleGame) -> list[str]:
    """Draw the bag in colour order (then the lid, poured in when the bag runs out)."""
    bag = list(sort_tiles(oracle.bag.elements()))
    lid = list(sort_tiles(oracle.lid.elements()))
    factories = []
    for _ in range(oracle.factory_count):
        f = []
        while len(f) < 4:
            if not bag:
                bag, lid = lid, []
                if not bag:
                    break
            f.append(bag.pop(0))
        factories.append("".join(f))
    return factories


def build_record(
    ruleset: str, players: int, deal_fn, move_fn, first_player: int = 0, max_rounds: int = 40
) -> tuple[dict, OracleGame]:
    """Play a game in the oracle with chosen deals and moves; return its record."""
    oracle = OracleGame(ruleset, players, first_player)
    rounds: list[dict] = []
    while not oracle.is_over():
        if oracle.phase == DEAL:
            if len(rounds) >= max_rounds:
                break  # an unfinished game: its record ends before the next deal
            deal = deal_fn(oracle, len(rounds) + 1)
            rounds.append({"factories": deal, "moves": []})
            oracle.add_deal(deal)
            continue
        move = move_fn(oracle, sorted(oracle.legal_moves()))
        rounds[-1]["moves"].append(move)
        oracle.push(move)
    record = {
        "format": "azul-arena/record/1",
        "ruleset": ruleset,
        "players": players,
        "first_player": first_player,
        "rounds": rounds,
    }
    if oracle.is_over():
        record["final_scores"] = list(oracle.scores)
    return record, oracle


def engine_replay_stepwise(record: dict, label: str) -> tuple[OracleGame, int]:
    """Compare the engine replaying `record` with the oracle at every step. The engine has no
    public way to start from given deals other than a record, so it is rebuilt from the record
    truncated at the start of each round, then played move by move."""
    players = record["players"]
    deals = [r["factories"] for r in record["rounds"]]
    oracle = OracleGame(record["ruleset"], players, record["first_player"], deals)
    positions = 0
    move_no = 0

    def truncated(rounds_done: int, moves_in_round: int) -> dict:
        rounds = [dict(r) for r in record["rounds"][: rounds_done + 1]]
        rounds[-1] = {
            "factories": rounds[-1]["factories"],
            "moves": rounds[-1]["moves"][:moves_in_round],
        }
        partial = {k: v for k, v in record.items() if k not in ("final_scores", "round_scores")}
        partial["rounds"] = rounds
        return partial

    for rnd_index, rnd in enumerate(record["rounds"]):
        # rebuilt at every round start (the engine would deal the next round from its own seed)
        engine = ClassicGame.from_record(truncated(rnd_index, 0))
        for move in rnd["moves"]:
            compare_step(label, record, rnd_index + 1, move_no, move, engine, oracle)
            positions += 1
            engine.push_notation(move)
            oracle.push(move)
            move_no += 1
    engine = ClassicGame.from_record(record)
    if oracle.phase == DEAL:
        # an unfinished record: the engine dealt the next round itself; the oracle checks that
        # deal against its bag and lid
        oracle.add_deal(engine.record()["rounds"][-1]["factories"])
    compare_step(label, record, len(record["rounds"]), move_no, None, engine, oracle)
    if oracle.is_over():
        assert tuple(engine.ranks()) == tuple(oracle.ranks()), (
            label,
            engine.ranks(),
            oracle.ranks(),
        )
    return oracle, positions + 1


def _first(oracle, moves):
    return moves[0]


def _prefer(*patterns):
    """Move chooser: the first legal move matching a predicate in order, else sensible."""

    def choose(oracle, moves):
        for pattern in patterns:
            hits = [m for m in moves if pattern(oracle, m)]
            if hits:
                return hits[0]
        return _oracle_sensible(oracle, moves)

    return choose


def _oracle_sensible(oracle: OracleGame, moves: list[str]) -> str:
    if oracle.phase != TAKE:
        return moves[-1]
    board = oracle.boards[oracle.turn]
    best, best_value = moves[0], None
    for move in moves:
        source, colour, dest = move
        tiles = oracle.centre if source == "C" else oracle.factories[int(source) - 1]
        count = tiles.count(colour)
        if dest == "F":
            value = -20 - count
        else:
            line = int(dest) - 1
            room = line + 1 - len(board.lines[line])
            placed = min(room, count)
            value = 2 * placed + (4 if placed == room else 0) - 3 * (count - placed)
        if best_value is None or value > best_value:
            best, best_value = move, value
    return best


def test_handmade_bag_runs_out_mid_deal() -> None:
    """4 players deal 36 tiles a round: round 3 empties the bag inside a factory and must pour
    the lid into the bag; later rounds keep cycling tiles through bag and lid."""
    record, oracle = build_record(
        "azul", 4, lambda o, r: sorted_deal(o), lambda o, m: _oracle_sensible(o, m)
    )
    assert oracle.lid_pours >= 1
    deal3 = record["rounds"][2]["factories"]
    assert all(len(f) == 4 for f in deal3)
    engine_replay_stepwise(record, "hand-made: bag runs out mid-deal")


def _hoard_value(oracle: OracleGame, move: str) -> int:
    board = oracle.boards[oracle.turn]
    source, colour, dest = move
    tiles = oracle.centre if source == "C" else oracle.factories[int(source) - 1]
    count = tiles.count(colour)
    if dest == "F":
        return -100 - count
    line = int(dest) - 1
    room = line + 1 - len(board.lines[line])
    placed = min(room, count)
    row_tiles = sum(1 for t in board.wall[line] if t is not None)
    if placed == room and row_tiles >= 4:
        return -200 - count  # would complete a wall row (end the game): never
    return 10 * placed - 5 * (count - placed) - line


def test_handmade_bag_and_lid_run_out() -> None:
    """4 players hoard tiles on their walls (never completing a row) and on pattern lines they
    cannot complete: the bag and the lid run dry, and round after round the factories are dealt
    short (some partly filled, the rest empty) from the few tiles that still cycle."""
    rng = random.Random(5)

    def hoard(oracle, moves):
        good = [m for m in moves if _hoard_value(oracle, m) > -100]
        if good and rng.random() < 0.3:
            return rng.choice(good)
        return max(moves, key=lambda m: _hoard_value(oracle, m))

    record, _oracle = build_record("azul", 4, _random_deal_fn(5), hoard, max_rounds=25)
    short_rounds = [
        i for i, r in enumerate(record["rounds"]) if any(len(f) < 4 for f in r["factories"])
    ]
    assert len(short_rounds) >= 5, short_rounds
    assert any(not f for r in record["rounds"] for f in r["factories"])
    engine_replay_stepwise(record, "hand-made: bag and lid run out")


def _floor_then_centre(threshold: int):
    """Everything to the floor, taking the most tiles from factories; the first to take from
    the centre does so once their floor holds `threshold` or more tiles (6: the marker takes the
    last space and the turn's tiles all go to the lid; 7: the marker finds the floor full)."""

    def choose(oracle, moves):
        floor = len(oracle.boards[oracle.turn].floor)
        centre_floor = [m for m in moves if m[0] == "C" and m.endswith("F")]
        if oracle.marker_in_centre and centre_floor and floor >= threshold:
            return max(centre_floor, key=lambda m: oracle.centre.count(m[1]))
        factory_floor = [m for m in moves if m[0] != "C" and m.endswith("F")]
        if factory_floor:
            return max(factory_floor, key=lambda m: oracle.factories[int(m[0]) - 1].count(m[1]))
        return centre_floor[0]

    return choose


def test_handmade_floor_overflow_and_marker_on_full_floor() -> None:
    """Everything to the floor: floors overflow into the lid; the player who first takes from
    the centre usually has a full floor, so the marker costs nothing but they start next."""
    for players in PLAYER_COUNTS:
        for index, ruleset in enumerate(RULESETS):
            for threshold in (6, 7):
                record, oracle = build_record(
                    ruleset,
                    players,
                    _random_deal_fn(index),
                    _floor_then_centre(threshold),
                    max_rounds=4,
                )
                assert oracle.lid_pours >= 1 or players == 2
                engine_replay_stepwise(
                    record, f"hand-made: floor overflow {ruleset} {players}p >={threshold}"
                )


def _scripted(script: list[str], fallback=None):
    script = list(script)

    def choose(oracle, moves):
        if script:
            return script.pop(0)
        return (fallback or _oracle_sensible)(oracle, moves)

    return choose


def _first_deal_then_random(first: list[str], seed: int):
    later = _random_deal_fn(seed)
    return lambda oracle, rnd: first if rnd == 1 else later(oracle, rnd)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_handmade_marker_on_full_floor(ruleset: str) -> None:
    """Seat 1 fills its floor (7 tiles), then is first to take from the centre: the marker costs
    nothing (penalty 14, not more), its tile goes to the lid, and seat 1 starts round 2."""
    deal = ["BBBB", "YYYY", "RRRR", "KKKK", "WWWB"]
    script = ["1BF", "2YF", "3R3", "5WF", "4KF", "CBF"]
    if ruleset == "azul-gray":
        script.append("3@1")  # seat 0 chooses the wall column for its line 3
    record, oracle = build_record(ruleset, 2, _first_deal_then_random(deal, 1), _scripted(script))
    assert oracle.marker_on_full_floor == 1
    assert record["rounds"][1]["moves"][0][0] in "123456789C"
    check = OracleGame(ruleset, 2, 0, [r["factories"] for r in record["rounds"]])
    for move in script:
        check.push(move)
    assert check.round == 2 and check.turn == 1 and check.round_starter == 1
    # seat 0: line 3 (RRR, the 4th R to the floor) scores 1, floor BBBB R KK (2 K to the lid)
    # costs 14; seat 1: floor YYYY WWW costs 14, the marker nothing, its B goes to the lid
    assert check.round_scores == [(0, 0)]
    # lid: seat 0's floor 4 B 1 R 2 K + 2 K overflow + 2 R of line 3; seat 1's 4 Y 3 W + 1 B
    assert check.lid == Counter({"B": 5, "Y": 4, "R": 3, "K": 4, "W": 3})
    engine_replay_stepwise(record, f"hand-made: marker on a full floor ({ruleset})")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_handmade_marker_takes_last_floor_space(ruleset: str) -> None:
    """Seat 0 has 6 floor tiles and is first to take from the centre: the marker takes space 7
    (penalty 14) and the two tiles taken that turn go to the lid."""
    deal = ["BBBB", "YYYY", "RRKK", "WWWW", "BBYY"]
    script = ["1BF", "2YF", "3R5", "4WF", "CKF"]
    record, _oracle = build_record(ruleset, 2, _first_deal_then_random(deal, 2), _scripted(script))
    engine_replay_stepwise(record, f"hand-made: marker on the last floor space ({ruleset})")


def test_handmade_round_cap() -> None:
    """Everything to the floor, for ever: the game ends after round 50 (docs/engine.md)."""
    for players in PLAYER_COUNTS:
        record, oracle = build_record(
            "azul", players, _random_deal_fn(players), _floor_then_centre(7), max_rounds=60
        )
        assert oracle.end_reason == "round cap" and len(record["rounds"]) == 50
        engine_replay_stepwise(record, f"hand-made: round cap {players}p")


def test_handmade_nobody_takes_from_centre() -> None:
    """Colour-ordered deals start with single-colour factories (BBBB x 5): nobody takes from
    the centre in round 1, so the round-1 starter (seat 1) starts round 2 as well."""
    record, _oracle = build_record(
        "azul", 2, lambda o, r: sorted_deal(o), _oracle_sensible, first_player=1
    )
    assert all(f == "BBBB" for f in record["rounds"][0]["factories"])
    assert not any(m.startswith("C") for m in record["rounds"][0]["moves"])
    engine_replay_stepwise(record, "hand-made: nobody takes from the centre")


def _random_deal_fn(seed):
    rng = random.Random(seed)

    def deal(oracle, rnd):
        bag = list(sort_tiles(oracle.bag.elements()))
        lid = list(sort_tiles(oracle.lid.elements()))
        rng.shuffle(bag)
        rng.shuffle(lid)
        factories = []
        for _ in range(oracle.factory_count):
            f = []
            while len(f) < 4:
                if not bag:
                    bag, lid = lid, []
                    if not bag:
                        break
                f.append(bag.pop())
            factories.append("".join(f))
        return factories

    return deal


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_handmade_gray_wall_choices(players: int) -> None:
    """Gray wall: always the leftmost / rightmost legal column, and a deliberately bad chooser
    that blocks its own rows (dead ends, lines falling to the floor)."""

    def leftmost(oracle, moves):
        return _oracle_sensible(oracle, moves) if oracle.phase == TAKE else moves[0]

    def rightmost(oracle, moves):
        return _oracle_sensible(oracle, moves) if oracle.phase == TAKE else moves[-1]

    def diagonal_blocker(oracle, moves):
        # put every colour in the same column so rows soon cannot be completed
        if oracle.phase == TAKE:
            return _oracle_sensible(oracle, moves)
        return sorted(moves, key=lambda m: abs(int(m[0]) - int(m[2])))[-1]

    for chooser in (leftmost, rightmost, diagonal_blocker):
        for seed in range(3):
            record, _oracle = build_record("azul-gray", players, _random_deal_fn(seed), chooser)
            engine_replay_stepwise(
                record, f"hand-made gray {chooser.__name__} {players}p seed={seed}"
            )


def _gray_blocker(seed: int):
    """Gray wall: hoard-style takes (never completing a row) and the column choice that leaves
    the fewest completable rows: games that end in a gray-wall dead end."""
    rng = random.Random(seed)

    def choose(oracle, moves):
        if oracle.phase == TAKE:
            good = [m for m in moves if _hoard_value(oracle, m) > -100]
            if good and rng.random() < 0.3:
                return rng.choice(good)
            return max(moves, key=lambda m: _hoard_value(oracle, m))
        board = oracle.boards[oracle.pending.seat]
        line = oracle.pending.line
        colour = board.lines[line][0]
        best = None
        for move in moves:
            col = int(move[2]) - 1
            board.wall[line][col] = colour  # try it
            open_rows = sum(board.row_can_be_completed_gray(r) for r in range(5))
            board.wall[line][col] = None
            if best is None or open_rows < best[0]:
                best = (open_rows, move)
        return best[1]

    return choose


GRAY_DEAD_END_SEEDS = {2: (1, 13, 38), 3: (18, 25)}


@pytest.mark.parametrize(
    "players,seed", [(p, s) for p, seeds in GRAY_DEAD_END_SEEDS.items() for s in seeds]
)
def test_handmade_gray_dead_end(players: int, seed: int) -> None:
    """No player can complete any row any more after a wall-tiling: the game ends there, with
    the end bonuses (docs/engine.md decision)."""
    record, oracle = build_record(
        "azul-gray", players, _random_deal_fn(seed), _gray_blocker(seed), max_rounds=40
    )
    assert oracle.end_reason == "gray dead end"
    engine_replay_stepwise(record, f"hand-made: gray dead end {players}p seed={seed}")


def test_oracle_rejects_impossible_deals() -> None:
    with pytest.raises(OracleError, match="not in the bag"):
        OracleGame("azul", 3, 0, [["BBBB"] * 7])  # 28 blue tiles
    with pytest.raises(OracleError, match="short"):  # a short factory, tiles still in the bag
        OracleGame("azul", 2, 0, [["BBB", "BBBB", "BBBB", "BBBB", "BBBB"]])
    with pytest.raises(OracleError, match="factories"):
        OracleGame("azul", 2, 0, [["BBBB"] * 4])


def test_oracle_scoring_examples() -> None:
    """The rulebook's scoring examples, on the oracle's own board (a sanity check of the
    oracle itself)."""
    from tests.engine.oracle import Board

    board = Board()
    board.wall[2][2] = "R"
    assert board.score_placed_tile(2, 2) == 1
    board = Board()
    board.wall[0][0] = board.wall[0][1] = board.wall[0][2] = "B"
    assert board.score_placed_tile(0, 2) == 3
    board = Board()
    for col in range(4):
        board.wall[1][col] = "B"
    for row in range(3):
        board.wall[row][2] = "B"
    assert board.score_placed_tile(1, 2) == 4 + 3
    assert COLOURS == "BYRKW" and FACTORY_COUNT == {2: 5, 3: 7, 4: 9}
    assert OVER == "over"


# ---------------------------------------------------------------------------- positions ---


def play_from_state(state: dict, choose, label: str, max_rounds: int = 30) -> OracleGame:
    """Both sides start from the same public state (Game.from_state / OracleGame.from_state)
    and play the same moves; the engine deals later rounds, the oracle checks those deals."""
    from referee.engine import Game

    engine = Game.from_state(state, seed=1)
    oracle = OracleGame.from_state(state)
    record = {"from_state": state, "moves": []}
    move_no = 0
    while True:
        if oracle.phase == DEAL and not engine.is_over():
            if oracle.round >= state["round"] + max_rounds:
                break
            oracle.add_deal(engine.to_state()["factories"])
        compare_step(label, record, oracle.round, move_no, None, engine, oracle)
        if oracle.is_over():
            assert tuple(engine.ranks()) == tuple(oracle.ranks()), label
            return oracle
        move = choose(oracle, sorted(oracle.legal_moves()))
        record["moves"].append(move)
        engine.push_notation(move)
        oracle.push(move)
        move_no += 1
    return oracle


def _everything_to_floor(oracle, moves):
    return next(m for m in moves if m.endswith("F")) if oracle.phase == TAKE else moves[0]


def test_position_gray_dead_end_by_matching_only() -> None:
    """Gray wall: every row of both walls is blocked, rows 0-3 by a free space whose column
    holds every colour the row lacks, row 4 ("....Y") only as a whole: its free columns 0 and
    1 both already hold B Y R K, so both would need the one white tile. Each free space alone
    still has a possible colour, but the row cannot be completed, so after this round's
    wall-tiling nobody can complete a row: the game ends (docs/engine.md: gray wall dead end)."""
    wall = ["BY.WK", "YRK.W", "RKWB.", "KBRY.", "....Y"]
    empty_board = {"score": 20, "lines": [""] * 5, "wall": wall, "floor": "", "has_marker": False}
    state = {
        "ruleset": "azul-gray",
        "players": 2,
        "round": 6,
        "turn": 0,
        "phase": "take",
        "round_starter": 0,
        "factories": ["BBBB", "RRRR", "WWWW", "KKKK", "YYYY"],
        "centre": "",
        "marker_in_centre": True,
        "bag": "B" * 10 + "Y" * 8 + "R" * 10 + "K" * 8 + "W" * 10,
        "lid": "",
        "boards": [dict(empty_board), dict(empty_board, score=30)],
        "wall_line": None,
    }
    oracle = OracleGame.from_state(state)
    assert not any(oracle.boards[0].row_can_be_completed_gray(r) for r in range(5))
    assert all(oracle.boards[0].gray_columns(4, c) for c in "W")
    oracle = play_from_state(state, _everything_to_floor, "position: gray dead end (matching)")
    assert oracle.is_over() and oracle.end_reason == "gray dead end"
    assert oracle.round_scores == [(6, 16)]  # 12 and 8 tiles on full floors: -14 each


def test_position_gray_row_still_open() -> None:
    """The same walls, but seat 1's row 4 is "....." with column 1 holding only B Y R: the row
    can still be completed, so the game goes on."""
    blocked = ["BY.WK", "YRK.W", "RKWB.", "KBRY.", "....Y"]
    open_wall = ["BY.WK", "YRK.W", "RKWB.", "K.RY.", "....Y"]
    state = {
        "ruleset": "azul-gray",
        "players": 2,
        "round": 6,
        "turn": 0,
        "phase": "take",
        "round_starter": 0,
        "factories": ["BBBB", "RRRR", "WWWW", "KKKK", "YYYY"],
        "centre": "",
        "marker_in_centre": True,
        "bag": "B" * 11 + "Y" * 8 + "R" * 10 + "K" * 8 + "W" * 10,
        "lid": "",
        "boards": [
            {"score": 20, "lines": [""] * 5, "wall": blocked, "floor": "", "has_marker": False},
            {"score": 20, "lines": [""] * 5, "wall": open_wall, "floor": "", "has_marker": False},
        ],
        "wall_line": None,
    }
    oracle = play_from_state(
        state, _everything_to_floor, "position: gray row still open", max_rounds=1
    )
    assert oracle.end_reason != "gray dead end"


def _position(
    ruleset: str, walls: list[list[str]], scores: list[int], factories: list[str], round_no: int = 5
) -> dict:
    """A take-phase state with the given walls and scores, empty lines and floors, the
    marker in the centre; the bag holds every tile not on a wall or a factory."""
    used = Counter("".join(factories))
    for wall in walls:
        used.update(t for row in wall for t in row if t != ".")
    bag = Counter({c: 20 for c in COLOURS})
    bag.subtract(used)
    assert all(n >= 0 for n in bag.values())
    return {
        "ruleset": ruleset,
        "players": len(walls),
        "round": round_no,
        "turn": 0,
        "phase": "take",
        "round_starter": 0,
        "factories": factories,
        "centre": "",
        "marker_in_centre": True,
        "bag": sort_tiles(bag.elements()),
        "lid": "",
        "boards": [
            {"score": score, "lines": [""] * 5, "wall": wall, "floor": "", "has_marker": False}
            for wall, score in zip(walls, scores, strict=True)
        ],
        "wall_line": None,
    }


EMPTY_WALL = ["....."] * 5
ROW_WALL = ["BYRKW"] + ["....."] * 4


@pytest.mark.parametrize("ruleset", RULESETS)
def test_position_tie_broken_by_complete_rows(ruleset: str) -> None:
    """Both end on 18 (30 - 14 + 2 for the row, 32 - 14): the seat with the complete row wins."""
    walls = [ROW_WALL, EMPTY_WALL]
    state = _position(ruleset, walls, [30, 32], ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"])
    oracle = play_from_state(state, _everything_to_floor, f"position: tie-break ({ruleset})")
    assert oracle.scores == (18, 18) and oracle.ranks() == (1, 2)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_position_shared_rank(ruleset: str) -> None:
    """Two seats on 18 with one complete row each share rank 1; the third is ranked 3."""
    walls = [ROW_WALL, ROW_WALL, EMPTY_WALL]
    factories = ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW", "BBBB", "YYYY"]
    state = _position(ruleset, walls, [30, 30, 10], factories)
    oracle = play_from_state(state, _everything_to_floor, f"position: shared rank ({ruleset})")
    assert oracle.scores == (18, 18, 0) and oracle.ranks() == (1, 1, 3)


@pytest.mark.parametrize(
    "factories",
    [
        ["BBBB"] * 7,  # 28 blue tiles
        ["BBB", "BBBB", "BBBB", "BBBB", "YYYY", "YYYY", "YYYY"],  # short although the bag is full
    ],
)
def test_engine_and_oracle_both_reject_impossible_deals(factories: list[str]) -> None:
    from referee.engine import EngineError

    record = {
        "format": "azul-arena/record/1",
        "ruleset": "azul",
        "players": 3,
        "first_player": 0,
        "rounds": [{"factories": factories, "moves": []}],
    }
    with pytest.raises(OracleError):
        OracleGame("azul", 3, 0, [factories])
    with pytest.raises(EngineError):
        ClassicGame.from_record(record)
