"""bots commands (work in progress)."""
