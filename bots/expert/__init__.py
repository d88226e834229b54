"""The `expert` reference bot (bots/expert/bot.py): exact ends of rounds, a progressively
widened Monte-Carlo tree over the rest of a round elsewhere."""

from bots.expert.bot import ExpertBot

__all__ = ["ExpertBot"]
