"""Unpack an uploaded bot archive (.zip or .tar.gz) without trusting it.

An archive is hostile until proven otherwise: every member is checked *before* anything is
written, and the first bad one refuses the whole archive with a message that names it and says
what is wrong: an absolute path or a `..` component (a write outside the folder), a name too
long for a file system (a part over 255 bytes, the whole over 1024), a link
(symbolic or hard: a later member could write through it), a device, FIFO or other special
file, more members than the limit (a zip's counted in its directory before `zipfile` reads
it: `_count_zip_members`), more bytes unpacked than the limit (a zip bomb: the sizes are
added up as the members come, and a zip member is copied with a counter, since its header may
lie), an encrypted member, or something that is not a .zip or .tar.gz at all. tar members are
then extracted with Python's own `data` filter as a second line of defence.

Nothing is written outside `dest`; on any refusal `dest` is removed. A refusal's message names
the member (a long name cut short) and never a path of the server's own.
"""

from __future__ import annotations

import gzip
import shutil
import stat
import struct
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, cast

CHUNK = 1 << 16
NAME_MAX = 255  # bytes of one part of a path (Linux's file systems)
PATH_MAX = 1024  # bytes of a member's whole path: well below the system's 4096 with our folders
SHOWN = 60  # characters of a member's name a message shows
# tar bytes a member may take besides its data: its 512-byte header, padding to 512 bytes, and
# a GNU long-name or pax header for a name up to PATH_MAX (at most ~2 KiB) fit in 4 KiB.
TAR_HEADER_ALLOWANCE = 4096
# The largest single read of the tar stream: tarfile reads a long-name or pax header's payload
# in one read() (its size is the header's word), its data in 16 KiB pieces.
TAR_READ_MAX = 64 * 1024
# A zip's central directory, walked by `_count_zip_members` with zipfile's own (private) reader
# of the end record, the indices of its fields and the sizes of its records, so that the walk
# reads what zipfile will.
_ZIP_END_RECORD = zipfile._EndRecData  # type: ignore[attr-defined]
_ECD_SIGNATURE: int = zipfile._ECD_SIGNATURE  # type: ignore[attr-defined]
_ECD_ENTRIES_TOTAL: int = zipfile._ECD_ENTRIES_TOTAL  # type: ignore[attr-defined]
_ECD_SIZE: int = zipfile._ECD_SIZE  # type: ignore[attr-defined]
_ECD_LOCATION: int = zipfile._ECD_LOCATION  # type: ignore[attr-defined]
ZIP64_END: bytes = zipfile.stringEndArchive64  # type: ignore[attr-defined]
PLAIN_END: bytes = zipfile.stringEndArchive  # type: ignore[attr-defined]
CENTRAL_HEADER: bytes = zipfile.stringCentralDir  # type: ignore[attr-defined]
# zip64's end record and its locator, which sit before the plain end record
ZIP64_END_BYTES: int = zipfile.sizeEndCentDir64 + zipfile.sizeEndCentDir64Locator  # type: ignore[attr-defined]
CENTRAL_HEADER_BYTES: int = zipfile.sizeCentralDir  # type: ignore[attr-defined]


class ArchiveError(ValueError):
    """An archive that is refused; the message says why and what to do."""


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 100 * 2**20  # bytes unpacked, all members together
    max_files: int = 2000  # members (files and folders)


@dataclass(frozen=True)
class Unpacked:
    files: int
    bytes: int
    format: str  # zip | tar.gz


def sniff(head: bytes) -> str | None:
    """The archive format from its first bytes: zip, tar.gz, or None."""
    if head[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        return "zip"
    if head[:2] == b"\x1f\x8b":
        return "tar.gz"
    return None


def shown(name: str) -> str:
    """A member's name as a message shows it: quoted, a long one cut short with its length."""
    if len(name) <= SHOWN:
        return repr(name)
    return f"{name[:SHOWN]!r}... ({len(name)} characters)"


def _why(exc: OSError) -> str:
    """What an OSError says without its file names (they are the server's paths)."""
    if exc.filename is None and exc.filename2 is None:
        return str(exc)  # names no file (a bad gzip stream, say)
    return exc.strerror or type(exc).__name__


def check_name(name: str) -> PurePosixPath:
    """The member's path relative to the version's folder, or ArchiveError if it leaves it or
    no file system could hold it."""
    if not name or "\x00" in name:
        raise ArchiveError(f"member {shown(name)} has an empty or invalid name")
    # A zip made on Windows may use backslashes: judge them as separators too.
    posix = name.replace("\\", "/")
    if posix.startswith("/") or (len(posix) > 1 and posix[1] == ":"):
        raise ArchiveError(
            f"member {shown(name)} has an absolute path; archive the bot's folder "
            f"with paths relative to it"
        )
    path = PurePosixPath(posix)
    if ".." in path.parts:
        raise ArchiveError(
            f"member {shown(name)} contains '..' (it would unpack outside the bot's folder)"
        )
    if any(len(part.encode("utf-8", "surrogateescape")) > NAME_MAX for part in path.parts):
        raise ArchiveError(
            f"member {shown(name)} has a file or folder name longer than {NAME_MAX} bytes; "
            "use shorter names"
        )
    if len(posix.encode("utf-8", "surrogateescape")) > PATH_MAX:
        raise ArchiveError(
            f"member {shown(name)} has a path longer than {PATH_MAX} bytes; use a flatter "
            "folder layout"
        )
    return path


class _Budget:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.files = 0
        self.bytes = 0

    def member(self, name: str) -> None:
        self.files += 1
        if self.files > self.limits.max_files:
            self.too_many()

    def too_many(self) -> None:
        raise ArchiveError(
            f"the archive has more than {self.limits.max_files} members; "
            f"leave out build outputs and data the bot does not need"
        )

    def add(self, size: int, name: str) -> None:
        self.bytes += size
        if self.bytes > self.limits.max_bytes:
            raise ArchiveError(
                f"the archive unpacks to more than {self.limits.max_bytes:,} "
                f"bytes (at member {shown(name)}); the limit is "
                f"{self.limits.max_bytes // 2**20} MiB unpacked"
            )


class _BoundedStream:
    """The decompressed bytes of a .tar.gz as tarfile reads them, counted: a read that would
    pass `limit` in all, or one larger than TAR_READ_MAX, is refused *before* it happens. So a
    giant long-name or pax header (which tarfile reads whole, before any member is judged) costs
    neither memory nor time, and headers count against the unpack limit like data."""

    def __init__(self, raw: IO[bytes], limit: int, max_bytes: int) -> None:
        self.gz = gzip.GzipFile(fileobj=raw, mode="rb")
        self.limit, self.max_bytes = limit, max_bytes
        self.pos = 0

    def _allow(self, size: int) -> None:
        if size > TAR_READ_MAX:
            raise ArchiveError(
                f"the archive has a tar header of {size:,} bytes (a long file name or pax "
                f"header); at most {TAR_READ_MAX // 1024} KiB is allowed, and names at most "
                f"{PATH_MAX} bytes"
            )
        if self.pos + size > self.limit:
            raise ArchiveError(
                f"the archive unpacks to more than {self.limit:,} bytes of tar data (its "
                f"files plus headers); the limit is {self.max_bytes // 2**20} MiB unpacked"
            )

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:  # tarfile always asks for a size; never read it all
            size = TAR_READ_MAX
        self._allow(size)
        data = self.gz.read(size)
        self.pos += len(data)
        return data

    def seek(self, offset: int, whence: int = 0) -> int:
        """tarfile seeks forward only (past a member's data and padding): skip by reading."""
        target = offset if whence == 0 else self.pos + offset
        if whence not in (0, 1) or target < self.pos:
            raise ArchiveError("the .tar.gz archive cannot be read in order")
        while self.pos < target:
            if not self.read(min(CHUNK, target - self.pos)):
                break
        return self.pos

    def tell(self) -> int:
        return self.pos


def unpack(archive: Path, dest: Path, limits: Limits = Limits()) -> Unpacked:
    """Unpack `archive` into the new folder `dest` (which must not exist), or raise
    ArchiveError and leave no `dest` behind."""
    with open(archive, "rb") as f:
        kind = sniff(f.read(8))
    if kind is None:
        raise ArchiveError(
            "not a .zip or .tar.gz archive (its first bytes are neither); "
            "make one with `zip -r bot.zip mybot` or `tar czf bot.tar.gz mybot`"
        )
    dest.mkdir(parents=True)
    try:
        budget = _Budget(limits)
        if kind == "zip":
            _unzip(archive, dest, budget)
        else:
            _untar(archive, dest, budget)
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise
    return Unpacked(budget.files, budget.bytes, kind)


def _untar(archive: Path, dest: Path, budget: _Budget) -> None:
    limits = budget.limits
    limit = limits.max_bytes + (limits.max_files + 1) * TAR_HEADER_ALLOWANCE
    try:
        with open(archive, "rb") as raw:
            # read, seek forward and tell are all tarfile's "r" mode uses (typeshed asks more).
            stream = cast(IO[bytes], _BoundedStream(raw, limit, limits.max_bytes))
            with tarfile.TarFile(fileobj=stream) as tar:
                _untar_members(tar, dest, budget)
    except OSError as exc:
        raise ArchiveError(f"not a readable .tar.gz archive ({_why(exc)})") from None
    except (tarfile.TarError, EOFError) as exc:
        raise ArchiveError(f"not a readable .tar.gz archive ({exc})") from None
    except RecursionError:  # tarfile follows a chain of long-name/pax headers recursively
        raise ArchiveError(
            "not a readable .tar.gz archive (a chain of long-name or pax headers)"
        ) from None


def _untar_members(tar: tarfile.TarFile, dest: Path, budget: _Budget) -> None:
    for member in tar:  # lazily: a bomb is refused at the member that crosses the line
        budget.member(member.name)
        check_name(member.name)
        if member.issym() or member.islnk():
            raise ArchiveError(
                f"member {shown(member.name)} is a link (to "
                f"{shown(member.linkname)}); links are not allowed, archive "
                f"the files themselves"
            )
        if not (member.isfile() or member.isdir()):
            raise ArchiveError(
                f"member {shown(member.name)} is a device, FIFO or other "
                f"special file; only files and folders are allowed"
            )
        budget.add(member.size, member.name)
        try:
            # The data filter keeps an executable bit and drops set-id bits,
            # group/other write and owners.
            tar.extract(member, dest, filter="data")
        except tarfile.FilterError as exc:
            # Its message names the destination, a server path: its kind says enough.
            raise ArchiveError(
                f"member {shown(member.name)} refused by the safe-extraction filter "
                f"({type(exc).__name__})"
            ) from None
        except OSError as exc:
            raise ArchiveError(
                f"member {shown(member.name)} cannot be unpacked: {_why(exc)}"
            ) from None


def _count_zip_members(archive: Path, limits: Limits) -> None:
    """Refuse a zip with more than `max_files` members *before* `zipfile` reads its index.

    `zipfile.ZipFile` builds an object for every entry of the central directory as it opens the
    file, some 500 bytes of memory for 46 bytes of archive: a 20 MiB upload of empty members
    would cost a worker hundreds of MB before the member limit is checked. The entry count the
    end record declares may lie (zipfile reads entries until the directory's size, not its
    count), so the directory itself is walked, header by header, up to one past the limit. The
    end record is found by zipfile's own reader (private, but the one whose result zipfile
    parses), so the walk covers the bytes zipfile will read. A directory the walk cannot follow
    is refused (it does not trust zipfile to refuse it too: that would be a way round)."""
    budget = _Budget(limits)
    with open(archive, "rb") as f:
        end = _ZIP_END_RECORD(f)
        if not end:
            return  # no end record: zipfile says the file is not a zip
        if end[_ECD_ENTRIES_TOTAL] > limits.max_files:
            budget.too_many()
        size, location = end[_ECD_SIZE], end[_ECD_LOCATION]
        if end[_ECD_SIGNATURE] == ZIP64_END:
            # The directory ends where the zip64 end record starts. zipfile's reader gives the
            # plain end record's place (Python up to 3.11.13) or, patched (CVE-2025-8291), the
            # zip64 record's: whichever record is there says which.
            f.seek(location)
            if f.read(4) == PLAIN_END:
                location -= ZIP64_END_BYTES
        damaged = ArchiveError("not a readable .zip archive (its central directory is damaged)")
        start = pos = location - size
        if start < 0:
            raise damaged
        while pos < start + size:
            f.seek(pos)
            header = f.read(CENTRAL_HEADER_BYTES)
            if len(header) < CENTRAL_HEADER_BYTES or header[:4] != CENTRAL_HEADER:
                raise damaged
            name, extra, comment = struct.unpack("<HHH", header[28:34])
            budget.member("")
            pos += CENTRAL_HEADER_BYTES + name + extra + comment


def _unzip(archive: Path, dest: Path, budget: _Budget) -> None:
    try:
        _count_zip_members(archive, budget.limits)
        with zipfile.ZipFile(archive) as zf:
            infos = zf.infolist()
            seen: set[str] = set()
            for info in infos:  # every member is judged before the first is written
                budget.member(info.filename)
                name = str(check_name(info.filename))
                if name in seen:
                    raise ArchiveError(f"member {shown(info.filename)} appears twice")
                seen.add(name)
                mode = info.external_attr >> 16  # unix mode where a unix tool made it
                if stat.S_ISLNK(mode):
                    raise ArchiveError(
                        f"member {shown(info.filename)} is a symbolic link; links "
                        f"are not allowed, archive the files themselves"
                    )
                if stat.S_IFMT(mode) and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                    raise ArchiveError(
                        f"member {shown(info.filename)} is a device, FIFO or other "
                        f"special file; only files and folders are allowed"
                    )
                if info.flag_bits & 0x1:
                    raise ArchiveError(
                        f"member {shown(info.filename)} is encrypted; upload an "
                        f"archive without a password"
                    )
            declared = _Budget(budget.limits)
            for info in infos:
                declared.add(info.file_size, info.filename)
            for info in infos:
                target = dest.joinpath(*check_name(info.filename).parts)
                if info.is_dir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                try:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    with zf.open(info) as src, open(target, "xb") as out:
                        _copy(src, out, budget, info.filename)
                except OSError as exc:
                    raise ArchiveError(
                        f"member {shown(info.filename)} cannot be unpacked: {_why(exc)}"
                    ) from None
                if (info.external_attr >> 16) & 0o111:  # a script or program made on unix
                    target.chmod(0o755)
    except OSError as exc:
        raise ArchiveError(f"not a readable .zip archive ({_why(exc)})") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError) as exc:
        raise ArchiveError(f"not a readable .zip archive ({exc})") from None


def _copy(src: IO[bytes], out: IO[bytes], budget: _Budget, name: str) -> None:
    """Copy one member, counting what it really unpacks to (its header's size may lie)."""
    while chunk := src.read(CHUNK):
        budget.add(len(chunk), name)
        out.write(chunk)


def bot_root(folder: Path) -> Path:
    """Where the bot is in an unpacked archive: the folder itself, or its one top folder when
    the archive holds the bot's folder (`zip -r bot.zip mybot`)."""

    def is_bot(p: Path) -> bool:
        return (p / "bot.toml").is_file() or (p / "bot.py").is_file()

    if is_bot(folder):
        return folder
    inside = [p for p in folder.iterdir() if not p.name.startswith(".") and p.name != "__MACOSX"]
    if len(inside) == 1 and inside[0].is_dir() and is_bot(inside[0]):
        return inside[0]
    raise ArchiveError(
        "no bot.py or bot.toml at the top of the archive (nor in its one top "
        "folder); archive the bot's folder, e.g. `zip -r bot.zip mybot`"
    )


def entry_spec(root: Path) -> str:
    """The launcher's spec of the bot at `root`: its folder when it has a bot.toml (any
    language), else its bot.py."""
    return str(root) if (root / "bot.toml").is_file() else str(root / "bot.py")
