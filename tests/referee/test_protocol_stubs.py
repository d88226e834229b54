"""The committed stubs match proto/, and the contract passes `buf lint` (offline)."""

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
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()
            and "__pycache__" not in p.parts}


def test_committed_stubs_match_the_proto(tmp_path: Path) -> None:
    generate.generate(tmp_path)
    fresh, committed = _files(tmp_path / "azul_arena"), _files(STUB_TREE)
    assert fresh == committed, "stub files differ: run `python -m referee.protocol.generate`"
    drifted = [name for name in sorted(fresh)
               if not filecmp.cmp(tmp_path / "azul_arena" / name, STUB_TREE / name, shallow=False)]
    assert not drifted, f"stubs drifted from proto/: {drifted}; regenerate and commit them"


def _buf() -> str:
    found = shutil.which("buf") or str(Path(sys.executable).parent / "buf")
    if not Path(found).exists():
        pytest.fail("buf not found: it comes with the dev dependency buf-bin")
    return found


def test_buf_lint_passes() -> None:
    # buf.yaml declares no dependencies, so lint runs offline.
    result = subprocess.run([_buf(), "lint"], cwd=generate.PROTO_DIR, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_buf_lint_catches_a_missing_comment(tmp_path: Path) -> None:
    # The lint test is only worth something if it fails on a violation.
    shutil.copytree(generate.PROTO_DIR, tmp_path / "proto")
    bad = tmp_path / "proto" / "azul_arena" / "v1" / "extra.proto"
    bad.write_text('syntax = "proto3";\npackage azul_arena.v1;\n'
                   "message Uncommented { int32 x = 1; }\n")
    result = subprocess.run([_buf(), "lint"], cwd=tmp_path / "proto", capture_output=True,
                            text=True, timeout=60)
    assert result.returncode != 0
    assert "Uncommented" in result.stdout + result.stderr


def test_no_seed_or_bag_order_in_the_bot_contract() -> None:
    from referee.protocol import bot_pb2, game_pb2

    names = set()
    for module in (bot_pb2, game_pb2):
        for message in module.DESCRIPTOR.message_types_by_name.values():
            names |= {f.name for f in message.fields}
    assert not {n for n in names if "seed" in n or "order" in n}
