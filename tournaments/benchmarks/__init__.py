"""Every benchmark's measurement, one module each; `azul-arena bench VERB` (tournaments/commands/
bench.py) prints what they measure. They may use the tournament domain and the referee's API;
nothing but the command line imports them."""
