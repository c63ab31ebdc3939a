"""SVG pictures (sniff_rules.draw.svg): valid self-contained XML, clickable markers, the seed's markers, no secrets."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache
from itertools import islice
from pathlib import Path

import pytest

from sniff_rules.draw.svg import DEFAULT_COLORS, SPEC_PICTURES, spec_pictures, svg, tally_svg
from sniff_rules.errors import InvalidStateError
from sniff_rules.layout import Layout
from sniff_rules.play.bots import random_bot
from sniff_rules.play.driver import play_match
from sniff_rules.play.events import Event
from sniff_rules.play.view import SeatView, present_seat_view, seat_view
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import State, new_match
from sniff_rules.tiles import Tile
from support import refusal

PICTURES = Path(__file__).resolve().parent.parent / "specs" / "pictures"
NS = "{http://www.w3.org/2000/svg}"
FIVE = Layout.parse("[5|5] [2|5]>[5|5].chain-a [3|5]>[5|5].chain-b")


@cache
def match_steps(players: int, seed: int) -> tuple[tuple[State, tuple[Event, ...]], ...]:
    """The first states of a match played by random bots, each with the events that led to it."""
    state = new_match(Rules.standard(players), seed=seed)
    steps = play_match(state, [random_bot] * players, SplitMix64.from_seed(seed), present=present_seat_view)
    events: list[Event] = []
    found = []
    for step in islice(steps, 40):
        events += step.events
        found.append((step.state, tuple(events)))
    return tuple(found)


def parsed(text: str) -> ET.Element:
    """The picture read as XML."""
    return ET.fromstring(text)


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    """The elements whose class list holds ``name``."""
    return [element for element in root.iter() if name in element.get("class", "").split()]


def test_every_picture_is_self_contained_xml() -> None:
    """SVG: states, views and layouts of a match parse as XML, with no script, link or external reference."""
    for state, events in match_steps(4, 2):
        for subject in (state, seat_view(state, 1, events), state.layout):
            text = svg(subject)
            root = parsed(text)
            assert f"{NS}svg" == root.tag
            assert [] == [e.tag for e in root.iter() if e.tag in (f"{NS}script", f"{NS}image", f"{NS}a")]
            assert "href" not in text
            assert "url(" not in text


def test_open_points_and_tiles_carry_their_text_forms() -> None:
    """SVG: every open point's marker is sniff-point with data-point, every table tile sniff-tile with data-tile."""
    state, _ = match_steps(3, 5)[-1]
    root = parsed(svg(state))
    assert [str(p) for p in state.layout.open_points] == [e.get("data-point") for e in with_class(root, "sniff-point")]
    assert sorted(str(p.tile) for p in state.layout.placements) == sorted(
        str(e.get("data-tile")) for e in with_class(root, "sniff-tile")
    )


def test_counted_points_are_filled_numbers_and_long_sides_empty() -> None:
    """SVG: the seed's markers: a counted free end or arm is a filled number; a double's open long side is empty."""
    five = parsed(svg(FIVE))
    counted = with_class(five, "sniff-counted")
    assert ["2", "3", "5", "5"] == ["".join(e.itertext()) for e in counted]
    lone = parsed(svg(Layout.parse("[2|2]")))
    assert [] == with_class(lone, "sniff-counted")
    assert 2 == len(with_class(lone, "sniff-point"))
    assert ["4"] == ["".join(e.itertext()) for e in with_class(lone, "sniff-counted-double")]


def test_the_sniff_is_outlined_and_the_last_placement_marked() -> None:
    """SVG: the Sniff alone is outlined; the last placement is marked by default, a given one or none on request."""
    root = parsed(svg(FIVE))
    assert ["[5|5]"] == [e.get("data-tile") for e in with_class(root, "sniff-sniff")]
    assert ["[3|5]"] == [e.get("data-tile") for e in with_class(root, "sniff-last")]
    first = FIVE.placements[1]
    assert ["[2|5]"] == [e.get("data-tile") for e in with_class(parsed(svg(FIVE, last=first)), "sniff-last")]
    assert [] == with_class(parsed(svg(FIVE, last=None)), "sniff-last")
    assert [] == with_class(parsed(svg(Layout.parse("[1|4] [4|6]>[1|4].high"))), "sniff-sniff")


def test_the_targets_of_a_tile_are_ringed() -> None:
    """SVG: targets_of rings exactly the open points the tile matches (PLACE-1)."""
    root = parsed(svg(FIVE, targets_of=Tile(2, 3)))
    assert ["[2|5].low", "[3|5].low"] == [e.get("data-point") for e in with_class(root, "sniff-target")]
    assert [] == with_class(parsed(svg(FIVE, targets_of=Tile(0, 1))), "sniff-target")


def test_a_seat_view_draws_only_its_own_hand_face_up() -> None:
    """SETUP-6: a view draws its own hand face up, backs for the others, and names none of their tiles."""
    leaked = []
    for state, events in match_steps(3, 9):
        view: SeatView = seat_view(state, 2, events)
        if view.revealed_hands is not None:
            continue
        root = parsed(svg(view))
        face_up = with_class(root, "sniff-hand-tile")
        assert [str(tile) for tile in state.hand(2)] == [e.get("data-tile") for e in face_up]
        assert {"2"} >= {e.get("data-seat") for e in face_up}
        backs = with_class(root, "sniff-hidden-tile")
        assert len(state.hand(0)) + len(state.hand(1)) == len(backs)
        text = svg(view)
        leaked += [str(t) for seat in (0, 1) for t in state.hand(seat) if str(t) in text]
    assert [] == leaked


def test_a_state_draws_every_hand_face_up() -> None:
    """SVG: a state shows each seat's hand face up, as sniff-hand-tile with data-seat."""
    state = new_match(Rules.standard(2), seed=20)
    root = parsed(svg(state))
    shown = [(e.get("data-seat"), e.get("data-tile")) for e in with_class(root, "sniff-hand-tile")]
    assert [(str(seat), str(t)) for seat in range(2) for t in state.hand(seat)] == shown


def test_colours_are_overridden_by_name_and_checked() -> None:
    """SVG: a named colour replaces the default; an unknown part or a colour that could break the XML is refused."""
    assert 'fill="#000000"' in svg(FIVE, colors={"background": "#000000"})
    assert DEFAULT_COLORS["background"] in svg(FIVE)
    refusal(InvalidStateError, "FORMAT-3", lambda: svg(FIVE, colors={"felt": "red"}))
    refusal(InvalidStateError, "FORMAT-3", lambda: svg(FIVE, colors={"tile": '"/><script>'}))


@pytest.mark.parametrize("bad", [{"size": 0}, {"size": True}, {"targets_of": "[1|2]"}, {"last": "[5|5]"}])
def test_bad_options_are_refused(bad: dict[str, object]) -> None:
    """FORMAT-3: size, targets_of and last of the wrong kind are refused."""
    refusal(InvalidStateError, "FORMAT-3", lambda: svg(FIVE, **bad))  # type: ignore[arg-type]


def test_svg_refuses_what_it_cannot_draw() -> None:
    """FORMAT-3: svg draws a Layout, a State or a SeatView."""
    refusal(InvalidStateError, "FORMAT-3", lambda: svg("[1|4]"))  # type: ignore[arg-type]


@pytest.mark.parametrize(("score", "symbols", "strokes"), [(0, 0, 0), (5, 0, 1), (135, 2, 7), (-65, 1, 3)])
def test_the_tally_picture_has_its_symbols_and_strokes(score: int, symbols: int, strokes: int) -> None:
    """TALLY-1: each 50-point symbol is 10 strokes (a large X, a small x in each field), then one stroke per 5."""
    root = parsed(tally_svg(score))
    lines = root.findall(f"{NS}line")
    assert 10 * symbols + strokes + (1 if score < 0 else 0) == len(lines)
    refusal(InvalidStateError, "TALLY-1", lambda: tally_svg(7))


def test_notebooks_get_pictures() -> None:
    """SVG: Layout, State and SeatView have _repr_svg_, the same picture as svg()."""
    state, events = match_steps(2, 4)[-1]
    view = seat_view(state, 0, events)
    assert svg(state.layout) == state.layout._repr_svg_()
    assert svg(state) == state._repr_svg_()
    assert svg(view) == view._repr_svg_()


@pytest.mark.parametrize("name", sorted(SPEC_PICTURES))
def test_the_pictures_in_specs_are_what_svg_draws(name: str) -> None:
    """SVG: specs/pictures holds the seed's examples as svg() draws them now (rewrite them from spec_pictures())."""
    assert spec_pictures()[name] == (PICTURES / name).read_text(encoding="utf-8")
    parsed(spec_pictures()[name])


def _pips_of(group: ET.Element) -> list[tuple[float, float, float]]:
    return [(float(c.get("cx", 0)), float(c.get("cy", 0)), float(c.get("r", 0))) for c in group.iter(f"{NS}circle")]


@pytest.mark.parametrize(
    "layout",
    [
        "[1|4] [4|4]>[1|4].high",
        "[1|4] [1|1]>[1|4].low [4|6]>[1|4].high [6|6]>[4|6].high",
        "[5|5] [2|5]>[5|5].chain-a [3|5]>[5|5].chain-b [4|5]>[5|5].arm-a [4|4]>[4|5].low",
    ],
)
def test_a_counted_double_s_number_covers_none_of_its_pips(layout: str) -> None:
    """COUNT-2's number sat on the middle of a double at the end of a line, over its pips."""
    root = parsed(svg(Layout.parse(layout), bounds=None))
    badges = with_class(root, "sniff-counted-double")
    assert badges
    tiles = {group.get("data-tile"): group for group in with_class(root, "sniff-tile")}
    for badge in badges:
        rect = badge.find(f"{NS}rect")
        assert rect is not None
        x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
        w, h = float(rect.get("width", 0)), float(rect.get("height", 0))
        for cx, cy, r in _pips_of(tiles[badge.get("data-tile")]):
            nearest_x, nearest_y = min(max(cx, x), x + w), min(max(cy, y), y + h)
            assert (nearest_x - cx) ** 2 + (nearest_y - cy) ** 2 > r * r, (badge.get("data-tile"), cx, cy)


@pytest.mark.parametrize("subject", [Layout.EMPTY, new_match(Rules.standard(2), seed=20)])
def test_the_empty_table_s_sentence_fits_its_picture_once(subject: Layout | State) -> None:
    """The sentence ran to 45 characters in a picture 180 units wide and was cut; each of its lines
    now fits (at most 0.6 em a character in sans-serif) and it is said once."""
    root = parsed(svg(subject))
    width = float(root.get("viewBox", "0 0 0 0").split()[2])
    said = [t for t in root.iter(f"{NS}text") if "empty" in (t.text or "") or "the lead" in (t.text or "")]
    assert 2 == len(said)
    for line in said:
        size, x = float(line.get("font-size", 0)), float(line.get("x", 0))
        half = 0.6 * size * len(line.text or "") / 2
        assert "middle" == line.get("text-anchor")
        assert 0 <= x - half, line.text
        assert x + half <= width, line.text
