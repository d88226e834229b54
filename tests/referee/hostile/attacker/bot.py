"""A bot that tries, before its Hello, everything an untrusted bot should not be able to do, and
writes one line per attempt to its log: `ATTEMPT name blocked|SUCCEEDED detail`. What it aims
at comes from AZUL_TEST_* variables (the test passes them with --bot-env). Then it plays."""

import ctypes
import os
import signal
import socket
import sys
import tempfile
import time

import sdk

MiB = 1 << 20


def report(name, succeeded, detail=""):
    print(f"ATTEMPT {name} {'SUCCEEDED' if succeeded else 'blocked'} {detail}"[:300], flush=True)


def attempt(name, action):
    try:
        result = action()
    except BaseException as exc:
        report(name, False, f"{type(exc).__name__}: {exc}")
        return
    report(name, bool(result), repr(result)[:80])


def read_db():
    with open(os.environ["AZUL_TEST_DB"], "rb") as db:
        return db.read(16).startswith(b"SQLite format 3")


def read_peer():
    with open(os.environ["AZUL_TEST_PEER"]) as peer:
        return "PEER-SOURCE" in peer.read()


def read_home():
    """A file the organiser keeps in their home folder, and what else the folder holds."""
    home_file = os.environ["AZUL_TEST_HOME_FILE"]
    with open(home_file) as private:
        return f"{private.read()} beside {os.listdir(os.path.dirname(home_file))}"


def write_beside_db():
    path = os.path.join(os.path.dirname(os.environ["AZUL_TEST_DB"]), "pwned")
    with open(path, "w") as out:
        out.write("pwned")
    return True


def write_host_tmp():
    with open(os.environ["AZUL_TEST_TMPFILE"], "w") as out:
        out.write("pwned")
    return True  # the test looks at the host's /tmp: inside a sandbox this is a private one


def find_secret():
    name = os.environ["AZUL_TEST_SECRET_NAME"]
    if name in os.environ:
        return "in its environment"
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/environ", "rb") as env:
                if f"{name}=".encode() in env.read():
                    return f"in /proc/{pid}/environ"
        except OSError:
            continue
    return False


def connect_tcp():
    with socket.create_connection(("127.0.0.1", int(os.environ["AZUL_TEST_PORT"])), timeout=2):
        return True


def fork_300():
    children = []
    try:
        for _ in range(300):
            pid = os.fork()
            if pid == 0:
                time.sleep(60)
                os._exit(0)
            children.append(pid)
        return len(children)
    finally:  # give the pids back: the bot still needs threads to play
        for pid in children:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


def _in_child(action):
    """Whether `action` (returning 0 on success, as libc does) succeeds in a forked child: the
    bot itself stays as it was, to play."""
    pid = os.fork()
    if pid == 0:
        os._exit(0 if action() == 0 else 1)
    return os.waitpid(pid, 0)[1] == 0


def new_namespace():
    """A new user and network namespace (a way to capabilities, and into kernel bugs)."""
    libc = ctypes.CDLL(None, use_errno=True)
    return _in_child(lambda: libc.unshare(0x10000000 | 0x40000000))


def ptrace_child():
    """Attach to a process of its own (the seccomp filter refuses ptrace in the sandbox)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    target = os.fork()
    if target == 0:
        time.sleep(30)
        os._exit(0)
    try:
        return libc.ptrace(16, target, None, None) == 0  # PTRACE_ATTACH
    finally:
        os.kill(target, signal.SIGKILL)
        os.waitpid(target, 0)


def allocate_16g():
    block = bytearray(16 << 30)
    return len(block)


def fill_tmp():
    path = os.path.join(tempfile.gettempdir(), "fill")
    try:
        with open(path, "wb") as out:
            for _ in range(200):
                out.write(b"x" * MiB)
                out.flush()
        return 200
    finally:
        os.unlink(path)


def flood_stdout():
    for _ in range(300):
        sys.stdout.buffer.write(b"y" * MiB)
    sys.stdout.flush()
    return 300


class AttackerBot(sdk.Bot):
    def __init__(self):
        super().__init__()
        for name, action in [
            ("read_db", read_db),
            ("read_peer", read_peer),
            ("read_home", read_home),
            ("write_beside_db", write_beside_db),
            ("write_host_tmp", write_host_tmp),
            ("find_secret", find_secret),
            ("connect_tcp", connect_tcp),
            ("fork_300", fork_300),
            ("allocate_16g", allocate_16g),
            ("fill_tmp", fill_tmp),
            ("new_namespace", new_namespace),
            ("ptrace_child", ptrace_child),
        ]:
            attempt(name, action)
        print("ATTEMPTS DONE", flush=True)
        try:
            flood_stdout()  # last: past the log's limit nothing more can be written
        except OSError:
            pass

    def choose_move(self, state):
        return state.legal_moves()[0]
