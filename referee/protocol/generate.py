"""Regenerate the Python stubs from proto/: `python -m referee.protocol.generate [OUT_DIR]`.

The stubs are committed (a bot author needs no protoc); tests/referee/test_protocol_stubs.py
regenerates them into a temporary directory and fails when they differ from the committed ones.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROTO_DIR = ROOT / "proto"
STUB_DIR = Path(__file__).resolve().parent


def proto_files() -> list[Path]:
    """Every .proto of the contract, in a stable order."""
    return sorted(PROTO_DIR.glob("azul_arena/**/*.proto"))


def run_protoc(*outputs: str) -> None:
    """Run grpc_tools.protoc over the contract with these output flags (`--python_out=DIR`, ...);
    the documentation's protocol reference reads its descriptor set the same way."""
    import grpc_tools
    from grpc_tools import protoc

    include = str(Path(grpc_tools.__file__).parent / "_proto")
    files = [str(p.relative_to(PROTO_DIR)) for p in proto_files()]
    if protoc.main(["protoc", f"-I{PROTO_DIR}", f"-I{include}", *outputs, *files]) != 0:
        raise SystemExit("protoc failed")


def generate(out_dir: Path = STUB_DIR) -> None:
    """Run grpc_tools.protoc over the contract, writing the stubs under `out_dir`."""
    run_protoc(f"--python_out={out_dir}", f"--pyi_out={out_dir}", f"--grpc_python_out={out_dir}")
    # The generated modules import each other as `azul_arena.v1.*`; package markers make the
    # tree importable (see referee/protocol/__init__.py for how it gets on the path).
    for package in ("azul_arena", "azul_arena/v1"):
        (out_dir / package / "__init__.py").touch()


if __name__ == "__main__":
    generate(Path(sys.argv[1]) if len(sys.argv) > 1 else STUB_DIR)
