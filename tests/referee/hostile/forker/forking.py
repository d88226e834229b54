"""The forker's children, started from threads: none of them may run while the bot is stopped.

- One thread keeps LIVE children alive, each in a new session (out of the bot's process group),
  spinning 0.3 s: stopping the bot's process group alone would leave them running.
- Two threads fork without pause, each fork slowed to milliseconds by the memory the bot holds
  (its page tables are copied): a stop of the bot nearly always comes in the middle of one. A
  fork under way completes; its child, unless stopped too, finds its parent stopped (the other's
  time), writes REPORT to stderr (the bot's log) and spins 0.3 s. A child that finds its parent
  running exits.

Run as a program (`python forking.py`), it forks the same way without being a bot.
"""

import os
import threading
import time

LIVE = 12  # long-lived children at once (the process cap counts them)
BALLAST = int(os.environ.get("AZUL_TEST_BALLAST_MB", "128")) << 20
REPORT = "ran while its parent was stopped"


def spin(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def parent_stopped():
    try:
        with open(f"/proc/{os.getppid()}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("T", "t")
    except (OSError, IndexError):
        return False


def keep_alive():
    live = set()
    while True:
        for pid in list(live):
            if os.waitpid(pid, os.WNOHANG)[0]:
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
    """A child's life: compute if the parent is stopped (and say so), else end."""
    os.setsid()
    if parent_stopped():  # it runs on the other's time
        os.write(2, f"child {os.getpid()} {REPORT}\n".encode())
        spin(0.3)


def keep_forking(ballast):
    while True:
        pid = os.fork()
        if pid == 0:
            try:
                sneak()
            finally:
                os._exit(0)
        os.waitpid(pid, 0)


def start():
    ballast = bytearray(BALLAST)
    for i in range(0, len(ballast), 4096):  # touched: its pages are the fork's work
        ballast[i] = 1
    threading.Thread(target=keep_alive, daemon=True).start()
    for _ in range(2):
        threading.Thread(target=keep_forking, args=(ballast,), daemon=True).start()


if __name__ == "__main__":
    start()
    while True:
        time.sleep(1)
