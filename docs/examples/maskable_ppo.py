"""Train MaskablePPO (sb3-contrib) at one seat of American Sniff against the greedy bot, then compare it with a
random learner on the same seeded deals.

Needs the pettingzoo extra, torch and sb3-contrib, none of which the test suite installs::

    pip install 'sniff-rules[pettingzoo]' torch sb3-contrib
    python docs/examples/maskable_ppo.py --steps 4096

The environment is made by its Gymnasium id, ``sniff_rules/AmericanSniff-v1``; MaskablePPO asks it for
``action_masks()`` at every step, so the policy only ever picks a legal move. A few thousand steps do not
make a strong player: the point is the whole loop, from ``gymnasium.make`` to an evaluation on fixed seeds.
Every random choice is seeded (the deals, the bots, torch and the policy), so a run repeats on one machine.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np

import sniff_rules.adapters.pettingzoo  # registers sniff_rules/AmericanSniff-v1 with Gymnasium

try:
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks
except ImportError as missing:
    needs = f"this example needs torch and sb3-contrib ({missing.name} is missing): pip install torch sb3-contrib"
    raise SystemExit(needs) from missing


def mean_reward(env: Any, choose: Callable[[dict[str, Any], np.ndarray], int], seeds: Sequence[int]) -> float:
    """The learner's mean episode reward over one episode per seed, ``choose(observation, mask)`` picking each move."""
    total = 0.0
    for seed in seeds:
        observation, info = env.reset(seed=seed)
        total += info["reward_before_first_move"]
        done = False
        while not done:
            action = choose(observation, env.unwrapped.action_masks())
            observation, reward, terminated, truncated, _ = env.step(action)
            total += float(reward)
            done = terminated or truncated
    return total / len(seeds)


def main(argv: Sequence[str] | None = None) -> int:
    """Train, evaluate on held-out seeds, print both learners' mean reward."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=4096, help="training steps (learner's moves)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--episodes", type=int, default=100, help="evaluation episodes, one per seed")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env = gymnasium.make(sniff_rules.adapters.pettingzoo.GYMNASIUM_ID, players=args.players)
    env.reset(seed=args.seed)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=512, batch_size=128, seed=args.seed, verbose=0)
    model.learn(total_timesteps=args.steps)

    def trained(observation: dict[str, Any], mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)

    picker = np.random.default_rng(args.seed)

    def uniform(observation: dict[str, Any], mask: np.ndarray) -> int:
        return int(picker.choice(np.flatnonzero(mask)))

    seeds = range(10_000 + args.seed, 10_000 + args.seed + args.episodes)
    vectorized = model.get_env()
    assert vectorized is not None
    assert get_action_masks(vectorized).shape[-1] == 450  # the VecEnv reaches action_masks() too
    print(f"after {args.steps} steps at {args.players} players, mean reward over {args.episodes} seeded episodes:")
    print(f"  MaskablePPO {mean_reward(env, trained, seeds):+.4f}")
    print(f"  random      {mean_reward(env, uniform, seeds):+.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
