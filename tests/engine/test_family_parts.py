"""The engine names each family's parts in the layers above it by module name (`Family.codec`,
`helpers`, `view`, `rl`): an import the layering contracts cannot see. This holds every name to
the room its part belongs in, and the part to its type, so a descriptor cannot reach into
another room (the view naming a server module, say) or name a module that is not there."""

from __future__ import annotations

import pytest

from referee.engine import FAMILIES
from referee.engine.family import Family, Part
from referee.protocol.codec import FamilyCodec
from sdk.family import FamilyHelpers
from sdk.rl.encoding import Encoding
from tournaments.families import FamilyView

# Each part: the package its module must live in, and what its constant must be.
ROOMS: dict[Part, tuple[str, type]] = {
    "codec": ("referee.protocol.", FamilyCodec),
    "helpers": ("sdk.", FamilyHelpers),
    "view": ("tournaments.families.", FamilyView),
    "rl": ("sdk.rl.encoding.", Encoding),
}


def families() -> list[Family]:
    return list(FAMILIES.values())


@pytest.mark.parametrize("family", families(), ids=lambda f: f.name)
@pytest.mark.parametrize("kind", sorted(ROOMS))
def test_each_part_lives_in_its_room_and_is_what_its_layer_takes(
    family: Family, kind: Part
) -> None:
    module = getattr(family, kind)
    if not module:
        pytest.skip(f"the {family.name} family names no {kind} part (its layer's generic one)")
    room, expected = ROOMS[kind]
    assert module.startswith(room), f"{family.name}'s {kind} part {module} is not in {room}"
    part = family.part(kind)
    if kind == "rl":
        assert isinstance(part, type) and issubclass(part, expected), part
    else:
        assert isinstance(part, expected), part


def test_the_project_s_families_name_every_part() -> None:
    """Classic and Summer Pavilion are complete: a codec, SDK helpers, a view and an encoding."""
    for name in ("classic", "pavilion"):
        family = FAMILIES[name]
        assert all(getattr(family, kind) for kind in ROOMS), family
