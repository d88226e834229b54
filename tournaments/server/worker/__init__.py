"""The worker: the loop that draws every kind of work (ranked games, challenges, version tests,
analyses, the final) by the contest's shares (`worker.shares`, what waits: `worker.backlog`),
and the organisers' operations that see all of them (`worker.services`, the contest's admin).
It sits above the apps whose work it draws."""
