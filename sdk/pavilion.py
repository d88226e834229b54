"""Evaluation helpers for Summer Pavilion (rulesets `pavilion` and `pavilion-mono`).

    from sdk.pavilion import evaluate, evaluate_all

    evaluate(state, me)      # a heuristic value of the position for seat `me`
    evaluate_all(state)      # the same for every seat

They read the public state (`state.to_state()`, the dict of docs/protocol.md), so they work on
any game of the family. The value is the score, plus what the game will still pay for what is
on the board and in hand:

- the end bonuses in progress: a star's full-star bonus (purple 20 ... centre 12) and the
  bonuses for covering every space numbered 1-4 (4, 8, 12, 16), credited by the square of how
  far along they are (the last spaces of a star are worth far more than the first);
- the tiles in hand: each can pay for a placement later in the round, this round's wild colour
  more than the others (it pays for any colour); kept tiles carry over to the next round (and
  cost -1 each after the last one);
- windows, statues and pillars one space from done: their bonus tiles are close.

`sdk.helpers.evaluate` and `evaluate_all` call these for a pavilion game, so a bot written on
them plays both families.
"""

from __future__ import annotations

from typing import Any

from sdk.family import FamilyHelpers

LETTERS = "PGOYBR"  # colour order: purple, green, orange, yellow, blue, red
# Stars by index: 0 the centre, then 1 purple, 2 orange, 3 red, 4 blue, 5 yellow, 6 green.
STAR_COLOURS = ("", "P", "O", "R", "B", "Y", "G")
# Full-star bonus by star index (centre 12, red 14, blue 15, yellow 16, orange 17, green 18,
# purple 20); on the monochrome board a star scores by the colour it was filled with.
STAR_BONUS = (12, 20, 17, 14, 15, 16, 18)
COLOUR_BONUS = {"P": 20, "G": 18, "O": 17, "Y": 16, "B": 15, "R": 14}
NUMBER_BONUS = (4, 8, 12, 16)  # covering space 1 / 2 / 3 / 4 of all seven stars
ROUNDS = 6


def _structures() -> tuple[tuple[tuple[tuple[int, int], ...], int], ...]:
    """Every window, statue and pillar: (the (star, space) pairs around it, bonus tiles).
    Spaces are 0-based here (space k+1 of the rules is k)."""
    out: list[tuple[tuple[tuple[int, int], ...], int]] = []
    for n in range(1, 7):
        nxt = n % 6 + 1
        out.append((((n, 4), (n, 5)), 3))  # window: spaces 5 and 6
        out.append((((n, 0), (n, 1), (nxt, 2), (nxt, 3)), 2))  # statue
        out.append((((n, 1), (n, 2), (0, (n + 3) % 6), (0, (n + 4) % 6)), 1))  # pillar
    return tuple(out)


STRUCTURES = _structures()

# Weights of the heuristic, in points.
PROGRESS = 0.6  # share of a bonus in progress credited (times its squared completion)
TILE = 0.45  # a tile in hand during the round
WILD_TILE = 0.75  # a tile of this round's wild colour
KEPT = 0.6  # a kept tile that will be used next round
# A kept tile by what it can buy next round (project_board's `next_round`): next round's wild
# colour pays for any placement; a colour with no space left on the seat's stars pays for none.
NEXT_WILD_KEPT = 1.0
DEAD_KEPT = 0.1
# The start-player token (`next_round`): its holder places first (first pick of the bonus tiles)
# and starts the next round's taking; taking it cost a point a tile, already in the score.
START_TOKEN = 1.5
NEAR_STRUCTURE = 0.35  # per bonus tile of a structure one space from done


def star_bonus(state: dict[str, Any], index: int, star: str) -> float:
    """The full-star bonus this star would pay."""
    if state.get("ruleset") != "pavilion-mono" or index == 0:
        return STAR_BONUS[index]
    tiles = {c for c in star if c != "."}
    if len(tiles) == 1:
        return COLOUR_BONUS[next(iter(tiles))]
    if len(tiles) > 1:
        return STAR_BONUS[0] if len(tiles) == sum(c != "." for c in star) else 0.0
    return 15.0  # colour not settled yet: about the mean


def evaluate_board(state: dict[str, Any], seat: int) -> float:
    """The value of seat `seat` in a pavilion state dict (see the module docstring)."""
    board = state["boards"][seat]
    score = float(board["score"])
    if state.get("phase") == "over":
        return score
    stars = board["stars"]
    value = score
    # Bonuses in progress.
    progress = 0.0
    for index, star in enumerate(stars):
        filled = 6 - star.count(".")
        if filled:
            progress += star_bonus(state, index, star) * (filled / 6) ** 2
    for number, bonus in enumerate(NUMBER_BONUS):
        covered = sum(1 for star in stars if star[number] != ".")
        progress += bonus * (covered / 7) ** 2
    # Later rounds leave less time to finish them, but what is there is nearer to done.
    value += PROGRESS * progress
    # Structures one space from done.
    for spaces, tiles in STRUCTURES:
        missing = sum(1 for star, space in spaces if stars[star][space] == ".")
        if missing == 1:
            value += NEAR_STRUCTURE * tiles
    # Tiles in hand and kept.
    wild = state.get("wild", "")
    hand = board["tiles"]
    wilds = hand.count(wild) if wild else 0
    value += TILE * (len(hand) - wilds) + WILD_TILE * wilds
    last_round = state.get("round", 1) >= ROUNDS
    value += (-1.0 if last_round else KEPT) * len(board["kept"])
    return value


def evaluate(game: Any, seat: int) -> float:
    """`evaluate_board` of seat `seat` for a pavilion Game."""
    return evaluate_board(game.to_state(), seat)


def evaluate_all(game: Any) -> list[float]:
    """`evaluate_board` of every seat (one state read for all of them)."""
    state = game.to_state()
    return [evaluate_board(state, seat) for seat in range(len(state["boards"]))]


def run_beside(star: str, space: int) -> int:
    """Tiles in the runs a tile placed at `space` joins on its ring of six (neighbours both
    ways, space 6 next to space 1), the new tile not counted."""
    run = 0
    for step in (1, -1):
        k = (space + step) % 6
        while star[k] != "." and k != space and run < 5:
            run += 1
            k = (k + step) % 6
    return run


def allowed_colours(state: dict[str, Any], index: int, star: str) -> str:
    """The colour letters that may still go on star `index` (the engine's rule, on letters)."""
    placed = {c for c in star if c != "."}
    if state.get("ruleset") != "pavilion-mono":
        return STAR_COLOURS[index] if index else "".join(c for c in LETTERS if c not in placed)
    filled = 6 - star.count(".")
    if filled <= 1 or len(placed) > 1:
        return LETTERS if filled <= 1 else "".join(c for c in LETTERS if c not in placed)
    return next(iter(placed))  # single-coloured so far: that colour


def _structures_at() -> dict[tuple[int, int], tuple[tuple[tuple[tuple[int, int], ...], int], ...]]:
    """For each (star, space): the structures around it, as (their other spaces, bonus tiles)."""
    out: dict[tuple[int, int], list[tuple[tuple[tuple[int, int], ...], int]]] = {}
    for spaces, tiles in STRUCTURES:
        for at in spaces:
            out.setdefault(at, []).append((tuple(s for s in spaces if s != at), tiles))
    return {at: tuple(found) for at, found in out.items()}


STRUCTURES_AT = _structures_at()


def _structure_tiles(stars: list[str], index: int, space: int) -> int:
    """Bonus tiles a tile placed at (`index`, `space`) on `stars` would win at once."""
    tiles = 0
    for others, bonus in STRUCTURES_AT.get((index, space), ()):
        if all(stars[s][k] != "." for s, k in others):
            tiles += bonus
    return tiles


def _best_placement(
    state: dict[str, Any], stars: list[str], counts: dict[str, int]
) -> tuple[int, int, str, int, int] | None:
    """project_board's step: the placement with the best positive gain for a hand of `counts`
    on `stars`, as (star, space, colour, tiles of that colour spent, wild tiles spent)."""
    wild = state["wild"]
    wilds = counts[wild] if wild else 0
    numbers = _space_numbers(state["ruleset"])
    best, best_gain = None, 0.0
    # What covering space k (0-3) on one more star adds towards its number bonus.
    number_gain = [
        PROGRESS * NUMBER_BONUS[k] * (2 * sum(1 for s in stars if s[k] != ".") + 1) / 49
        for k in range(4)
    ]
    for index, star in enumerate(stars):
        if "." not in star:
            continue
        filled = 6 - star.count(".")
        star_gain = PROGRESS * star_bonus(state, index, star) * (2 * filled + 1) / 36
        spaces = None  # (space, cost, gain before the tiles spent): once a colour can pay
        for colour in allowed_colours(state, index, star):
            have = counts[colour]
            if not have:
                continue
            if spaces is None:
                spaces = _space_gains(stars, index, numbers[index], star_gain, number_gain)
            can_pay = have + (colour != wild) * wilds
            for space, cost, gain in spaces:
                if can_pay < cost:
                    continue
                # A wild tile placed as itself pays with its own colour only.
                own = min(have, cost) if colour != wild else 0
                paid = cost - own
                gain -= TILE * own + WILD_TILE * paid
                if gain > best_gain:
                    best, best_gain = (index, space, colour, own, paid), gain
    return best


def _space_gains(
    stars: list[str],
    index: int,
    costs: tuple[int, ...],
    star_gain: float,
    number_gain: list[float],
) -> list[tuple[int, int, float]]:
    """_best_placement's gains of star `index`'s empty spaces before the tiles they cost: the
    placement's points, bonus progress and bonus tiles (the same for every colour, so computed
    once a star rather than once a colour)."""
    star = stars[index]
    out = []
    for space in range(6):
        if star[space] != ".":
            continue
        gain = 1.0 + run_beside(star, space) + star_gain
        if space < 4:
            gain += number_gain[space]
        gain += TILE * _structure_tiles(stars, index, space)
        out.append((space, costs[space], gain))
    return out


def next_round_values(state: dict[str, Any], stars: list[str]) -> dict[str, float]:
    """What a tile of each colour kept over this round's end is worth to a seat whose stars
    are `stars`: the next round's wild colour (the wild order is known in advance) the most,
    as it pays for any placement; a colour with room left on the stars `KEPT`; a colour with
    none `DEAD_KEPT`. After the last round every kept tile costs a point."""
    if state.get("round", 1) >= ROUNDS:
        return dict.fromkeys(LETTERS, -1.0)
    values = dict.fromkeys(LETTERS, DEAD_KEPT)
    for index, star in enumerate(stars):
        if "." in star:
            for colour in allowed_colours(state, index, star):
                values[colour] = KEPT
    values[state["wild_order"][state["round"]]] = NEXT_WILD_KEPT
    return values


def project_board(state: dict[str, Any], seat: int, next_round: bool = False) -> float:
    """The value (`evaluate_board`) of seat `seat` once it has placed its hand and passed.

    What a hand is worth depends on where its tiles can go: six blue tiles that finish a blue
    star's 5 and 6 are worth far more than six red ones with no room left on red. This plays
    the seat's own placement phase alone, greedily (each step the placement that gains most:
    points of the ring run, progress towards the star and number bonuses, bonus tiles won,
    less the tiles it spends at their value in hand), then passes keeping four tiles (the
    wild colour first) and dropping the rest at -1 each. While the taking goes on, the tiles
    left whose colour still has room stay in hand (the tiles still to come may complete what
    they pay for); only the dead ones (no space left for their colour) are passed. The
    opponents are not in it: placement on one's own stars hardly interacts with theirs (only
    through the supply).
    A search values its leaves with it (the round's end, seen from anywhere in the round);
    `evaluate_board` alone credits each tile in hand the same, wherever it can go.

    `next_round`: the tiles kept over the round's end are chosen and valued by what they can
    buy next round (`next_round_values`), not each at `KEPT` with this round's wild colour
    kept first; and the holder of the start-player token is credited `START_TOKEN` for the
    moves it will make first (before the last round)."""
    value = _project_board(state, seat, next_round)
    if next_round and state["boards"][seat].get("has_marker") and state["round"] < ROUNDS:
        value += START_TOKEN
    return value


def _project_board(state: dict[str, Any], seat: int, next_round: bool) -> float:
    """`project_board` but the token's credit."""
    if state.get("phase") == "over":
        return evaluate_board(state, seat)
    board = state["boards"][seat]
    hand = board["tiles"]
    if not hand and not (next_round and board["kept"]):
        return evaluate_board(state, seat)
    key: tuple[Any, ...] = (state["ruleset"], state.get("round"), state.get("phase"), state["wild"])
    # The wild order too: with next_round, a kept tile's worth depends on next round's wild.
    key += (state.get("wild_order"), board["score"], next_round)
    key += (hand, board["kept"], *board["stars"])
    found = _PROJECTED.get(key)
    if found is not None:
        return found
    score, stars, held, kept = place_and_pass(state, seat, next_round)
    if next_round:
        worth = next_round_values(state, stars)
    after = dict(state)
    boards = list(state["boards"])
    boards[seat] = {**board, "score": score, "stars": stars, "tiles": held, "kept": kept}
    after["boards"] = boards
    value = evaluate_board(after, seat)
    if next_round and state.get("round", 1) < ROUNDS:
        # evaluate_board credits each kept tile KEPT: next round's worth instead.
        value += sum(worth[c] for c in kept) - KEPT * len(kept)
    if len(_PROJECTED) > 100_000:
        _PROJECTED.clear()
    _PROJECTED[key] = value
    return value


def place_and_pass(
    state: dict[str, Any], seat: int, next_round: bool = False
) -> tuple[int, list[str], str, str]:
    """`project_board`'s playout of seat `seat`'s own placements and pass, as the board it
    leaves: (score, stars, tiles still held while the taking goes on, tiles kept). A search's
    leaf value may read the board itself (the expert's learned Summer Pavilion value does)."""
    board = state["boards"][seat]
    hand = board["tiles"]
    wild = state["wild"]
    stars = list(board["stars"])
    counts = {c: hand.count(c) for c in LETTERS}
    score = board["score"]
    while (best := _best_placement(state, stars, counts)) is not None:
        index, space, colour, own, paid = best
        score += 1 + run_beside(stars[index], space)
        counts[colour] -= own
        counts[wild] -= paid
        star = stars[index]
        stars[index] = star[:space] + colour + star[space + 1 :]
    held = ""
    if state.get("phase") == "take":
        # The taking goes on: tiles of a colour that still has room may be joined by the
        # tiles still to come, and stay in hand (valued as such); only the dead ones (no space
        # left for their colour) are as good as passed.
        room = {
            c
            for index, star in enumerate(stars)
            if "." in star
            for c in allowed_colours(state, index, star)
        }
        held = "".join(c * n for c, n in counts.items() if c in room or c == wild)
        counts = {c: n for c, n in counts.items() if c not in room and c != wild}
    left = "".join(c * n for c, n in counts.items())
    # Pass: keep four (the wild colour first: it pays for anything), drop the rest. A seat
    # that has passed already holds no tiles and keeps what it kept.
    if next_round:
        worth = next_round_values(state, stars)
        left = "".join(sorted(left, key=lambda c: -worth[c]))
    else:
        left = "".join(sorted(left, key=lambda c: c != wild))
    kept, dropped = board["kept"] + left[:MAX_KEPT], len(left) - MAX_KEPT
    score = max(0, score - max(0, dropped))
    return score, stars, held, kept


MAX_KEPT = 4  # tiles a player may keep when passing
# project_board's values by seat board and round: a search meets the same board at many leaves
# (the other seats' moves leave it as it is).
_PROJECTED: dict[tuple[Any, ...], float] = {}


def project(game: Any, seat: int) -> float:
    """`project_board` of seat `seat` for a pavilion Game."""
    return project_board(game.to_state(), seat)


def project_all(game: Any, next_round: bool = False) -> list[float]:
    """`project_board` of every seat of a pavilion Game (one state read for all of them)."""
    state = game.to_state()
    return [project_board(state, seat, next_round) for seat in range(len(state["boards"]))]


def move_gains(state: dict[str, Any], moves: Any) -> list[float]:
    """A quick guess, for each of `moves` (legal in `state`, a to_state() dict), of what it
    brings the seat to move right away: points, tiles won or spent (valued as in
    `evaluate_board`), progress towards bonuses; a pass, the tiles it keeps by what they buy
    next round (`next_round_values`: which tiles to keep is a decision, and next round's wild
    colour is known). No copy of the game: for the inner loops of a search (the mcts bot
    ranks its moves with it, the search bot picks the moves it projects)."""
    seat = state["turn"]
    board = state["boards"][seat]
    wild = state["wild"]
    hand = board["tiles"]
    stars = board["stars"]
    score = board["score"]
    numbers = _space_numbers(state["ruleset"])
    worth: dict[str, float] | None = None  # next_round_values, when a pass is among the moves
    covered: list[int] | None = None  # stars covering space k (0-3), at the first placement
    gains = []
    for move in moves:
        if move.is_take:
            letter = LETTERS[move.colour]
            tiles = state["centre"] if move.source == 9 else state["factories"][move.source]
            if letter == wild:
                n, wilds = 0, 1
            else:
                n, wilds = tiles.count(letter), int(wild in tiles)
            gain = TILE * n + WILD_TILE * wilds
            if move.source == 9 and state["marker_in_centre"]:
                gain -= min(score, n + wilds) - 0.5  # the start token's loss, and its use
            gains.append(gain)
        elif move.is_place:
            star = stars[move.star]
            cost = numbers[move.star][move.space]
            gain = (
                1.0
                + run_beside(star, move.space)
                - TILE * (cost - move.wilds)
                - WILD_TILE * move.wilds
            )
            filled = 6 - star.count(".")
            bonus = STAR_BONUS[move.star]
            gain += PROGRESS * bonus * ((filled + 1) ** 2 - filled**2) / 36
            if move.space < 4:
                if covered is None:
                    covered = [sum(1 for s in stars if s[k] != ".") for k in range(4)]
                done = covered[move.space]
                gain += PROGRESS * NUMBER_BONUS[move.space] * ((done + 1) ** 2 - done**2) / 49
            gains.append(gain)
        elif move.is_pass:
            # The kept tiles by what they buy next round (its wild colour is known), so that
            # passes keeping as many tiles are not tied: which four to keep is a decision.
            if worth is None:
                worth = next_round_values(state, stars)
            dropped = len(hand) - move.n_keep
            kept = sum(worth[c] * ((move.keep >> 8 * k) & 255) for k, c in enumerate(LETTERS))
            gains.append(-min(score, dropped) - TILE * len(hand) + kept)
        else:  # a bonus tile
            gains.append(WILD_TILE if LETTERS[move.colour] == wild else TILE)
    return gains


def move_gain(game: Any, move: Any) -> float:
    """`move_gains` for one move of `game`."""
    return move_gains(game.to_state(), (move,))[0]


def _space_numbers(ruleset: str) -> tuple[tuple[int, ...], ...]:
    # Loaded by then: the state came from the engine.
    from referee.engine.pavilion import pavilion_ruleset

    numbers: tuple[tuple[int, ...], ...] = pavilion_ruleset(ruleset).space_numbers
    return numbers


# This family's helpers for sdk.helpers (the family's descriptor names this module).
HELPERS = FamilyHelpers(
    evaluate,
    evaluate_all,
    move_gain,
    lambda state, moves: move_gains(state.to_state(), moves),
    project_all,
    chance_within_round=True,
)
