"""Section 6 of specs/rules.md, the end count and points (COUNT-*, POINTS-*): what each tile of the
layout contributes, counted incrementally and recounted from scratch, and who scores.

The seed's worked examples of the end count are in tests/test_seed_examples.py."""

from __future__ import annotations

import pytest

from sniff_rules.layout import Port, recount_end
from sniff_rules.moves import Place, apply
from sniff_rules.scoring import play_points, score_play
from sniff_rules.tiles import Tile
from support import layout_of, make_state, pt, tiles

A, B = Port.CHAIN_A, Port.CHAIN_B
LOW, HIGH = Port.LOW, Port.HIGH

# --- COUNT-1..4 ---


def test_recount_of_nothing_is_zero() -> None:
    """COUNT-1: with no tile on the table there is nothing to count."""
    assert 0 == recount_end(())


def test_recount_counts_a_sniff_with_one_long_side_as_both_halves() -> None:
    """COUNT-1, COUNT-2: [1|4] led, the Sniff [4|4] on its 4: the free 1 and both halves of [4|4], 1 + 8 = 9."""
    layout = layout_of((Tile(1, 4), None), (Tile(4, 4), pt(Tile(1, 4), HIGH)))
    assert 9 == recount_end(layout.placements) == layout.end_count


def test_an_extended_ordinary_double_counts_nothing() -> None:
    """COUNT-3, COUNT-2: an ordinary [3|3] counts 6 with one long side occupied, and nothing once both are."""
    line = layout_of((Tile(1, 1), None), (Tile(1, 3), pt(Tile(1, 1), A)), (Tile(3, 3), pt(Tile(1, 3), HIGH)))
    # After the Sniff [1|1] (side B free: both halves, 2) and [1|3], [3|3] on the 3 counts 6: 2 + 6 = 8.
    assert 8 == recount_end(line.placements) == line.end_count
    # [3|4] on its side B makes it internal: 2 + 4 = 6.
    extended = line.place(Tile(3, 4), pt(Tile(3, 3), B))
    assert 2 + 4 == recount_end(extended.placements) == extended.end_count
    assert (6, 0) == (score_play(extended).end_count, score_play(extended).points)


def test_recount_counts_the_open_arms_of_a_sniff_played_after_the_lead() -> None:
    """COUNT-4: [2|5] led, Sniff [5|5] on the 5, [3|5] on its side B: 2 + 3 + 5 + 5 = 15."""
    layout = layout_of(
        (Tile(2, 5), None),
        (Tile(5, 5), pt(Tile(2, 5), HIGH)),
        (Tile(3, 5), pt(Tile(5, 5), B)),
    )
    assert 15 == recount_end(layout.placements) == layout.end_count
    covered = layout.place(Tile(5, 6), pt(Tile(5, 5), Port.ARM_A))
    # COUNT-4: arm A is covered and its line's outer end, 6, counts instead: 2 + 3 + 5 + 6 = 16.
    assert 16 == recount_end(covered.placements) == covered.end_count


# --- POINTS-1..2 ---


def test_a_count_of_zero_or_one_scores_nothing() -> None:
    """POINTS-1: zero and 1 are no positive multiple of 5; 5 scores 5; every count up to 60 scores itself or 0."""
    assert (0, 0, 5) == (play_points(0), play_points(1), play_points(5))
    expected = [count if count > 0 and count % 5 == 0 else 0 for count in range(61)]
    assert expected == [play_points(count) for count in range(61)]


@pytest.mark.parametrize(("seat", "expected_scores"), [(0, (10, 0)), (1, (0, 10)), (2, (10, 0)), (3, (0, 10))])
def test_four_players_score_into_their_partnership(seat: int, expected_scores: tuple[int, int]) -> None:
    """POINTS-2, SETUP-2: with four players a placement scores for the placer's partnership."""
    # [0|5] led: ends 0 + 5. [5|5] on the 5 end: 0 + 10 = 10, which scores 10.
    hands = [tiles("[1|1]"), tiles("[1|2]"), tiles("[1|3]"), tiles("[1|4]")]
    hands[seat] = tiles("[5|5] [1|6]")
    state = make_state(4, hands, layout=layout_of((Tile(0, 5), None)), to_move=seat, boneyard=tiles("[3|4]"))
    after = apply(state, Place(seat, Tile(5, 5), pt(Tile(0, 5), HIGH)))
    assert expected_scores == after.scores
    assert 10 == after.score_of(seat)
    assert 10 == after.score_of((seat + 2) % 4)


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_three_players_each_score_for_themselves(seat: int) -> None:
    """POINTS-2: with three players the points of a placement go to the placer's own score alone."""
    hands = [tiles("[1|1]"), tiles("[1|2]"), tiles("[1|3]")]
    hands[seat] = tiles("[5|5] [1|6]")
    state = make_state(3, hands, layout=layout_of((Tile(0, 5), None)), to_move=seat, boneyard=tiles("[3|4]"))
    after = apply(state, Place(seat, Tile(5, 5), pt(Tile(0, 5), HIGH)))
    assert tuple(10 if side == seat else 0 for side in range(3)) == after.scores
