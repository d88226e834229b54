"""replay commands (work in progress)."""
