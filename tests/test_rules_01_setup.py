"""Section 1 of specs/rules.md, set-up and deal (SETUP-*): the tiles, players and sides, targets,
hand sizes, the seeded source and the shuffle, and hidden hands."""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import permutations
from typing import Any, cast

import pytest

from sniff_rules.errors import InvalidRulesError, InvalidStateError, InvalidTileError, NotationError
from sniff_rules.layout import Port
from sniff_rules.moves import Draw, Place, apply
from sniff_rules.randomness import SplitMix64, shuffled
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, new_match, next_round
from sniff_rules.tiles import DOUBLE_SIX, Tile
from support import (
    GAMMA,
    IDENTITY_SHUFFLE,
    MASK64,
    ScriptedSource,
    assert_refused_call,
    blocked,
    deal_order,
    layout_of,
    make_state,
    pt,
    ref_below,
    ref_lot,
    ref_next64,
    ref_shuffle,
    refusal,
    seat_1_played_out,
    state_before_output,
    tiles,
)

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
    """SETUP-1: a pip of 7 or below 0 makes no tile; the error shows the tile as given."""
    expected = f"SETUP-1: pips run 0..6, got [{low}|{high}]"
    assert expected == refusal(InvalidTileError, "SETUP-1", lambda: Tile(low, high))


def test_a_float_pip_is_refused_even_beside_an_int() -> None:
    """SETUP-1: pips are ints 0..6; [1.0|4] is refused though 4 is an int and 1.0 lies in range."""
    loose = cast(int, 1.0)
    assert "SETUP-1: pips must be ints, got 1.0 and 4" == refusal(InvalidTileError, "SETUP-1", lambda: Tile(loose, 4))
    expected = "SETUP-1: pips must be ints, got 2 and 5.0"
    assert expected == refusal(InvalidTileError, "SETUP-1", lambda: Tile(2, cast(int, 5.0)))


def test_tile_written_high_half_first_is_refused() -> None:
    """SETUP-1: [4|1] is not a tile and the error names [1|4], the way to write it; Tile.of reads either order."""
    expected = "SETUP-1: a tile is written low half first: [1|4], not [4|1]"
    assert expected == refusal(InvalidTileError, "SETUP-1", lambda: Tile(4, 1))
    assert Tile(1, 4) == Tile.of(4, 1)
    assert (1, 4) == (Tile.of(4, 1).low, Tile.of(4, 1).high)


def test_a_double_is_the_same_tile_in_either_order() -> None:
    """SETUP-1: Tile.of(3, 3) is [3|3], numbered 7 * 3 - 3 + 0 = 18."""
    assert (Tile(3, 3), 18) == (Tile.of(3, 3), Tile.of(3, 3).index)


@pytest.mark.parametrize("index", [-1, 28, 100])
def test_tile_index_outside_0_to_27_is_refused(index: int) -> None:
    """SETUP-1: tiles are numbered 0..27 only; the error names the index."""
    expected = f"SETUP-1: tile index runs 0..27, got {index}"
    assert expected == refusal(InvalidTileError, "SETUP-1", lambda: Tile.from_index(index))


def test_text_that_is_not_a_tile_is_refused_and_quoted() -> None:
    """SETUP-1, FORMAT-1: "[7|1]" names no tile of the double-six set; the error quotes the text."""
    expected = "FORMAT-1: '[7|1]' is not a tile; write it as [a|b] with pips 0..6"
    assert expected == refusal(NotationError, "FORMAT-1", lambda: Tile.parse("[7|1]"))


# --- SETUP-2 ---


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_standard_rules_refuse_player_counts_other_than_2_to_4(players: int) -> None:
    """SETUP-2: American Sniff is for two, three or four players; the error names the count asked for."""
    expected = f"SETUP-2: American Sniff is for 2 to 4 players, got {players}"
    assert expected == refusal(InvalidRulesError, "SETUP-2", lambda: Rules.standard(players))


@pytest.mark.parametrize(("players", "hand_size", "target"), [(1, 7, 250), (5, 5, 200), (0, 5, 200)])
def test_house_rules_refuse_player_counts_other_than_2_to_4(players: int, hand_size: int, target: int) -> None:
    """SETUP-2: house rules cannot change the number of players allowed."""
    refusal(InvalidRulesError, "SETUP-2", lambda: Rules(players, hand_size, target))


def test_new_match_refuses_what_is_not_rules() -> None:
    """SETUP-2: a match is started from a Rules value; a bare player count is refused and named."""
    expected = "SETUP-2: rules must be a Rules value, got 4"
    assert expected == refusal(InvalidStateError, "SETUP-2", lambda: new_match(cast(Any, 4), seed=1))


@pytest.mark.parametrize(
    ("players", "sides", "side_of_seat", "seats_of_side"),
    [
        (2, 2, (0, 1), ((0,), (1,))),
        (3, 3, (0, 1, 2), ((0,), (1,), (2,))),
        (4, 2, (0, 1, 0, 1), ((0, 2), (1, 3))),
    ],
)
def test_sides_are_seats_alone_or_opposite_partnerships(
    players: int, sides: int, side_of_seat: tuple[int, ...], seats_of_side: tuple[tuple[int, ...], ...]
) -> None:
    """SETUP-2: two or three play alone, each side one seat; four play seats 0+2 against 1+3."""
    rules = Rules.standard(players)
    assert sides == rules.sides
    assert side_of_seat == tuple(rules.side_of(seat) for seat in range(players))
    assert seats_of_side == tuple(rules.seats_of(side) for side in range(sides))
    assert (players == 4) == rules.partnerships
    assert (0,) * sides == new_match(rules, seed=5).scores


# --- SETUP-3 ---


@pytest.mark.parametrize(("players", "target"), [(2, 250), (3, 200), (4, 200)])
def test_standard_targets(players: int, target: int) -> None:
    """SETUP-3: the target is 250 raw points for two players, 200 for three or four."""
    assert target == Rules.standard(players).target


@pytest.mark.parametrize("target", [0, -5, -250, 251, 12, 1])
def test_target_must_be_a_positive_multiple_of_five(target: int) -> None:
    """SETUP-3: a house target is a positive multiple of 5; the error names the target."""
    expected = f"SETUP-3: the target is a positive multiple of 5 raw points up to 10**15, got {target}"
    assert expected == refusal(InvalidRulesError, "SETUP-3", lambda: Rules(2, 7, target))


def test_house_target_is_accepted_and_used() -> None:
    """SETUP-3: a house target of 100 ends the match at 100, not 250."""
    rules = Rules(2, 7, 100)
    state = make_state(
        rules,
        [tiles("[5|5] [1|2]"), tiles("[3|4]")],
        layout=layout_of((Tile(0, 5), None)),
        scores=(90, 0),
        boneyard=tiles("[2|6]"),
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
    """SETUP-4: a house hand size must leave at least one tile in the boneyard; the error names both numbers."""
    expected = f"SETUP-4: {hand_size} tiles each for {players} players does not leave a boneyard of the 28 tiles"
    assert expected == refusal(InvalidRulesError, "SETUP-4", lambda: Rules(players, hand_size, 200))


def test_house_hand_size_deals_that_many() -> None:
    """SETUP-4: a house hand size of 9 for three players leaves a boneyard of one."""
    state = new_match(Rules(3, 9, 200), seed=3)
    assert [9, 9, 9] == [len(h) for h in state.hands]
    assert 1 == len(state.boneyard)


def test_a_hand_of_one_tile_is_a_valid_house_rule() -> None:
    """SETUP-4: one tile each for four players leaves 24 in the boneyard, so it is allowed and dealt."""
    rules = Rules(4, 1, 200)
    assert 1 == rules.hand_size
    state = new_match(rules, order=DOUBLE_SIX, opener=0)
    assert ((DOUBLE_SIX[0],), (DOUBLE_SIX[1],), (DOUBLE_SIX[2],), (DOUBLE_SIX[3],)) == state.hands
    assert DOUBLE_SIX[4:] == state.boneyard


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


# --- SETUP-5: the seeded source ---


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


def test_a_seed_must_be_an_int() -> None:
    """SETUP-5: a seed is an int (taken modulo 2**64); 1.5 is refused and named."""
    expected = "SETUP-5: a seed is an int, got 1.5"
    assert expected == refusal(InvalidStateError, "SETUP-5", lambda: SplitMix64.from_seed(cast(int, 1.5)))


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


def test_an_output_equal_to_the_threshold_is_kept() -> None:
    """SETUP-5: below(6) keeps outputs of at least 2**64 mod 6 = 4; an output of exactly 4 gives 4 at once."""
    source = SplitMix64(state_before_output(4))
    assert 4 == source.next64()[0]
    value, after = source.below(6)
    assert (4, SplitMix64((source.state + GAMMA) & MASK64)) == (value, after)


def test_an_output_just_below_the_threshold_is_drawn_again() -> None:
    """SETUP-5: an output of 3 is under 2**64 mod 6 = 4, so below(6) draws the next output instead."""
    source = SplitMix64(state_before_output(3))
    second, after = source.next64()[1].next64()
    assert (second % 6, after) == source.below(6)


def test_no_draw_below_zero() -> None:
    """SETUP-5: below(n) needs n of at least 1; below(0) is refused and names the bound."""
    expected = "SETUP-5: below(n) takes an int n from 1 to 2**64, got 0"
    assert expected == refusal(InvalidStateError, "SETUP-5", lambda: SplitMix64(0).below(0))


# --- SETUP-5: the shuffle ---


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
    expected_order = [*range(1, 28), 0]
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
    order = [13, *range(1, 13), 27, *range(14, 27), 0]
    assert tuple(sorted(DOUBLE_SIX[i] for i in order[:7])) == state.hand(0)
    assert tuple(sorted(DOUBLE_SIX[i] for i in order[7:14])) == state.hand(1)
    assert tuple(DOUBLE_SIX[i] for i in order[14:]) == state.boneyard
    assert Tile(6, 6) in state.hand(1)
    assert (Tile(2, 3), Tile(0, 0)) == (state.boneyard[0], state.boneyard[-1])


def test_two_items_take_one_draw_below_two() -> None:
    """SETUP-5: i runs from 1 down to 1: one swap with j = below(2); j = 0 swaps the pair."""
    order, source = shuffled(("a", "b"), ScriptedSource((0,)))
    assert ("b", "a") == order
    assert isinstance(source, ScriptedSource)
    assert (2,) == source.bounds
    order, _ = shuffled(("a", "b"), ScriptedSource((1,)))
    assert ("a", "b") == order


def test_a_group_stops_before_its_product_reaches_two_to_the_64() -> None:
    """SETUP-5: for 21 items 21 * 20 * ... * 4 = 21!/3! < 2**64 but 21!/2! is not, so 3 * 2 is a second draw."""
    order, source = shuffled(tuple(range(21)), ScriptedSource((0, 0)))
    assert isinstance(source, ScriptedSource)
    assert (8515157028618240000, 6) == source.bounds
    assert 8515157028618240000 < 2**64 < 8515157028618240000 * 3
    # Every j is 0: position i swaps with position 0 for i = 20, 19, ..., 1.
    assert (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 0) == order


@pytest.mark.parametrize("length", [2, 3, 4, 5])
def test_the_packed_values_of_one_draw_give_every_order_once(length: int) -> None:
    """SETUP-5: with one draw below n!, each value is one permutation: the digits are j in range(i + 1)."""
    items = tuple(range(length))
    orders = set()
    for value in range(math.factorial(length)):
        order, source = shuffled(items, ScriptedSource((value,)))
        assert isinstance(source, ScriptedSource)
        assert (math.factorial(length),) == source.bounds
        orders.add(order)
    assert set(permutations(items)) == orders


# --- SETUP-5: a deal order given by the frontend ---


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


def _repeated() -> tuple[Tile, ...]:
    # [0|0] twice and [1|1] three times stand for [0|1], [5|6] and [6|6]: still 28 tiles.
    order = tuple(tile for tile in DOUBLE_SIX if tile not in tiles("[0|1] [5|6] [6|6]")) + tiles("[1|1] [1|1] [0|0]")
    assert 28 == len(order)
    return order


def _non_tile() -> tuple[Tile, ...]:
    return (*DOUBLE_SIX[:27], cast(Any, (6, 6)))


def _twenty_nine() -> tuple[Tile, ...]:
    return (*DOUBLE_SIX, Tile(0, 0))


def _a_list() -> tuple[Tile, ...]:
    return cast(tuple[Tile, ...], list(DOUBLE_SIX))


MakeOrder = Callable[[], tuple[Tile, ...]]
BAD_ORDERS = [
    pytest.param(_twenty_seven, "a deal order is a tuple of the 28 tiles, got tuple of 27", id="27-tiles"),
    pytest.param(_repeated, "a deal order holds each of the 28 tiles once; repeated: [0|0], [1|1]", id="repeats"),
    pytest.param(_non_tile, "a deal order holds tiles, got (6, 6)", id="non-tile"),
    pytest.param(_twenty_nine, "a deal order is a tuple of the 28 tiles, got tuple of 29", id="29-tiles"),
    pytest.param(_a_list, "a deal order is a tuple of the 28 tiles, got list", id="a-list"),
]


@pytest.mark.parametrize(("make_order", "message"), BAD_ORDERS)
def test_new_match_refuses_an_order_that_is_not_the_28_tiles(make_order: MakeOrder, message: str) -> None:
    """SETUP-5: a supplied order is a tuple holding each of the 28 tiles exactly once; the error says what is wrong."""
    order = make_order()
    made = refusal(InvalidStateError, "SETUP-5", lambda: new_match(Rules.standard(2), order=order, opener=0))
    assert f"SETUP-5: {message}" == made


@pytest.mark.parametrize(("make_order", "message"), BAD_ORDERS)
def test_next_round_refuses_an_order_that_is_not_the_28_tiles(make_order: MakeOrder, message: str) -> None:
    """SETUP-5: next_round checks a supplied order too, and leaves the state as it was."""
    order = make_order()
    error = assert_refused_call(seat_1_played_out(), lambda s: next_round(s, order=order), InvalidStateError, "SETUP-5")
    assert f"SETUP-5: {message}" == str(error)


def test_deal_without_seed_source_or_order_is_refused() -> None:
    """SETUP-5: with a named opener but no source and no order there is nothing to shuffle with; the error says so."""
    expected = "SETUP-5: the tiles are shuffled by the random source: give one, or an order"
    assert expected == refusal(InvalidStateError, "SETUP-5", lambda: new_match(Rules.standard(3), opener=0))


# --- SETUP-6 ---


def test_engine_holds_every_hand_and_reveals_them_at_settlement() -> None:
    """SETUP-6: every hand is held by the engine; the round result reveals them as they were left."""
    seat0 = tiles("[2|6] [0|1] [0|2] [0|3] [0|4] [0|5]")
    seat1 = tiles("[6|6] [1|1] [1|2] [1|3] [1|4] [1|5]")
    seat2 = tiles("[3|4] [4|5] [2|2] [2|3] [2|4] [2|5]")
    state = new_match(Rules.standard(3), order=deal_order([seat0, seat1, seat2]), opener=0)
    assert (set(seat0), set(seat1), set(seat2)) == tuple(set(hand) for hand in state.hands)
    assert state.last_round is None
    ended = seat_1_played_out()
    assert ended.last_round is not None
    assert ended.hands == ended.last_round.hands
    assert (tiles("[0|1] [0|2]"), (), tiles("[3|4] [4|5]")) == ended.last_round.hands


def test_the_next_round_keeps_the_result_of_the_last() -> None:
    """SETUP-6, OPEN-2: the hands revealed and settled at the end of round 1 stay readable in round 2."""
    ended = blocked()
    assert ended.last_round is not None
    after = next_round(ended, opener=0, order=DOUBLE_SIX)
    assert ended.last_round == after.last_round
    assert after.last_round is not None
    assert (tiles("[1|2]"), tiles("[1|3] [2|3]")) == after.last_round.hands
