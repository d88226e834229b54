"""What the submissions app tells the apps above it (the ladder connects in its AppConfig.ready),
so it imports nothing of them. A module of its own, light to import: every process loads it as
Django starts.

- `version_received` (with `version`): sent in the transaction that makes a version. The ladder
  decides again a hand-in decided while this upload, received before the deadline, was being
  unpacked.
- `version_passed` (with `version`): sent in the transaction that records a pass. The ladder
  gives the version its standing, so a version never passes without one.
"""

from __future__ import annotations

from django.dispatch import Signal

version_received = Signal()
version_passed = Signal()
