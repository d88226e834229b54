"""The reference bots, one readable module each (random, greedy, search, MCTS): written only
against `sdk` (an import contract says so); the launcher finds them by their entry points in
pyproject.toml (`azul_arena.bots`)."""
