"""bench_engine commands (work in progress)."""
