"""The ladder: the contest's settings, ranked games, ratings, matchmaking and the worker."""
