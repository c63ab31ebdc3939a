"""Set-up and deal (SETUP-*), the opener (OPEN-*) and turns (TURN-*)."""

from __future__ import annotations

import math
from typing import Any, cast

import pytest

from sniff_rules import (
    DOUBLE_SIX,
    Draw,
    IllegalMoveError,
    InvalidRulesError,
    InvalidStateError,
    InvalidTileError,
    Layout,
    Pass,
    Phase,
    Place,
    Placement,
    Port,
    Rules,
    SplitMix64,
    State,
    Tile,
    apply,
    legal_moves,
    new_match,
    next_round,
)
from support import (
    IDENTITY_SHUFFLE,
    ScriptedSource,
    assert_refused,
    assert_refused_call,
    deal_order,
    layout_of,
    lot_script,
    make_state,
    play,
    pt,
    shuffle_bounds,
    tiles,
)

# --- an independent reading of SETUP-5 and OPEN-1, written from the spec text ---


def ref_next64(state: int) -> tuple[int, int]:
    """SplitMix64 as specs/rules.md states it: the output and the new state."""
    state = (state + 0x9E3779B97F4A7C15) % (1 << 64)
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % (1 << 64)
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % (1 << 64)
    return z ^ (z >> 31), state


def ref_below(state: int, n: int) -> tuple[int, int]:
    """Draw outputs until one is at least 2**64 mod n; return it modulo n."""
    while True:
        out, state = ref_next64(state)
        if out >= (1 << 64) % n:
            return out % n, state


def ref_lot(state: int, seats: tuple[int, ...]) -> tuple[int, int]:
    """Each candidate draws 1 + below(6) in seat order; ties draw again among the tied."""
    while True:
        faces = []
        for seat in seats:
            value, state = ref_below(state, 6)
            faces.append((seat, value + 1))
        best = max(face for _, face in faces)
        seats = tuple(seat for seat, face in faces if face == best)
        if len(seats) == 1:
            return seats[0], state


def ref_shuffle(state: int) -> tuple[list[int], int]:
    """Fisher–Yates over 0..27, i from 27 down to 1, with j drawn in groups.

    Bounds i + 1, i, ... are multiplied while the product stays below 2**64;
    one below(product) per group gives the j values as mixed-radix digits,
    lowest first.
    """
    order = list(range(28))
    i = 27
    while i > 0:
        group = [i + 1]
        while group[-1] > 2 and math.prod(group) * (group[-1] - 1) < 2**64:
            group.append(group[-1] - 1)
        r, state = ref_below(state, math.prod(group))
        for bound in group:
            r, j = divmod(r, bound)
            order[bound - 1], order[j] = order[j], order[bound - 1]
        i -= len(group)
    return order, state


# --- SETUP-1 ---


def test_double_six_set_is_28_distinct_canonical_tiles_in_lexicographic_order() -> None:
    """SETUP-1: the set is [0|0]..[6|6] once each, numbered 0..27 by (low, high)."""
    expected = [(low, high) for low in range(7) for high in range(low, 7)]
    assert 28 == len(expected)
    assert expected == [(tile.low, tile.high) for tile in DOUBLE_SIX]
    assert list(range(28)) == [tile.index for tile in DOUBLE_SIX]
    assert 28 == len(set(DOUBLE_SIX))
    assert (0, 6, 7, 27) == (Tile(0, 0).index, Tile(0, 6).index, Tile(1, 1).index, Tile(6, 6).index)
    assert [Tile.from_index(i) for i in range(28)] == list(DOUBLE_SIX)


@pytest.mark.parametrize(("low", "high"), [(0, 7), (7, 7), (3, 7), (-1, 2), (-1, -1)])
def test_pips_outside_0_to_6_are_refused(low: int, high: int) -> None:
    """SETUP-1: a pip of 7 or below 0 makes no tile."""
    with pytest.raises(InvalidTileError) as caught:
        Tile(low, high)
    assert "SETUP-1" == caught.value.rule


def test_tile_written_high_half_first_is_refused() -> None:
    """SETUP-1: [4|1] is not a tile; [1|4] is, and Tile.of reads either order."""
    with pytest.raises(InvalidTileError) as caught:
        Tile(4, 1)
    assert "SETUP-1" == caught.value.rule
    assert Tile(1, 4) == Tile.of(4, 1)
    assert (1, 4) == (Tile.of(4, 1).low, Tile.of(4, 1).high)


@pytest.mark.parametrize("index", [-1, 28, 100])
def test_tile_index_outside_0_to_27_is_refused(index: int) -> None:
    """SETUP-1: tiles are numbered 0..27 only."""
    with pytest.raises(InvalidTileError) as caught:
        Tile.from_index(index)
    assert "SETUP-1" == caught.value.rule


# --- SETUP-2 ---


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_standard_rules_refuse_player_counts_other_than_2_to_4(players: int) -> None:
    """SETUP-2: American Sniff is for two, three or four players."""
    with pytest.raises(InvalidRulesError) as caught:
        Rules.standard(players)
    assert "SETUP-2" == caught.value.rule


@pytest.mark.parametrize(("players", "hand_size", "target"), [(1, 7, 250), (5, 5, 200), (0, 5, 200)])
def test_house_rules_refuse_player_counts_other_than_2_to_4(players: int, hand_size: int, target: int) -> None:
    """SETUP-2: house rules cannot change the number of players allowed."""
    with pytest.raises(InvalidRulesError) as caught:
        Rules(players, hand_size, target)
    assert "SETUP-2" == caught.value.rule


def test_new_match_refuses_what_is_not_rules() -> None:
    """SETUP-2: a match is started from a Rules value."""
    with pytest.raises(InvalidStateError) as caught:
        new_match(cast(Any, 4), seed=1)
    assert "SETUP-2" == caught.value.rule


@pytest.mark.parametrize(
    ("players", "sides", "side_of_seat"),
    [(2, 2, (0, 1)), (3, 3, (0, 1, 2)), (4, 2, (0, 1, 0, 1))],
)
def test_sides_are_seats_alone_or_opposite_partnerships(
    players: int, sides: int, side_of_seat: tuple[int, ...]
) -> None:
    """SETUP-2: two or three play alone; four play seats 0+2 against 1+3."""
    rules = Rules.standard(players)
    assert sides == rules.sides
    assert side_of_seat == tuple(rules.side_of(seat) for seat in range(players))
    assert (players == 4) == rules.partnerships
    assert (0,) * sides == new_match(rules, seed=5).scores


@pytest.mark.parametrize(("seat", "expected_scores"), [(0, (10, 0)), (1, (0, 10)), (2, (10, 0)), (3, (0, 10))])
def test_four_players_score_into_their_partnership(seat: int, expected_scores: tuple[int, int]) -> None:
    """SETUP-2: with four players a placement scores for the placer's partnership."""
    # [0|5] led: ends 0 + 5. [5|5] on the 5 end: 0 + 10 = 10, which scores 10.
    hands = [tiles("[1|1]"), tiles("[1|2]"), tiles("[1|3]"), tiles("[1|4]")]
    hands[seat] = tiles("[5|5] [1|6]")
    state = make_state(
        4, hands, layout=layout_of((Tile(0, 5), None)), to_move=seat, boneyard=tiles("[3|4]")
    )
    after = apply(state, Place(seat, Tile(5, 5), pt(Tile(0, 5), Port.HIGH)))
    assert expected_scores == after.scores
    assert 10 == after.score_of(seat)
    assert 10 == after.score_of((seat + 2) % 4)


# --- SETUP-3 ---


@pytest.mark.parametrize(("players", "target"), [(2, 250), (3, 200), (4, 200)])
def test_standard_targets(players: int, target: int) -> None:
    """SETUP-3: the target is 250 raw points for two players, 200 for three or four."""
    assert target == Rules.standard(players).target


@pytest.mark.parametrize("target", [0, -5, -250, 251, 12, 1])
def test_target_must_be_a_positive_multiple_of_five(target: int) -> None:
    """SETUP-3: a house target is a positive multiple of 5."""
    with pytest.raises(InvalidRulesError) as caught:
        Rules(2, 7, target)
    assert "SETUP-3" == caught.value.rule


def test_house_target_is_accepted_and_used() -> None:
    """SETUP-3: a house target of 100 ends the match at 100, not 250."""
    rules = Rules(2, 7, 100)
    state = make_state(
        rules, [tiles("[5|5] [1|2]"), tiles("[3|4]")], layout=layout_of((Tile(0, 5), None)),
        scores=(90, 0), boneyard=tiles("[2|6]"),
    )
    after = apply(state, Place(0, Tile(5, 5), pt(Tile(0, 5), Port.HIGH)))
    assert (100, 0) == after.scores
    assert Phase.MATCH_OVER == after.phase


# --- SETUP-4 ---


@pytest.mark.parametrize(("players", "hand", "boneyard"), [(2, 7, 14), (3, 6, 10), (4, 5, 8)])
def test_standard_deal_sizes_and_boneyard(players: int, hand: int, boneyard: int) -> None:
    """SETUP-4: 7, 6 or 5 tiles each; all other tiles form the boneyard."""
    state = new_match(Rules.standard(players), seed=11)
    assert [hand] * players == [len(h) for h in state.hands]
    assert boneyard == len(state.boneyard)
    assert 28 == hand * players + boneyard


@pytest.mark.parametrize(("players", "hand_size"), [(4, 7), (2, 14), (3, 10), (2, 0), (3, -1)])
def test_hand_size_must_leave_a_boneyard(players: int, hand_size: int) -> None:
    """SETUP-4: a house hand size must leave at least one tile in the boneyard."""
    with pytest.raises(InvalidRulesError) as caught:
        Rules(players, hand_size, 200)
    assert "SETUP-4" == caught.value.rule


def test_house_hand_size_deals_that_many() -> None:
    """SETUP-4: a house hand size of 9 for three players leaves a boneyard of one."""
    state = new_match(Rules(3, 9, 200), seed=3)
    assert [9, 9, 9] == [len(h) for h in state.hands]
    assert 1 == len(state.boneyard)


def test_no_boneyard_tile_is_protected() -> None:
    """SETUP-4: the last two boneyard tiles may be drawn like any other."""
    # [6|6] led; seat 1 holds no six. The boneyard is [1|3] then [2|6].
    state = make_state(
        2,
        [tiles("[1|6] [0|0]"), tiles("[0|1] [0|2]")],
        layout=layout_of((Tile(6, 6), None)),
        boneyard=tiles("[1|3] [2|6]"),
        to_move=1,
    )
    state = apply(state, Draw(1))
    assert (Tile(2, 6),) == state.boneyard
    state = apply(state, Draw(1))
    assert () == state.boneyard
    assert Tile(2, 6) == state.drawn_tile


# --- SETUP-5 ---


@pytest.mark.parametrize("seed", [0, 1, 7, 42, 2**64 - 1, 123456789])
def test_splitmix64_outputs_follow_the_spec(seed: int) -> None:
    """SETUP-5: the default source is SplitMix64 exactly as specified."""
    source = SplitMix64.from_seed(seed)
    state = seed
    for _ in range(5):
        expected, state = ref_next64(state)
        actual, source = source.next64()
        assert expected == actual


def test_splitmix64_known_first_output() -> None:
    """SETUP-5: SplitMix64 seeded with 0 first outputs 0xE220A8397B1DCDAF, the published value."""
    assert 0xE220A8397B1DCDAF == SplitMix64.from_seed(0).next64()[0]


def test_seed_is_taken_modulo_2_to_the_64() -> None:
    """SETUP-5: a seed is used modulo 2**64, negative seeds included."""
    assert SplitMix64.from_seed(2**64 - 1) == SplitMix64.from_seed(-1)
    assert SplitMix64.from_seed(5) == SplitMix64.from_seed(2**64 + 5)


@pytest.mark.parametrize("seed", range(8))
def test_below_rejects_outputs_under_2_to_the_64_mod_n(seed: int) -> None:
    """SETUP-5: below(n) redraws outputs under 2**64 mod n (about half of them for n = 2**63 + 1)."""
    n = 2**63 + 1
    source = SplitMix64.from_seed(seed)
    state = seed
    for _ in range(4):
        expected, state = ref_below(state, n)
        actual, source = source.below(n)
        assert expected == actual
        assert SplitMix64(state) == source


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 99, 2024])
def test_seeded_match_draws_the_lot_then_shuffles_and_deals_in_seat_order(players: int, seed: int) -> None:
    """SETUP-5, OPEN-1: the lot comes first, then Fisher–Yates; seats take consecutive hands."""
    opener, state = ref_lot(seed % 2**64, tuple(range(players)))
    order, _ = ref_shuffle(state)
    match = new_match(Rules.standard(players), seed=seed)
    size = Rules.standard(players).hand_size
    assert opener == match.opener
    assert opener == match.to_move
    for seat in range(players):
        dealt = sorted(order[seat * size : (seat + 1) * size])
        assert dealt == [tile.index for tile in match.hand(seat)]
    assert tuple(order[players * size :]) == tuple(tile.index for tile in match.boneyard)


def test_shuffle_draws_two_groups_for_28_tiles() -> None:
    """SETUP-5: the bounds 28..15 form one draw below their product, 14..2 the other below 14!."""
    state = new_match(Rules.standard(2), source=ScriptedSource(IDENTITY_SHUFFLE), opener=0)
    assert isinstance(state.source, ScriptedSource)
    assert (math.prod(range(15, 29)), math.factorial(14)) == state.source.bounds
    assert math.prod(range(15, 29)) < 2**64 <= math.prod(range(14, 29))


def test_shuffle_swaps_from_the_last_position_down() -> None:
    """SETUP-5: with every j = 0, position i swaps with 0 for i = 27..1, giving 1..27 then 0."""
    state = new_match(Rules.standard(2), source=ScriptedSource((0, 0)), opener=0)
    expected_order = list(range(1, 28)) + [0]
    assert tuple(DOUBLE_SIX[i] for i in expected_order[:7]) == state.hand(0)
    assert tuple(DOUBLE_SIX[i] for i in expected_order[7:14]) == state.hand(1)
    assert tuple(DOUBLE_SIX[i] for i in expected_order[14:]) == state.boneyard
    assert (Tile(2, 4), Tile(0, 0)) == (state.boneyard[0], state.boneyard[-1])


def test_shuffle_digits_are_read_lowest_first() -> None:
    """SETUP-5: r = product - 28 makes only the swap of 27 use j = 0; r = 14! - 14 does the same for 13."""
    first = math.prod(range(15, 29)) - 28
    second = math.factorial(14) - 14
    state = new_match(Rules.standard(2), source=ScriptedSource((first, second)), opener=0)
    # 27 swaps with 0, then 13 swaps with what is now at 0 (27); every other j = i leaves a tile in place.
    order = [13] + list(range(1, 13)) + [27] + list(range(14, 27)) + [0]
    assert tuple(sorted(DOUBLE_SIX[i] for i in order[:7])) == state.hand(0)
    assert tuple(sorted(DOUBLE_SIX[i] for i in order[7:14])) == state.hand(1)
    assert tuple(DOUBLE_SIX[i] for i in order[14:]) == state.boneyard
    assert Tile(6, 6) in state.hand(1)
    assert (Tile(2, 3), Tile(0, 0)) == (state.boneyard[0], state.boneyard[-1])


def test_frontend_order_deals_seat_by_seat_and_boneyard_is_drawn_from_the_front() -> None:
    """SETUP-5: seat 0 gets the first hand_size tiles of an order, then seat 1; draws take the next."""
    seat0 = tiles("[6|6] [0|6] [1|6] [2|6] [3|6] [4|6] [5|6]")
    seat1 = tiles("[0|0] [0|1] [0|2] [0|3] [0|4] [0|5] [1|1]")
    boneyard = tiles("[3|4] [1|2] [2|2]")
    order = deal_order([seat0, seat1], boneyard)
    state = new_match(Rules.standard(2), order=order, opener=0)
    assert set(seat0) == set(state.hand(0))
    assert set(seat1) == set(state.hand(1))
    assert order[14:] == state.boneyard
    state = apply(state, Place(0, Tile(6, 6)))
    state = apply(state, Draw(1))
    assert Tile(3, 4) in state.hand(1)
    assert order[15:] == state.boneyard


def _twenty_seven() -> tuple[Tile, ...]:
    return DOUBLE_SIX[:27]


def _duplicate() -> tuple[Tile, ...]:
    return DOUBLE_SIX[:27] + (Tile(0, 0),)


def _non_tile() -> tuple[Tile, ...]:
    return DOUBLE_SIX[:27] + (cast(Any, (6, 6)),)


def _twenty_nine() -> tuple[Tile, ...]:
    return DOUBLE_SIX + (Tile(0, 0),)


def _a_list() -> tuple[Tile, ...]:
    return cast(tuple[Tile, ...], list(DOUBLE_SIX))


BAD_ORDERS = [_twenty_seven, _duplicate, _non_tile, _twenty_nine, _a_list]


@pytest.mark.parametrize("make_order", BAD_ORDERS)
def test_new_match_refuses_an_order_that_is_not_the_28_tiles(make_order: Any) -> None:
    """SETUP-5: a supplied order holds each of the 28 tiles exactly once (27, a repeat, a non-tile)."""
    with pytest.raises(InvalidStateError) as caught:
        new_match(Rules.standard(2), order=make_order(), opener=0)
    assert "SETUP-5" == caught.value.rule


@pytest.mark.parametrize("make_order", BAD_ORDERS)
def test_next_round_refuses_an_order_that_is_not_the_28_tiles(make_order: Any) -> None:
    """SETUP-5: next_round checks a supplied order too, and leaves the state as it was."""
    order = make_order()
    assert_refused_call(_played_out_round(), lambda s: next_round(s, order=order), InvalidStateError, "SETUP-5")


def test_deal_without_seed_source_or_order_is_refused() -> None:
    """SETUP-5: with a named opener but no source and no order there is nothing to shuffle with."""
    with pytest.raises(InvalidStateError) as caught:
        new_match(Rules.standard(3), opener=0)
    assert "SETUP-5" == caught.value.rule


# --- SETUP-6 ---


def test_engine_holds_every_hand_and_reveals_them_at_settlement() -> None:
    """SETUP-6: every hand is held by the engine; the round result reveals them as they were left."""
    seat0 = tiles("[2|6] [0|1] [0|2] [0|3] [0|4] [0|5]")
    seat1 = tiles("[6|6] [1|1] [1|2] [1|3] [1|4] [1|5]")
    seat2 = tiles("[3|4] [4|5] [2|2] [2|3] [2|4] [2|5]")
    state = new_match(Rules.standard(3), order=deal_order([seat0, seat1, seat2]), opener=0)
    assert (set(seat0), set(seat1), set(seat2)) == tuple(set(hand) for hand in state.hands)
    assert state.last_round is None
    ended = _played_out_round()
    assert ended.last_round is not None
    assert ended.hands == ended.last_round.hands
    assert (tiles("[0|1] [0|2]"), (), tiles("[3|4] [4|5]")) == ended.last_round.hands


def _played_out_round(source: ScriptedSource | None = None) -> State:
    """Three players: seat 1 plays out with [6|6] on [2|6]; seats 0 and 2 keep two tiles each."""
    state = make_state(
        3,
        [tiles("[0|1] [0|2]"), tiles("[6|6]"), tiles("[3|4] [4|5]")],
        layout=layout_of((Tile(2, 6), None)),
        boneyard=tiles("[1|1] [5|5]"),
        scores=(50, 40, 30),
        to_move=1,
        opener=0,
        source=source if source is not None else SplitMix64.from_seed(1),
    )
    ended = apply(state, Place(1, Tile(6, 6), pt(Tile(2, 6), Port.HIGH)))
    assert Phase.ROUND_OVER == ended.phase
    return ended


# --- OPEN-1 ---


def test_lot_picks_the_highest_and_redraws_ties_among_the_tied_only() -> None:
    """OPEN-1: faces 3, 6, 6 tie seats 1 and 2; only they redraw (5 against 2) and seat 1 opens."""
    script = lot_script(3, 6, 6) + lot_script(5, 2) + IDENTITY_SHUFFLE
    state = new_match(Rules.standard(3), source=ScriptedSource(script))
    assert 1 == state.opener
    assert 1 == state.to_move
    assert (((0, 3), (1, 6), (2, 6)), ((1, 5), (2, 2))) == state.lot
    assert isinstance(state.source, ScriptedSource)
    assert (6,) * 5 + shuffle_bounds() == state.source.bounds
    assert () == state.source.values


def test_lot_with_a_three_way_then_two_way_tie() -> None:
    """OPEN-1: four seats draw 6, 3, 6, 6; then 0, 2, 3 draw 2, 5, 5; then 2, 3 draw 1, 4: seat 3 opens."""
    script = lot_script(6, 3, 6, 6) + lot_script(2, 5, 5) + lot_script(1, 4) + IDENTITY_SHUFFLE
    state = new_match(Rules.standard(4), source=ScriptedSource(script))
    assert 3 == state.opener
    expected_lot = (((0, 6), (1, 3), (2, 6), (3, 6)), ((0, 2), (2, 5), (3, 5)), ((2, 1), (3, 4)))
    assert expected_lot == state.lot


def test_lot_is_drawn_before_the_shuffle() -> None:
    """OPEN-1: with the lot's values first, the identity shuffle that follows deals the tiles in index order."""
    script = lot_script(2, 5) + IDENTITY_SHUFFLE
    state = new_match(Rules.standard(2), source=ScriptedSource(script))
    assert 1 == state.opener
    assert DOUBLE_SIX[0:7] == state.hand(0)
    assert DOUBLE_SIX[7:14] == state.hand(1)
    assert DOUBLE_SIX[14:] == state.boneyard


def test_tiles_held_give_no_precedence_in_the_lot() -> None:
    """OPEN-1: seat 0 wins the lot and opens though seat 1 holds [1|1] and [2|2] and seat 0 only [0|0]."""
    script = lot_script(6, 1) + IDENTITY_SHUFFLE
    state = new_match(Rules.standard(2), source=ScriptedSource(script))
    assert Tile(2, 2) in state.hand(1)
    assert 0 == state.opener
    assert all(move.seat == 0 for move in legal_moves(state))


def test_frontend_may_name_the_first_opener() -> None:
    """OPEN-1: a named opener replaces the lot; no lot value is drawn before the shuffle."""
    state = new_match(Rules.standard(4), source=ScriptedSource(IDENTITY_SHUFFLE), opener=2)
    assert (2, 2, ()) == (state.opener, state.to_move, state.lot)
    assert isinstance(state.source, ScriptedSource)
    assert shuffle_bounds() == state.source.bounds


@pytest.mark.parametrize("opener", [-1, 4, 9])
def test_named_opener_must_be_a_seat(opener: int) -> None:
    """OPEN-1: a named opener is one of the seats."""
    with pytest.raises(InvalidStateError) as caught:
        new_match(Rules.standard(4), seed=1, opener=opener)
    assert "OPEN-1" == caught.value.rule


def test_no_lot_without_a_source() -> None:
    """OPEN-1: with neither a seed, a source nor a named opener there is no lot to draw."""
    with pytest.raises(InvalidStateError) as caught:
        new_match(Rules.standard(2), order=DOUBLE_SIX)
    assert "OPEN-1" == caught.value.rule


# --- OPEN-2 ---


def test_finisher_opens_the_next_round_without_a_lot() -> None:
    """OPEN-2: seat 1 played out, so seat 1 opens round 2; only the shuffle is drawn."""
    ended = _played_out_round(ScriptedSource(IDENTITY_SHUFFLE))
    after = next_round(ended)
    assert (2, 1, 1, ()) == (after.round_number, after.opener, after.to_move, after.lot)
    assert Phase.PLAYING == after.phase
    assert isinstance(after.source, ScriptedSource)
    assert shuffle_bounds() == after.source.bounds
    assert ended.scores == after.scores
    assert Layout.EMPTY == after.layout
    assert DOUBLE_SIX[0:6] == after.hand(0)


@pytest.mark.parametrize("other", [0, 2])
def test_naming_another_opener_after_a_played_out_round_is_refused(other: int) -> None:
    """OPEN-2: the finisher opens; a frontend cannot name another seat."""
    ended = _played_out_round()
    assert_refused_call(ended, lambda s: next_round(s, opener=other), InvalidStateError, "OPEN-2")


def test_naming_the_finisher_is_accepted() -> None:
    """OPEN-2: naming the finisher as opener agrees with the rule and is accepted."""
    ended = _played_out_round()
    assert 1 == next_round(ended, opener=1).opener


# --- OPEN-3 ---


def test_opener_may_lead_any_tile_of_the_hand() -> None:
    """OPEN-3: every tile of the opener's hand is a legal lead, and only those."""
    hand = tiles("[0|0] [1|4] [2|6] [3|3] [5|6]")
    others = [tiles("[0|1]"), tiles("[0|2]"), hand, tiles("[0|3]")]
    state = make_state(4, others, boneyard=tiles("[1|1]"), to_move=2)
    assert {Place(2, tile) for tile in hand} == set(legal_moves(state))
    for tile in hand:
        led = apply(state, Place(2, tile))
        assert (Placement(tile, None),) == led.layout.placements
        assert tile not in led.hand(2)
        assert 3 == led.to_move


@pytest.mark.parametrize(
    ("lead", "points"),
    [("[1|4]", 5), ("[2|3]", 5), ("[5|5]", 10), ("[4|6]", 10), ("[0|5]", 5), ("[0|1]", 0), ("[3|3]", 0)],
)
def test_the_lead_scores_like_any_placement(lead: str, points: int) -> None:
    """OPEN-3: the lead scores its end count when a multiple of 5 ([5|5] counts 10, [3|3] counts 6)."""
    tile = Tile.parse(lead)
    state = make_state(3, [(tile, Tile(6, 6)), tiles("[1|1]"), tiles("[2|2]")], boneyard=tiles("[0|0]"))
    assert (points, 0, 0) == apply(state, Place(0, tile)).scores


def test_a_lead_with_a_target_is_refused() -> None:
    """OPEN-3: on an empty table a tile is led, not attached to a point."""
    state = make_state(2, [tiles("[1|4] [4|4]"), tiles("[2|3]")], boneyard=tiles("[5|6]"))
    assert_refused(state, Place(0, Tile(1, 4), pt(Tile(4, 4), Port.CHAIN_A)), IllegalMoveError, "OPEN-3")


def test_only_the_first_tile_is_a_lead() -> None:
    """OPEN-3: once a tile is down, another tile without a target is refused."""
    state = make_state(
        2, [tiles("[0|0]"), tiles("[4|6] [2|3]")], layout=layout_of((Tile(1, 4), None)),
        boneyard=tiles("[5|6]"), to_move=1,
    )
    assert_refused(state, Place(1, Tile(4, 6)), IllegalMoveError, "OPEN-3")


# --- TURN-1 ---


def test_turns_pass_clockwise_and_wrap_to_seat_0() -> None:
    """TURN-1: seat 3 leads, then 0, 1, 2, 3, 0 each place in turn."""
    hands = [DOUBLE_SIX[0:5], DOUBLE_SIX[5:10], DOUBLE_SIX[10:15], DOUBLE_SIX[15:20]]
    state = new_match(Rules.standard(4), order=deal_order(hands), opener=3)
    assert tiles("[2|4] [2|5] [2|6] [3|3] [3|4]") == state.hand(3)
    seen = [state.to_move]
    moves = [
        Place(3, Tile(2, 4)),
        Place(0, Tile(0, 2), pt(Tile(2, 4), Port.LOW)),
        Place(1, Tile(0, 5), pt(Tile(0, 2), Port.LOW)),
        Place(2, Tile(1, 5), pt(Tile(0, 5), Port.HIGH)),
        Place(3, Tile(3, 4), pt(Tile(2, 4), Port.HIGH)),
    ]
    for move in moves:
        state = apply(state, move)
        seen.append(state.to_move)
    assert [3, 0, 1, 2, 3, 0] == seen


def test_two_players_alternate() -> None:
    """TURN-1: with two players the turn goes 0, 1, 0."""
    state = make_state(
        2, [tiles("[1|4] [4|5]"), tiles("[1|2] [0|6]")], boneyard=tiles("[3|3]"),
    )
    state = apply(state, Place(0, Tile(1, 4)))
    assert 1 == state.to_move
    state = apply(state, Place(1, Tile(1, 2), pt(Tile(1, 4), Port.LOW)))
    assert 0 == state.to_move


@pytest.mark.parametrize("not_a_move", ["0:[1|4]", None, 3, ("place", 0)])
def test_anything_but_a_placement_draw_or_pass_is_refused(not_a_move: object) -> None:
    """TURN-1: a move is a placement, a draw or a pass, and nothing else."""
    state = make_state(2, [tiles("[1|4]"), tiles("[2|3]")], boneyard=tiles("[5|6]"))
    assert_refused(state, cast(Any, not_a_move), IllegalMoveError, "TURN-1")


# --- TURN-2 ---


def _turn_state() -> State:
    """Three players, [3|5] led, seat 2 to move and able to place; seat 0 must draw if it were its turn."""
    return make_state(
        3,
        [tiles("[0|1]"), tiles("[3|4] [1|1]"), tiles("[5|6] [2|2]")],
        layout=layout_of((Tile(3, 5), None)),
        boneyard=tiles("[0|0] [6|6]"),
        to_move=2,
    )


@pytest.mark.parametrize("seat", [0, 1, 3, 7, -1])
def test_only_the_seat_to_move_may_place(seat: int) -> None:
    """TURN-2: a placement naming any seat but the one to move is refused, even seat 1 with its own fitting tile."""
    state = _turn_state()
    move = Place(seat, Tile(3, 4), pt(Tile(3, 5), Port.LOW))
    assert_refused(state, move, IllegalMoveError, "TURN-2")


def test_only_the_seat_to_move_may_draw_or_pass() -> None:
    """TURN-2: seat 0 cannot place, but it is not its turn to draw or pass."""
    state = _turn_state()
    assert_refused(state, Draw(0), IllegalMoveError, "TURN-2")
    assert_refused(state, Pass(0), IllegalMoveError, "TURN-2")


def test_a_move_names_its_seat_as_an_int() -> None:
    """TURN-2: a move's seat is an int."""
    with pytest.raises(IllegalMoveError) as caught:
        Draw(cast(Any, "2"))
    assert "TURN-2" == caught.value.rule


def test_legal_moves_name_the_seat_to_move() -> None:
    """TURN-2: every legal move names the seat to move, and applying one moves the turn on."""
    state = _turn_state()
    moves = legal_moves(state)
    assert (Place(2, Tile(5, 6), pt(Tile(3, 5), Port.HIGH)),) == moves
    assert 0 == play(state, *moves).to_move
