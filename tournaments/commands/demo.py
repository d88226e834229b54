"""demo commands (work in progress)."""
