"""Each bot's seed for a game: a keyed hash of the tournament's (or match's) seed, the game id and
the seat.

A bot that draws every random choice from its seed plays the same moves when the game is played
again (a rerun, or the same tournament run twice), on any machine. The seed must not tell the bot
the deal: the deal's seed is another hash of the tournament seed
(tournaments.domain.schedule.deal_seed), and this one is BLAKE2b keyed with the tournament seed
under its own label, so a bot seed says nothing of any deal seed, and two games (or two seats) get
unrelated seeds. What it cannot hide is a tournament seed small enough to try every value of:
whoever sets `--seed 12` has made the deals public anyway (docs/security.md).
"""

from __future__ import annotations

import hashlib

LABEL = b"azul-arena/bot-seed/1/"


def bot_seed(key: int, game_id: str, seat: int) -> int:
    """The seed (1 to 2**63 - 1) of the bot in `seat` of game `game_id`, keyed with `key` (the
    tournament's seed; for a lone match, the match's)."""
    digest = hashlib.blake2b(
        f"{game_id}/{seat}".encode(), digest_size=8, key=LABEL + str(int(key)).encode()
    ).digest()
    return (int.from_bytes(digest, "big") >> 1) or 1  # 0 means "no seed" on the wire


def bot_seeds(key: int, game_id: str, players: int) -> tuple[int, ...]:
    """The seeds of every seat of one game, in seat order."""
    return tuple(bot_seed(key, game_id, seat) for seat in range(players))
