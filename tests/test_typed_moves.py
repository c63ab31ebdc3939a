"""Moves as people type them (sniff_rules.formats.notation.parse_typed_move), read against a position's legal moves."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, strategies as st

from sniff_rules.errors import IllegalMoveError, InvalidMoveError, NotationError, SniffError
from sniff_rules.formats.notation import AmbiguousMoveError, UnmatchedMoveError, parse_typed_move
from sniff_rules.layout import Port
from sniff_rules.moves import Draw, Move, Pass, Place, apply, legal_moves
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match
from sniff_rules.tiles import Tile
from sniff_rules.verify.strategies import states
from support import blocked, layout_of, make_state, pt, tiles


def _two_ends() -> State:
    """Seat 0 to move with [1|4] [4|4] [2|3]; [3|4] led, [1|3] on its low end: open [1|3].low (1) and [3|4].high (4)."""
    return make_state(
        2,
        [tiles("[1|4] [4|4] [2|3]"), tiles("[0|0] [5|6]")],
        layout=layout_of((Tile(3, 4), None), (Tile(1, 3), pt(Tile(3, 4), Port.LOW))),
        boneyard=tiles("[6|6]"),
    )


ON_ONE = Place(0, Tile(1, 4), pt(Tile(1, 3), Port.LOW))
ON_FOUR = Place(0, Tile(1, 4), pt(Tile(3, 4), Port.HIGH))


@pytest.mark.parametrize("text", ["14", "41", "1-4", "4-1", "1|4", "1/4", "[1|4]", "[4|1]", "[1-4]", " [ 4 | 1 ] "])
def test_every_spelling_of_a_tile_names_its_lead(text: str) -> None:
    """OPEN-3 FORMAT-1: on an empty table a tile, in any spelling and either half first, names its lead."""
    state = make_state(2, [tiles("[1|4] [2|2]"), tiles("[0|0]")], boneyard=tiles("[6|6]"))
    assert Place(0, Tile(1, 4)) == parse_typed_move(text, state)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1-4 high", ON_FOUR),
        ("14 HIGH", ON_FOUR),
        ("1-4 low", ON_ONE),
        ("14 on 13", ON_ONE),
        ("14 on [1|3]", ON_ONE),
        ("14 at 34", ON_FOUR),
        ("14 to 4", ON_FOUR),
        ("14 on 1", ON_ONE),
        ("14 on 34 high", ON_FOUR),
        ("[1|4]>[3|4].high", ON_FOUR),
        ("[4|1] > [1|3] . LOW", ON_ONE),
        ("14>13.low", ON_ONE),
        ("0:[1|4]>[3|4].high", ON_FOUR),
        ("44", Place(0, Tile(4, 4), pt(Tile(3, 4), Port.HIGH))),
    ],
)
def test_a_tile_and_where_names_one_placement(text: str, expected: Move) -> None:
    """PLACE-1 FORMAT-1: a target tile, an open value or a port picks the one legal placement meant."""
    assert expected == parse_typed_move(text, _two_ends())
    assert expected == parse_typed_move(text, legal_moves(_two_ends()))


def test_draw_and_pass_are_words() -> None:
    """DRAW-2 PASS-1: draw and pass, any case, name the seat's draw or pass."""
    drawing = make_state(
        2, [tiles("[2|3]"), tiles("[0|0]")], layout=layout_of((Tile(4, 6), None)), boneyard=tiles("[5|5]")
    )
    passing = make_state(2, [tiles("[2|3]"), tiles("[0|4]")], layout=layout_of((Tile(4, 6), None)))
    assert (Draw(0), Pass(0)) == (parse_typed_move(" Draw ", drawing), parse_typed_move("PASS", passing))


def test_a_tile_with_two_placements_is_ambiguous_and_lists_them() -> None:
    """FORMAT-1: a tile that fits two open points, typed alone, is refused with both candidates."""
    with pytest.raises(AmbiguousMoveError) as caught:
        parse_typed_move("14", _two_ends())
    err = caught.value
    assert ("FORMAT-1", (ON_ONE, ON_FOUR), True) == (err.rule, err.candidates, isinstance(err, NotationError))
    assert "'14' names 2 legal moves: [1|4]>[1|3].low, [1|4]>[3|4].high; name the point" in str(err)


@given(st.data(), states(max_moves=120))
def test_every_legal_move_reads_back_from_its_typed_form(data: st.DataObject, state: State) -> None:
    """FORMAT-1 TURN-1: each legal move's placement text, with or without its seat, names that move."""
    moves = legal_moves(state)
    if not moves:
        return
    move = data.draw(st.sampled_from(moves))
    typed = "draw" if type(move) is Draw else "pass" if type(move) is Pass else str(move).split(":", 1)[1]
    assert (move, move) == (parse_typed_move(typed, state), parse_typed_move(str(move), moves))


@given(st.data(), states(max_moves=120))
def test_a_tile_with_one_placement_is_named_by_the_tile_alone(data: st.DataObject, state: State) -> None:
    """FORMAT-1 PLACE-1: a tile with exactly one legal placement is named by its two pips, either order."""
    places = [move for move in legal_moves(state) if type(move) is Place]
    single = [move for move in places if sum(other.tile == move.tile for other in places) == 1]
    if not single:
        return
    move = data.draw(st.sampled_from(single))
    for text in (f"{move.tile.low}{move.tile.high}", f"{move.tile.high}-{move.tile.low}"):
        assert move == parse_typed_move(text, state)


# ---------------------------------------------------------------- no legal move meant


def _unmatched(text: str, position: State | tuple[Move, ...]) -> UnmatchedMoveError:
    with pytest.raises(UnmatchedMoveError) as caught:
        parse_typed_move(text, position)
    assert isinstance(caught.value, IllegalMoveError)
    return caught.value


def _drew_a_fitting_tile() -> State:
    """Seat 0 has drawn [3|4], which fits the open 4, and must place it; it also holds [2|3]."""
    return make_state(
        2,
        [tiles("[2|3] [3|4]"), tiles("[0|0]")],
        layout=layout_of((Tile(4, 6), None)),
        boneyard=tiles("[5|5]"),
        drawn=Tile(3, 4),
    )


NO_MOVE: list[tuple[str, Callable[[], State], str, Tile | None]] = [
    ("55", _two_ends, "PLACE-3", None),
    ("23", _two_ends, "PLACE-1", None),
    ("14 on 13 high", _two_ends, "PLACE-1", Tile(1, 4)),
    ("[1|4]>[3|4].low", _two_ends, "PLACE-1", Tile(1, 4)),
    ("draw", _two_ends, "DRAW-1", None),
    ("pass", _two_ends, "PASS-1", None),
    ("1:[0|0]>[3|4].high", _two_ends, "TURN-2", None),
    ("23", _drew_a_fitting_tile, "DRAW-2", None),
    (
        "draw",
        lambda: make_state(2, [tiles("[2|3]"), tiles("[0|4]")], layout=layout_of((Tile(4, 6), None))),
        "DRAW-2",
        None,
    ),
    (
        "14 on 66",
        lambda: make_state(2, [tiles("[1|4]"), tiles("[0|0]")], boneyard=tiles("[6|6]")),
        "OPEN-3",
        Tile(1, 4),
    ),
    ("14 on 6", lambda: make_state(2, [tiles("[1|4]"), tiles("[0|0]")], boneyard=tiles("[6|6]")), "OPEN-3", Tile(1, 4)),
    ("23", blocked, "END-1", None),
]


@pytest.mark.parametrize(("text", "make", "rule", "tile"), NO_MOVE, ids=[f"{case[0]}-{case[2]}" for case in NO_MOVE])
def test_typed_text_naming_no_legal_move_cites_the_rule_apply_would(
    text: str, make: Callable[[], State], rule: str, tile: Tile | None
) -> None:
    """PLACE-1 PLACE-3 DRAW-1 DRAW-2 PASS-1 OPEN-3 TURN-2 END-1: given a state, the refusal cites the rule broken."""
    # The candidates are the legal placements of the tile typed, when it has some, else every legal move.
    state = make()
    err = _unmatched(text, state)
    legal = legal_moves(state)
    candidates = tuple(move for move in legal if type(move) is Place and move.tile == tile)
    assert (rule, candidates or legal) == (err.rule, err.candidates), str(err)
    assert str(err).endswith("; legal: " + (", ".join(str(move).split(":", 1)[1] for move in legal) or "none"))


def test_a_tile_not_held_while_a_drawn_tile_waits_cites_what_apply_cites() -> None:
    """PLACE-3 DRAW-2: when both refuse a tile typed alone, the rule cited is the one apply cites first."""
    state = _drew_a_fitting_tile()
    with pytest.raises(IllegalMoveError) as by_apply:
        apply(state, Place(0, Tile(5, 5), state.layout.open_points[0]))
    assert by_apply.value.rule == _unmatched("55", state).rule


def test_a_sniff_arm_named_too_soon_cites_sniff_2() -> None:
    """SNIFF-2: a placement on the Sniff's arm before both long sides are occupied cites SNIFF-2, as apply does."""
    state = make_state(
        2, [tiles("[2|5] [3|5]"), tiles("[0|0]")], layout=layout_of((Tile(5, 5), None)), boneyard=tiles("[6|6]")
    )
    assert "SNIFF-2" == _unmatched("[2|5]>[5|5].arm-a", state).rule


def test_the_match_over_cites_match_2() -> None:
    """MATCH-2: after the match nothing typed names a move."""
    state = make_state(2, [tiles("[5|5] [1|2]"), tiles("[1|3]")], layout=layout_of((Tile(0, 5), None)), scores=(245, 0))
    won = apply(state, Place(0, Tile(5, 5), pt(Tile(0, 5), Port.HIGH)))
    assert (Phase.MATCH_OVER, "MATCH-2") == (won.phase, _unmatched("12", won).rule)


NO_MOVE_FROM_MOVES: list[tuple[str, tuple[Move, ...], str]] = [
    ("23", legal_moves(_two_ends()), "PLACE-1"),
    ("draw", legal_moves(_two_ends()), "DRAW-1"),
    ("draw", (Pass(0),), "DRAW-2"),
    ("pass", (Draw(0),), "PASS-1"),
    ("14", (), "TURN-2"),
    ("1:draw", (Draw(0),), "TURN-2"),
]


@pytest.mark.parametrize(
    ("text", "legal", "rule"), NO_MOVE_FROM_MOVES, ids=[f"{c[0]}-{c[2]}" for c in NO_MOVE_FROM_MOVES]
)
def test_given_only_the_legal_moves_the_rule_is_read_from_them(text: str, legal: tuple[Move, ...], rule: str) -> None:
    """PLACE-1 DRAW-1 DRAW-2 PASS-1 TURN-2: without the state, the moves alone say which rule the text breaks."""
    err = _unmatched(text, legal)
    assert (rule, legal) == (err.rule, err.candidates)


# ---------------------------------------------------------------- malformed input


@pytest.mark.parametrize("text", ["hello", "4", "77", "1 4", "14 on", "14 on 46 sideways", "[1|4", "0:fold", ""])
def test_text_of_no_typed_form_is_refused(text: str) -> None:
    """FORMAT-1: text that is no typed move is a NotationError, not a guess."""
    with pytest.raises(NotationError) as caught:
        parse_typed_move(text, _two_ends())
    assert ("FORMAT-1", False) == (caught.value.rule, isinstance(caught.value, AmbiguousMoveError))


def test_a_port_the_named_tile_lacks_is_refused_as_text() -> None:
    """FORMAT-1 PLACE-2: [3|4].arm-a names no point: a non-double has no arm."""
    with pytest.raises(NotationError) as caught:
        parse_typed_move("14 on 34 arm-a", _two_ends())
    assert "FORMAT-1: a non-double like [3|4] has no arm-a port; it has low and high" == str(caught.value)


def test_arguments_of_the_wrong_type_are_refused() -> None:
    """FORMAT-1 FORMAT-3: the text is a str; the position is a State or a sequence of moves."""
    cases: list[tuple[Callable[[], object], type[SniffError], str]] = [
        (lambda: parse_typed_move(14, _two_ends()), NotationError, "FORMAT-1"),  # type: ignore[arg-type]
        (lambda: parse_typed_move("14", "state"), InvalidMoveError, "FORMAT-3"),  # type: ignore[arg-type]
        (lambda: parse_typed_move("14", ("0:[1|4]",)), InvalidMoveError, "FORMAT-3"),  # type: ignore[arg-type]
    ]
    for call, error, rule in cases:
        with pytest.raises(SniffError) as caught:
            call()
        assert (error, rule) == (type(caught.value), caught.value.rule)


def test_a_state_and_its_moves_read_alike_where_the_moves_say_enough() -> None:
    """FORMAT-1: for a fresh deal, each tile of the opener's hand reads the same against the state and its moves."""
    state = new_match(Rules.standard(4), seed=3)
    for tile in state.hand(state.to_move):
        text = f"{tile.low}{tile.high}"
        assert parse_typed_move(text, state) == parse_typed_move(text, legal_moves(state))
