"""`azul-arena server ...`: the organiser's side of the contest server (docs/server.md,
docs/course.md), one module per kind of verb:

- `admin`: init, run, ladder, demo (a server on one machine);
- `contests`: contest create / show / set / extend / staff-bot / final, import-class,
  export-results, prune (each calls one service of the server's apps);
- `home`: what they share (the data folder, Django set up on it, refusals as errors).

A participant's verbs are `azul-arena contest ...` (tournaments/commands/participant.py), the
server's benchmarks `azul-arena bench ladder / upload / pages / term / final`
(bench_server.py); their old spellings here (`server bench`, `server bench-upload`, ...) still
work, hidden."""

from __future__ import annotations

from tournaments.commands import bench_server
from tournaments.commands.common import moved
from tournaments.commands.groups import server_app
from tournaments.commands.server import admin, contests

__all__ = ["admin", "contests"]

for _old, _new, _verb in (
    ("bench", "ladder", bench_server.bench_ladder),
    ("bench-upload", "upload", bench_server.bench_upload),
    ("bench-pages", "pages", bench_server.bench_pages),
    ("bench-final", "final", bench_server.bench_final),
):
    server_app.command(_old, hidden=True, deprecated=True)(
        moved(f"server {_old}", f"bench {_new}", _verb)
    )
