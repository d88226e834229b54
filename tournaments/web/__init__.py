"""Self-contained HTML pages (replay viewer, tournament report): templates, scripts, builders."""
