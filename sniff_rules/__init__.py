"""sniff_rules: the reference rules of American Sniff, a Fives-family domino game.

Immutable values and pure functions for a whole match: deal and opener
lot, placement with the Sniff geometry, the end count and play points,
drawing, passing, blocking, settlement and the match end. Rule ids in
docstrings and errors refer to ``specs/rules.md``.

>>> from sniff_rules import Rules, new_match, legal_moves, apply
>>> state = new_match(Rules.standard(3), seed=42)
>>> state = apply(state, legal_moves(state)[0])
>>> state.layout.end_count >= 0
True

This package is the rules core and nothing else; ``import sniff_rules``
loads it alone. Around it, each ring a subpackage that imports the core
and the rings inside it, never one outside:

==========================  ===================================================================
``sniff_rules.position``    what legal play can reach: the laws of the game, ``problems(state)``
``sniff_rules.play``        events, the match driver, round logs, match records, seat views,
                            the hidden-information sampler, the fair bots and their registry
``sniff_rules.draw``        one standard geometry of a layout; pictures in text and SVG, the
                            paper tally, events told in words
``sniff_rules.formats``     every text and JSON form: moves, states, events, seat views,
                            records, geometry; the one hardened JSON reader
``sniff_rules.protocol``    the engine and bot protocol over processes (``specs/protocol.md``), sans I/O
``sniff_rules.verify``      perft, Hypothesis strategies and the stateful machine, CrossHair
                            contracts; ``verify.vectors``, the conformance vectors' runner
``sniff_rules.adapters``    the fixed action space, OpenSpiel and PettingZoo/Gymnasium
``sniff_rules.web``         the browser game: its tables, the Starlette app, the page
``sniff_rules.cli``         the ``sniff-rules`` command
==========================  ===================================================================

Each ring is reached by its own import path (``from sniff_rules.play
import seat_view``); ``sniff_rules.play`` and the others also load on
first use as attributes of this package.

The core's names, each with its own ``help()``:

- values: :class:`Tile`, :class:`Rules`, :class:`Layout` (:class:`AttachmentPoint`,
  :class:`Port`, :class:`Placement`, :class:`Contribution`, :class:`Connection`),
  :class:`State` (:class:`Phase`, :class:`RoundResult`, :class:`RoundContext`,
  :class:`PositionKey`), :class:`PlayScore`, :class:`Settlement`, the moves
  :class:`Place`, :class:`Draw`, :class:`Pass` (:data:`Move`), the seeded
  :class:`SplitMix64` (:class:`RandomSource`);
- functions: :func:`new_match`, :func:`next_round`, :func:`legal_moves`,
  :func:`apply`, :func:`score_play`, :func:`play_points`, :func:`settle_round`,
  :func:`round_to_five`, :func:`recount_end`, :func:`position_key`,
  :func:`draw_lot`, :func:`shuffled`, :func:`parse_tiles`, :func:`tiles_text`;
- errors, each carrying its rule id: :class:`SniffError` and its kinds
  :class:`IllegalMoveError`, :class:`InvalidMoveError`, :class:`InvalidStateError`,
  :class:`InvalidRulesError`, :class:`InvalidTileError`, :class:`NotationError`;
- type names :data:`Pip`, :data:`Seat`, :data:`Side`, :data:`TileIndex`,
  :data:`HandMask`, :data:`PointId`, and :data:`DOUBLE_SIX`, the 28 tiles.

The package keeps no ``__all__``, so that ``help(sniff_rules)`` is this
page and not every class's; ``dir(sniff_rules)`` lists the names above.
"""

import importlib as _importlib
import types as _types

from sniff_rules.errors import (
    IllegalMoveError as IllegalMoveError,
    InvalidMoveError as InvalidMoveError,
    InvalidRulesError as InvalidRulesError,
    InvalidStateError as InvalidStateError,
    InvalidTileError as InvalidTileError,
    NotationError as NotationError,
    SniffError as SniffError,
)
from sniff_rules.layout import (
    AttachmentPoint as AttachmentPoint,
    Connection as Connection,
    Contribution as Contribution,
    Layout as Layout,
    Placement as Placement,
    PointId as PointId,
    Port as Port,
    recount_end as recount_end,
)
from sniff_rules.moves import (
    Draw as Draw,
    Move as Move,
    Pass as Pass,
    Place as Place,
    apply as apply,
    legal_moves as legal_moves,
)
from sniff_rules.randomness import (
    RandomSource as RandomSource,
    SplitMix64 as SplitMix64,
    draw_lot as draw_lot,
    shuffled as shuffled,
)
from sniff_rules.rules import (
    Rules as Rules,
    Seat as Seat,
    Side as Side,
)
from sniff_rules.scoring import (
    PlayScore as PlayScore,
    Settlement as Settlement,
    play_points as play_points,
    round_to_five as round_to_five,
    score_play as score_play,
    settle_round as settle_round,
)
from sniff_rules.state import (
    Phase as Phase,
    PositionKey as PositionKey,
    RoundContext as RoundContext,
    RoundResult as RoundResult,
    State as State,
    new_match as new_match,
    next_round as next_round,
    position_key as position_key,
)
from sniff_rules.tiles import (
    DOUBLE_SIX as DOUBLE_SIX,
    HandMask as HandMask,
    Pip as Pip,
    Tile as Tile,
    TileIndex as TileIndex,
    parse_tiles as parse_tiles,
    tiles_text as tiles_text,
)

__version__ = "0.1.0"

RINGS = ("position", "play", "draw", "formats", "protocol", "verify", "adapters", "web", "cli")
"""The subpackages around the core, innermost first; each may import the core and those before it."""


def __getattr__(name: str) -> _types.ModuleType:
    """A ring loaded on first use as an attribute (``sniff_rules.play``), so the core loads alone."""
    if name in RINGS:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The core's names and the rings; the core's modules are left out, being reached by their names."""
    public = (name for name in globals() if not name.startswith("_"))
    names = {name for name in public if not isinstance(globals()[name], _types.ModuleType)}
    return sorted(names | set(RINGS))
