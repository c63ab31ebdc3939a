"""env()'s wrappers (sniff_rules.adapters.pettingzoo.wrappers) behave as PettingZoo's own, step for step."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed: pip install 'sniff-rules[pettingzoo]'")

import numpy as np
from pettingzoo.utils import wrappers

from sniff_rules.adapters.pettingzoo import env, raw_env
from sniff_rules.adapters.pettingzoo.wrappers import AssertOutOfBounds, OrderEnforcing, TerminateIllegal


def pettingzoos_env(**kwargs: Any) -> Any:
    """raw_env in PettingZoo's three wrappers themselves, as env() wrapped it before."""
    inner = wrappers.TerminateIllegalWrapper(raw_env(**kwargs), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(inner))


def trace(environment: Any, seed: int, illegal_at: int | None) -> list[Any]:
    """What an AEC loop sees at every step: the agent, its observation, reward, end flags and info, and every
    agent's reward; at step ``illegal_at`` the agent plays an action its mask refuses."""
    environment.reset(seed=seed)
    pick = random.Random(seed)
    seen: list[Any] = []
    for number, agent in enumerate(environment.agent_iter()):
        observation, reward, terminated, truncated, info = environment.last()
        seen.append((agent, observation["observation"].tolist(), reward, terminated, truncated, info))
        seen.append(dict(environment.rewards))
        if terminated or truncated:
            environment.step(None)
            continue
        mask = observation["action_mask"]
        refused, allowed = np.flatnonzero(mask == 0), np.flatnonzero(mask)
        choice = refused[0] if number == illegal_at else allowed[int(pick.random() * len(allowed))]
        environment.step(int(choice))
    return seen


@pytest.mark.parametrize(("players", "scope", "illegal_at"), [(2, "round", None), (4, "match", None), (3, "round", 9)])
def test_the_wrapped_environment_plays_as_in_pettingzoos_wrappers(
    players: int, scope: str, illegal_at: int | None
) -> None:
    """Whole episodes, an illegal action's -1 included, go step for step as through PettingZoo's own wrappers."""
    expected = trace(pettingzoos_env(players=players, scope=scope), 3, illegal_at)
    assert expected == trace(env(players=players, scope=scope), 3, illegal_at)


def test_env_is_pettingzoos_wrappers() -> None:
    """env() is PettingZoo's wrappers (subclasses), in PettingZoo's order, around raw_env."""
    environment: Any = env(players=2)
    layers = [type(environment), type(environment.env), type(environment.env.env), type(environment.unwrapped)]
    assert [OrderEnforcing, AssertOutOfBounds, TerminateIllegal, raw_env] == layers
    assert isinstance(environment, wrappers.OrderEnforcingWrapper)
    assert isinstance(environment.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(environment.env.env, wrappers.TerminateIllegalWrapper)


@pytest.mark.parametrize("name", ["agent_selection", "agents", "rewards", "terminations", "truncations", "infos"])
def test_nothing_is_read_before_reset(name: str) -> None:
    """As OrderEnforcingWrapper does, the per-step attributes raise AttributeError before the first reset."""
    with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
        getattr(env(players=2), name)


@pytest.mark.parametrize("action", [450, -1, 2.0, "3"])
def test_an_action_outside_the_space_fails_the_assertion(action: Any) -> None:
    """An action outside Discrete(450) fails AssertOutOfBoundsWrapper's assertion, an int or not."""
    environment = env(players=2)
    environment.reset(seed=1)
    with pytest.raises(AssertionError, match="action is not in action space"):
        environment.step(action)
