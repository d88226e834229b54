"""The committed stubs match proto/, and the contract passes `buf lint` and `buf breaking` against
the last release (offline, from the release's committed image: referee/protocol/release.py)."""

from __future__ import annotations

import filecmp
import shutil
import subprocess
from pathlib import Path

import pytest

from referee.protocol import generate, release

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
    try:
        return release.buf()
    except release.ReleaseError as exc:
        pytest.fail(str(exc))


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


def _breaking(proto_dir: Path) -> subprocess.CompletedProcess[str]:
    # Against the committed image of the last release: no git history needed (a fresh or
    # shallow clone, CI).
    return subprocess.run(
        [_buf(), "breaking", "--against", str(release.IMAGE)],
        cwd=proto_dir,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_buf_breaking_against_the_last_release() -> None:
    result = _breaking(generate.PROTO_DIR)
    assert result.returncode == 0, result.stdout + result.stderr


def _edited_copy(tmp_path: Path, old: str, new: str) -> Path:
    shutil.copytree(generate.PROTO_DIR, tmp_path / "proto")
    game = tmp_path / "proto" / "azul_arena" / "v1" / "game.proto"
    text = game.read_text()
    assert old in text
    game.write_text(text.replace(old, new))
    return tmp_path / "proto"


def test_buf_breaking_catches_a_removed_field(tmp_path: Path) -> None:
    result = _breaking(_edited_copy(tmp_path, "  string lid = 11;\n", ""))
    assert result.returncode != 0
    assert '"lid"' in result.stdout + result.stderr


def test_buf_breaking_catches_a_renumbered_field(tmp_path: Path) -> None:
    # Same name, another number: source-compatible, and every old bot would misread it.
    result = _breaking(_edited_copy(tmp_path, "  string lid = 11;\n", "  string lid = 99;\n"))
    assert result.returncode != 0
    assert "lid" in result.stdout + result.stderr


def test_the_release_image_is_that_commit_s_contract(tmp_path: Path) -> None:
    # The committed image is what buf builds from the released commit's proto/ (read out of git:
    # any clone that holds that commit, as a fresh `git clone` does).
    commit = release.released_commit()
    assert len(commit) == 40, f"{release.COMMIT} names a commit in full"
    if release.resolve(commit) is None:
        assert release.shallow(), f"{commit} is in no branch of this repository's history"
        pytest.skip(
            f"this clone is shallow and does not reach the release {commit[:7]}: "
            "git fetch --unshallow checks the committed image against it"
        )
    built = tmp_path / "release.binpb"
    release.build_image(commit, built)
    assert built.read_bytes() == release.IMAGE.read_bytes(), (
        "the committed image is not the release's contract: "
        f"python -m referee.protocol.release {commit}"
    )


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
