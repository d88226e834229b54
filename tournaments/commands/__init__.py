"""The `azul-arena` command line: one module per noun (match, play, tournament, replay, bot,
referee, bench, server, demo), each registering thin verbs on the shared groups (`groups`) that
check their options (`common`) and call the tournament domain, the referee's API or a
benchmark. Nothing imports the commands."""
