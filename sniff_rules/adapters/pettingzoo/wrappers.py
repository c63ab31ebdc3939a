"""PettingZoo's three standard wrappers, as :func:`~sniff_rules.adapters.pettingzoo.environment.env` applies them,
without the cost of their attribute lookups.

A PettingZoo wrapper finds ``agent_selection``, ``rewards``, ``terminations`` and the other
per-step attributes through ``__getattr__``, one wrapper at a time: with three wrappers an
AEC loop makes dozens of such lookups a step, more than the step itself costs. Each class
here is PettingZoo's own wrapper (a subclass: same checks, same errors, same warnings) that
reads those attributes straight from the environment inside, and
:class:`AssertOutOfBounds` checks an ``int`` action without building numpy values;
everything else goes through PettingZoo's code. ``tests/test_pettingzoo.py`` plays the same
episodes through these and through PettingZoo's wrappers and finds every step the same.
"""

from __future__ import annotations

from typing import Any

from sniff_rules.adapters.pettingzoo.observation import NUM_ACTIONS, Observed

try:
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as missing:  # pragma: no cover - the message is the point
    raise ImportError(
        f"sniff_rules.adapters.pettingzoo.wrappers needs the pettingzoo extra ({missing.name} is missing): "
        "pip install 'sniff-rules[pettingzoo]'"
    ) from missing

Action = Any
"""What the wrapped environment's ``step`` takes."""


def _forward(name: str, *, after_reset: bool = False) -> Any:
    """A property reading and writing ``name`` on the innermost environment; ``after_reset``: before the
    first ``reset`` it raises AttributeError, as ``OrderEnforcingWrapper`` does."""

    def read(self: Any) -> Any:
        if after_reset and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._inner, name)

    def write(self: Any, value: Any) -> None:
        setattr(self._inner, name, value)

    return property(read, write, doc=f"The environment's ``{name}``.")


class _Forwarding:
    """The attributes an AEC loop reads every step, read from the innermost environment."""

    _inner: AECEnv[str, Observed, Action]
    agent_selection = _forward("agent_selection")
    agents = _forward("agents")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")
    _cumulative_rewards = _forward("_cumulative_rewards")


class TerminateIllegal(_Forwarding, wrappers.TerminateIllegalWrapper[str, Observed, Action]):
    """PettingZoo's ``TerminateIllegalWrapper``: an action the mask refuses ends the episode."""

    def __init__(self, env: AECEnv[str, Observed, Action], illegal_reward: float) -> None:
        self._inner = env.unwrapped
        super().__init__(env, illegal_reward)


class AssertOutOfBounds(_Forwarding, wrappers.AssertOutOfBoundsWrapper[str, Observed, Action]):
    """PettingZoo's ``AssertOutOfBoundsWrapper``: an action outside the space fails its assertion."""

    def __init__(self, env: AECEnv[str, Observed, Action]) -> None:
        self._inner = env.unwrapped
        super().__init__(env)

    def step(self, action: Action) -> None:
        """Step, once the action is in the space; an ``int`` is checked here, anything else by the space."""
        if type(action) is int and 0 <= action < NUM_ACTIONS:
            self.env.step(action)
        else:
            super().step(action)


class OrderEnforcing(_Forwarding, wrappers.OrderEnforcingWrapper[str, Observed, Action]):
    """PettingZoo's ``OrderEnforcingWrapper``: nothing is read or stepped before ``reset``."""

    def __init__(self, env: AECEnv[str, Observed, Action]) -> None:
        self._inner = env.unwrapped
        super().__init__(env)

    agent_selection = _forward("agent_selection", after_reset=True)
    agents = _forward("agents", after_reset=True)
    rewards = _forward("rewards", after_reset=True)
    terminations = _forward("terminations", after_reset=True)
    truncations = _forward("truncations", after_reset=True)
    infos = _forward("infos", after_reset=True)
