"""On its first move, a bot whose processes together go over its memory cgroup's limit while
each stays under its own address-space limit: children (fresh interpreters, small) touch memory
until the kernel's OOM killer ends one, and the bot has made itself the one it picks
(oom_score_adj 1000)."""

import os
import sys
import time

import sdk

CHILDREN = 8
HOG = (
    "import os, time\n"
    "os.nice(5)\n"  # the machine is shared: the referee stays ahead of these
    "with open('/proc/self/oom_score_adj', 'w') as adj: adj.write('0')\n"
    "held = []\n"
    "for _ in range(15):\n"
    "    held.append(b'x' * (8 << 20))\n"  # touched: counted by the memory cgroup
    "    time.sleep(0.01)\n"
    "time.sleep(60)\n"
)


class HogBot(sdk.Bot):
    def choose_move(self, state):
        with open("/proc/self/oom_score_adj", "w") as adj:
            adj.write("1000")  # the largest badness in the cgroup: this process is the victim
        for _ in range(CHILDREN):
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-c", HOG])
        time.sleep(30)  # killed before this ends
        return state.legal_moves()[0]
