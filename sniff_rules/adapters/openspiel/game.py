"""American Sniff as an OpenSpiel game: ``import sniff_rules.adapters.openspiel`` registers ``python_american_sniff``.

Needs the ``openspiel`` extra (``pip install 'sniff-rules[openspiel]'``: OpenSpiel and numpy). The
game wraps the library's :class:`~sniff_rules.state.State` and plays every move through
:func:`~sniff_rules.moves.apply`; no rule is written twice.

>>> import pyspiel
>>> import sniff_rules.adapters.openspiel.game
>>> game = pyspiel.load_game("python_american_sniff", {"players": 4})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(4, 450, 28)

**Parameters.** ``players``, 2 to 4 (SETUP-2, the standard hand size and target); ``scope``,
``"round"`` (the default: one round from 0-0, over when it is played out, blocked, or a side
reaches the target mid-round) or ``"match"`` (rounds until a side reaches the target, MATCH-1,
or until ``max_rounds`` rounds, default 20, have been played: the cap keeps
``max_game_length`` finite, since settlement only subtracts and a match need not end).

**Chance.** Every random event is an explicit chance node, each outcome equally likely: the lot
for the opener (OPEN-1, OPEN-2; outcomes the seats, the lot being symmetric), the deal (one
node per dealt tile, seat 0's hand first; outcomes the tiles not yet dealt), and each boneyard
draw (after the player's ``draw`` action; outcomes the tiles left in the boneyard).

**Actions** are those of :mod:`sniff_rules.adapters.actions`: 450 ids, legal actions ascending.

**Returns** are given at the end only (zero-sum; a side's partners get the same return). In
``round`` scope, a seat gets its side's net points of the round (points scored less its
settlement, raw points as the score keeps them) less the mean of all sides' net points. In
``match`` scope the winning side gets 1 and each other side ``-1 / (sides - 1)``; when the
round cap ends the match, the sides with the highest score share the win: each gets
``(sides - k) / (k * (sides - 1))`` for ``k`` leaders, the others ``-1 / (sides - 1)``.

**Observations** (:meth:`AmericanSniffGame.make_py_observer`; :mod:`sniff_rules.adapters.openspiel.observer`) hold the
seat's hand and waiting drawn tile, the tiles on the table, the open points and the values they
show, the counted contributions and the end count, every hand's size, the boneyard's size and
the scores; the information state adds the history with perfect recall: each move of the round
with the point every tile went on, the seat's own draws, and in ``match`` scope the rounds before.
From Python, :meth:`AmericanSniffState.observation_tensor`, :meth:`~AmericanSniffState.information_state_tensor`
and :meth:`~AmericanSniffState.legal_actions_mask` return numpy arrays, built from what changed
since the last call (pyspiel's C++ methods still give lists, with the same numbers).
:meth:`AmericanSniffState.resample_from_infostate` re-deals the hidden tiles with
:class:`~sniff_rules.play.sampler.DealSampler`, so OpenSpiel's IS-MCTS runs.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

try:
    import numpy as np
    import numpy.typing as npt
    import pyspiel
except ImportError as missing:  # pragma: no cover - the message is the point
    raise ImportError(
        "sniff_rules.adapters.openspiel.game needs OpenSpiel and numpy: pip install 'sniff-rules[openspiel]'"
    ) from missing

import sniff_rules.adapters.openspiel.observer as observer
from sniff_rules.adapters.actions import ACTION_COUNT, DRAW_ACTION, action_text, legal_actions, move_of
from sniff_rules.adapters.openspiel.core import (
    DEAL,
    DRAW,
    LOT,
    OVER,
    PLAY,
    Core,
    Entry,
    GameShape,
    advance,
    initial_core,
    returns_of,
)
from sniff_rules.errors import InvalidStateError
from sniff_rules.play.events import Dealt, Event, apply_with_events
from sniff_rules.play.sampler import DealSampler
from sniff_rules.play.view import seat_view
from sniff_rules.randomness import SplitMix64
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT, tile_indices_of

GAME_NAME: Final = "python_american_sniff"
"""The name :func:`pyspiel.load_game` knows the game by."""

_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_CHANCE_PHASES: Final = frozenset((LOT, DEAL, DRAW))
_DEFAULTS: Final = {"players": 2, "scope": "round", "max_rounds": 20}
_OUTCOME_PAIRS: Final = (
    (),
    *(tuple((outcome, 1.0 / count) for outcome in range(TILE_COUNT)) for count in range(1, TILE_COUNT + 1)),
)
"""``_OUTCOME_PAIRS[n][i]``: outcome ``i`` of a chance node with ``n`` outcomes, all equally
likely, as OpenSpiel takes it; built once, so that a node only picks its pairs."""

GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python American Sniff",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=True,
    parameter_specification=_DEFAULTS,
)


class AmericanSniffGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one set of parameters (see the module's docstring)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = {**_DEFAULTS, **(params or {})}
        self.shape = GameShape.of(given["players"], given["scope"], given["max_rounds"])
        shape = self.shape
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=TILE_COUNT,
            num_players=shape.players,
            min_utility=-shape.utility_bound,
            max_utility=shape.utility_bound,
            utility_sum=0.0,
            max_game_length=shape.max_player_actions,
        )
        super().__init__(GAME_TYPE, info, given)
        self.initial = initial_core(shape)
        # The observers behind AmericanSniffState's tensors: each keeps every seat's tensor from
        # one call to the next and writes only what changed.
        self.tensor_observers: Final = (
            observer.AmericanSniffObserver(
                shape, observer.Visibility.of(pyspiel.IIGObservationType(perfect_recall=False))
            ),
            observer.AmericanSniffObserver(
                shape, observer.Visibility.of(pyspiel.IIGObservationType(perfect_recall=True))
            ),
        )
        """The default observation's observer and the information state's."""

    def new_initial_state(self) -> AmericanSniffState:
        """The state before the lot: a chance node."""
        return AmericanSniffState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The most chance nodes a game passes: per round a lot, the deal and every boneyard draw."""
        return self.shape.max_chance_nodes

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> observer.AmericanSniffObserver:
        """An observer (OpenSpiel's PyObserver interface); no parameters are taken."""
        if params:
            raise ValueError(f"{GAME_NAME} takes no observation parameters, got {dict(params)!r}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return observer.AmericanSniffObserver(self.shape, observer.Visibility.of(kind))


class AmericanSniffState(pyspiel.State):  # type: ignore[misc]
    """A position: the lot, the deal, a draw (chance), a seat to move, or the end.

    All it holds is one immutable :class:`~sniff_rules.adapters.openspiel.core.Core` (copied by
    reference when OpenSpiel clones a state); :meth:`_apply_action` replaces it.
    """

    def __init__(self, game: AmericanSniffGame) -> None:
        super().__init__(game)
        self.core: Core = game.initial

    def current_player(self) -> int:
        """The seat to move, CHANCE at the lot, the deal and a draw, TERMINAL at the end."""
        core = self.core
        phase = core.phase
        if phase == PLAY:
            return core.state.to_move  # type: ignore[union-attr]
        return _TERMINAL if phase == OVER else _CHANCE

    def _legal_actions(self, player: int) -> tuple[int, ...]:
        """The seat's legal actions, ascending (CONV-2): what OpenSpiel's C++ side asks for."""
        return legal_actions(self.core.state)  # type: ignore[arg-type]

    # The three methods below answer a Python caller directly, as pyspiel's own methods
    # would answer it through C++ and back; they give the same results.

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the one to move); chance outcomes at a chance node."""
        core = self.core
        phase = core.phase
        if phase == PLAY:
            mover = core.state.to_move  # type: ignore[union-attr]
            if player is None or player == mover:
                return list(legal_actions(core.state))  # type: ignore[arg-type]
            if player < 0:
                raise RuntimeError(f"Called LegalActions for pseudo-player {player}")
            return []
        if phase == OVER:
            return []
        return [outcome for outcome, _ in self.chance_outcomes()]

    def legal_actions_mask(self, player: int | None = None) -> npt.NDArray[np.int8]:
        """1 for each legal action of ``player`` (default: the one to move), 0 for the others, as a new
        int8 array; pyspiel's own method gives the same as a list (see :meth:`observation_tensor`)."""
        core = self.core
        if core.phase != PLAY:
            seat = self.current_player() if player is None else player
            return np.asarray(pyspiel.State.legal_actions_mask(self, seat), np.int8)
        mask = np.zeros(ACTION_COUNT, np.int8)
        if player is None or player == core.state.to_move:  # type: ignore[union-attr]
            for action in legal_actions(core.state):  # type: ignore[arg-type]
                mask[action] = 1
        elif player < 0:
            raise RuntimeError(f"Called LegalActionsMask for pseudo-player {player}")
        return mask

    def observation_tensor(self, player: int | None = None) -> npt.NDArray[np.float32]:
        """The default observation tensor of ``player`` (default: the one to move), as a new float32 array.

        pyspiel's own method gives the same numbers as a list of floats, a Python float made for
        each entry; a learning loop turns it into an array anyway, so this one hands over the array
        (``.tolist()`` gives pyspiel's list). C++ callers still get theirs through the observer.
        """
        return self._tensor(0, player)

    def information_state_tensor(self, player: int | None = None) -> npt.NDArray[np.float32]:
        """The information-state tensor of ``player`` (default: the one to move), as a new float32 array
        (see :meth:`observation_tensor`)."""
        return self._tensor(1, player)

    def _tensor(self, recall: int, player: int | None) -> npt.NDArray[np.float32]:
        core = self.core
        seat = self.current_player() if player is None else operator.index(player)
        if not 0 <= seat < core.shape.players:
            kind = "InformationStateTensor" if recall else "ObservationTensor"
            raise RuntimeError(f"{kind} is for a seat 0..{core.shape.players - 1}, got player {seat}")
        tensors: observer.AmericanSniffObserver = self.get_game().tensor_observers[recall]
        return tensors.tensor_of(core, seat).copy()

    def is_chance_node(self) -> bool:
        """The lot, the deal or a draw's tile is to come."""
        return self.core.phase in _CHANCE_PHASES

    def is_player_node(self) -> bool:
        """A seat is to move."""
        return self.core.phase == PLAY

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each outcome of this chance node, all equally likely."""
        core = self.core
        phase = core.phase
        if phase == DEAL:
            outcomes: tuple[int, ...] = core.undealt
        elif phase == DRAW:
            outcomes = core.state.boneyard_ids  # type: ignore[union-attr]
        elif phase == LOT:
            outcomes = tuple(range(core.shape.players))
        else:
            raise InvalidStateError("TURN-1", "chance outcomes are asked of a chance node")
        pairs = _OUTCOME_PAIRS[len(outcomes)]
        return [pairs[outcome] for outcome in outcomes]

    def _apply_action(self, action: int) -> None:
        """Apply a seat's action or a chance outcome; an illegal one raises and changes nothing."""
        self.core = advance(self.core, action)

    def _action_to_string(self, player: int, action: int) -> str:
        """A seat's action as :func:`~sniff_rules.adapters.actions.action_text`; a chance outcome named."""
        if player >= 0:
            return action_text(action)
        phase = self.core.phase
        if phase == LOT:
            return f"lot: seat {action} opens"
        if not 0 <= action < TILE_COUNT:
            return f"chance outcome {action}"
        return f"{'deal' if phase == DEAL else 'draw'} {DOUBLE_SIX[action]}"

    def is_terminal(self) -> bool:
        """The round (``round`` scope) or the match (``match`` scope) is over."""
        return self.core.phase == OVER

    def returns(self) -> list[float]:
        """Each seat's return (see the module's docstring); zeros before the end."""
        return returns_of(self.core)

    def __str__(self) -> str:
        return observer.full_text(self.core)

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> AmericanSniffState:
        """A state with the hidden tiles re-dealt, uniformly among the deals consistent with what
        ``player_id`` has seen this round (:class:`~sniff_rules.play.sampler.DealSampler`).

        The player's information state (string and tensor) is the same in the state returned.
        Earlier rounds of a match are kept as they were: their hands were shown at their ends,
        and nothing hidden in them bears on the rounds after. ``probability_sampler`` (OpenSpiel's
        sampler) seeds the re-deal; its value must lie in [0, 1), as OpenSpiel's own games require of
        the value their re-deals draw with (``SampleAction`` checks ``0 <= z < 1``): NaN, a value
        outside [0, 1) or one that is not a number raises ``InvalidStateError`` (FORMAT-3) before
        anything is dealt.
        """
        core = self.core
        if core.phase != PLAY or core.start is None:
            raise InvalidStateError("SETUP-6", "hidden tiles are re-dealt while a seat is to move")
        seed = int(_unit_value(probability_sampler()) * 2**53)
        view_state, events = _replay_round(core)
        view = seat_view(view_state, player_id, events)
        deal, _ = DealSampler(view).sample(SplitMix64.from_seed(seed))
        game = self.get_game()
        resampled: AmericanSniffState = game.new_initial_state()
        for action in self.history()[: core.deal_at]:
            resampled.apply_action(action)
        for hand in deal.hands:
            for tile in sorted(hand):
                resampled.apply_action(tile.index)
        draws = iter(deal.boneyard)
        for _seat, action, _tile in core.log:
            resampled.apply_action(action)
            if action == DRAW_ACTION:
                resampled.apply_action(next(draws).index)
        return resampled


def _unit_value(value: object) -> float:
    """``value`` if it is an int or float (numpy's float64 is one) in [0, 1), else refused (FORMAT-3);
    NaN fails both comparisons."""
    # Compared before any conversion: float() of a huge int would overflow.
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1:
        raise InvalidStateError(
            "FORMAT-3", f"probability_sampler gives a number in [0, 1), as OpenSpiel's samplers do; got {value!r:.60}"
        )
    return float(value)


def _replay_round(core: Core) -> tuple[Any, tuple[Event, ...]]:
    """The round so far replayed from its deal with the boneyard in the order drawn, and its events."""
    start = core.start
    assert start is not None
    drawn = [tile for _seat, action, tile in core.log if action == DRAW_ACTION]
    order = tuple(drawn) + tuple(index for index in start.boneyard_ids if index not in set(drawn))
    state = attrs.evolve(start, boneyard_ids=tile_indices_of(order))
    events: list[Event] = [Dealt.of(state)]
    for entry in core.log:
        state, happened = apply_with_events(state, _move(entry))
        events += happened
    return state, tuple(events)


def _move(entry: Entry) -> Any:
    seat, action, _tile = entry
    return move_of(action, seat)


pyspiel.register_game(GAME_TYPE, AmericanSniffGame)
