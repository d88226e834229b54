"""docs/rl.md documents every observation field of every family where the encoding has it."""

from __future__ import annotations

from pathlib import Path

from sdk.rl.encoding import encoding_for

DOC = (Path(__file__).parent.parent.parent / "docs" / "rl.md").read_text()


def test_every_observation_field_is_in_the_manual_with_its_indexes() -> None:
    for ruleset in ("azul", "pavilion"):
        enc = encoding_for(ruleset, 2)
        for f in enc.fields:
            where = enc.offsets[f.name]
            row = f"| `{f.name}` | {where.start}-{where.stop - 1} | "
            assert row in DOC, f"docs/rl.md: no row {row!r} for {enc.family}"
