"""Hostile and honest archives through `unpack`: every refusal names what is wrong, and nothing
is ever written outside the version's folder (the test looks at the folder's parent)."""

from __future__ import annotations

import gzip
import io
import os
import stat
import subprocess
import sys
import tarfile
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from tournaments.server.submissions import archives
from tournaments.server.submissions.archives import (
    ArchiveError,
    Limits,
    bot_root,
    entry_spec,
    unpack,
)

BOT = b"import sdk\n"


def make_tar(path: Path, members: list[tuple[tarfile.TarInfo, bytes | None]]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for info, data in members:
            if data is not None:
                info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return path


def tar_file(name: str, data: bytes = BOT) -> tuple[tarfile.TarInfo, bytes]:
    return tarfile.TarInfo(name), data


def tar_special(name: str, kind: bytes, link: str = "") -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = link
    return info, None


def make_zip(path: Path, members: list[tuple[str | zipfile.ZipInfo, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            zf.writestr(name, data)
    return path


def zip_mode(name: str, mode: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.external_attr = mode << 16
    return info


def refused(archive: Path, tmp_path: Path, match: str, limits: Limits | None = None) -> None:
    before = sorted(p.name for p in tmp_path.iterdir())
    dest = tmp_path / "out" / "bot"
    with pytest.raises(ArchiveError, match=match):
        unpack(archive, dest, limits or Limits())
    assert not dest.exists(), "a refused archive leaves no folder"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "out") == before
    assert not (tmp_path / "evil").exists() and not Path("/tmp/azul-arena-evil").exists()


def test_honest_tar_and_zip_unpack_and_find_the_bot(tmp_path: Path) -> None:
    tgz = make_tar(
        tmp_path / "a.tar.gz", [tar_file("mybot/bot.py"), tar_file("mybot/lib/util.py", b"x = 1\n")]
    )
    done = unpack(tgz, tmp_path / "t")
    assert (done.format, done.files) == ("tar.gz", 2)
    root = bot_root(tmp_path / "t")
    assert root == tmp_path / "t" / "mybot"
    assert entry_spec(root) == str(root / "bot.py")
    z = make_zip(tmp_path / "a.zip", [("bot.toml", b"[bot]\n"), ("main.js", b"//\n")])
    assert unpack(z, tmp_path / "z").format == "zip"
    assert entry_spec(bot_root(tmp_path / "z")) == str(tmp_path / "z")


@pytest.mark.parametrize("kind", ["tar", "zip"])
@pytest.mark.parametrize(
    "name, match",
    [
        ("../evil/bot.py", r"contains '\.\.'"),
        ("mybot/../../evil.py", r"contains '\.\.'"),
        ("/tmp/azul-arena-evil", "absolute path"),
        ("..\\evil.py", r"contains '\.\.'"),
    ],
)
def test_paths_leaving_the_folder_are_refused(
    tmp_path: Path, kind: str, name: str, match: str
) -> None:
    if kind == "tar":
        archive = make_tar(tmp_path / "x.tar.gz", [tar_file("bot.py"), tar_file(name)])
    else:
        archive = make_zip(tmp_path / "x.zip", [("bot.py", BOT), (name, b"x")])
    refused(archive, tmp_path, match)


@pytest.mark.parametrize(
    "member, match",
    [
        (tar_special("evil", tarfile.SYMTYPE, "/etc/passwd"), "is a link"),
        (tar_special("inside", tarfile.SYMTYPE, "bot.py"), "is a link"),
        (tar_special("hard", tarfile.LNKTYPE, "bot.py"), "is a link"),
        (tar_special("dev", tarfile.CHRTYPE), "device, FIFO"),
        (tar_special("blk", tarfile.BLKTYPE), "device, FIFO"),
        (tar_special("fifo", tarfile.FIFOTYPE), "device, FIFO"),
    ],
)
def test_tar_links_and_devices_are_refused(
    tmp_path: Path, member: tuple[tarfile.TarInfo, None], match: str
) -> None:
    archive = make_tar(tmp_path / "x.tar.gz", [tar_file("bot.py"), member])
    refused(archive, tmp_path, match)


def test_a_link_then_a_write_through_it_is_refused_at_the_link(tmp_path: Path) -> None:
    archive = make_tar(
        tmp_path / "x.tar.gz",
        [tar_special("d", tarfile.SYMTYPE, str(tmp_path)), tar_file("d/evil", b"x")],
    )
    refused(archive, tmp_path, "is a link")


@pytest.mark.parametrize(
    "mode, match",
    [
        (stat.S_IFLNK | 0o777, "symbolic link"),
        (stat.S_IFCHR | 0o666, "device, FIFO"),
        (stat.S_IFIFO | 0o666, "device, FIFO"),
    ],
)
def test_zip_links_and_devices_are_refused(tmp_path: Path, mode: int, match: str) -> None:
    archive = make_zip(
        tmp_path / "x.zip", [("bot.py", BOT), (zip_mode("evil", mode), b"/etc/passwd")]
    )
    refused(archive, tmp_path, match)


@pytest.mark.parametrize("kind", ["tar", "zip"])
def test_a_bomb_past_the_unpacked_limit_is_refused(tmp_path: Path, kind: str) -> None:
    big = bytes(3 * 2**20)  # compresses to a few KiB
    if kind == "tar":
        archive = make_tar(tmp_path / "x.tar.gz", [tar_file("bot.py"), tar_file("pad", big)])
    else:
        archive = make_zip(tmp_path / "x.zip", [("bot.py", BOT), ("pad", big)])
    assert archive.stat().st_size < 64 * 1024
    refused(archive, tmp_path, "unpacks to more than", Limits(max_bytes=2**20))


def test_a_zip_whose_header_lies_about_its_size_is_cut_at_the_limit(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "x.zip", [("bot.py", BOT), ("pad", bytes(3 * 2**20))])
    raw = bytearray(archive.read_bytes())
    # Rewrite the central directory's uncompressed size of "pad" to 10 bytes.
    cd = raw.rfind(b"PK\x01\x02")
    assert raw[cd + 46 : cd + 49] == b"pad"
    raw[cd + 24 : cd + 28] = (10).to_bytes(4, "little")
    archive.write_bytes(bytes(raw))
    dest = tmp_path / "out"
    with pytest.raises(ArchiveError):
        unpack(archive, dest, Limits(max_bytes=2**20))
    assert not dest.exists()


@pytest.mark.parametrize("kind", ["tar", "zip"])
def test_too_many_files_are_refused(tmp_path: Path, kind: str) -> None:
    names = [f"f{i}.py" for i in range(30)]
    if kind == "tar":
        archive = make_tar(tmp_path / "x.tar.gz", [tar_file(n) for n in names])
    else:
        archive = make_zip(tmp_path / "x.zip", [(n, BOT) for n in names])
    refused(archive, tmp_path, "more than 20 members", Limits(max_files=20))


def as_zip64(archive: Path) -> None:
    """Rewrite a zip's end record as zipfile writes it past 65,535 members: a zip64 end
    record and its locator, then a plain one whose fields say "see zip64"."""
    data = archive.read_bytes()
    end = data.rindex(b"PK\x05\x06")
    count, size, offset = (
        int.from_bytes(data[end + a : end + b], "little") for a, b in ((10, 12), (12, 16), (16, 20))
    )
    zip64 = (
        b"PK\x06\x06"
        + (44).to_bytes(8, "little")  # the size of the rest of this record
        + bytes([45, 3, 45, 0])  # made by, needed to extract: version 4.5
        + bytes(8)  # this disk, the directory's disk
        + count.to_bytes(8, "little") * 2  # entries on this disk, in all
        + size.to_bytes(8, "little")
        + offset.to_bytes(8, "little")
    )
    locator = b"PK\x06\x07" + bytes(4) + end.to_bytes(8, "little") + (1).to_bytes(4, "little")
    plain = b"PK\x05\x06" + bytes(4) + b"\xff\xff" * 2 + b"\xff" * 8 + bytes(2)
    archive.write_bytes(data[:end] + zip64 + locator + plain)


def many_empty_members(archive: Path, members: int, understated: bool) -> Path:
    """A zip of `members` empty members (zipfile writes a zip64 end record past 65,535); with
    `understated`, its end records declare 5 (the count is the attacker's to write)."""
    with zipfile.ZipFile(archive, "w") as zf:
        for i in range(members):
            zf.writestr(f"f{i}", b"")
    if understated:
        data = bytearray(archive.read_bytes())
        end = data.rindex(b"PK\x05\x06")
        if members > 65_535:  # the zip64 record's counts: 8 bytes each, at 24 and 32
            end64 = data.rindex(b"PK\x06\x06")
            data[end64 + 24 : end64 + 40] = (5).to_bytes(8, "little") * 2
        else:  # on this disk, in all: 2 bytes each
            data[end + 8 : end + 12] = (5).to_bytes(2, "little") * 2
        archive.write_bytes(bytes(data))
    assert (b"PK\x06\x06" in archive.read_bytes()[-200:]) == (members > 65_535)
    return archive


def refused_within_memory(archive: Path, tmp_path: Path) -> None:
    """Refused for its members, within 5 MiB of memory (zipfile's index: 33 MB and more)."""
    tracemalloc.start()
    try:
        refused(archive, tmp_path, "more than 2000 members")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5 * 2**20, f"refusing it took {peak:,} bytes of memory"


@pytest.mark.parametrize("members", [60_000, 70_000])
@pytest.mark.parametrize("understated", [False, True])
def test_a_zip_of_many_empty_members_is_refused_before_its_index_is_read(
    tmp_path: Path, members: int, understated: bool
) -> None:
    """60,000 empty members are 5 MB of zip, well under the upload limit; zipfile's index of
    them would take some 33 MB of the worker's memory before the member limit is checked. The
    count the end record declares may lie (zipfile reads the directory to its size, not its
    count): an understated one must not let the index be read. 70,000: a zip64 end record,
    read where zipfile reads it."""
    refused_within_memory(many_empty_members(tmp_path / "x.zip", members, understated), tmp_path)


def test_a_zip64_archive_is_counted_where_a_patched_zipfile_puts_its_end_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python's fix for CVE-2025-8291 (3.11.14, 3.12.12, 3.13.9) has zipfile's end-record
    reader give the zip64 record's place instead of the plain one's: the count must find the
    directory either way (this Python's reader is patched here as those releases behave)."""
    archive = many_empty_members(tmp_path / "x.zip", 70_000, understated=True)
    real = archives._ZIP_END_RECORD

    def patched(f):  # type: ignore[no-untyped-def]
        end = real(f)
        if end and end[0] == b"PK\x06\x06":
            size = f.seek(0, os.SEEK_END)
            f.seek(size - 200)  # the zip64 record, its locator and the plain end record
            end[9] = size - 200 + f.read().rindex(b"PK\x06\x06")  # _ECD_LOCATION: its place
        return end

    monkeypatch.setattr(archives, "_ZIP_END_RECORD", patched)
    refused_within_memory(archive, tmp_path)


@pytest.mark.parametrize("damage", ["directory larger than the file", "not a directory header"])
def test_a_zip_whose_directory_cannot_be_followed_is_refused(tmp_path: Path, damage: str) -> None:
    """The count does not leave a directory it cannot follow to zipfile (a parse that differs
    from the walk would be a way round it): refused, as a bad archive, never a server error."""
    archive = make_zip(tmp_path / "x.zip", [(f"f{i}.py", BOT) for i in range(3)])
    data = bytearray(archive.read_bytes())
    end = data.rindex(b"PK\x05\x06")
    if damage == "directory larger than the file":
        data[end + 12 : end + 16] = (10 * len(data)).to_bytes(4, "little")
    else:
        start = int.from_bytes(data[end + 16 : end + 20], "little")
        data[start : start + 4] = b"PK\x07\x08"
    archive.write_bytes(bytes(data))
    refused(archive, tmp_path, "not a readable .zip archive")


def test_an_honest_zip64_archive_unpacks(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "x.zip", [(f"f{i}.py", BOT) for i in range(30)])
    as_zip64(archive)
    with zipfile.ZipFile(archive) as zf:
        assert len(zf.infolist()) == 30  # a zip64 end record zipfile reads
    refused(archive, tmp_path, "more than 20 members", Limits(max_files=20))
    assert unpack(archive, tmp_path / "ok" / "bot", Limits(max_files=30)).files == 30


@pytest.mark.parametrize(
    "content, match",
    [
        (b"just text, not an archive", "not a .zip or .tar.gz"),
        (b"", "not a .zip or .tar.gz"),
        (b"PK\x03\x04" + b"\x00" * 40, "not a readable .zip"),
        (b"\x1f\x8b\x08\x00" + b"\x00" * 40, "not a readable .tar.gz"),
    ],
)
def test_wrong_or_broken_formats_are_refused(tmp_path: Path, content: bytes, match: str) -> None:
    archive = tmp_path / "x.bin"
    archive.write_bytes(content)
    refused(archive, tmp_path, match)


def test_a_plain_tar_without_gzip_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "x.tar"
    with tarfile.open(archive, "w") as tar:
        info = tarfile.TarInfo("bot.py")
        info.size = len(BOT)
        tar.addfile(info, io.BytesIO(BOT))
    refused(archive, tmp_path, "not a .zip or .tar.gz")


def test_an_encrypted_zip_member_is_refused(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "x.zip", [("bot.py", BOT)])
    raw = bytearray(archive.read_bytes())
    cd = raw.rfind(b"PK\x01\x02")
    raw[cd + 8] |= 0x1  # the central directory's "encrypted" flag
    archive.write_bytes(bytes(raw))
    refused(archive, tmp_path, "encrypted")


def test_duplicate_zip_members_are_refused(tmp_path: Path) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate name
        archive = make_zip(tmp_path / "x.zip", [("bot.py", BOT), ("bot.py", b"evil")])
    refused(archive, tmp_path, "appears twice")


def test_an_archive_without_a_bot_says_what_it_needs(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "x.zip", [("README.md", b"hi"), ("src/main.py", b"")])
    unpack(archive, tmp_path / "out")
    with pytest.raises(ArchiveError, match=r"no bot\.py or bot\.toml"):
        bot_root(tmp_path / "out")


def test_executable_bits_survive_and_nothing_else(tmp_path: Path) -> None:
    run = tarfile.TarInfo("run.sh")
    run.mode = 0o4777  # set-uid and world-writable: both dropped
    archive = make_tar(tmp_path / "x.tar.gz", [tar_file("bot.py"), (run, b"#!/bin/sh\n")])
    unpack(archive, tmp_path / "t")
    mode = (tmp_path / "t" / "run.sh").stat().st_mode
    assert mode & 0o111 and not mode & (stat.S_ISUID | 0o002)
    z = make_zip(
        tmp_path / "x.zip",
        [("bot.py", BOT), (zip_mode("run.sh", stat.S_IFREG | 0o755), b"#!/bin/sh\n")],
    )
    unpack(z, tmp_path / "z")
    assert (tmp_path / "z" / "run.sh").stat().st_mode & 0o111
    assert not (tmp_path / "z" / "bot.py").stat().st_mode & 0o111


GIANT = 400 * 2**20  # a 400 MiB header payload, ~400 KB compressed


def giant_header_tar(path: Path, kind: bytes) -> Path:
    """A .tar.gz whose first header announces a `kind` (GNU long name, pax) payload of 400 MiB.
    The payload is one gzip member of 1 MiB repeated: gzip readers join members into one
    stream, so it costs a few KB and milliseconds to make."""
    info = tarfile.TarInfo("././@LongLink")
    info.type, info.size = kind, GIANT
    header = gzip.compress(info.tobuf(tarfile.GNU_FORMAT))
    block = gzip.compress(b"a" * 2**20)
    with open(path, "wb") as out:
        out.write(header)
        for _ in range(GIANT // 2**20):
            out.write(block)
    return path


# Unpacks in a fresh interpreter and says how much its peak memory grew (KiB on Linux).
MEASURE = """
import resource, sys
from pathlib import Path
from tournaments.server.submissions.archives import ArchiveError, unpack
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    unpack(Path(sys.argv[1]), Path(sys.argv[2]))
    print("unpacked")
except ArchiveError as exc:
    print(exc)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""


@pytest.mark.parametrize("kind", [tarfile.GNUTYPE_LONGNAME, tarfile.XHDTYPE])
def test_a_giant_long_name_or_pax_header_is_refused_without_reading_it(
    tmp_path: Path, kind: bytes
) -> None:
    archive = giant_header_tar(tmp_path / "bomb.tar.gz", kind)
    assert archive.stat().st_size < 2 * 2**20
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(archive), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    message, grown_kib = done.stdout.strip().splitlines()
    assert "tar header of 419,430,400 bytes" in message
    assert "long file name or pax header" in message
    assert int(grown_kib) < 64 * 1024  # MiB: the payload was never read
    assert not (tmp_path / "out").exists()


def test_tar_headers_count_against_the_unpack_limit(tmp_path: Path) -> None:
    # One empty file under a 60 KB pax header (below the one-read bound): no data at all, but
    # the header passes the allowance of 4 KiB per member.
    info = tarfile.TarInfo("bot.py")
    info.pax_headers = {"comment": "x" * 60_000}
    archive = tmp_path / "pax.tar.gz"
    with tarfile.open(archive, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        tar.addfile(info, io.BytesIO(b""))
    refused(archive, tmp_path, "bytes of tar data", Limits(max_bytes=1024, max_files=1))
