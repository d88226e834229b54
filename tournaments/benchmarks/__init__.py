"""Every benchmark's measurement, one module each; `azul-arena bench VERB` (tournaments/commands/
bench.py, and bench_server.py for the contest server's) prints what they measure. They may use
the tournament domain, the contest server and the referee's API; nothing but the command line
imports them. The server's (`ladder`, `pages`) each set up a fresh server of their own
(`server.fresh_server`); `final` sizes a contest's final."""
