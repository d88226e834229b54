"""Tables: a person plays a bot in the browser, unrated."""
