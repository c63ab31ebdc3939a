"""The laws of a match of American Sniff, as plain functions that return violations.

Each function takes states (and a move, for a step) and returns a tuple of
:class:`Violation` values, empty when every law holds. None of them raises
or changes what it is given, and this module does not import Hypothesis,
so a frontend can check its production logs with them as well as
:class:`sniff_rules.verify.machine.SniffMachine` checks an engine:

>>> import attrs
>>> from sniff_rules import Rules, apply, legal_moves, new_match
>>> state = new_match(Rules.standard(2), seed=7)
>>> move = legal_moves(state)[0]
>>> after = apply(state, move)
>>> position_violations(after), step_violations(state, move, after)
((), ())
>>> for violation in position_violations(attrs.evolve(after, scores=(3, 0))):
...     print(violation.law, "|", violation)
scores-multiple-of-five | SETTLE-4: every score is a multiple of 5, not (3, 0)

A violation names its law (a stable name, listed below) and, where one
applies, the rule id of ``specs/rules.md`` it breaks. Laws marked *library*
ask :mod:`sniff_rules` itself; every other law is written out again here,
so that it does not trust the code it checks.

Position laws, :func:`position_violations` (any state of a match):

- ``well-formed``: every field has its type and range — a :class:`State`
  with a :class:`RoundContext` and :class:`Rules`, a :class:`Phase`, one
  hand per seat as a bit mask of the 28 tiles, tile indices in the
  boneyard, a :class:`Layout` of :class:`Placement` values, a round number
  from 1, an opener seat, a drawn tile index or -1, no winner or a side. A
  state that is not well-formed is checked no further.
- ``seat-to-move`` (TURN-1): the seat to move is a seat, 0..players-1.
- ``score-per-side`` (SETUP-2): one integer score per side. When this or
  ``seat-to-move`` fails, the state is checked no further.
- ``tiles-once`` (SETUP-1): each of the 28 tiles exactly once across the
  hands, the boneyard and the table.
- ``end-count`` (COUNT-1..4): the layout's end count equals
  :func:`~sniff_rules.layout.recount_end` of its placements.
- ``scores-multiple-of-five`` (SETTLE-4): every score is a multiple of 5.
- ``below-target`` (MATCH-1): until the match is won, every score is below
  the target.
- ``winner`` (MATCH-1): a won match has a winner, a side at or past the
  target, and no other side is; a match not won has no winner.
- ``last-round``: the last round on record is the one before this round,
  or this round once it is over; the first round has none until it ends.
- ``hands-revealed`` (SETTLE-1): a settled round records the hands it
  settled, which are the state's hands.
- ``settlement`` (SETTLE-1, SETTLE-2): the recorded settlement is each
  hand's pips, each rounded on its own to 5, and those summed per side.
- ``round-ended`` (END-1, BLOCK-1): a settled round was played out — the
  finisher's hand alone is empty — or blocked — no finisher, an empty
  boneyard, every hand holding tiles and none of them fitting.
- ``hands-held`` (END-1): while a round is played every seat holds a tile.
- ``not-blocked`` (BLOCK-1): while a round is played, the boneyard has a
  tile or some held tile fits an open point.
- ``drawn-tile`` (DRAW-2): a drawn tile waiting to be placed exists only
  while a round is played, is in the hand of the seat to move and fits.

Move-list laws, :func:`move_list_violations` (the moves an engine lists):

- ``move-kind`` (TURN-1): each is a :class:`Place`, :class:`Draw` or
  :class:`Pass` with fields of their types (also a step law).
- ``moves-while-playing`` (TURN-1, END-1, MATCH-2): some move is listed
  exactly while a round is played.
- ``moves-distinct``: no move is listed twice.
- ``draw-or-pass-alone`` (DRAW-1, DRAW-2, PASS-1): a draw or a pass is
  the only move listed, a draw while the boneyard has a tile, a pass
  once it has none.
- ``moves-by-seat-to-move`` (TURN-2): every move is the seat to move's.

Step laws, :func:`step_violations` (one accepted move; both states must be
well-formed, and are reported under the position laws' names otherwise):

- ``accepted-while-playing`` (END-1, MATCH-2): a move is accepted only
  while a round is played.
- ``move-legal`` (*library*; the rule ``apply`` refuses it with): the move
  is among :func:`~sniff_rules.legal_moves` of the state before. A step
  breaking this or the law above is checked no further.
- ``placement-moves-tile`` (PLACE-3): a placement moves its tile from the
  placer's hand to the end of the layout and changes no other hand nor
  the boneyard.
- ``draw-takes-first-tile`` (DRAW-2): a draw moves the first boneyard tile
  to the drawer's hand and changes no other hand nor the layout.
- ``draw-marks-fitting-tile`` (DRAW-2): after a draw, while the round goes
  on, the drawn tile waits to be placed exactly when it fits.
- ``pass-changes-only-turn`` (PASS-1): a pass changes no hand, boneyard or
  layout, and the round goes on.
- ``turn-passes`` (TURN-1, DRAW-2): while the round goes on, the next seat
  moves after a placement or a pass, the same seat after a draw.
- ``round-facts-kept``: a move keeps the rules (a step that changes them
  is checked no further), the round number, the opener and the lot.
- ``points-credited`` (POINTS-1, POINTS-2): a placement adds the points of
  the new end count — itself when a positive multiple of 5, else 0 — to
  the placer's side; a draw or a pass scores nothing.
- ``settlement-deducted`` (SETTLE-2): when the move ends the round, the
  scores are the credited ones less each hand rounded on its own to 5,
  taken off its seat's side.
- ``won-by-placement`` (MATCH-1): a placement that brings its side to the
  target wins the match at once, for that side, with no settlement; only
  a placement wins.
- ``round-result-recorded`` (END-1, BLOCK-1): a move that ends the round
  records a result of this round, with the placer as finisher when it
  played out and none when blocked; a move that does not, records none.

Deal laws, :func:`deal_violations` (a new match's first deal, or the round
dealt after ``previous``; both states must be well-formed):

- ``dealt-after-round-over`` (END-1, MATCH-2): a new round is dealt only
  after a settled round, never after a won match; checked no further.
- ``full-hands`` (SETUP-4): every hand holds the hand size, the boneyard
  the rest.
- ``opener-leads`` (OPEN-3): play starts on an empty table, nothing drawn,
  no winner, the opener to move.
- ``opener-chosen`` (OPEN-1, OPEN-2): after a played-out round the
  finisher opens, with no lot; otherwise a lot, when recorded, starts
  among all seats, redraws only the tied, and is won by the opener.
- ``round-numbered``: the first deal is round 1, each next one more.
- ``scores-carried``: a match starts at 0 each; a new round keeps the
  scores.
- ``result-kept``: a new round keeps the result of the round before; a new
  match has none.
- ``rules-kept``: a new round keeps the house rules.

A deal or the state after a step is a position too: check it with
:func:`position_violations` as well.
"""

from __future__ import annotations

from typing import Final

from sniff_rules.position._position_laws import Violation, move_list_violations, position_violations
from sniff_rules.position._step_laws import deal_violations, step_violations

__all__ = [
    "DEAL_LAWS",
    "MOVE_LIST_LAWS",
    "POSITION_LAWS",
    "STEP_LAWS",
    "Violation",
    "deal_violations",
    "move_list_violations",
    "position_violations",
    "step_violations",
]

POSITION_LAWS: Final = (
    "well-formed",
    "seat-to-move",
    "score-per-side",
    "tiles-once",
    "end-count",
    "scores-multiple-of-five",
    "below-target",
    "winner",
    "last-round",
    "hands-revealed",
    "settlement",
    "round-ended",
    "hands-held",
    "not-blocked",
    "drawn-tile",
)
"""The names of the position laws, in the order they are reported."""

MOVE_LIST_LAWS: Final = (
    "move-kind",
    "moves-while-playing",
    "moves-distinct",
    "draw-or-pass-alone",
    "moves-by-seat-to-move",
)
"""The names of the laws of a list of legal moves, in the order they are reported."""

STEP_LAWS: Final = (
    "move-kind",
    "accepted-while-playing",
    "move-legal",
    "placement-moves-tile",
    "draw-takes-first-tile",
    "draw-marks-fitting-tile",
    "pass-changes-only-turn",
    "turn-passes",
    "round-facts-kept",
    "points-credited",
    "settlement-deducted",
    "won-by-placement",
    "round-result-recorded",
)
"""The names of the step laws, in the order they are reported (after the
position laws' names for a state that is not well-formed)."""

DEAL_LAWS: Final = (
    "dealt-after-round-over",
    "full-hands",
    "opener-leads",
    "opener-chosen",
    "round-numbered",
    "scores-carried",
    "result-kept",
    "rules-kept",
)
"""The names of the deal laws, in the order they are reported."""
