"""play commands (work in progress)."""
