"""Small misbehaving bots for the referee's integration tests."""
