"""One seat of the PettingZoo environment as a Gymnasium environment, the library's bots at the others.

:class:`SingleAgentEnv` seats the learner at ``seat`` of a
:class:`sniff_rules.adapters.pettingzoo.environment.raw_env` and lets a fair bot play every other
seat (default :func:`sniff_rules.play.bots.greedy_bot`; each bot decides from its
seat's view alone). Observations, actions and rewards are the AEC
environment's for the learner's agent; ``step`` plays the learner's action,
then the bots' until it is the learner's turn again or the episode is over.
An action the learner's mask refuses ends the episode with reward -1.
The bots draw from their own SplitMix64 source, seeded by ``reset(seed=n)``
with the table. Needs the ``pettingzoo`` extra.

Gymnasium's conventions: importing :mod:`sniff_rules.adapters.pettingzoo` registers the class as
:data:`GYMNASIUM_ID`, so ``gymnasium.make("sniff_rules/AmericanSniff-v1", players=3)`` builds one
(``gymnasium.make("sniff_rules.adapters.pettingzoo:sniff_rules/AmericanSniff-v1")`` imports it
first); :meth:`SingleAgentEnv.action_masks` is the learner's mask as MaskablePPO
(sb3-contrib) asks for it; ``metadata["render_fps"]`` is declared. ``docs/examples/maskable_ppo.py``
trains MaskablePPO on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, SupportsFloat

from sniff_rules.adapters.actions import action_of
from sniff_rules.adapters.pettingzoo.environment import NUM_ACTIONS, RENDER_FPS, Observed, agent_name, raw_env
from sniff_rules.errors import InvalidMoveError, InvalidRulesError, described
from sniff_rules.play.bots import greedy_bot
from sniff_rules.play.driver import Policy
from sniff_rules.play.view import SeatView, seat_view
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Seat

try:
    import gymnasium
    import numpy as np
    from numpy.typing import NDArray
except ImportError as missing:  # pragma: no cover - the message is the point
    raise ImportError(
        f"sniff_rules.adapters.pettingzoo.single_agent needs the pettingzoo extra ({missing.name} is missing): "
        "pip install 'sniff-rules[pettingzoo]'"
    ) from missing


class SingleAgentEnv(gymnasium.Env[Observed, int]):
    """Seat ``seat`` of a ``players``-seat table for a learner; ``bots`` (one policy for every
    other seat, or one per seat, the learner's entry unused) play the rest."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": RENDER_FPS}  # noqa: RUF012 - gymnasium.Env declares it so

    def __init__(
        self,
        players: int = 2,
        seat: Seat = 0,
        scope: str = "round",
        bots: Policy[SeatView] | Sequence[Policy[SeatView]] = greedy_bot,
        render_mode: str | None = None,
        max_cycles: int | None = None,
    ) -> None:
        self.table: Final = raw_env(players=players, scope=scope, render_mode=render_mode, max_cycles=max_cycles)
        if type(seat) is not int or not 0 <= seat < players:
            raise InvalidRulesError("SETUP-2", f"seats run 0..{players - 1}, got {seat!r}")
        self.seat: Final = seat
        self.agent: Final = agent_name(seat)
        self.bots: Final = tuple(bots) if isinstance(bots, Sequence) else (bots,) * players
        if len(self.bots) != players:
            raise InvalidRulesError("SETUP-2", f"{players} seats need {players} policies, got {len(self.bots)}")
        self.render_mode = render_mode
        self.observation_space = self.table.observation_space(self.agent)
        self.action_space = self.table.action_space(self.agent)
        self._bot_source: RandomSource = SplitMix64.from_seed(0)
        self._refused = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observed, dict[str, Any]]:
        """A new episode: the table dealt (``seed`` seeds it and the bots), the bots played up to the learner."""
        super().reset(seed=seed)
        self.table.reset(seed=seed)
        self._refused = False
        if seed is not None:
            self._bot_source = SplitMix64.from_seed(int(seed) ^ 0x5EA7)
        reward = self._play_bots()
        return self.table.observe(self.agent), {"reward_before_first_move": reward}

    def step(self, action: int) -> tuple[Observed, SupportsFloat, bool, bool, dict[str, Any]]:
        """The learner plays ``action``, then the bots: the learner's observation, reward, end and truncation.

        An action its mask refuses ends the episode with reward -1, as
        :func:`sniff_rules.adapters.pettingzoo.environment.env` does; an id outside the space raises.
        """
        table = self.table
        observation = table.observe(self.agent)
        if not self.action_space.contains(action):
            raise InvalidMoveError("TURN-1", f"an action is an int 0..{NUM_ACTIONS - 1}, got {described(action, 80)}")
        if self._refused or not observation["action_mask"][action]:
            self._refused = True
            return observation, -1.0, True, False, {"illegal_action": int(action)}
        table.step(action)
        reward = table.rewards[self.agent] + self._play_bots()
        observation = table.observe(self.agent)
        return observation, reward, table.terminations[self.agent], table.truncations[self.agent], {}

    def _play_bots(self) -> float:
        """Let the bots move until the learner is to move or the episode is over; the learner's reward meanwhile."""
        table = self.table
        reward = 0.0
        while not (table.terminations[self.agent] or table.truncations[self.agent]):
            state = table.game_state
            if state.to_move == self.seat:
                break
            view = seat_view(state, state.to_move, table.round_events)
            move, self._bot_source = self.bots[state.to_move](view, self._bot_source)
            table.step(action_of(move))
            reward += table.rewards[self.agent]
        return reward

    def action_masks(self) -> NDArray[np.bool_]:
        """Which of the 450 actions the learner may take now, as booleans: the method MaskablePPO
        (sb3-contrib) calls on an environment. All False once the episode is over."""
        mask: NDArray[np.bool_] = self.table.observe(self.agent)["action_mask"].astype(bool)
        if self._refused:
            mask[:] = False
        return mask

    def render(self) -> str | None:
        """The table's rendering: the selected seat's view as text (see :meth:`raw_env.render`)."""
        return self.table.render()


GYMNASIUM_ID: Final = "sniff_rules/AmericanSniff-v1"
"""The id under which importing this module registers :class:`SingleAgentEnv` with Gymnasium; keyword
arguments to ``gymnasium.make`` are the class's. Version 1, as the PettingZoo environment's observations."""

if GYMNASIUM_ID not in gymnasium.registry:
    gymnasium.register(id=GYMNASIUM_ID, entry_point="sniff_rules.adapters.pettingzoo.single_agent:SingleAgentEnv")
