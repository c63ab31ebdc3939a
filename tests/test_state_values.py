"""A State reads as tiles: a short repr that pastes back as code, a tile-based create, and a position key."""

from __future__ import annotations

from collections.abc import Iterator

import attrs
import pytest

import sniff_rules
from sniff_rules.layout import Layout
from sniff_rules.moves import Place, apply, legal_moves
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match, next_round, position_key
from sniff_rules.tiles import Tile

_NAMESPACE = vars(sniff_rules)


def _match_states(players: int, seed: int) -> Iterator[State]:
    """Every state of a whole match, first legal move each time (a draw pending included)."""
    state = new_match(Rules.standard(players), seed=seed)
    yield state
    while state.phase is not Phase.MATCH_OVER:
        if state.phase is Phase.ROUND_OVER:
            state = next_round(state)
        else:
            moves = legal_moves(state)
            state = apply(state, moves[seed % len(moves)])
        yield state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_repr_pastes_back_as_an_equal_state(players: int) -> None:
    """repr(state) evaluated with the package's names is the same state, for every state of a whole match."""
    seen = {Phase.PLAYING: 0, Phase.ROUND_OVER: 0, Phase.MATCH_OVER: 0}
    drawn = 0
    for state in _match_states(players, seed=players):
        assert state == eval(repr(state), _NAMESPACE)
        seen[state.phase] += 1
        drawn += state.drawn >= 0
    assert all(seen.values()), f"the match passes through every phase: {seen}"
    assert drawn, "the match passes through a pending draw"


def test_repr_is_short_and_written_in_tiles() -> None:
    """A mid-round repr names tiles as text, not bit masks, and stays short."""
    state = new_match(Rules.standard(4), seed=2)
    for _ in range(6):
        state = apply(state, legal_moves(state)[0])
    text = repr(state)
    assert text.startswith("State.create(rules=Rules(players=4, hand_size=5, target=200), round_number=1")
    assert "hands=('[0|3] [2|4] [4|4]', " in text
    assert "layout='[0|0] [0|5]>[0|0].chain-a" in text
    assert "hand_masks" not in text
    assert len(text) < 500


def test_create_takes_tiles_or_their_text_and_fills_defaults() -> None:
    """State.create builds one state from tiles or text; scores default to zeros, the seat to move to the opener."""
    rules = Rules.standard(3)
    from_text = State.create(
        rules=rules,
        hands=("[0|1] [2|2]", "[3|4]", ""),
        boneyard="[5|5] [0|0]",
        layout="[1|6]",
        opener=2,
        drawn=None,
    )
    from_tiles = State.create(
        rules=rules,
        hands=((Tile(2, 2), Tile(0, 1)), [Tile(3, 4)], ()),
        boneyard=(Tile(5, 5), Tile(0, 0)),
        layout=Layout.parse("[1|6]"),
        opener=2,
    )
    assert from_text == from_tiles
    assert (2, (0, 0, 0), 1, Phase.PLAYING) == (
        from_text.to_move,
        from_text.scores,
        from_text.round_number,
        from_text.phase,
    )
    assert ((Tile(0, 1), Tile(2, 2)), (Tile(3, 4),), ()) == from_text.hands
    assert (Tile(5, 5), Tile(0, 0)) == from_text.boneyard, "the boneyard keeps its order"


def test_create_takes_a_pending_draw_a_lot_and_house_rules() -> None:
    """DRAW-2, OPEN-1, SETUP-3: State.create keeps a drawn tile given as text, the lot and house rules."""
    source = SplitMix64(3)
    lot = (((0, 4), (1, 4)), ((0, 2), (1, 6)))
    state = State.create(
        rules=Rules(2, 5, 100),
        hands=("[3|4]", "[3|3] [4|5]"),
        boneyard="[0|0]",
        layout="[1|3]",
        scores=(10, 95),
        round_number=3,
        opener=1,
        to_move=0,
        phase=Phase.PLAYING,
        drawn="[3|4]",
        source=source,
        lot=lot,
    )
    facts = (state.rules, state.round_number, state.opener, state.to_move, state.scores, state.drawn_tile)
    assert (Rules(2, 5, 100), 3, 1, 0, (10, 95), Tile(3, 4)) == facts
    assert (source, lot, None, None) == (state.source, state.lot, state.last_round, state.winner)
    won = attrs.evolve(state, phase=Phase.MATCH_OVER, winner=1)
    assert (Phase.MATCH_OVER, 1) == (won.phase, won.winner)


def test_position_key_leaves_out_what_does_not_decide_the_future() -> None:
    """States differing only in the source, the lot, the last round, the round number or the opener share a key."""
    state = new_match(Rules.standard(2), seed=7)
    state = apply(state, legal_moves(state)[0])
    other_context = attrs.evolve(state.context, source=SplitMix64(1), lot=(), round_number=4, opener=1 - state.opener)
    assert state != attrs.evolve(state, context=other_context)
    assert position_key(state) == position_key(attrs.evolve(state, context=other_context))
    hash(position_key(state))


def test_position_key_tells_apart_what_decides_the_future() -> None:
    """A change of hands, boneyard, seat to move, scores, table or pending draw changes the key."""
    start = new_match(Rules.standard(2), seed=7)
    state = apply(start, legal_moves(start)[0])
    changed = [
        attrs.evolve(state, to_move=1 - state.to_move),
        attrs.evolve(state, scores=(state.scores[0] + 5, state.scores[1])),
        attrs.evolve(state, hand_masks=(state.hand_masks[1], state.hand_masks[0])),
        attrs.evolve(state, boneyard_ids=state.boneyard_ids[::-1]),
        attrs.evolve(state, layout=Layout.EMPTY),
        attrs.evolve(state, drawn=state.boneyard_ids[0]),
        attrs.evolve(state, phase=Phase.MATCH_OVER, winner=0),
    ]
    keys = {position_key(state)} | {position_key(other) for other in changed}
    assert len(changed) + 1 == len(keys)


def test_transposed_layouts_share_a_key() -> None:
    """The same tiles on the same open points, placed in another order, give the same key."""
    first = Layout.parse("[1|4] [4|6]>[1|4].high [1|2]>[1|4].low")
    second = Layout.parse("[1|4] [1|2]>[1|4].low [4|6]>[1|4].high")
    state = State.create(rules=Rules.standard(2), hands=("[0|0]", "[3|3]"), boneyard="[5|5]", layout=first)
    assert first != second
    assert position_key(state) == position_key(attrs.evolve(state, layout=second))


def test_a_notebook_draws_the_state_and_its_layout_themselves() -> None:
    """A State's and a Layout's _repr_svg_ are the SVG renderer's picture of that very value."""
    from sniff_rules.draw.svg import svg

    state = apply(new_match(Rules.standard(2), seed=20), Place(1, Tile(0, 5)))
    assert svg(state) == state._repr_svg_()
    assert svg(state.layout) == state.layout._repr_svg_()
    assert 'data-tile="[0|5]"' in state.layout._repr_svg_()
