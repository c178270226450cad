"""Environment steps per second with observations: noughts.VectorGame against the
Python loops of OpenSpiel and PettingZoo, measured in the same run.

Run on demand: python benchmarks/learning.py
"""

from __future__ import annotations

import time

import noughts
import numpy as np
from _peers import pyspiel, rate, ratio


def noughts_steps(name: str, n: int, seconds: float = 2.0) -> tuple[float, float]:
    env = noughts.VectorGame(name, n, seed=0)
    env.reset()
    stepping = total = 0.0
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        t0 = time.perf_counter()
        actions = env.random_actions()
        t1 = time.perf_counter()
        env.step(actions)
        t2 = time.perf_counter()
        stepping += t2 - t1
        total += t2 - t0
        steps += n
    return steps / stepping, steps / total


def openspiel_steps(name: str) -> float | None:
    if pyspiel is None:
        return None
    game = pyspiel.load_game(name)
    rng = np.random.default_rng(0)

    def work() -> int:
        state, steps = game.new_initial_state(), 0
        for _ in range(200):
            if state.is_terminal():
                state = game.new_initial_state()
            actions = state.legal_actions()
            state.apply_action(actions[rng.integers(len(actions))])
            state.observation_tensor(0)
            steps += 1
        return steps

    return rate(work)


def pettingzoo_steps() -> float | None:
    try:
        from pettingzoo.classic import tictactoe_v3
    except ImportError:
        return None
    env = tictactoe_v3.env()
    env.reset(seed=0)
    rng = np.random.default_rng(0)

    def work() -> int:
        steps = 0
        for _ in range(200):
            obs, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                env.reset()
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        return steps

    return rate(work)


def main() -> None:
    print(f"noughts {noughts.__version__}: env-steps/s with observations and action masks")
    for name, n in [("ultimate", 1024), ("classic", 1024), ("quantum", 1024)]:
        step_only, with_actions = noughts_steps(name, n)
        print(
            f"VectorGame {name:<8} n={n}: {step_only:>12,.0f} steps/s (step) {with_actions:>12,.0f} (with random_actions)"
        )
    ours, _ = noughts_steps("ultimate", 1024)
    theirs = openspiel_steps("ultimate_tic_tac_toe")
    print(
        f"OpenSpiel ultimate_tic_tac_toe, Python loop with observation_tensor: {theirs or 0:,.0f} steps/s; ratio {ratio(ours, theirs)}"
    )
    ours3, _ = noughts_steps("classic", 1024)
    pz = pettingzoo_steps()
    if pz is None:
        print("PettingZoo tictactoe_v3: not installed (pip install pettingzoo pygame)")
    else:
        print(f"PettingZoo tictactoe_v3 AEC loop: {pz:,.0f} steps/s; noughts 3x3 ratio {ratio(ours3, pz)}")


if __name__ == "__main__":
    main()
