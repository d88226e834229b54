"""Tiny bots with known behaviour for the tournament tests (launched as real processes)."""
