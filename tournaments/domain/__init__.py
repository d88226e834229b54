"""The tournament domain: entries, schedules and pairing, ratings, the store, the runner and the
one door to the referee (`arena`), the Dask cluster, reports, reruns, bot compares and game
analysis. The rooms above it (commands, benchmarks, server, web, terminal) call it; it knows
none of them and no presentation library (import contracts in pyproject.toml)."""
