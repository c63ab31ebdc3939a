"""Observations of the OpenSpiel adapter: strings and tensors for one seat (OpenSpiel's PyObserver).

Which pieces an observer has follows OpenSpiel's ``IIGObservationType``:

- always ``player`` (the observing seat, one-hot);
- public information: ``to_move`` (one-hot; zeros at chance nodes and the end), ``round``,
  ``on_table`` (a bit per tile), ``open_points`` (a bit per attachment point, in point-id order
  of the 70 points), ``end_values`` (how many open points show each value 0..6),
  ``contributions`` (per tile, what it adds to the end count, COUNT-1..4), ``end_count``,
  ``hand_sizes``, ``boneyard_size`` and ``scores`` (raw points, one per side);
- the seat's private information: ``hand`` and ``drawn`` (the drawn tile it must place, DRAW-2),
  a bit per tile; with every seat's, ``hands`` (one row per seat) and ``drawn``;
- perfect recall (the information state): ``history``, flat, one row of ``players + 66`` per
  move of this round (``round_actions`` rows; reshape to see them): the seat (one-hot), the kind
  (lead, placement, draw, pass), the tile placed, or drawn where the observer may see it (its
  own draws), and for a placement the point it went on (one-hot the point's tile, then one-hot
  its port, 0..5 as :data:`~sniff_rules.layout.PORTS` numbers them); in ``match`` scope
  ``past``, the earlier rounds, ``round_actions`` moves each, a move as three numbers: seat + 1,
  action + 1 and the tile seen + 1 (0 where there is no move, or a draw the observer did not
  see). The tensor tells apart every two histories its string tells apart
  (``tests/test_openspiel_recall.py`` holds it to that over random pairs of histories).

The observation tensor (no perfect recall) is the position as the seat sees it now, and omits
on purpose what only the history holds: the order of the moves and who made each, which seat
placed which tile (the ``on_table`` bits say which tiles are down, not by whom), the draws and
passes, so the values a seat showed it lacks by drawing or passing, and earlier rounds beyond
the scores and the round's number. Two histories reaching one position look the same in it.

Nothing in a seat's observation depends on another seat's hidden tiles or the boneyard's order
(SETUP-6); ``tests/test_openspiel.py`` re-deals them and compares.
"""

from __future__ import annotations

from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt
import pyspiel

from sniff_rules.adapters.actions import ACTION_COUNT, DRAW_ACTION, PLACE_BASE, action_text, move_of
from sniff_rules.adapters.openspiel.core import DEAL, DRAW, LOT, PLAY, Core, Entry, GameShape
from sniff_rules.layout import POINT_VALUE, POINTS, PORTS, VALID_POINT_IDS, Layout, Port
from sniff_rules.moves import Place
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT, indices_of_mask, tiles_of_mask, tiles_text

_POINT_INDEX: Final = {point_id: index for index, point_id in enumerate(sorted(VALID_POINT_IDS))}
_KINDS: Final = 4
"""History rows name the move's kind: lead, placement, draw, pass."""


@attrs.frozen
class Visibility:
    """What an observer shows: public facts, the seat's own or every seat's tiles, the history."""

    public: bool
    own: bool
    everyone: bool
    recall: bool

    @classmethod
    def of(cls, kind: Any) -> Visibility:
        """From OpenSpiel's ``IIGObservationType``."""
        private = kind.private_info
        return cls(
            public=bool(kind.public_info),
            own=private == pyspiel.PrivateInfoType.SINGLE_PLAYER,
            everyone=private == pyspiel.PrivateInfoType.ALL_PLAYERS,
            recall=bool(kind.perfect_recall),
        )


def _dealing(core: Core) -> bool:
    return core.phase in (LOT, DEAL)


_DEALING: Final = (LOT, DEAL)


def _dealt_masks(core: Core) -> list[int]:
    """Each seat's hand during the deal (the tiles dealt to it so far), seat 0's first."""
    size = core.shape.rules.hand_size
    masks = []
    for seat in range(core.shape.players):
        mask = 0
        for index in core.dealt[seat * size : (seat + 1) * size]:
            mask |= 1 << index
        masks.append(mask)
    return masks


def _layout(core: Core) -> Layout:
    return Layout.EMPTY if _dealing(core) or core.state is None else core.state.layout


def _hand_mask(core: Core, seat: int) -> int:
    if _dealing(core) or core.state is None:
        size = core.shape.rules.hand_size
        mask = 0
        for index in core.dealt[seat * size : (seat + 1) * size]:
            mask |= 1 << index
        return mask
    return core.state.hand_masks[seat]


def _drawn(core: Core) -> int:
    """The drawn tile waiting to be placed (DRAW-2), or -1."""
    return core.state.drawn if core.phase == PLAY and core.state is not None else -1


def _boneyard_size(core: Core) -> int:
    if _dealing(core) or core.state is None:
        return TILE_COUNT - len(core.dealt)
    return len(core.state.boneyard_ids)


def _scores(core: Core) -> tuple[int, ...]:
    return (0,) * core.shape.rules.sides if core.state is None else core.state.scores


def _to_move(core: Core) -> int:
    return core.state.to_move if core.phase == PLAY and core.state is not None else -1


def _action_columns(action: int) -> tuple[int, ...]:
    """The columns an action sets in a history row, after the seat's: its kind, its tile, and for a
    placement the point it went on (the point's tile, then its port)."""
    if action < PLACE_BASE:
        return (0, _KINDS + action)
    if action == DRAW_ACTION:
        return (2,)
    if action > DRAW_ACTION:
        return (3,)
    place = move_of(action, 0)
    assert type(place) is Place
    assert place.target is not None
    point = place.target.id
    return (1, _KINDS + place.tile.index, _KINDS + TILE_COUNT + point // PORTS, _KINDS + 2 * TILE_COUNT + point % PORTS)


_ACTION_COLUMNS: Final = tuple(_action_columns(action) for action in range(ACTION_COUNT))
_ROW_TAIL: Final = _KINDS + 2 * TILE_COUNT + PORTS
"""A history row after the seat: the kind, the tile, the point's tile, the point's port."""
_PAST_WIDTH: Final = 3
"""Numbers per move of an earlier round: the seat, the action and the tile seen, each + 1."""


def _point_term(point_id: int) -> tuple[int, int, bool]:
    """What an open point adds to the end count (COUNT-1..4): its tile, the value, and whether it is a
    long side of a double, which counts the double's two halves once however many are open (COUNT-2)."""
    index, port = divmod(point_id, PORTS)
    tile = DOUBLE_SIX[index]
    if port in (Port.CHAIN_A, Port.CHAIN_B):
        return index, 2 * tile.low, True
    return index, POINT_VALUE[point_id], False


_POINT_TERMS: Final = tuple(_point_term(point_id) for point_id in range(TILE_COUNT * PORTS))
_LAYOUT_ENTRIES: Final = TILE_COUNT + len(_POINT_INDEX) + 7 + TILE_COUNT + 1


def _layout_entries(layout: Layout) -> list[float]:
    """``on_table`` to ``end_count``: what the layout alone decides (``Layout.contributions`` counted
    from shared terms, as :mod:`sniff_rules.play.events` counts them)."""
    entries = [0.0] * _LAYOUT_ENTRIES
    for placed in indices_of_mask(layout.placed_mask):
        entries[placed] = 1.0
    opened = TILE_COUNT
    values = opened + len(_POINT_INDEX)
    counted = values + 7
    doubles = 0
    for point_id in layout.open_point_ids:
        entries[opened + _POINT_INDEX[point_id]] = 1.0
        entries[values + POINT_VALUE[point_id]] += 1.0
        index, value, chain = _POINT_TERMS[point_id]
        if chain:
            if doubles >> index & 1:
                continue
            doubles |= 1 << index
        entries[counted + index] += value
    entries[-1] = layout.end_count
    return entries


class AmericanSniffObserver:
    """OpenSpiel's PyObserver: ``tensor`` and its named views ``dict``, filled by :meth:`set_from`.

    Each seat's tensor is kept between calls and brought up to date from what changed: the
    history's rows from the first move it has not written (a draw's row again once its tile is
    known), the layout's entries when the layout is another, the public entries once per
    position for every seat. A learning loop asks for every seat's tensor at every step, so
    each step costs a few rows, not a whole history.
    """

    def __init__(self, shape: GameShape, visibility: Visibility) -> None:
        self.shape = shape
        self.visibility = visibility
        players, sides = shape.players, shape.rules.sides
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (players,))]
        if visibility.public:
            pieces += [
                ("to_move", (players,)),
                ("round", (1,)),
                ("on_table", (TILE_COUNT,)),
                ("open_points", (len(_POINT_INDEX),)),
                ("end_values", (7,)),
                ("contributions", (TILE_COUNT,)),
                ("end_count", (1,)),
                ("hand_sizes", (players,)),
                ("boneyard_size", (1,)),
                ("scores", (sides,)),
            ]
        if visibility.own:
            pieces += [("hand", (TILE_COUNT,)), ("drawn", (TILE_COUNT,))]
        elif visibility.everyone:
            pieces += [("hands", (players, TILE_COUNT)), ("drawn", (TILE_COUNT,))]
        self.row = players + _ROW_TAIL
        """The width of one history row: the seat, the kind, the tile, the point's tile and port."""
        self._columns = tuple(tuple(players + column for column in columns) for columns in _ACTION_COLUMNS)
        if visibility.recall:
            # Flat, so that OpenSpiel's playthroughs print it on one line; reshape to
            # (round_actions, row) for one row per move.
            pieces.append(("history", (shape.round_actions * self.row,)))
            if shape.max_rounds > 1:
                pieces.append(("past", ((shape.max_rounds - 1) * shape.round_actions * _PAST_WIDTH,)))
        self.size = sum(int(np.prod(size)) for _, size in pieces)
        self.tensor: npt.NDArray[np.float32] = np.zeros(self.size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        self.offsets: dict[str, int] = {}
        """Where each named piece starts in the flat tensor."""
        start = 0
        for name, size in pieces:
            length = int(np.prod(size))
            self.dict[name] = self.tensor[start : start + length].reshape(size)
            self.offsets[name] = start
            start += length
        self._table: Layout | None = None
        self._table_entries: npt.NDArray[np.float32] = np.zeros(_LAYOUT_ENTRIES, np.float32)
        self._tables: list[Layout | None] = [None] * players
        self._buffers: list[npt.NDArray[np.float32]] = []
        for player in range(players):
            buffer = np.zeros(self.size, np.float32)
            buffer[player] = 1
            self._buffers.append(buffer)
        self._cores: list[Core | None] = [None] * players
        self._logs: list[tuple[Entry, ...]] = [()] * players
        self._pasts: list[tuple[tuple[Entry, ...], ...]] = [()] * players

    def _sees_draw(self, seat: int, player: int) -> bool:
        return self.visibility.everyone or (self.visibility.own and seat == player)

    def set_from(self, state: Any, player: int) -> None:
        """Fill the tensor with ``state`` as seat ``player`` sees it."""
        np.copyto(self.tensor, self.tensor_of(state.core, player))

    def tensor_of(self, core: Core, player: int) -> npt.NDArray[np.float32]:
        """The tensor of ``core`` as seat ``player`` sees it: kept by the observer, so copy it to keep it."""
        buffer = self._buffers[player]
        if self._cores[player] is core:
            return buffer
        visibility = self.visibility
        players = self.shape.players
        dealing = core.phase in _DEALING or core.state is None
        masks = _dealt_masks(core) if dealing else core.state.hand_masks  # type: ignore[union-attr]
        # A few dozen entries change between two positions: one numpy store each costs less than
        # turning lists into arrays.
        if visibility.public:
            at = players
            buffer[at : at + players] = 0
            mover = _to_move(core)
            if mover >= 0:
                buffer[at + mover] = 1
            at += players
            buffer[at] = core.round_number
            layout = Layout.EMPTY if dealing else core.state.layout  # type: ignore[union-attr]
            if layout is not self._tables[player]:
                if layout is not self._table:
                    self._table_entries = np.asarray(_layout_entries(layout), np.float32)
                    self._table = layout
                buffer[at + 1 : at + 1 + _LAYOUT_ENTRIES] = self._table_entries
                self._tables[player] = layout
            at += 1 + _LAYOUT_ENTRIES
            for mask in masks:
                buffer[at] = mask.bit_count()
                at += 1
            buffer[at] = _boneyard_size(core)
            for score in _scores(core):
                at += 1
                buffer[at] = score
        if visibility.own or visibility.everyone:
            drawn = _drawn(core)
            seats = (player,) if visibility.own else range(players)
            start = self.offsets["hand" if visibility.own else "hands"]
            buffer[start : start + (len(seats) + 1) * TILE_COUNT] = 0
            for seat in seats:
                for index in indices_of_mask(masks[seat]):
                    buffer[start + index] = 1
                start += TILE_COUNT
            if drawn >= 0 and (visibility.everyone or _to_move(core) == player):
                buffer[start + drawn] = 1
        if visibility.recall:
            self._write_history(buffer, core, player)
            if "past" in self.offsets and core.past is not self._pasts[player]:
                self._write_past(buffer, core.past, player)
        self._cores[player] = core
        return buffer

    def _write_history(self, buffer: npt.NDArray[np.float32], core: Core, player: int) -> None:
        """Bring the history rows of ``player``'s tensor up to ``core``'s log."""
        log = () if _dealing(core) else core.log
        written = self._logs[player]
        width = self.row
        start = self.offsets["history"]
        kept = len(written) - 1
        # The log grows by a move, or its last row gets a draw's tile: rows before the last written stay.
        if kept < 0 or len(log) <= kept or log[:kept] != written[:kept]:
            kept = 0
        buffer[start + kept * width : start + len(written) * width] = 0
        ones = []
        columns, tile_column = self._columns, self.shape.players + _KINDS
        for number in range(kept, len(log)):
            seat, action, tile = log[number]
            row = start + number * width
            ones.append(row + seat)
            ones += [row + column for column in columns[action]]
            if action == DRAW_ACTION and tile >= 0 and self._sees_draw(seat, player):
                ones.append(row + tile_column + tile)
        buffer[ones] = 1
        self._logs[player] = log

    def _write_past(self, buffer: npt.NDArray[np.float32], past: tuple[tuple[Entry, ...], ...], player: int) -> None:
        """The earlier rounds of a match, a move a triple: seat + 1, action + 1, the tile seen + 1 (0 unseen)."""
        start = self.offsets["past"]
        segment = buffer[start : start + len(self.dict["past"])]
        segment[:] = 0
        stride = self.shape.round_actions * _PAST_WIDTH
        for number, log in enumerate(past):
            values = []
            for seat, action, tile in log:
                seen = tile >= 0 and (action != DRAW_ACTION or self._sees_draw(seat, player))
                values += [seat + 1, action + 1, tile + 1 if seen else 0]
            segment[number * stride : number * stride + len(values)] = values
        self._pasts[player] = past

    def string_from(self, state: Any, player: int) -> str:
        """``state`` as seat ``player`` sees it, as text."""
        core: Core = state.core
        parts = [f"seat {player}"]
        drawn = _drawn(core)
        if self.visibility.own:
            parts.append(f"holds {tiles_text(tiles_of_mask(_hand_mask(core, player))) or '-'}")
            if drawn >= 0 and _to_move(core) == player:
                parts.append(f"drew {DOUBLE_SIX[drawn]}, to place")
        elif self.visibility.everyone:
            hands = (tiles_text(tiles_of_mask(_hand_mask(core, seat))) or "-" for seat in range(self.shape.players))
            parts.append("hands " + " / ".join(hands))
            if drawn >= 0:
                parts.append(f"drew {DOUBLE_SIX[drawn]}, to place")
        if self.visibility.public:
            parts.append(public_text(core))
        if self.visibility.recall:
            rounds = (*core.past, *(() if _dealing(core) else (core.log,)))
            told = (" ".join(self._entry_text(entry, player) for entry in log) or "-" for log in rounds)
            parts.append("history " + " | ".join(f"r{number}: {text}" for number, text in enumerate(told, 1)))
        return "; ".join(parts)

    def _entry_text(self, entry: Entry, player: int) -> str:
        seat, action, tile = entry
        if action == DRAW_ACTION:
            seen = tile >= 0 and self._sees_draw(seat, player)
            return f"{seat}:draw" + (str(DOUBLE_SIX[tile]) if seen else "")
        return f"{seat}:{action_text(action)}"


def public_text(core: Core) -> str:
    """What every seat sees: the round, who is to move, the table, its count, the sizes, the scores."""
    layout = _layout(core)
    mover = _to_move(core)
    opened = " ".join(f"{POINTS[point_id]}={POINTS[point_id].value}" for point_id in layout.open_point_ids)
    terms = " ".join(str(term) for term in layout.contributions)
    sizes = " ".join(str(_hand_mask(core, seat).bit_count()) for seat in range(core.shape.players))
    return "; ".join(
        [
            f"round {core.round_number}",
            f"to move {mover}" if mover >= 0 else "to move -",
            f"table {str(layout) or '-'}",
            f"open {opened or '-'}",
            f"count {layout.end_count}" + (f" ({terms})" if terms else ""),
            f"hands {sizes}",
            f"boneyard {_boneyard_size(core)}",
            f"scores {' '.join(map(str, _scores(core)))}",
        ]
    )


def full_text(core: Core) -> str:
    """Every fact of the position, hidden ones included: OpenSpiel's ``str(state)``."""
    phase = {LOT: "lot", DEAL: "deal", DRAW: "draw", PLAY: "play"}.get(core.phase, "over")
    hands = (tiles_text(tiles_of_mask(_hand_mask(core, seat))) or "-" for seat in range(core.shape.players))
    lines = [f"phase {phase}; {public_text(core)}"]
    lines += [f"hand {seat}: {text}" for seat, text in enumerate(hands)]
    if core.state is not None and not _dealing(core):
        lines.append(f"boneyard: {tiles_text(core.state.boneyard) or '-'}")
    return "\n".join(lines)
