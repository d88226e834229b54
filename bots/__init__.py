"""Reference bots, written only against the sdk."""
