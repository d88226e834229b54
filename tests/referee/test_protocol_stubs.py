"""The committed stubs match proto/, and the contract passes `buf lint` and `buf breaking` against
the last release (offline)."""

from __future__ import annotations

import filecmp
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.protocol import generate

STUB_TREE = generate.STUB_DIR / "azul_arena"


def _files(root: Path) -> set[str]:
    return {
        str(p.relative_to(root))
        for p in root.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_committed_stubs_match_the_proto(tmp_path: Path) -> None:
    generate.generate(tmp_path)
    fresh, committed = _files(tmp_path / "azul_arena"), _files(STUB_TREE)
    assert fresh == committed, "stub files differ: run `python -m referee.protocol.generate`"
    drifted = [
        name
        for name in sorted(fresh)
        if not filecmp.cmp(tmp_path / "azul_arena" / name, STUB_TREE / name, shallow=False)
    ]
    assert not drifted, f"stubs drifted from proto/: {drifted}; regenerate and commit them"


def _buf() -> str:
    found = shutil.which("buf") or str(Path(sys.executable).parent / "buf")
    if not Path(found).exists():
        pytest.fail("buf not found: it comes with the dev dependency buf-bin")
    return found


def test_buf_lint_passes() -> None:
    # buf.yaml declares no dependencies, so lint runs offline.
    result = subprocess.run(
        [_buf(), "lint"], cwd=generate.PROTO_DIR, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_buf_lint_catches_a_missing_comment(tmp_path: Path) -> None:
    # The lint test is only worth something if it fails on a violation.
    shutil.copytree(generate.PROTO_DIR, tmp_path / "proto")
    bad = tmp_path / "proto" / "azul_arena" / "v1" / "extra.proto"
    bad.write_text(
        'syntax = "proto3";\npackage azul_arena.v1;\nmessage Uncommented { int32 x = 1; }\n'
    )
    result = subprocess.run(
        [_buf(), "lint"], cwd=tmp_path / "proto", capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0
    assert "Uncommented" in result.stdout + result.stderr


# The contract as last released (be2df3b, before Summer Pavilion), as a buf image: a shallow or
# fresh clone may not hold that commit, and the image needs no git history.
RELEASE = "be2df3b"
RELEASE_IMAGE = Path(__file__).parent / "data" / f"proto-release-{RELEASE}.binpb"


def _breaking(proto_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [_buf(), "breaking", "--against", str(RELEASE_IMAGE)],
        cwd=proto_dir,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_buf_breaking_against_the_last_release() -> None:
    result = _breaking(generate.PROTO_DIR)
    assert result.returncode == 0, result.stdout + result.stderr


def test_buf_breaking_catches_a_removed_field(tmp_path: Path) -> None:
    shutil.copytree(generate.PROTO_DIR, tmp_path / "proto")
    game = tmp_path / "proto" / "azul_arena" / "v1" / "game.proto"
    text = game.read_text()
    assert "  string lid = 11;\n" in text
    game.write_text(text.replace("  string lid = 11;\n", ""))
    result = _breaking(tmp_path / "proto")
    assert result.returncode != 0
    assert '"lid"' in result.stdout + result.stderr


def test_the_release_image_is_that_commit_s_contract(tmp_path: Path) -> None:
    # Where the history holds the release, the committed image is what buf builds from it.
    root = generate.ROOT
    known = subprocess.run(
        ["git", "cat-file", "-e", f"{RELEASE}^{{commit}}"],
        cwd=root,
        capture_output=True,
        timeout=30,
    )
    if known.returncode != 0:
        pytest.skip(f"commit {RELEASE} is not in this clone's history (shallow clone?)")
    built = tmp_path / "release.binpb"
    result = subprocess.run(
        [_buf(), "build", f"{root}/.git#ref={RELEASE},subdir=proto", "-o", str(built)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if result.returncode != 0 and "git" in result.stderr.lower():
        pytest.skip(f"buf cannot read this clone's git data: {result.stderr.strip()[:200]}")
    assert result.returncode == 0, result.stderr
    assert built.read_bytes() == RELEASE_IMAGE.read_bytes()


def test_no_seed_or_bag_order_in_the_bot_contract() -> None:
    from referee.protocol import bot_pb2, game_pb2

    names = set()
    for module in (bot_pb2, game_pb2):
        for message in module.DESCRIPTOR.message_types_by_name.values():
            names |= {f.name for f in message.fields}
    # wild_order (Summer Pavilion) is public: the order of the rounds' wild colours is printed on
    # the scoring board. bot_seed (GameStart) is the bot's own seed, a keyed hash that says
    # nothing of the deal (tests/referee/test_bot_seeds.py). Nothing else may name an order or a
    # seed.
    assert {"wild_order", "bot_seed"} <= names
    public = {"wild_order", "bot_seed"}
    assert not {n for n in names - public if "seed" in n or "order" in n}
