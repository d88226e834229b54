"""A bot that looks around before its Hello and tries to leave state for a later game (of its
own or of another entry), writing one line per finding to its log:

    NOSY rlimit_as <its address-space limit>
    NOSY files <the files it sees in its own folder, relative, sorted>
    NOSY found <the diaries a previous bot process left where this one can read them>

then writes its own diary in every place it can write (its HOME and TMPDIR, /tmp, /dev/shm, its
own folder, AZUL_TEST_SHARED if set), and plays."""

import json
import os
import resource

import sdk

HERE = os.path.dirname(os.path.abspath(__file__))
MARKER = os.environ.get("AZUL_TEST_MARKER", "x")


def places():
    folders = [
        os.environ.get("HOME"),
        os.environ.get("TMPDIR"),
        "/tmp",
        "/dev/shm",
        HERE,
        os.environ.get("AZUL_TEST_SHARED"),
    ]
    return sorted({os.path.join(f, f"azul-diary-{MARKER}") for f in folders if f})


def look():
    print(f"NOSY rlimit_as {resource.getrlimit(resource.RLIMIT_AS)[0]}", flush=True)
    files = sorted(
        os.path.relpath(os.path.join(root, name), HERE)
        for root, _, names in os.walk(HERE)
        for name in names
        if "__pycache__" not in root
    )
    print(f"NOSY files {json.dumps(files)}", flush=True)
    found = []
    for path in places():
        try:
            with open(path) as diary:
                found.append(f"{path}: {diary.read()}")
        except OSError:
            continue
    print(f"NOSY found {json.dumps(found)}", flush=True)
    for path in places():
        try:
            with open(path, "w") as diary:
                diary.write(f"left by pid {os.getpid()} of {HERE}")
        except OSError:
            continue


class NosyBot(sdk.Bot):
    def __init__(self):
        super().__init__()
        look()

    def choose_move(self, state):
        return state.legal_moves()[0]


if __name__ == "__main__":
    sdk.run(NosyBot)
