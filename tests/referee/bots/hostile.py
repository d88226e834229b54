"""Tries to harm everything it can reach: it writes to AZUL_TEST_REPORT how many other processes
it can see, then SIGKILLs all of them and its parent, then plays on. Run only isolated."""

import os
import signal

import sdk


class HostileBot(sdk.Bot):
    done = False

    def choose_move(self, state):
        if not self.done:
            self.done = True
            me = os.getpid()
            others = [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != me]
            with open(os.environ["AZUL_TEST_REPORT"], "w") as report:
                report.write(f"{len(others)} {os.getppid()}\n")
            for pid in [*others, os.getppid()]:
                if pid > 0:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
        return state.legal_moves()[0]
