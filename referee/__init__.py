"""Azul Arena referee: the authority that holds the rules engine and runs matches between bots."""
