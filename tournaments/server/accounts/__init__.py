"""Participants (a person or a team of accounts) and the API tokens the CLI submits with."""
