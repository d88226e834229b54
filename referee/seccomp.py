"""The seccomp filter of the sandbox: system calls a bot never needs are refused with EPERM.

The filter is built with libseccomp (through `pyseccomp`, its ctypes binding), exported as a
BPF program to a sealed memory file (no file on disk: nothing another user could swap, and
nothing left behind by a referee killed with SIGKILL), and handed to bubblewrap
(`--seccomp FD`), which installs it just before it runs the bot: it binds the bot and
everything the bot starts, not bubblewrap itself. A refused call fails like any failed call
(EPERM, or ENOSYS for `clone3`, whose flags a filter cannot read: libc then falls back to
`clone`, which the filter can judge), so a bot that tries one keeps playing. Calls of another
architecture's table (32-bit x86 on x86-64) kill the caller (libseccomp's default for a
foreign architecture).

Refused: debugging other processes, mounting, the kernel keyring, BPF, perf events,
userfaultfd, new namespaces (unshare, setns, clone with a CLONE_NEW* flag), kexec, kernel
modules, io_uring, and sockets of any family but AF_UNIX (the referee's socket is a unix one).
"""

from __future__ import annotations

import errno
import fcntl
import functools
import os
import socket
import tempfile
from pathlib import Path

# What a bot never needs, refused whatever the arguments.
REFUSED = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",  # another process's memory
    "mount",
    "umount2",
    "pivot_root",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",  # the old and the new mount API
    "keyctl",
    "add_key",
    "request_key",  # the kernel keyring
    "bpf",
    "perf_event_open",
    "userfaultfd",  # frequent ways into a kernel bug
    "unshare",
    "setns",  # new namespaces, another process's namespaces
    "kexec_load",
    "kexec_file_load",  # a new kernel
    "init_module",
    "finit_module",
    "delete_module",  # kernel modules
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",  # syscalls that bypass seccomp
)
# clone() flags that make new namespaces: refused as unshare is.
NAMESPACE_FLAGS = {
    "CLONE_NEWNS": 0x00020000,
    "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
    "CLONE_NEWTIME": 0x00000080,
}
SOCKET_CALLS = ("socket", "socketpair")  # their first argument is the address family
SECCOMP_FD = 3  # the descriptor bubblewrap reads the filter from (`--seccomp 3`)


def unavailable() -> str | None:
    """None when the filter is in use here, else why not (what to install)."""
    return _built()[1]


def build() -> bytes:
    """The filter as a BPF program (what `bwrap --seccomp` reads)."""
    import pyseccomp as sc

    refuse = sc.ERRNO(errno.EPERM)
    flt = sc.SyscallFilter(defaction=sc.ALLOW)
    for name in REFUSED:
        try:
            flt.add_rule(refuse, name)
        except (OSError, ValueError, RuntimeError):  # a call this kernel/libseccomp lacks
            continue
    for flag in NAMESPACE_FLAGS.values():
        flt.add_rule(refuse, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    flt.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    for name in SOCKET_CALLS:
        flt.add_rule(refuse, name, sc.Arg(0, sc.NE, socket.AF_UNIX))
    with tempfile.TemporaryFile() as out:
        flt.export_bpf(out)
        out.seek(0)
        return out.read()


def filter_file() -> Path | None:
    """The filter, as a path this process's children can open (its sealed memory file seen
    through /proc); None where it cannot be built (see `unavailable`)."""
    fd = _built()[0]
    # Named at each call: a process forked after the build holds the same descriptor.
    return None if fd is None else Path(f"/proc/{os.getpid()}/fd/{fd}")


def _sealed(program: bytes) -> int:
    """A descriptor of a memory file holding `program`, sealed: nobody, this process included,
    can change it. Memory, not a file in /tmp: nothing to find, replace or leave behind. Each
    open of its /proc path is a description of its own, read from the start (bwrap reads the
    filter to its end)."""
    fd = os.memfd_create("azul-arena-seccomp", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    view = memoryview(program)
    while view:
        view = view[os.write(fd, view) :]
    fcntl.fcntl(
        fd,
        fcntl.F_ADD_SEALS,
        fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE,
    )
    return fd


@functools.cache
def _built() -> tuple[int | None, str | None]:
    try:
        import pyseccomp  # noqa: F401 - raises OSError when libseccomp is missing
    except ImportError:
        return None, "the Python package pyseccomp is missing (make install)"
    except OSError as exc:
        return None, f"libseccomp cannot be loaded ({exc}): apt-get install libseccomp2"
    try:
        fd = _sealed(build())
    except (OSError, RuntimeError, ValueError) as exc:
        return None, f"the filter could not be built ({exc})"
    return fd, None


def wrap(argv: list[str], path: Path) -> list[str]:
    """`argv` (a bwrap command line with `--seccomp SECCOMP_FD`) run with the filter file open
    on that descriptor. A shell opens it: each launch gets its own descriptor (bwrap reads it
    to the end; a shared one would share its offset), and the shell is replaced by `argv`."""
    return ["/bin/sh", "-c", f'exec "$@" {SECCOMP_FD}<"$0"', str(path), *argv]
