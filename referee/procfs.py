"""Reading the kernel's small text files (/proc, cgroups) for the price of their system calls.

A bot's freeze reads its cgroup's process list and each process's /proc stat, and a benchmark
scans /proc: `Path.read_text()` costs some 60 us a file here (the path object, a text wrapper, an
fstat and an ioctl before the read), an open, read and close some 10 us. A kept-open file read
again with pread would be cheaper still, but a cgroup v1 process list keeps the list it read
first for as long as the file is open: it must be opened afresh.
"""

from __future__ import annotations

import os

_FLAGS = os.O_RDONLY | os.O_CLOEXEC
_CHUNK = 65536


def read_bytes(path: str) -> bytes:
    """The whole of the file at `path` (OSError as `open` raises it: gone, not allowed)."""
    fd = os.open(path, _FLAGS)
    try:
        # Read to the end: a seq_file (cgroup.procs) hands out a page or so a read, however
        # large the buffer.
        data = os.read(fd, _CHUNK)
        while chunk := os.read(fd, _CHUNK):
            data += chunk
        return data
    finally:
        os.close(fd)


def stat_fields(pid: int | str, tid: int | str | None = None) -> list[bytes]:
    """The fields of `/proc/PID/stat` (or of its thread TID) after the command's name: the
    state first, as proc(5) numbers them from 3 (IndexError or OSError when it is gone)."""
    path = f"/proc/{pid}/stat" if tid is None else f"/proc/{pid}/task/{tid}/stat"
    return read_bytes(path).rsplit(b")", 1)[1].split()
