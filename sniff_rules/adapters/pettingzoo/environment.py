"""American Sniff as a PettingZoo AEC environment (the ``pettingzoo`` extra).

``raw_env(players=4, scope="round", render_mode=None, max_cycles=None)`` is
the environment; ``env(**kwargs)`` wraps it in PettingZoo's standard
wrappers (illegal moves end the episode with reward -1 for the offender,
actions outside the space are refused, calls out of order are caught).
Importing this module registers ``env`` as ``sniff_rules/american_sniff_v1``
in PettingZoo's registry, so ``pettingzoo.make("aec",
"sniff_rules/american_sniff_v1", players=3)`` builds one too.

**Agents** are ``player_0`` … ``player_{players-1}``, one per seat; the
agent selected is always the seat to move. Every move goes through
:func:`sniff_rules.play.events.apply_with_events`, every deal through
:func:`~sniff_rules.state.new_match` and :func:`~sniff_rules.state.next_round`;
nothing of the rules is written here.

**Scope.** ``"round"``: an episode is the first round of a match, ending
when it is played out or blocked, or when a side reaches its target in it.
``"match"``: an episode is a whole match, the next round dealt as soon as
one is settled. ``max_cycles`` (None: no cap) truncates an episode after
``max_cycles * players`` actions; a round always ends, but a match is only
bounded by a side reaching its target, so a learner may want the cap.

**Rewards** come once, at the end of the episode, the same for partners:

- ``"round"``: each agent's side's points over the round (play points and
  settlement) less the mean of every side's, divided by the target; they
  sum to zero over the sides.
- ``"match"``: +1 to each agent of the winning side, ``-1 / (sides - 1)``
  to every other agent; zero when the episode is truncated.

**Actions** are the fixed action space of :mod:`sniff_rules.adapters.actions`, shared
with the OpenSpiel adapter: each lead, each (point, tile) placement, draw and
pass, 450 ids.

**Observations** are ``{"observation": int32 vector, "action_mask": int8
vector}``, built from what the seat may see and never another hand, the
boneyard's order or the random source; the mask is non-zero only for the
agent to move. :mod:`sniff_rules.adapters.pettingzoo.observation` says
what each entry of the vector is, and its bounds, true and tight. (Version
1: version 0's vector had 119 entries that were always 0, the attachment
points no tile has, the Sniff entries of the non-doubles and the count of
[0|0].)

**Seeding**: ``reset(seed=n)`` starts the environment's own random source,
:class:`~sniff_rules.randomness.SplitMix64` from ``n``, and ``reset()``
goes on from it, so that a run of resets is one reproducible stream. As
Gymnasium does, a first ``reset()`` with no seed takes a fresh one from the
operating system's entropy, so that parallel workers play different
matches; it is kept in :attr:`raw_env.stream_seed`, so the run replays from
``reset(seed=env.stream_seed)``. No global random is used.

**Rendering**: ``render_mode="ansi"`` makes :meth:`raw_env.render` return
the selected agent's seat view drawn by :func:`sniff_rules.draw.text.text` (its
own hand, the others face down); ``"human"`` prints it after every step
and on :meth:`raw_env.render`, which then returns None, as PettingZoo's
human mode does.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, Final, TypeAlias, cast

import sniff_rules.adapters.actions as actions
from sniff_rules.adapters.pettingzoo.observation import (
    NUM_ACTIONS as NUM_ACTIONS,
    ObservationShape as ObservationShape,
    Observed as Observed,
    _encode_state,
    _state_mask,
    _table_part,
    observation_of as observation_of,
)
from sniff_rules.draw.text import text
from sniff_rules.errors import InvalidMoveError, InvalidRulesError, InvalidStateError, described
from sniff_rules.layout import Contribution, Layout
from sniff_rules.play.events import Dealt, Drew, Event, Passed, Placed, apply_with_events
from sniff_rules.play.history import NO_LACK, Lack, lack_after, lacking_values
from sniff_rules.play.view import seat_view
from sniff_rules.randomness import RandomSource, SplitMix64, draw_below
from sniff_rules.rules import PLAYER_COUNTS, Rules, Seat
from sniff_rules.state import Phase, State, new_match, next_round

try:
    import gymnasium
    import numpy as np
    import pettingzoo
    from gymnasium import spaces

    import sniff_rules.adapters.pettingzoo.wrappers as fast_wrappers
except ImportError as missing:  # pragma: no cover - the message is the point
    raise ImportError(
        f"sniff_rules.adapters.pettingzoo.environment needs the pettingzoo extra ({missing.name} is missing): "
        "pip install 'sniff-rules[pettingzoo]'"
    ) from missing

Action: TypeAlias = "int | np.integer[Any] | None"
"""An action id; None for an agent whose episode is over."""

ENV_ID: Final = "sniff_rules/american_sniff_v1"
"""The id under which importing this module registers :func:`env` with PettingZoo."""

RENDER_WIDTH: Final = 80
"""The columns :meth:`raw_env.render` draws in."""

RENDER_FPS: Final = 2
"""Frames a second for a recorder of ``human`` or ``ansi`` renders: a move every half second, slow
enough to read a layout (``metadata["render_fps"]``, as Gymnasium and PettingZoo declare it)."""

SCOPES: Final = ("round", "match")
"""What one episode is: a round, or a whole match."""


class UnknownAgentError(InvalidStateError, KeyError):
    """An agent the environment does not have, in ``observe``, ``observation_space`` or ``action_space``
    (SETUP-2: a seat the table does not have).

    PettingZoo's own environments refuse one by looking it up, in a dict (rock-paper-scissors'
    ``observe`` and every ``observation_space``: ``KeyError``) or in ``possible_agents`` (chess,
    connect four, tic-tac-toe: ``ValueError``); this error is both, so a caller written for
    either convention catches it, and it names its rule as every error of this library does.
    """

    # KeyError's own __str__ would quote the message.
    __str__ = BaseException.__str__


class SeedError(InvalidStateError, gymnasium.error.Error):
    """A ``reset`` seed that is neither None nor a non-negative int (FORMAT-3).

    Refused as Gymnasium's ``seeding.np_random`` refuses one for every Gymnasium and PettingZoo
    environment that seeds through it: a string, a fraction, a negative int. The error is a
    ``gymnasium.error.Error``, as there, and names its rule; a boolean, which Python counts as an
    int, is refused too.
    """


def agent_name(seat: Seat) -> str:
    """The agent of ``seat``: ``player_0`` for seat 0."""
    return f"player_{seat}"


def env(**kwargs: Any) -> pettingzoo.AECEnv[str, Observed, Action]:
    """:class:`raw_env` in PettingZoo's standard wrappers; the keyword arguments are :class:`raw_env`'s.

    An action the mask refuses ends the episode for every agent with
    reward -1 for the one that chose it (``TerminateIllegalWrapper``). The wrappers are
    PettingZoo's own, subclassed in :mod:`sniff_rules.adapters.pettingzoo.wrappers` to read
    the per-step attributes directly instead of through each wrapper's ``__getattr__``.
    """
    wrapped: pettingzoo.AECEnv[str, Observed, Action] = raw_env(**kwargs)
    wrapped = fast_wrappers.TerminateIllegal(wrapped, illegal_reward=-1)
    wrapped = fast_wrappers.AssertOutOfBounds(wrapped)
    return fast_wrappers.OrderEnforcing(wrapped)


class raw_env(pettingzoo.AECEnv[str, Observed, Action]):
    """American Sniff for ``players`` agents, one episode a round or a match (see the module)."""

    # PettingZoo reads the class's metadata before an instance exists; RUF012 would make it a ClassVar,
    # which the base class declares as an instance attribute.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "name": "american_sniff_v1",
        "render_modes": ["ansi", "human"],
        "render_fps": RENDER_FPS,
        "is_parallelizable": False,
    }

    def __init__(
        self, players: int = 4, scope: str = "round", render_mode: str | None = None, max_cycles: int | None = None
    ) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        if type(players) is not int or players not in PLAYER_COUNTS:
            raise InvalidRulesError("SETUP-2", f"American Sniff is for 2 to 4 players, got {players!r}")
        if scope not in SCOPES:
            raise InvalidRulesError("MATCH-1", f"an episode is a 'round' or a 'match', got {scope!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            # A render mode is a request of the environment, not a house rule: refused as a malformed request.
            raise InvalidStateError("FORMAT-3", f"render_mode is 'ansi', 'human' or None, got {render_mode!r}")
        if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
            raise InvalidRulesError("FORMAT-3", f"max_cycles is a positive int or None, got {max_cycles!r}")
        self.rules: Final = Rules.standard(players)
        self.scope: Final = scope
        self.render_mode = render_mode
        self.max_cycles: Final = max_cycles
        self.shape: Final = ObservationShape(players, scope, max_cycles)
        self.possible_agents = [agent_name(seat) for seat in range(players)]
        self._seat_of: Final = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        low, high = self.shape.bounds()
        observation = spaces.Box(low, high, dtype=np.int32)
        mask = spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8)
        self.observation_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask}) for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self.stream_seed: int | None = None
        """The seed of the random source the matches are dealt from; None before the first reset."""
        self._source: RandomSource = SplitMix64.from_seed(0)
        self._state = new_match(self.rules, seed=0)
        self._events: list[Event] = []
        # Each seat's fold of RoundLog.lacking over the round so far, and its values.
        self._lacks: list[Lack] = [NO_LACK] * players
        self._lacking: list[tuple[int, ...]] = [()] * players
        self._actions = 0
        self._start_scores: tuple[int, ...] = self._state.scores
        # Every agent sees the same layout until the next placement: its part of the vector is kept.
        self._table_layout = Layout.EMPTY
        self._base = np.zeros(self.shape.size, np.int32)
        self._base[self.shape.table : self.shape.hand_sizes] = _table_part(self.shape, Layout.EMPTY)

    def seat_of(self, agent: str) -> Seat:
        """The seat of ``agent``; an agent the environment does not have raises :class:`UnknownAgentError`."""
        # A str check first: an unhashable name would make the dict lookup raise TypeError.
        seat = self._seat_of.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise UnknownAgentError("SETUP-2", f"the agents are {', '.join(self.possible_agents)}; got {agent!r:.60}")
        return seat

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``: the dict of its vector and its action mask."""
        return self.observation_spaces[self.possible_agents[self.seat_of(agent)]]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(NUM_ACTIONS)``."""
        return self.action_spaces[self.possible_agents[self.seat_of(agent)]]

    @property
    def game_state(self) -> State:
        """The whole state of the game, every secret included: never show it to an agent."""
        return self._state

    @property
    def round_events(self) -> tuple[Event, ...]:
        """The events of the round so far, from its deal on, every secret included: never show them to an agent
        (``sniff_rules.play.view.seat_view(game_state, seat, round_events)`` is what ``seat`` may see)."""
        return tuple(self._events)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match; ``seed`` restarts the environment's random source (see the module).

        A seed other than None or a non-negative int raises :class:`SeedError`, before anything changes.
        """
        if seed is not None and (type(seed) is not int or seed < 0):
            raise SeedError("FORMAT-3", f"a seed is None or an int from 0, as Gymnasium's are; got {seed!r:.60}")
        if seed is not None or self.stream_seed is None:
            self.stream_seed = secrets.randbits(64) if seed is None else seed
            self._source = SplitMix64.from_seed(self.stream_seed)
        match_seed, self._source = draw_below(self._source, 1 << 63)
        self._state = new_match(self.rules, seed=match_seed)
        self._begin_round()
        self._sync_table(None)
        self._actions = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = agent_name(self._state.to_move)

    def _sync_table(self, contributions: Sequence[Contribution] | None) -> None:
        """Keep the layout's part of the vector, the same for every agent until the next placement."""
        layout = self._state.layout
        if layout is not self._table_layout:
            self._table_layout = layout
            shape = self.shape
            self._base[shape.table : shape.hand_sizes] = _table_part(shape, layout, contributions)

    def _begin_round(self) -> None:
        self._events = [Dealt.of(self._state)]
        self._lacks = [NO_LACK] * self.rules.players
        self._lacking = [()] * self.rules.players
        self._start_scores = self._state.scores

    def observe(self, agent: str) -> Observed:
        """What ``agent`` sees now: its observation vector and action mask (see the module)."""
        seat, state = self.seat_of(agent), self._state
        return {
            "observation": _encode_state(self.shape, state, seat, self._lacking, self._base),
            "action_mask": _state_mask(state, seat),
        }

    def step(self, action: Action) -> None:
        """The selected agent plays action ``action`` (None once its episode is over).

        An action id outside the space or a move the rules refuse raises a
        :class:`~sniff_rules.errors.SniffError` and changes nothing.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int and (isinstance(action, bool) or not isinstance(action, (int, np.integer))):
            raise InvalidMoveError("TURN-1", f"an action is an int 0..{NUM_ACTIONS - 1}, got {described(action, 100)}")
        state, happened = apply_with_events(self._state, actions.move_of(int(action), self._seat_of[agent]))
        self._state = state
        self._events += happened
        self._actions += 1
        self._cumulative_rewards[agent] = 0.0
        # Rewards come at the end alone (see the module), so until then there are none to clear or add up.
        # The move's own event comes first; it is all that changes what a hand lacks.
        first = cast("Placed | Drew | Passed", happened[0])
        seat = first.seat
        lack = lack_after(self._lacks[seat], first)
        if lack is not self._lacks[seat]:
            self._lacks[seat] = lack
            self._lacking[seat] = lacking_values(lack)
        phase = state.phase
        if phase is Phase.MATCH_OVER or (phase is Phase.ROUND_OVER and self.scope == "round"):
            self._finish()
            self._accumulate_rewards()
        else:
            if phase is Phase.ROUND_OVER:
                self._state = next_round(state)
                self._begin_round()
            if self.max_cycles is not None and self._actions >= self.max_cycles * self.rules.players:
                self.truncations = dict.fromkeys(self.agents, True)
        self._sync_table(first.contributions if type(first) is Placed and self._state is state else None)
        self.agent_selection = self.possible_agents[self._state.to_move]
        if self.render_mode == "human":
            print(self._picture())

    def _finish(self) -> None:
        """Every agent's episode ends; the rewards of the module's docstring."""
        state = self._state
        rules = self.rules
        sides = rules.sides
        if self.scope == "round":
            gains = [after - before for after, before in zip(state.scores, self._start_scores, strict=True)]
            mean = sum(gains) / sides
            by_side = [(gain - mean) / rules.target for gain in gains]
        else:
            by_side = [1.0 if side == state.winner else -1.0 / (sides - 1) for side in range(sides)]
        for agent, seat in self._seat_of.items():
            self.rewards[agent] = by_side[rules.side_of(seat)]
        self.terminations = dict.fromkeys(self.agents, True)

    def render(self) -> str | None:
        """The selected agent's seat view as text in ``ansi`` mode; printed, and None, in ``human`` mode;
        None and a warning without a mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: give 'ansi' or 'human'")
            return None
        if self.render_mode == "human":
            print(self._picture())
            return None
        return self._picture()

    def _picture(self) -> str:
        return text(seat_view(self._state, self._seat_of[self.agent_selection], self._events), width=RENDER_WIDTH)

    def close(self) -> None:
        """Nothing to release: the environment holds no window or file."""


pettingzoo.register("aec", ENV_ID, entry_point="sniff_rules.adapters.pettingzoo:env")
