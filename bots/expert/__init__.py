"""The `expert` reference bot (bots/expert/bot.py): exact ends of rounds, a progressively
widened Monte-Carlo tree over the rest of a round elsewhere.

Besides the bot, its search is public, for whoever values positions as the bot does (the game
analysis, `tournaments.domain.analysis`): the round's tree (`RoundTree`, its `Node`s) and the
bot's parameters for it (`PARAMS`), the exact solver of a round's end (`RoundSolver`, which
raises `OutOfBudget`; `tiles_left`), and the move values (`candidate_moves`, `ranked_moves`,
`lead_rewards`, `is_classic_engine`), and which values its leaves take (`use_net`: the
network's or the linear fit's; `net_fits`: the bot's default for a game). The modules behind
them are the bot's own (an import contract keeps them so)."""

from bots.expert.bot import PARAMS, ExpertBot
from bots.expert.solver import OutOfBudget, RoundSolver, tiles_left
from bots.expert.tree import Node, RoundTree
from bots.expert.values import (
    candidate_moves,
    is_classic_engine,
    lead_rewards,
    net_fits,
    ranked_moves,
    use_net,
)

__all__ = [
    "PARAMS",
    "ExpertBot",
    "Node",
    "OutOfBudget",
    "RoundSolver",
    "RoundTree",
    "candidate_moves",
    "is_classic_engine",
    "lead_rewards",
    "net_fits",
    "ranked_moves",
    "tiles_left",
    "use_net",
]
