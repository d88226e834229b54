"""The application above the referee, in rooms (import contracts in pyproject.toml keep them),
from the entry point down:

- `cli`: the `azul-arena` entry point; `commands/`: the command line, one module per noun;
- `benchmarks/`: every benchmark's measurement;
- `server/`: the contest server (Django), unattended: it imports no terminal code;
- `web/`: the self-contained HTML pages (replay viewer, tournament report, play page);
  `terminal/`: what the commands show a person and how a run meets the shell: `live`
  (progress), `running` (the live view, signals and the loop around `run_tournament`),
  `render` (tables), `human` (a person's seat), `kits` (bot scaffolds);
- `families/`: how each game family is shown to people (moves in words, boards, viewer data);
- `domain/`: the tournament domain that all of them call, and that knows none of them: entries,
  schedules and pairing, ratings, the SQLite store, the runner and the one door to the referee
  (`domain.arena`), the Dask cluster, reports, reruns, compares, the compliance run and game
  analysis. `domain.tournament.run_tournament` plays a tournament (a coroutine, watched through
  `domain.progress`)."""
