"""The application above the referee, in rooms (import contracts in pyproject.toml keep them):

- the tournament domain, the modules here: entries, schedules and pairing (`schedule`, `rounds`,
  `pairing`), ratings, the SQLite store, the runner and the Arena bridge (`runner`, `arena`), the
  Dask cluster (`cluster`, `cluster_worker`, `bundles`), reports, reruns and the compliance
  run; `tournament.run_tournament` plays a tournament (a coroutine, watched through
  `progress`). It uses the referee's API (`from referee import ...`) and knows none of the
  rooms below;
- `commands/`: the `azul-arena` command line, one module per noun;
- `web/`: the self-contained HTML pages (replay viewer, tournament report);
- `families/`: how each game family is shown to people (moves in words, boards, viewer data);
- `benchmarks/`: every benchmark's measurement;
- `terminal/`: what the commands show a person and how a run meets the shell: `live`
  (progress), `running` (the live view, signals and the loop around `run_tournament`),
  `render` (tables), `human` (a person's seat), `kits` (bot scaffolds);
- `server/`: the contest server (Django)."""
