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
- perfect recall (the information state): ``history``, flat, one row of ``players + 32`` per
  move of this round (``round_actions`` rows; reshape to see them): the seat (one-hot), the kind
  (lead, placement, draw, pass) and the tile placed, or drawn where the observer may see it
  (its own draws). Earlier rounds of a match are in the string only.

Nothing in a seat's observation depends on another seat's hidden tiles or the boneyard's order
(SETUP-6); ``tests/test_openspiel.py`` re-deals them and compares.
"""

from __future__ import annotations

from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt
import pyspiel

from sniff_rules.adapters.actions import DRAW_ACTION, PLACE_BASE, action_text
from sniff_rules.adapters.openspiel.core import DEAL, DRAW, LOT, PLAY, Core, Entry, GameShape
from sniff_rules.layout import POINTS, VALID_POINT_IDS, Layout
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT, tiles_of_mask, tiles_text

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


def _kind(action: int) -> int:
    if action < PLACE_BASE:
        return 0
    return 1 if action < DRAW_ACTION else 2 if action == DRAW_ACTION else 3


class AmericanSniffObserver:
    """OpenSpiel's PyObserver: ``tensor`` and its named views ``dict``, filled by :meth:`set_from`."""

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
        if visibility.recall:
            # Flat, so that OpenSpiel's playthroughs print it on one line; reshape to
            # (round_actions, players + 32) for one row per move.
            pieces.append(("history", (shape.round_actions * (players + _KINDS + TILE_COUNT),)))
        self.tensor: npt.NDArray[np.float32] = np.zeros(sum(int(np.prod(size)) for _, size in pieces), np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        start = 0
        for name, size in pieces:
            length = int(np.prod(size))
            self.dict[name] = self.tensor[start : start + length].reshape(size)
            start += length

    def _sees_draw(self, seat: int, player: int) -> bool:
        return self.visibility.everyone or (self.visibility.own and seat == player)

    def set_from(self, state: Any, player: int) -> None:
        """Fill the tensor with ``state`` as seat ``player`` sees it."""
        core: Core = state.core
        views = self.dict
        self.tensor.fill(0)
        views["player"][player] = 1
        if self.visibility.public:
            mover = _to_move(core)
            if mover >= 0:
                views["to_move"][mover] = 1
            views["round"][0] = core.round_number
            layout = _layout(core)
            for index in range(TILE_COUNT):
                if layout.placed_mask >> index & 1:
                    views["on_table"][index] = 1
            for point_id in layout.open_point_ids:
                views["open_points"][_POINT_INDEX[point_id]] = 1
                views["end_values"][POINTS[point_id].value] += 1
            for term in layout.contributions:
                views["contributions"][term.tile.index] += term.value
            views["end_count"][0] = layout.end_count
            for seat in range(self.shape.players):
                views["hand_sizes"][seat] = _hand_mask(core, seat).bit_count()
            views["boneyard_size"][0] = _boneyard_size(core)
            views["scores"][:] = _scores(core)
        drawn = _drawn(core)
        if self.visibility.own:
            _set_bits(views["hand"], _hand_mask(core, player))
            if drawn >= 0 and _to_move(core) == player:
                views["drawn"][drawn] = 1
        elif self.visibility.everyone:
            for seat in range(self.shape.players):
                _set_bits(views["hands"][seat], _hand_mask(core, seat))
            if drawn >= 0:
                views["drawn"][drawn] = 1
        if self.visibility.recall:
            players = self.shape.players
            rows = views["history"].reshape(self.shape.round_actions, players + _KINDS + TILE_COUNT)
            for row, (seat, action, tile) in zip(rows, core.log if not _dealing(core) else (), strict=False):
                row[seat] = 1
                row[players + _kind(action)] = 1
                if tile >= 0 and (action != DRAW_ACTION or self._sees_draw(seat, player)):
                    row[players + _KINDS + tile] = 1

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


def _set_bits(row: npt.NDArray[np.float32], mask: int) -> None:
    for index in range(TILE_COUNT):
        if mask >> index & 1:
            row[index] = 1


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
