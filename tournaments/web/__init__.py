"""Self-contained HTML pages (replay viewer, tournament report): templates, scripts, builders.
They read records and the domain's reports; the domain does not import them."""
