"""Hand-ins: the version each participant handed in at its deadline, decided by upload time
(`handins.decisions`). The finals play them; it uses only `contests` and `submissions`."""
