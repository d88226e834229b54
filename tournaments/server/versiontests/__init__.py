"""Version tests: did v3 help over v2? A sequential test of two versions in unrated games, played
by the worker as one kind of its work."""
