"""Starter kits in other languages (sdk/kits/): scaffold a self-contained bot folder from one.

A kit is a folder of sdk/kits/ holding a library, a sample bot, its bot.toml and a README; the
scaffold copies those files and the protocol's .proto files (sdk/kits/proto, the published ones)
into a new bot folder, so that the folder builds and runs on its own.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

PROTO_FILES = ("bot.proto", "game.proto", "referee.proto")


@dataclass(frozen=True)
class Kit:
    """A starter kit: its files, the sample bot's name in them, and what prepares a new folder."""

    lang: str
    files: tuple[str, ...]
    sample_name: str  # the sample's bot name, replaced by the new bot's name in `named`
    named: tuple[str, ...]  # files that carry the name
    install: str  # what fetches the folder's dependencies ("": none); its build is in bot.toml
    tool: str  # the program that prepares a folder (installs or builds)
    bot_file: str  # the file the author edits
    needs: str  # how to install what the kit needs (Debian and Ubuntu)


KITS = {
    "node": Kit(
        "node",
        (
            "azul-arena.js",
            "bot.js",
            "bot.toml",
            "package.json",
            "package-lock.json",
            "README.md",
            ".gitignore",
        ),
        "greedy-js",
        ("bot.js", "bot.toml", "package.json", "package-lock.json", "README.md"),
        "npm install --no-audit --no-fund",
        "npm",
        "bot.js",
        "Node.js 18 or newer with npm: apt-get install nodejs npm",
    ),
    "cpp": Kit(
        "cpp",
        (
            "azul_arena.hpp",
            "azul_arena.cpp",
            "bot.cpp",
            "CMakeLists.txt",
            "bot.toml",
            "README.md",
            ".gitignore",
        ),
        "greedy-cpp",
        ("bot.cpp", "bot.toml", "README.md"),
        "",
        "cmake",
        "bot.cpp",
        "apt-get install g++ cmake pkg-config libgrpc++-dev libprotobuf-dev "
        "protobuf-compiler protobuf-compiler-grpc",
    ),
}


def kits_dir() -> Traversable:
    """sdk/kits, installed or in a checkout."""
    return resources.files("sdk") / "kits"


def scaffold_kit(lang: str, name: str, directory: Path) -> list[Path]:
    """Write the bot folder `directory/name` from kit `lang`; returns the files written.
    Raises FileExistsError for a folder that exists and is not empty."""
    kit = KITS[lang]
    target = directory / name
    if target.exists() and any(target.iterdir()):
        raise FileExistsError(f"{target} exists and is not empty")
    source = kits_dir() / lang
    written = []
    target.mkdir(parents=True, exist_ok=True)
    for file in kit.files:
        text = (source / file).read_text(encoding="utf-8")
        if file in kit.named:
            # The sample's name, and "mybot", the README's name for the reader's bot: the
            # commands in the new folder's README are then the ones to type.
            text = re.sub(rf"\b({re.escape(kit.sample_name)}|mybot)\b", name, text)
        path = target / file
        path.write_text(text, encoding="utf-8")
        written.append(path)
    protos = target / "proto" / "azul_arena" / "v1"
    protos.mkdir(parents=True)
    for file in PROTO_FILES:
        path = protos / file
        path.write_text((kits_dir() / "proto" / "azul_arena" / "v1" / file).read_text("utf-8"))
        written.append(path)
    return written


def prepare_command(lang: str, folder: Path) -> str:
    """The one command that makes a new `lang` folder ready to run: the kit's install
    (npm install), else the folder's build step (bot.toml)."""
    from referee import read_folder

    return KITS[lang].install or read_folder(folder).build


def prepare(lang: str, folder: Path, timeout: float = 900.0) -> subprocess.CompletedProcess[str]:
    """Run `prepare_command` in `folder`; raises FileNotFoundError when the kit's tool is not
    installed (its message says what to install), subprocess.TimeoutExpired after `timeout`
    seconds."""
    kit = KITS[lang]
    if shutil.which(kit.tool) is None:
        raise FileNotFoundError(f"{kit.tool} is not installed ({kit.needs})")
    return subprocess.run(
        ["/bin/sh", "-c", prepare_command(lang, folder)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
