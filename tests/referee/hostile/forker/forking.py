"""The forker's children, started from threads: none of them may run while the bot is stopped.

- One thread keeps LIVE children alive, each in a new session (out of the bot's process group),
  spinning 0.3 s: stopping the bot's process group alone would leave them running.
- Two threads fork without pause, each fork slowed to tens of milliseconds by the memory the
  bot holds (its page tables are copied): a stop (or freeze) of the bot nearly always comes in
  the middle of one. A fork under way completes; its child, unless stopped too, computes while
  its parent stays stopped (the other's time): after RAN seconds of CPU so, it writes REPORT to
  stderr (the bot's log). A child that finds its parent running exits at once, as does one
  stopped with its parent (it finds it running once both are continued): only a child left
  running reports.

Run as a program (`python forking.py`), it forks from the two threads only, without being a bot
(tests/referee/test_stopping.py).
"""

import os
import threading
import time

LIVE = 12  # long-lived children at once (the process cap counts them)
BALLAST = int(os.environ.get("AZUL_TEST_BALLAST_MB", "128")) << 20
REPORT = "ran while its parent was stopped"
FORKERS = 2  # threads forking without pause
RAN = 0.002  # CPU seconds: far more than a child stopped just after it looked could get


def spin(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def parent_stopped():
    """Whether the parent is held: stopped by a signal, or in the cgroup v2 freezer's trap (it
    sleeps in get_signal, where nothing else leaves a sleeping process)."""
    try:
        with open(f"/proc/{os.getppid()}/stat") as f:
            if f.read().rsplit(")", 1)[1].split()[0] in ("T", "t"):
                return True
        with open(f"/proc/{os.getppid()}/wchan") as f:
            return f.read() == "get_signal"
    except (OSError, IndexError):
        return False


def keep_alive():
    live = set()
    while True:
        for pid in list(live):
            try:
                if os.waitpid(pid, os.WNOHANG)[0]:
                    live.discard(pid)
            except ChildProcessError:  # reaped by a forking thread (reap)
                live.discard(pid)
        if len(live) < LIVE:
            pid = os.fork()
            if pid == 0:
                os.setsid()
                spin(0.3)
                os._exit(0)
            live.add(pid)
        time.sleep(0.002)


def sneak():
    """A child's life: compute while the parent is stopped (and say so once it did), else end."""
    os.setsid()
    while parent_stopped():  # it runs on the other's time
        if time.process_time() >= RAN:
            os.write(2, f"child {os.getpid()} {REPORT}\n".encode())
            return
        spin(0.001)


def reap():
    """Collect the children that ended (any thread's)."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:  # none left
        pass


def keep_forking(ballast):
    """Fork again as soon as a fork returns (its child ends on its own): the thread is nearly
    always in a fork."""
    while True:
        if os.fork() == 0:
            try:
                sneak()
            finally:
                os._exit(0)
        reap()


def start(spinners=True):
    ballast = bytearray(BALLAST)
    for i in range(0, len(ballast), 4096):  # touched: its pages are the fork's work
        ballast[i] = 1
    if spinners:
        threading.Thread(target=keep_alive, daemon=True).start()
    for _ in range(FORKERS):
        threading.Thread(target=keep_forking, args=(ballast,), daemon=True).start()


if __name__ == "__main__":
    start(spinners=False)
    os.write(2, b"forking\n")  # the ballast is in place
    while True:
        time.sleep(1)
