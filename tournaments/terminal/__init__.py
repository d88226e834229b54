"""The terminal's room: what the commands show a person and how they run in a shell, kept out
of the tournament domain (an import contract in pyproject.toml keeps it so).

- `live`: a running tournament's progress and provisional leaderboard (`LiveProgress`, the
  watcher a run's `on_progress` takes);
- `running`: `play_in_terminal` (the live view, SIGINT/SIGTERM and the event loop around the
  domain's `run_tournament`) and `until_signal`;
- `render`: the leaderboard and crosstable as rich tables;
- `human`: a person's seat at the table (`play`) and the table shown as a game goes;
- `kits`: starter kits in other languages, scaffolded into bot folders (`bot new --lang`).

The commands, the contest server (a final's progress lines, `server contest final`) and the
benchmarks use it; the domain does not.
"""
