"""Game analyses: asked for on a game's page, made by the worker as one kind of its work."""
