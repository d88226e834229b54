"""tournament commands (work in progress)."""
