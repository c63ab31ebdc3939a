"""Recorded play: the recording policy, and what a recorded line says about a deal or a move.

A recorded vector file (``recorded/players-N.jsonl``) is whole matches
played by :data:`POLICY_TEXT`, one JSON object per line. The facts of each
line are computed here from the engine, once, for the generator
(:mod:`sniff_rules.verify.vectors.generate`, which writes them) and the runner
(:mod:`sniff_rules.verify.vectors.conformance`, which recomputes them and compares).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import attrs

from sniff_rules.formats.state_json import round_result_to_data
from sniff_rules.formats.strict_json import JsonObject, JsonValue
from sniff_rules.moves import Draw, Move, Place, legal_moves
from sniff_rules.randomness import LotRound, RandomSource, draw_lot, shuffled
from sniff_rules.rules import Rules
from sniff_rules.scoring import play_points
from sniff_rules.state import Phase, State
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT, Tile

VECTOR_FORMAT: Final = 1
"""The ``format`` of every vector file; a change that old readers would misread gets a new one."""

RECORDED_FORMAT: Final = "sniff-rules/recorded@1"
"""The ``kind`` of a recorded file's header line."""

POLICY_SEED_OFFSET: Final = 500_000
"""A generated match's ``policy_seed`` is its ``seed`` plus this, so that the two sources differ."""

POLICY_TEXT: Final = (
    "Moves are chosen by one SplitMix64 source seeded with the match's policy_seed (SETUP-5's"
    " generator, apart from the match's own source), which serves the whole match, every round:"
    " before each move, a forced one included (below(1) still draws an output), with L the legal"
    " moves in canonical order (CONV-2), the move is L[below(len(L))]. Canonical order: a lead by"
    " tile index (SETUP-1); otherwise by attachment point (tile index * 6 + port, ports low=0,"
    " high=1, chain-a=2, chain-b=3, arm-a=4, arm-b=5), then by tile index; a draw or a pass is"
    " alone. New rounds are dealt by the match's own source (seed) exactly as SETUP-5 and"
    " OPEN-1/OPEN-2 say."
)
"""How a recorded match chooses its moves, as its header states it."""


def recording_choice(state: State, policy: RandomSource) -> tuple[Move, RandomSource]:
    """The move :data:`POLICY_TEXT` chooses, ``L[below(len(L))]``, and the policy's next source.

    A policy for :func:`sniff_rules.play.driver.play_match`.
    """
    options = legal_moves(state)
    index, policy = policy.below(len(options))
    return options[index], policy


@attrs.frozen
class RecordedTally:
    """Counts over recorded matches, as the summary line states them."""

    matches: int = 0
    rounds: int = 0
    blocked: int = 0
    won_mid_round: int = 0
    won_by_last_tile: int = 0
    moves: int = 0

    def __add__(self, other: RecordedTally) -> RecordedTally:
        return RecordedTally(*(a + b for a, b in zip(attrs.astuple(self), attrs.astuple(other), strict=True)))

    def as_data(self) -> JsonObject:
        """The summary line's counts."""
        return dict(attrs.asdict(self))


def move_texts(moves: Iterable[Move]) -> list[JsonValue]:
    """Moves as their text forms, in the order given."""
    return [str(move) for move in moves]


def expected_deal(
    rules: Rules, source: RandomSource, lot_first: bool
) -> tuple[tuple[LotRound, ...], int | None, tuple[Tile, ...], RandomSource]:
    """The lot (when one is drawn), its winner, the deal order and the next source (OPEN-1, SETUP-5).

    At the start of a match and after a blocked round the lot is drawn
    before the shuffle; after a round played out, only the shuffle.
    """
    lot: tuple[LotRound, ...] = ()
    opener: int | None = None
    if lot_first:
        opener, lot, source = draw_lot(tuple(range(rules.players)), source)
    indices, source = shuffled(tuple(range(TILE_COUNT)), source)
    return lot, opener, tuple(DOUBLE_SIX[i] for i in indices), source


def is_deal_of(state: State, order: tuple[Tile, ...]) -> bool:
    """Whether ``state`` is the deal of ``order``: hands by slices, boneyard in order (SETUP-5)."""
    size = state.rules.hand_size
    for seat in range(state.rules.players):
        if set(state.hand(seat)) != set(order[seat * size : (seat + 1) * size]):
            return False
    return state.boneyard == order[state.rules.players * size :]


def _end_data(after: State, move: Move) -> JsonObject | None:
    if after.phase is Phase.MATCH_OVER:
        assert isinstance(move, Place)
        return {"kind": "match-won", "winner": after.winner, "last_tile": not after.hand(move.seat)}
    if after.phase is Phase.ROUND_OVER:
        result = after.last_round
        assert result is not None
        # The round's number is on its deal line already.
        settled = {key: value for key, value in round_result_to_data(result).items() if key != "round"}
        return {"kind": "blocked" if result.blocked else "played-out", **settled}
    return None


def move_line(before: State, move: Move, after: State) -> JsonObject:
    """The recorded line of ``move`` from ``before`` to ``after``: points, scores, any end, the legal moves."""
    line: JsonObject = {"type": "move", "move": str(move)}
    if isinstance(move, Place):
        line["count"] = after.layout.end_count
        line["points"] = play_points(after.layout.end_count)
    else:
        line["points"] = 0
    if isinstance(move, Draw):
        line["drew"] = str(before.boneyard[0])
    line["scores"] = list(after.scores)
    end = _end_data(after, move)
    if end is not None:
        line["end"] = end
    line["legal"] = move_texts(legal_moves(after))
    return line
