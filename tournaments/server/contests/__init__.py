"""Contests: a contest's settings and dates, who takes part in it (`Participant`: a person or a
team), the later deadlines granted (`Extension`) and its life as a state machine
(`contests.lifecycle`). The ladder and submissions use it; it uses only `accounts`."""
