"""Train a policy with masked policy gradient (advantage actor-critic), numpy only.

    python -m sdk.rl.examples.train --ruleset azul --opponent random --minutes 8 --out policy.npz

The policy is a perceptron over the environment's observation (one hidden ReLU layer, a logit
per action) with a value head beside it for the baseline; only legal actions get probability
(the mask). It plays 64 games at once in sdk.rl.VectorEnv against `--opponent`, in a random
seat each game, and learns from the points it gains and its results. Every `--eval-every`
updates it plays `--eval-games` games with its best action against the opponent and reports
the win rate; the best policy so far is saved to `--out` (a file PolicyBot plays).
Read it as a worked example: a page of numpy, each step of the gradient written out.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sdk.rl import VectorEnv
from sdk.rl.encoding import encoding_for
from sdk.rl.policy import save_policy

Array = Any


@dataclass
class Net:
    """Hidden layer (w0, b0), policy head (w1, b1), value head (wv, bv), and Adam's moments."""

    params: dict[str, Array]
    moments: dict[str, list[Array]] = field(default_factory=dict)
    steps: int = 0

    @classmethod
    def new(cls, inputs: int, hidden: int, actions: int, rng: np.random.Generator) -> Net:
        return cls(
            {
                "w0": rng.normal(0, np.sqrt(2 / inputs), (inputs, hidden)).astype(np.float32),
                "b0": np.zeros(hidden, np.float32),
                "w1": rng.normal(0, 0.01, (hidden, actions)).astype(np.float32),
                "b1": np.zeros(actions, np.float32),
                "wv": rng.normal(0, 0.01, (hidden, 1)).astype(np.float32),
                "bv": np.zeros(1, np.float32),
            }
        )

    def forward(self, obs: Array, mask: Array) -> tuple[Array, Array, Array]:
        """Hidden activations, masked action probabilities and values."""
        p = self.params
        h = np.maximum(obs @ p["w0"] + p["b0"], 0)
        logits = h @ p["w1"] + p["b1"]
        logits = np.where(mask > 0, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits) * (mask > 0)
        return h, e / e.sum(axis=1, keepdims=True), (h @ p["wv"] + p["bv"])[:, 0]

    def update(self, batch: dict[str, Array], lr: float, entropy: float) -> None:
        """One gradient step on -advantage * log pi(a) - entropy * H + 0.5 * (V - G)^2."""
        p, obs, mask, act = self.params, batch["obs"], batch["mask"], batch["act"]
        n = len(act)
        h, probs, values = self.forward(obs, mask)
        adv = batch["ret"] - values
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        # d(-A log p_a)/dlogits = A (p - onehot(a)); the entropy's: p (log p + H)
        dlogits = probs.copy()
        dlogits[np.arange(n), act] -= 1
        dlogits *= adv[:, None]
        logp = np.log(np.where(probs > 0, probs, 1))
        ent = -(probs * logp).sum(axis=1, keepdims=True)
        dlogits += entropy * probs * (logp + ent)
        dvalue = (values - batch["ret"])[:, None]
        grads = {
            "w1": h.T @ dlogits / n,
            "b1": dlogits.mean(axis=0),
            "wv": h.T @ dvalue / n,
            "bv": dvalue.mean(axis=0),
        }
        dh = (dlogits @ p["w1"].T + dvalue @ p["wv"].T) * (h > 0)
        grads["w0"] = obs.T @ dh / n
        grads["b0"] = dh.mean(axis=0)
        self._adam(grads, lr)

    def _adam(self, grads: dict[str, Array], lr: float, b1: float = 0.9, b2: float = 0.999) -> None:
        self.steps += 1
        for k, g in grads.items():
            m, v = self.moments.setdefault(k, [np.zeros_like(g), np.zeros_like(g)])
            m[:] = b1 * m + (1 - b1) * g
            v[:] = b2 * v + (1 - b2) * g * g
            mh, vh = m / (1 - b1**self.steps), v / (1 - b2**self.steps)
            self.params[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)


def rollout(env: VectorEnv, net: Net, state: list[Any], steps: int, gamma: float,
            rng: np.random.Generator) -> tuple[dict[str, Array], int, int]:  # fmt: skip
    """`steps` moves in each game, sampled from the policy; n-step returns bootstrapped with
    the value of the last position. Returns the batch, games finished and games won."""
    obs, info = state
    buf: dict[str, list[Array]] = {k: [] for k in ("obs", "mask", "act", "rew", "done")}
    finished = won = 0
    for _ in range(steps):
        mask = info["action_mask"]
        _, probs, _ = net.forward(obs, mask)
        act = (probs.cumsum(axis=1) > rng.random((len(probs), 1))).argmax(axis=1)
        buf["obs"].append(obs)
        buf["mask"].append(mask)
        buf["act"].append(act)
        seats = info["seat"]
        obs, rew, done, _, info = env.step(act)
        buf["rew"].append(rew / 10)  # points, scaled; a result is +-0.1 of it
        buf["done"].append(done)
        finished += int(done.sum())
        won += int(sum(info["final_ranks"][i, seats[i]] == 1 for i in np.flatnonzero(done)))
    state[:] = [obs, info]
    ret = net.forward(obs, info["action_mask"])[2]
    rets = []
    for rew, done in zip(reversed(buf["rew"]), reversed(buf["done"]), strict=True):
        ret = rew + gamma * ret * (1 - done)
        rets.append(ret)
    batch = {k: np.concatenate(v) for k, v in buf.items() if k in ("obs", "mask", "act")}
    batch["ret"] = np.concatenate(rets[::-1]).astype(np.float32)
    return batch, finished, won


def evaluate(net: Net, ruleset: str, players: int, opponent: str, games: int, seed: int) -> float:
    """Share of `games` won (rank 1) playing the best legal action, in a random seat."""
    env = VectorEnv(min(games, 50), ruleset, players, opponent=opponent, seat=None, seed=seed)
    obs, info = env.reset()
    won = done_games = 0
    while done_games < games:
        _, probs, _ = net.forward(obs, info["action_mask"])
        seats = info["seat"]
        obs, _, done, _, info = env.step(probs.argmax(axis=1))
        for i in np.flatnonzero(done):
            if done_games < games:
                won += int(info["final_ranks"][i, seats[i]] == 1)
                done_games += 1
    return won / games


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ruleset", default="azul")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponent", default="random", help="any in-process entry (random, greedy)")
    ap.add_argument("--minutes", type=float, default=8.0, help="stop after this long")
    ap.add_argument("--target", type=float, default=0.95, help="stop at this evaluated win rate")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--gamma", type=float, default=0.99)
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--steps", type=int, default=32, help="moves per game per update")
    ap.add_argument("--eval-every", type=int, default=20)
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="policy.npz")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    enc = encoding_for(args.ruleset, args.players)
    net = Net.new(enc.size, args.hidden, enc.n_actions, rng)
    env = VectorEnv(args.envs, args.ruleset, args.players, opponent=args.opponent, seat=None,
                    seed=args.seed)  # fmt: skip
    state = list(env.reset())
    began, best, update = time.monotonic(), -1.0, 0
    while time.monotonic() - began < args.minutes * 60:
        batch, _finished, _won = rollout(env, net, state, args.steps, args.gamma, rng)
        net.update(batch, args.lr, args.entropy)
        update += 1
        if update % args.eval_every:
            continue
        rate = evaluate(net, args.ruleset, args.players, args.opponent, args.eval_games, update)
        minutes = (time.monotonic() - began) / 60
        print(f"update {update:5d}  {minutes:5.1f} min  win rate vs {args.opponent}: {rate:.1%}",
              flush=True)  # fmt: skip
        if rate > best:
            best = rate
            p = net.params
            save_policy(args.out, [p["w0"], p["w1"]], [p["b0"], p["b1"]], enc.family)
        if rate >= args.target:
            break
    print(f"best win rate {best:.1%}; policy saved to {args.out}")


if __name__ == "__main__":
    main()
