"""The sandbox's seccomp filter (referee/seccomp.py): each refused call fails with EPERM inside
the sandbox (clone3 with ENOSYS, so that libc falls back to clone), what a bot needs still
works, and without the filter the same calls fail otherwise or succeed (the filter, not a
missing capability, is what refuses them)."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee import sandbox, seccomp

PROBE = Path(__file__).parent / "hostile" / "syscalls" / "probe.py"


def need_filter() -> None:
    why = sandbox.probe("sandbox") or seccomp.unavailable()
    if why is not None:
        pytest.skip(f"no sandbox with a seccomp filter here: {why}")


def numbers() -> dict[str, int]:
    """The system call numbers of this machine, from libseccomp (those it knows)."""
    import pyseccomp as sc

    names = [*seccomp.REFUSED, "clone", "clone3", *seccomp.SOCKET_CALLS]
    found = {}
    for name in names:
        try:
            number = sc.resolve_syscall(sc.system_arch(), name)
        except (OSError, ValueError):
            continue
        if number >= 0:
            found[name] = number
    return found


def run_probe(tmp_path: Path) -> dict[str, int]:
    place = sandbox.Place(tmp_path, PROBE.parent)
    argv = sandbox.command(
        [sys.executable, "/bot/probe.py", json.dumps(numbers())],
        "sandbox",
        sandbox.Limits(),
        place,
        sandbox.environment("sandbox", tmp_path, {}),
    )
    out = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    found: dict[str, int] = json.loads(out.stdout.splitlines()[-1])
    return found


def test_each_refused_call_gets_eperm_and_the_rest_works(tmp_path: Path) -> None:
    need_filter()
    found = run_probe(tmp_path)
    allowed = {"socket AF_UNIX", "socketpair AF_UNIX", "fork"}
    assert {k: v for k, v in found.items() if k in allowed} == dict.fromkeys(allowed, 0)
    refused = {k: v for k, v in found.items() if k not in allowed}
    expected = {k: errno.ENOSYS if k == "clone3" else errno.EPERM for k in refused}
    assert refused == expected, {k: errno.errorcode.get(v, v) for k, v in refused.items()}
    for name in (
        "ptrace",
        "mount",
        "keyctl",
        "bpf",
        "perf_event_open",
        "userfaultfd",
        "unshare",
        "setns",
        "kexec_load",
        "init_module",
        "finit_module",
        "delete_module",
        "socket AF_INET",
        "socket AF_INET6",
        "clone CLONE_NEWUSER",
    ):
        assert name in refused, f"{name} was not tried"


def test_without_the_filter_the_same_calls_are_not_all_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: the sandbox without its filter lets several of them through or fails them
    for another reason, so the EPERMs above are the filter's."""
    need_filter()
    monkeypatch.setattr(seccomp, "filter_file", lambda: None)
    found = run_probe(tmp_path)
    for name in (
        "socket AF_INET",
        "ptrace",
        "keyctl",
        "unshare",
        "clone CLONE_NEWUSER",
        "bpf",
        "io_uring_setup",
        "clone3",
    ):
        if name in found:
            assert found[name] not in (errno.EPERM, errno.ENOSYS), (name, found[name])


def test_without_libseccomp_the_isolation_line_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from tournaments.commands.common import isolation_line

    monkeypatch.setattr(seccomp, "unavailable", lambda: "libseccomp cannot be loaded (test)")
    assert "no seccomp filter: libseccomp cannot be loaded (test)" in isolation_line("sandbox")
    assert "seccomp" not in isolation_line("process")  # no filter is promised there


def test_the_filter_is_a_sealed_memory_file_each_open_reads_from_the_start() -> None:
    # No file on disk: nothing another user could swap, nothing a SIGKILL leaves behind.
    fd = seccomp._sealed(b"a program")
    path = Path(f"/proc/{os.getpid()}/fd/{fd}")
    assert os.readlink(path).startswith("/memfd:azul-arena-seccomp")
    with open(path, "rb") as one, open(path, "rb") as two:
        assert one.read() == b"a program" and two.read() == b"a program"
    with pytest.raises(PermissionError):
        os.pwrite(fd, b"weaker", 0)  # sealed: not even this process may change it
    reader = subprocess.run(
        seccomp.wrap(["/bin/sh", "-c", f"cat <&{seccomp.SECCOMP_FD}"], path), capture_output=True
    )
    assert reader.stdout == b"a program", reader.stderr  # what bwrap reads, in a child
    os.close(fd)
