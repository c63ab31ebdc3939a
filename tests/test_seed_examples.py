"""The seed's worked examples, each with its exact open points, contributions,
end count and points (COUNT-1..4, POINTS-1, SNIFF-1, SNIFF-3, PLACE-1, PLACE-2)."""

from __future__ import annotations

from sniff_rules.layout import AttachmentPoint, Layout, Port, recount_end
from sniff_rules.scoring import score_play
from sniff_rules.tiles import Tile

Expected = tuple[list[tuple[str, int]], list[tuple[str, int]], int, int]


def point(text: str) -> AttachmentPoint:
    """``"[1|4].high"`` as an attachment point."""
    tile_text, port_text = text.split(".")
    return AttachmentPoint(Tile.parse(tile_text), Port[port_text.upper().replace("-", "_")])


def play(moves: list[tuple[str, str | None]]) -> Layout:
    """Place ``(tile, target)`` pairs in order on an empty table."""
    layout = Layout.EMPTY
    for tile_text, target in moves:
        layout = layout.place(Tile.parse(tile_text), None if target is None else point(target))
    return layout


def observed(layout: Layout) -> Expected:
    """Open points with values, contributions, end count and points, sorted for comparison."""
    open_points = sorted((str(p), p.value) for p in layout.open_points)
    terms = sorted((str(c.tile), c.value) for c in layout.contributions)
    score = score_play(layout)
    return open_points, terms, score.end_count, score.points


def expect(open_points: list[tuple[str, int]], terms: list[tuple[str, int]], count: int, points: int) -> Expected:
    """The seed's figures, sorted the same way as :func:`observed`."""
    assert sum(value for _, value in terms) == count, "the seed's terms add up to its count"
    return sorted(open_points), sorted(terms), count, points


CHAIN: list[tuple[str, str | None]] = [
    ("[1|4]", None),
    ("[1|1]", "[1|4].low"),
    ("[4|4]", "[1|4].high"),
    ("[3|4]", "[4|4].chain-b"),
    ("[1|2]", "[1|1].chain-b"),
    ("[1|5]", "[1|1].arm-a"),
    ("[5|5]", "[1|5].high"),
    ("[0|5]", "[5|5].chain-b"),
    ("[1|3]", "[1|1].arm-b"),
]


def test_lead_1_4_counts_both_ends() -> None:
    """COUNT-1, POINTS-1, OPEN-3: the lead [1|4] counts 4 + 1 = 5 for 5 points; no Sniff yet."""
    layout = play(CHAIN[:1])
    assert expect([("[1|4].high", 4), ("[1|4].low", 1)], [("[1|4]", 4), ("[1|4]", 1)], 5, 5) == observed(layout)
    assert layout.sniff_tile is None


def test_first_double_on_a_line_counts_both_halves() -> None:
    """SNIFF-1, COUNT-2, PLACE-2: [1|1] on [1|4]'s lower end is the Sniff; 2 + 4 = 6 scores 0."""
    layout = play(CHAIN[:2])
    assert expect([("[1|1].chain-b", 1), ("[1|4].high", 4)], [("[1|1]", 2), ("[1|4]", 4)], 6, 0) == observed(layout)
    assert Tile(1, 1) == layout.sniff_tile
    assert ["[1|4].low - [1|1].chain-a"] == [str(c) for c in layout.connections]


def test_second_double_does_not_branch() -> None:
    """SNIFF-1, COUNT-2: [4|4] at the other end counts 8; 2 + 8 = 10 scores 10; [1|1] stays the Sniff."""
    layout = play(CHAIN[:3])
    assert expect([("[1|1].chain-b", 1), ("[4|4].chain-b", 4)], [("[1|1]", 2), ("[4|4]", 8)], 10, 10) == observed(
        layout
    )
    assert Tile(1, 1) == layout.sniff_tile


def test_extended_ordinary_double_counts_nothing() -> None:
    """COUNT-3, COUNT-1: [3|4] on [4|4] makes it internal; 2 + 3 = 5 scores 5."""
    layout = play(CHAIN[:4])
    assert expect([("[1|1].chain-b", 1), ("[3|4].low", 3)], [("[1|1]", 2), ("[3|4]", 3)], 5, 5) == observed(layout)
    assert [
        "[1|4].low - [1|1].chain-a",
        "[1|4].high - [4|4].chain-a",
        "[4|4].chain-b - [3|4].high",
    ] == [str(c) for c in layout.connections]


def test_both_long_sides_open_the_arms() -> None:
    """SNIFF-3, COUNT-4: [1|2] on the Sniff's side B opens both arms, each counting 1; 1 + 1 + 2 + 3 = 7."""
    layout = play(CHAIN[:5])
    assert expect(
        [("[1|1].arm-a", 1), ("[1|1].arm-b", 1), ("[1|2].high", 2), ("[3|4].low", 3)],
        [("[1|1]", 1), ("[1|1]", 1), ("[1|2]", 2), ("[3|4]", 3)],
        7,
        0,
    ) == observed(layout)


def test_covered_arm_counts_its_line_end() -> None:
    """COUNT-4: [1|5] on arm A replaces that arm's 1 by the line's end 5; 1 + 2 + 5 + 3 = 11."""
    layout = play(CHAIN[:6])
    assert expect(
        [("[1|1].arm-b", 1), ("[1|2].high", 2), ("[1|5].high", 5), ("[3|4].low", 3)],
        [("[1|1]", 1), ("[1|2]", 2), ("[1|5]", 5), ("[3|4]", 3)],
        11,
        0,
    ) == observed(layout)


def test_double_on_an_arm_line_counts_until_extended() -> None:
    """COUNT-2, COUNT-3: [5|5] on the arm line counts 10 (16 in all); [0|5] past it leaves 0 + 1 + 2 + 3 = 6."""
    assert 16 == score_play(play(CHAIN[:7])).end_count
    layout = play(CHAIN[:8])
    assert expect(
        [("[0|5].low", 0), ("[1|1].arm-b", 1), ("[1|2].high", 2), ("[3|4].low", 3)],
        [("[0|5]", 0), ("[1|1]", 1), ("[1|2]", 2), ("[3|4]", 3)],
        6,
        0,
    ) == observed(layout)
    assert "[5|5].chain-b - [0|5].high" == str(layout.connections[-1])


def test_both_arms_covered_leaves_only_outer_ends() -> None:
    """COUNT-4: with both arms covered only the four outer ends count: 0 + 2 + 3 + 3 = 8."""
    layout = play(CHAIN)
    assert expect(
        [("[0|5].low", 0), ("[1|2].high", 2), ("[1|3].high", 3), ("[3|4].low", 3)],
        [("[0|5]", 0), ("[1|2]", 2), ("[1|3]", 3), ("[3|4]", 3)],
        8,
        0,
    ) == observed(layout)
    assert recount_end(layout.placements) == 8


def test_lone_double_lead_counts_once() -> None:
    """COUNT-2, SNIFF-1: a lone [2|2] counts 4, not 8, with both long sides open; it is the Sniff."""
    layout = play([("[2|2]", None)])
    assert expect([("[2|2].chain-a", 2), ("[2|2].chain-b", 2)], [("[2|2]", 4)], 4, 0) == observed(layout)
    assert Tile(2, 2) == layout.sniff_tile


def test_zero_scores_nothing() -> None:
    """POINTS-1, COUNT-2: a lone [0|0] counts 0, which scores nothing."""
    layout = play([("[0|0]", None)])
    assert expect([("[0|0].chain-a", 0), ("[0|0].chain-b", 0)], [("[0|0]", 0)], 0, 0) == observed(layout)


def test_six_six_at_the_end_scores_fifteen() -> None:
    """COUNT-2, POINTS-1, SNIFF-1: [3|6] then [6|6] counts 3 + 12 = 15 for 15 points, not 3."""
    layout = play([("[3|6]", None), ("[6|6]", "[3|6].high")])
    assert expect([("[3|6].low", 3), ("[6|6].chain-b", 6)], [("[3|6]", 3), ("[6|6]", 12)], 15, 15) == observed(layout)
    assert ["[3|6].high - [6|6].chain-a"] == [str(c) for c in layout.connections]


def test_sniff_lead_arms_keep_counting() -> None:
    """COUNT-4, POINTS-1: [5|5] with [2|5] and [3|5] counts 2 + 3 + 5 + 5 = 15; [4|5] on an arm makes 14."""
    lead = play([("[5|5]", None), ("[2|5]", "[5|5].chain-a")])
    assert expect([("[2|5].low", 2), ("[5|5].chain-b", 5)], [("[2|5]", 2), ("[5|5]", 10)], 12, 0) == observed(lead)
    both = play([("[5|5]", None), ("[2|5]", "[5|5].chain-a"), ("[3|5]", "[5|5].chain-b")])
    assert expect(
        [("[2|5].low", 2), ("[3|5].low", 3), ("[5|5].arm-a", 5), ("[5|5].arm-b", 5)],
        [("[2|5]", 2), ("[3|5]", 3), ("[5|5]", 5), ("[5|5]", 5)],
        15,
        15,
    ) == observed(both)
    arm = both.place(Tile(4, 5), point("[5|5].arm-a"))
    assert (14, 0) == (score_play(arm).end_count, score_play(arm).points)
