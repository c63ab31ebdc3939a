"""Hypothesis strategies for American Sniff: tiles, house rules, seeds,
states reached by legal play, and legal and illegal moves.

For a frontend's or a bot's property tests. Hypothesis is an optional
extra (``pip install 'sniff-rules[test]'``): ``import sniff_rules`` never
imports it, only importing this module or :mod:`sniff_rules.verify.machine` does.

>>> from hypothesis import given, strategies as st
>>> from sniff_rules import SniffError, apply
>>> from sniff_rules.verify.strategies import illegal_moves_of, states
>>> @given(states(players=3, max_moves=30), st.data())
... def test_my_engine_refuses_illegal_moves(state, data):
...     move = data.draw(illegal_moves_of(state))
...     try:
...         apply(state, move)  # a frontend calls its own engine here
...     except SniffError:
...         return
...     raise AssertionError(f"{move!r} was accepted")
>>> test_my_engine_refuses_illegal_moves()

Every value drawn here has a repr that pastes back as code (after
``from sniff_rules import *``), so a failing example prints a state or move
that replays as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final, TypeAlias

import attrs
from hypothesis import assume, strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis.strategies import SearchStrategy

from sniff_rules._fast import is_tuple
from sniff_rules.layout import AttachmentPoint, Port
from sniff_rules.moves import Draw, Move, Pass, Place, apply, legal_moves
from sniff_rules.play.driver import play_match
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import PLAYER_COUNTS, Rules
from sniff_rules.state import Phase, State, new_match, next_round
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT, Tile

__all__ = [
    "NextRound",
    "Playthrough",
    "Step",
    "illegal_moves_of",
    "legal_moves_of",
    "playthroughs",
    "register_strategies",
    "rules",
    "seeds",
    "states",
    "tiles",
]

MAX_SEED: Final = 2**64 - 1
"""Seeds above this repeat smaller ones: :func:`new_match` takes them modulo 2**64."""

DEFAULT_MAX_TARGET: Final = 500
"""The highest custom target :func:`rules` draws unless told otherwise."""

DEFAULT_MAX_MOVES: Final = 200
"""How many moves :func:`states` and :func:`playthroughs` make at most unless told otherwise."""

MOVE_SEATS: Final = range(4)
"""Seats a move may name; with fewer players the higher ones never move."""

ALL_POINTS: Final[tuple[AttachmentPoint, ...]] = tuple(
    AttachmentPoint(tile, port)
    for tile in DOUBLE_SIX
    for port in ((Port.CHAIN_A, Port.CHAIN_B, Port.ARM_A, Port.ARM_B) if tile.is_double else (Port.LOW, Port.HIGH))
)
"""Every port of every tile: the 70 points a move can name."""


def tiles() -> SearchStrategy[Tile]:
    """Any of the 28 tiles of the double-six set (SETUP-1); shrinks towards [0|0].

    >>> from hypothesis import given
    >>> @given(tiles())
    ... def test_parse_reads_str(tile):
    ...     assert Tile.parse(str(tile)) == tile
    >>> test_parse_reads_str()
    """
    return st.sampled_from(DOUBLE_SIX)


def _player_counts(players: int | Iterable[int] | None) -> tuple[int, ...]:
    if players is None:
        return PLAYER_COUNTS
    counts = (players,) if isinstance(players, int) else tuple(players)
    if not counts or any(type(count) is not int or count not in PLAYER_COUNTS for count in counts):
        raise InvalidArgument(f"players is 2, 3, 4 or a collection of them, got {players!r}")
    return counts


@st.composite
def _custom_rules(draw: st.DrawFn, counts: tuple[int, ...], max_target: int) -> Rules:
    # Built in a composite so that a failing example prints the Rules value,
    # whose repr pastes back, rather than the calls that made it.
    players = draw(st.sampled_from(counts))
    largest_hand = (TILE_COUNT - 1) // players  # SETUP-4: at least one tile left for the boneyard
    hand_size = draw(st.integers(1, largest_hand))
    return Rules(players, hand_size, 5 * draw(st.integers(1, max_target // 5)))  # SETUP-3


def rules(
    players: int | Iterable[int] | None = None, *, custom: bool = True, max_target: int = DEFAULT_MAX_TARGET
) -> SearchStrategy[Rules]:
    """House rules: valid custom hand sizes and targets and the standard
    rules, or with ``custom=False`` the standard rules only (SETUP-2,
    SETUP-3, SETUP-4).

    ``players`` is 2, 3, 4 or a collection of them (all three by default).
    A custom rule set has 1 to ``27 // players`` tiles a hand and a target
    that is a multiple of 5 up to ``max_target``; small targets end matches
    within a few moves, which is how a stateful run sees many match ends.
    Shrinks towards the smallest match: the fewest players, one tile each,
    target 5; a failure that needs the standard rules keeps them.

    >>> from hypothesis import given
    >>> @given(rules(players=4))
    ... def test_four_play_partnerships(rules):
    ...     assert rules.partnerships and rules.sides == 2
    >>> test_four_play_partnerships()
    """
    counts = _player_counts(players)
    if type(max_target) is not int or max_target < 5:
        raise InvalidArgument(f"max_target is an int of at least 5, got {max_target!r}")
    # Values rather than .map(Rules.standard): a failing example then prints
    # Rules(players=2, ...), not standard(2).
    standard = st.sampled_from([Rules.standard(count) for count in counts])
    if not custom:
        return standard
    # Custom first: shrinking a failure to the shortest match it needs is
    # what makes a stateful failure quick to shrink and easy to read.
    return st.one_of(_custom_rules(counts, max_target), standard)


def seeds() -> SearchStrategy[int]:
    """Seeds for :func:`~sniff_rules.new_match`: every distinct SplitMix64 start, 0..2**64-1.

    >>> from hypothesis import given
    >>> from sniff_rules import Rules, new_match
    >>> @given(seeds())
    ... def test_a_seed_deals_one_match(seed):
    ...     assert new_match(Rules.standard(2), seed) == new_match(Rules.standard(2), seed)
    >>> test_a_seed_deals_one_match()
    """
    return st.integers(min_value=0, max_value=MAX_SEED)


@attrs.frozen
class NextRound:
    """The step that deals the next round after a settled one (OPEN-2)."""


Step: TypeAlias = Place | Draw | Pass | NextRound
"""One step of a match after the deal: a move, or dealing the next round."""


@attrs.frozen
class Playthrough:
    """A match from its deal to ``state``: the rules, the seed and every step.

    Replaying the steps from ``new_match(rules, seed)`` gives ``state``
    again; :meth:`script` writes that replay as Python.

    >>> from sniff_rules import Rules, Place, Tile, apply, new_match
    >>> lead = Place(1, Tile(0, 5))
    >>> played = Playthrough(Rules.standard(2), 20, (lead,), apply(new_match(Rules.standard(2), 20), lead))
    >>> print(played.script())
    from sniff_rules import *
    state = new_match(Rules(players=2, hand_size=7, target=250), 20)
    for move in (Place(1, Tile(0, 5)),):
        state = apply(state, move)
    >>> played.replay() == played.state
    True
    """

    rules: Rules
    seed: int
    steps: tuple[Step, ...] = attrs.field(validator=is_tuple)
    state: State
    """The state the steps lead to."""

    def replay(self) -> State:
        """The state after replaying every step with :mod:`sniff_rules` itself."""
        state = new_match(self.rules, self.seed)
        for step in self.steps:
            state = next_round(state) if isinstance(step, NextRound) else apply(state, step)
        return state

    def script(self) -> str:
        """Python that replays the match: paste it to reproduce a failure."""
        lines = ["from sniff_rules import *", f"state = new_match({self.rules!r}, {self.seed!r})"]
        moves: list[Move] = []

        def flush() -> None:
            if moves:
                lines.append(f"for move in ({', '.join(map(repr, moves))},):")
                lines.append("    state = apply(state, move)")
                moves.clear()

        for step in self.steps:
            if isinstance(step, NextRound):
                flush()
                lines.append("state = next_round(state)")
            else:
                moves.append(step)
        flush()
        return "\n".join(lines)


@st.composite
def _playthroughs(draw: st.DrawFn, counts: tuple[int, ...], max_moves: int, custom: bool) -> Playthrough:
    house_rules = draw(rules(counts, custom=custom), label="rules")
    seed = draw(seeds(), label="seed")
    state = new_match(house_rules, seed)

    def drawn_move(seen: State, unused: RandomSource) -> tuple[Move, RandomSource]:
        moves = legal_moves(seen)
        return moves[draw(st.integers(0, len(moves) - 1))], unused

    # The driver deals each next round itself; the moves come from Hypothesis,
    # so the source it threads is never read.
    match = play_match(state, [drawn_move] * house_rules.players, SplitMix64.from_seed(0))
    next(match)  # the first deal, which new_match has made
    steps: list[Step] = []
    for _ in range(draw(st.integers(0, max_moves), label="moves")):
        if state.phase is Phase.MATCH_OVER:
            break
        # Without this choice a settled round would only be seen when the
        # move budget ran out exactly on its last move.
        if state.phase is Phase.ROUND_OVER and draw(st.booleans(), label="stop at the settled round"):
            break
        step = next(match)
        state = step.state
        steps.append(NextRound() if step.move is None else step.move)
    return Playthrough(house_rules, seed, tuple(steps), state)


def _check_max_moves(max_moves: int) -> None:
    if type(max_moves) is not int or max_moves < 0:
        raise InvalidArgument(f"max_moves is a non-negative int, got {max_moves!r}")


def playthroughs(
    players: int | Iterable[int] | None = None, *, max_moves: int = DEFAULT_MAX_MOVES, custom: bool = True
) -> SearchStrategy[Playthrough]:
    """Matches played from ``new_match(rules, seed)`` by up to ``max_moves``
    legal moves, with the steps that reached the final state.

    Rules come from :func:`rules` (``players``, ``custom``). Each move is
    one of ``legal_moves``; a settled round either ends the playthrough or
    is followed by ``next_round``; a won match ends it. Shrinks towards
    fewer moves and the first listed move.

    >>> from hypothesis import given
    >>> @given(playthroughs(players=2, max_moves=40))
    ... def test_replays(played):
    ...     assert played.replay() == played.state
    >>> test_replays()
    """
    _check_max_moves(max_moves)
    return _playthroughs(_player_counts(players), max_moves, custom)


def states(
    players: int | Iterable[int] | None = None, *, max_moves: int = DEFAULT_MAX_MOVES, custom: bool = True
) -> SearchStrategy[State]:
    """States reachable by legal play: the final states of :func:`playthroughs`.

    Playing, settled (``Phase.ROUND_OVER``) and won (``Phase.MATCH_OVER``)
    states all occur; the won ones mostly under custom rules with small
    targets.

    >>> from hypothesis import given
    >>> from sniff_rules import Phase, legal_moves
    >>> @given(states(players=(2, 4), max_moves=50))
    ... def test_only_a_playing_state_has_moves(state):
    ...     assert bool(legal_moves(state)) == (state.phase is Phase.PLAYING)
    >>> test_only_a_playing_state_has_moves()
    """
    return playthroughs(players, max_moves=max_moves, custom=custom).map(lambda played: played.state)


def legal_moves_of(state: State) -> SearchStrategy[Move]:
    """One of ``legal_moves(state)``; the state must be ``Phase.PLAYING``.

    >>> from hypothesis import given
    >>> from sniff_rules import Rules, apply, new_match
    >>> state = new_match(Rules.standard(4), seed=3)
    >>> @given(legal_moves_of(state))
    ... def test_a_lead_scores_a_multiple_of_five(move):
    ...     assert apply(state, move).scores[0] % 5 == 0
    >>> test_a_lead_scores_a_multiple_of_five()
    """
    moves = legal_moves(state)
    if not moves:
        raise InvalidArgument(f"a {state.phase.value} state has no legal move")
    return st.sampled_from(moves)


def _with_seat(move: Move, seat: int) -> Move:
    if isinstance(move, Place):
        return Place(seat, move.tile, move.target)
    return Draw(seat) if isinstance(move, Draw) else Pass(seat)


def _fits(tile: Tile, point: AttachmentPoint) -> bool:
    return point.value in (tile.low, tile.high)


_Pool: TypeAlias = tuple[int, Callable[[int], Move]]
"""Moves of one kind: how many, and the move at an index. Building every
combination up front would cost more than the draw it serves."""


def _listed(moves: Sequence[Move]) -> _Pool:
    return len(moves), moves.__getitem__


def _placed(seat: int, tiles: Sequence[Tile], points: Sequence[AttachmentPoint | None]) -> _Pool:
    count = len(points)
    return len(tiles) * count, lambda index: Place(seat, tiles[index // count], points[index % count])


def _reseated(moves: Sequence[Move], seats: Sequence[int]) -> _Pool:
    count = len(seats)
    return len(moves) * count, lambda index: _with_seat(moves[index // count], seats[index % count])


@st.composite
def _one_of_pools(draw: st.DrawFn, pools: tuple[_Pool, ...], legal: frozenset[Move]) -> Move:
    # Indices rather than nested strategies: a new strategy per state would
    # be validated on every draw, which dominated a stateful run's time.
    size, move_at = pools[draw(st.integers(0, len(pools) - 1))]
    move = move_at(draw(st.integers(0, size - 1)))
    # Every pool is illegal by construction; this only guards that claim.
    assume(move not in legal)
    return move


def _pools_after_play(state: State) -> list[_Pool]:
    """After a round or the match every move is refused (END-1, MATCH-2):
    each seat's draw, pass, and each held tile led or on each open point."""
    seats = range(state.rules.players)
    held = tuple(tile for hand in state.hands for tile in hand) or DOUBLE_SIX
    targets: tuple[AttachmentPoint | None, ...] = (None, *state.layout.open_points)
    return [
        _listed([Draw(seat) for seat in seats]),
        _listed([Pass(seat) for seat in seats]),
        *(_placed(seat, held, targets) for seat in seats),
    ]


def _pools_in_play(state: State, listed: tuple[Move, ...], legal: frozenset[Move]) -> list[_Pool]:
    seat = state.to_move
    layout = state.layout
    hand = state.hand(seat)
    open_points = layout.open_points
    open_set = frozenset(open_points)
    pools = [_reseated(listed, [other for other in MOVE_SEATS if other != seat])]  # TURN-2

    # PLACE-3, each on a point it fits where there is one, so that not holding
    # it is the only fault.
    not_held = [tile for tile in DOUBLE_SIX if tile not in hand]
    if layout.is_empty:
        pools.append(_placed(seat, not_held, [None]))
    else:
        pools.append(
            _listed(
                [
                    Place(seat, tile, next((point for point in open_points if _fits(tile, point)), open_points[0]))
                    for tile in not_held
                ]
            )
        )

    pools.append(_placed(seat, hand, [point for point in ALL_POINTS if point not in open_set]))  # PLACE-1, OPEN-3
    pools.append(_listed([Place(seat, t, point) for t in hand for point in open_points if not _fits(t, point)]))
    if not layout.is_empty:
        pools.append(_placed(seat, hand, [None]))  # OPEN-3: a lead onto a non-empty table
    sniff = layout.sniff_tile
    if sniff is not None and (
        AttachmentPoint(sniff, Port.CHAIN_A) in open_set or AttachmentPoint(sniff, Port.CHAIN_B) in open_set
    ):
        # SNIFF-2, tiles showing the Sniff's value first: they would fit once the arms open.
        arms = [AttachmentPoint(sniff, Port.ARM_A), AttachmentPoint(sniff, Port.ARM_B)]
        pools.append(_placed(seat, sorted(hand, key=lambda tile: not _fits(tile, arms[0])), arms))
    drawn = state.drawn_tile
    if drawn is not None:
        pools.append(  # DRAW-2: another tile than the one drawn
            _listed(
                [
                    Place(seat, tile, point)
                    for tile in hand
                    if tile != drawn
                    for point in open_points
                    if _fits(tile, point)
                ]
            )
        )
    pools.append(_listed([move for move in (Draw(seat), Pass(seat)) if move not in legal]))  # DRAW-1, DRAW-2, PASS-1
    return pools


def illegal_moves_of(state: State) -> SearchStrategy[Move]:
    """Moves that are not in ``legal_moves(state)``, each of them refused by ``apply``.

    While a round is played they are built to break one rule each, from
    the public constructors of :class:`~sniff_rules.Place`,
    :class:`~sniff_rules.Draw` and :class:`~sniff_rules.Pass`: a listed
    move made by another seat (TURN-2); a tile the mover does not hold
    (PLACE-3, or DRAW-2 while a drawn tile waits: CONV-3); a held tile on a point that is not open, on an open point it
    does not match, or led onto a non-empty table (PLACE-1, OPEN-3); a
    side arm of the Sniff before both long sides are occupied (SNIFF-2);
    another tile than the one just drawn (DRAW-2); a draw or a pass the
    rules do not allow (DRAW-1, DRAW-2, PASS-1). After a round or the match
    every move is illegal (END-1, MATCH-2). Shrinks towards a listed move
    made by the wrong seat.

    >>> from hypothesis import given
    >>> from sniff_rules import Rules, SniffError, apply, new_match
    >>> state = new_match(Rules.standard(2), seed=20)
    >>> @given(illegal_moves_of(state))
    ... def test_refused(move):
    ...     try:
    ...         apply(state, move)
    ...     except SniffError:
    ...         return
    ...     raise AssertionError(f"{move!r} was accepted")
    >>> test_refused()
    """
    listed = legal_moves(state)
    legal = frozenset(listed)
    pools = _pools_in_play(state, listed, legal) if state.phase is Phase.PLAYING else _pools_after_play(state)
    return _one_of_pools(tuple(pool for pool in pools if pool[0]), legal)


def _tiles_for(_type: type[Tile]) -> SearchStrategy[Tile]:
    return tiles()


def _rules_for(_type: type[Rules]) -> SearchStrategy[Rules]:
    return rules()


def register_strategies() -> None:
    """Make ``st.from_type(Tile)`` and ``st.from_type(Rules)`` (and ``builds``
    and ``@given`` with those annotations) use :func:`tiles` and :func:`rules`.

    Hypothesis calls this itself through the ``hypothesis`` entry point of an
    installed ``sniff-rules``; call it directly when running from a source
    tree. Registering again is harmless.

    >>> from hypothesis import given
    >>> register_strategies()
    >>> @given(st.from_type(Tile))
    ... def test_tiles_are_canonical(tile):
    ...     assert tile.low <= tile.high
    >>> test_tiles_are_canonical()
    """
    # Functions, not strategies: when Hypothesis runs this from its entry
    # point during its own import, nothing may be built yet.
    st.register_type_strategy(Tile, _tiles_for)
    st.register_type_strategy(Rules, _rules_for)
