"""Tournaments: the azul-arena CLI, schedules, ratings, the result store and reports."""
