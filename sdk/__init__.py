"""What a bot author imports: the Bot base class, run(), state views and local simulation."""
