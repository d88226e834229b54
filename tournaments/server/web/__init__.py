"""The server's pages: leaderboard, participants, games (with the replay viewer), logs."""
