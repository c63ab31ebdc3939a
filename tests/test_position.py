"""The position check (sniff_rules.position.reachability): every state legal play reaches has no problem, and each
way a position can be unreachable is found, with its rule and field — the issue's reproducers included."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from unittest import mock

import attrs
import pytest
from hypothesis import given, strategies as st

import sniff_rules.position._turn_order as turn_order
from reachability import unreachable, walk_explains
from sniff_rules.errors import InvalidStateError, SniffError
from sniff_rules.formats.state_json import state_from_data, state_to_data
from sniff_rules.formats.strict_json import JsonValue
from sniff_rules.moves import Place, apply, legal_moves
from sniff_rules.position.laws import position_violations
from sniff_rules.position.reachability import Problem, lot_problems, problems, round_result_problems
from sniff_rules.rules import Rules
from sniff_rules.scoring import Settlement, settle_round
from sniff_rules.state import Phase, RoundResult, State, new_match, next_round
from sniff_rules.tiles import DOUBLE_SIX, HandMask, Tile
from sniff_rules.verify.strategies import states

Document = dict[str, JsonValue]


@cache
def match_states() -> tuple[State, ...]:
    """Every state of two whole matches per player count, first legal move each time, all phases."""
    found: list[State] = []
    for players in (2, 3, 4):
        for seed in (1, 2):
            state = new_match(Rules.standard(players), seed=seed)
            for _ in range(3000):
                found.append(state)
                if state.phase is Phase.MATCH_OVER:
                    break
                state = next_round(state) if state.phase is Phase.ROUND_OVER else apply(state, legal_moves(state)[-1])
    return tuple(found)


def first(where: Callable[[State], bool]) -> State:
    """The first state of :func:`match_states` that ``where`` holds for."""
    return next(state for state in match_states() if where(state))


@contextmanager
def unchecked() -> Iterator[None]:
    """Read documents without the position check, to build the unreachable states it must find."""
    with (
        mock.patch("sniff_rules.formats.state_json.problems", return_value=()),
        mock.patch("sniff_rules.formats.state_json.round_result_problems", return_value=[]),
        mock.patch("sniff_rules.formats.state_json.lot_problems", return_value=[]),
    ):
        yield


def refused_as(document: Document, rule: str, category: str) -> str:
    """Assert the reader refuses ``document`` citing ``rule``, and that the independent judge finds ``category``."""
    with pytest.raises(SniffError) as caught:
        state_from_data(document)
    assert (InvalidStateError, rule) == (type(caught.value), caught.value.rule), str(caught.value)
    with unchecked():
        state = state_from_data(document)
    assert rule == problems(state)[0].rule
    assert category in unreachable(state), unreachable(state)
    return str(caught.value)


def hands_of(document: Document) -> list[list[JsonValue]]:
    """The hands of a state document."""
    hands = document["hands"]
    assert isinstance(hands, list)
    return [hand for hand in hands if isinstance(hand, list)]


def boneyard_of(document: Document) -> list[JsonValue]:
    """The boneyard of a state document."""
    boneyard = document["boneyard"]
    assert isinstance(boneyard, list)
    return boneyard


def deal() -> Document:
    """The issue's document: a fresh two-player deal from seed 1, seat 0 to lead."""
    return state_to_data(new_match(Rules.standard(2), seed=1))


# ---------------------------------------------------------------- what legal play reaches has no problem


def test_every_state_of_whole_matches_has_no_problem() -> None:
    """SETUP-1 TURN-1 DRAW-2 PASS-1 BLOCK-1 END-1 MATCH-1 POINTS-2: no state a match reaches is refused."""
    found = {state.phase for state in match_states()}
    assert {Phase.PLAYING, Phase.ROUND_OVER, Phase.MATCH_OVER} == found
    assert any(not state.boneyard and state.phase is Phase.PLAYING for state in match_states())
    assert [] == [state for state in match_states() if problems(state)]


@given(states(max_moves=400))
def test_states_of_any_house_rules_have_no_problem(state: State) -> None:
    """SETUP-2..4 TURN-1 DRAW-2 POINTS-2: states reached under any house rules have no problem, for the judge too."""
    assert () == problems(state)
    assert [] == unreachable(state)


def test_problem_names_its_rule_and_field() -> None:
    """A problem prints as its rule and message and carries the field at fault."""
    problem = Problem("TURN-1", "to_move", "to_move is seat 1")
    assert ("TURN-1: to_move is seat 1", "to_move") == (str(problem), problem.field)


def test_problems_of_something_that_is_no_state_is_a_typed_error() -> None:
    """FORMAT-3: problems takes a State; anything else is refused by type, not by a traceback."""
    with pytest.raises(InvalidStateError) as caught:
        problems("a state")  # type: ignore[arg-type]
    assert "FORMAT-3" == caught.value.rule


# ---------------------------------------------------------------- the reproducers, one test each


def test_a_lone_tile_in_the_openers_hand_is_refused() -> None:
    """DRAW-2: hands of 1 and 7 with 20 tiles in the boneyard: more tiles than the deal left there."""
    document = deal()
    hand = hands_of(document)[0]
    boneyard_of(document).extend(hand[1:])
    del hand[1:]
    assert "more than the 14" in refused_as(document, "DRAW-2", "hand sizes")


def test_the_opener_to_move_again_after_its_lead_is_refused() -> None:
    """TURN-1: after the lead, with tiles left to draw, nobody has passed, so the next seat is to move."""
    state = new_match(Rules.standard(2), seed=1)
    document = state_to_data(apply(state, legal_moves(state)[0]))
    document["to_move"] = state.opener
    assert "seat 1's turn" in refused_as(document, "TURN-1", "seat to move")


@pytest.mark.parametrize("scores", [[245, 0], [-100, 0]], ids=["245 before any placement", "below zero"])
def test_round_one_scores_nothing_scored_are_refused(scores: list[JsonValue]) -> None:
    """POINTS-2: in round 1 a fresh deal's scores are 0: nobody has placed, let alone scored."""
    document = deal()
    document["scores"] = scores
    refused_as(document, "POINTS-2", "round-1 scores")


def test_a_match_won_by_a_lead_that_scored_nothing_is_refused() -> None:
    """MATCH-1: only a scoring placement wins; a lead of [2|5] counts 7 and scores nothing."""
    state = apply(new_match(Rules.standard(2), seed=1), Place(0, Tile(2, 5)))
    document = state_to_data(state)
    document.update(phase="match-over", winner=0, scores=[250, 0], to_move=0)
    assert "scored nothing" in refused_as(document, "MATCH-1", "match end")


def test_a_finished_round_with_two_played_out_hands_is_refused() -> None:
    """END-1: a round ends when the first seat plays out; only the finisher's hand is empty."""
    state = first(lambda s: s.phase is Phase.ROUND_OVER and s.last_round is not None and not s.last_round.blocked)
    assert state.last_round is not None
    other = next(seat for seat, hand in enumerate(state.hands) if hand)
    document = state_to_data(state)
    boneyard_of(document).extend(hands_of(document)[other])
    hands_of(document)[other].clear()
    record = document["last_round"]
    assert isinstance(record, dict)
    hands = tuple(() if seat == other else hand for seat, hand in enumerate(state.hands))
    record.update(hands=[[str(t) for t in hand] for hand in hands])
    settled = settle_round(state.rules, hands)
    record["settlement"] = {
        "hand_pips": list(settled.hand_pips),
        "deductions": list(settled.deductions),
        "side_deductions": list(settled.side_deductions),
    }
    document["scores"] = [
        score + old - new
        for score, old, new in zip(
            state.scores, state.last_round.settlement.side_deductions, settled.side_deductions, strict=True
        )
    ]
    assert "empty hands are" in refused_as(document, "END-1", "laws")


def test_a_finished_round_with_nothing_on_the_table_is_refused() -> None:
    """END-1: a round ends on a placement or a draw; with nothing on the table neither happened."""
    state = first(lambda s: s.phase is Phase.ROUND_OVER and s.last_round is not None and not s.last_round.blocked)
    document = state_to_data(state)
    layout = document["layout"]
    assert isinstance(layout, list)
    boneyard_of(document).extend(str(text).split(">")[0] for text in layout)
    document["layout"] = []
    assert "nothing is on the table" in refused_as(document, "END-1", "phase")


def test_a_won_match_with_an_empty_hand_that_did_not_place_last_is_refused() -> None:
    """END-1: in a won match only the seat that placed last may have emptied its hand."""
    state = first(lambda s: s.phase is Phase.MATCH_OVER)
    other = next(seat for seat in range(state.rules.players) if seat != state.to_move and state.hand(seat))
    document = state_to_data(state)
    boneyard_of(document).extend(hands_of(document)[other])
    hands_of(document)[other].clear()
    assert "only seat" in refused_as(document, "END-1", "empty hands")


def test_a_blocked_previous_round_recording_an_empty_hand_is_refused() -> None:
    """BLOCK-1: a blocked round has no finisher, so every hand it records holds a tile."""
    state = first(lambda s: s.phase is Phase.PLAYING and s.last_round is not None and s.last_round.blocked)
    assert state.last_round is not None
    hands = ((), *state.last_round.hands[1:])
    settled = settle_round(state.rules, hands)
    document = state_to_data(state)
    document["last_round"] = {
        "round": state.round_number - 1,
        "finisher": None,
        "hands": [[str(t) for t in hand] for hand in hands],
        "settlement": {
            "hand_pips": list(settled.hand_pips),
            "deductions": list(settled.deductions),
            "side_deductions": list(settled.side_deductions),
        },
    }
    with pytest.raises(InvalidStateError) as caught:
        state_from_data(document)
    assert "BLOCK-1" == caught.value.rule, str(caught.value)
    assert "hold no tile" in str(caught.value)


def test_a_drawn_tile_waiting_while_the_boneyard_is_full_is_refused() -> None:
    """DRAW-2: a tile waits to be placed only after a draw; a boneyard as full as the deal left has had none."""
    state = first(
        lambda s: (
            s.phase is Phase.PLAYING
            and bool(s.layout.placements)
            and len(s.boneyard) == 28 - s.rules.players * s.rules.hand_size
            and len(legal_moves(s)) == 1
        )
    )
    move = legal_moves(state)[0]
    assert isinstance(move, Place)
    document = state_to_data(state)
    document["drawn"] = str(move.tile)
    assert "nothing was drawn" in refused_as(document, "DRAW-2", "drawn tile")


# ---------------------------------------------------------------- each check


def test_a_tile_twice_across_hands_and_layout_is_a_setup_problem() -> None:
    """SETUP-1: the 28 tiles each once across hands, boneyard and layout, where each duplicate sits named."""
    state = first(lambda s: bool(s.layout.placements) and s.phase is Phase.PLAYING)
    placed = state.layout.placements[0].tile
    hands = [list(hand) for hand in state.hands]
    hands[state.to_move].append(placed)
    twice = State.create(
        rules=state.rules,
        hands=hands,
        boneyard=state.boneyard,
        layout=state.layout,
        to_move=state.to_move,
        opener=state.opener,
        scores=state.scores,
    )
    found = problems(twice)
    assert ("SETUP-1", "hands") == (found[0].rule, found[0].field)
    assert f"{placed} (hand {state.to_move} and layout)" in found[0].message


def test_a_layout_its_placements_do_not_build_is_a_count_problem() -> None:
    """COUNT-1: a Layout value with an end count its placements do not make is found by replaying them."""
    state = first(lambda s: len(s.layout.placements) > 2 and s.phase is Phase.PLAYING)
    wrong = attrs.evolve(state, layout=attrs.evolve(state.layout, end_count=state.layout.end_count + 1))
    assert ("COUNT-1", "layout") == (problems(wrong)[0].rule, problems(wrong)[0].field)


def test_a_score_off_the_five_point_grid_is_a_settle_problem() -> None:
    """SETTLE-4: every score is a multiple of 5."""
    state = first(lambda s: s.phase is Phase.PLAYING)
    assert "SETTLE-4" == problems(attrs.evolve(state, scores=(3, *state.scores[1:])))[0].rule


@pytest.mark.parametrize(
    ("lot", "message"),
    [
        ((((0, 6), (1, 6)),), "ends in a tie"),
        ((((0, 6), (1, 2)), ((0, 3), (1, 1))), "single winner, yet the lot goes on"),
        ((((1, 6), (0, 2)),), "in seat order"),
        ((((0, 7), (1, 2)),), "values 1..6"),
        ((((0, 6),),), "in seat order"),
        ((((0, "6"), (1, 2)),), "(seat, value) pairs"),
        (tuple(((0, 3), (1, 3)) for _ in range(65)), "within 64 rounds"),
    ],
)
def test_a_lot_no_draw_of_lots_gives_is_an_open_problem(lot: tuple[object, ...], message: str) -> None:
    """OPEN-1 FORMAT-3: every seat draws 1..6 in seat order, ties again, until one wins, within 64 rounds."""
    found = lot_problems(lot, Rules.standard(2))  # type: ignore[arg-type]
    assert 1 == len(found)
    assert message in found[0].message


def test_a_lot_won_by_another_seat_than_the_opener_is_an_open_problem() -> None:
    """OPEN-1: the seat the lot chose opens."""
    state = first(lambda s: bool(s.lot) and s.phase is Phase.PLAYING and s.round_number == 1)
    context = attrs.evolve(state.context, opener=(state.opener + 1) % state.rules.players)
    assert ["OPEN-1", "opener"] == [problems(attrs.evolve(state, context=context))[0].rule, "opener"]


def _record(rules: Rules, finisher: int | None, *hands: str) -> RoundResult:
    tiles = tuple(tuple(sorted(Tile.parse(t) for t in hand.split()) if hand else ()) for hand in hands)
    return RoundResult(1, finisher, tiles, settle_round(rules, tiles))


_TWO = Rules.standard(2)
_UNSORTED = ((Tile(2, 2), Tile(0, 1)), (Tile(1, 1),))


@pytest.mark.parametrize(
    ("rules", "record", "rule", "message"),
    [
        (_TWO, _record(_TWO, None, "[0|1]", "[2|3] [4|5] [6|6]"), "BLOCK-1", "show every pip"),
        (_TWO, _record(_TWO, 0, "", ""), "END-1", "empty hands are [0, 1]"),
        (_TWO, _record(_TWO, 5, "", "[0|1]"), "END-1", "is a seat 0..1"),
        (Rules.standard(3), _record(_TWO, None, "[0|1]", "[1|1]"), "SETUP-2", "one hand per seat"),
        (_TWO, RoundResult(1, None, _UNSORTED, settle_round(_TWO, _UNSORTED)), "FORMAT-3", "tile order"),
        (
            _TWO,
            attrs.evolve(
                _record(_TWO, 0, "", "[1|1]"),
                settlement=attrs.evolve(settle_round(_TWO, ((), (Tile(1, 1),))), deductions=(0, 5)),
            ),
            "SETTLE-1",
            "deductions is [0, 0]",
        ),
        (Rules(2, 1, 50), _record(Rules(2, 1, 50), 0, "", " ".join(map(str, DOUBLE_SIX))), "END-1", "all 28"),
        (_TWO, _record(_TWO, 0, "", " ".join(map(str, DOUBLE_SIX[:22]))), "DRAW-2", "only 14 to draw"),
    ],
)
def test_a_record_no_round_ends_with_is_refused_by_its_rule(
    rules: Rules, record: RoundResult, rule: str, message: str
) -> None:
    """SETUP-2 END-1 BLOCK-1 DRAW-2 SETTLE-1 FORMAT-3: a settled round's record is one a round can end with."""
    found = round_result_problems(record, rules)
    assert rule == found[0].rule, found
    assert message in found[0].message, found


def test_the_finisher_opens_the_next_round_without_a_lot() -> None:
    """OPEN-2: after a played-out round its finisher opens, with no lot drawn."""
    state = first(lambda s: s.phase is Phase.PLAYING and s.last_round is not None and not s.last_round.blocked)
    other = (state.opener + 1) % state.rules.players
    wrong = attrs.evolve(state, context=attrs.evolve(state.context, opener=other))
    assert "OPEN-2" in [problem.rule for problem in problems(wrong)]


def test_a_settled_round_whose_scores_reached_the_target_before_settling_is_refused() -> None:
    """MATCH-1: a round is settled only when no side reached the target: its scores plus the deductions are below it."""
    state = first(lambda s: s.phase is Phase.ROUND_OVER and s.last_round is not None and s.round_number > 1)
    assert state.last_round is not None
    cost = state.last_round.settlement.side_deductions[0]
    wrong = attrs.evolve(state, scores=(state.rules.target - cost, *state.scores[1:]))
    assert "MATCH-1" in [problem.rule for problem in problems(wrong)], problems(wrong)


def test_the_lead_is_the_openers_and_follows_no_draw() -> None:
    """OPEN-3 DRAW-1: on an empty table the opener is to move, and nobody has drawn, since every tile leads."""
    state = new_match(Rules.standard(3), seed=4)
    moved = attrs.evolve(state, to_move=(state.opener + 1) % 3)
    hands = list(state.hand_masks)
    hands[state.opener] = HandMask(hands[state.opener] | 1 << state.boneyard_ids[0])
    drew = attrs.evolve(state, hand_masks=tuple(hands), boneyard_ids=state.boneyard_ids[1:])
    assert ["OPEN-3"] == [problem.rule for problem in problems(moved)]
    assert "DRAW-1" == problems(drew)[0].rule


def test_a_pass_only_by_a_seat_that_cannot_place() -> None:
    """TURN-1 PASS-1: seat 0 led and seat 1 placed, drawing all 14 tiles first (seat 0 had no turn to draw in);
    for seat 1 to be to move again, seat 0 must have passed, which it could not while holding a tile that fits."""
    state = State.create(
        rules=Rules.standard(2),
        hands=("[0|0] [0|1] [0|2] [0|3] [0|4] [0|5]", " ".join(map(str, DOUBLE_SIX[6:26]))),
        boneyard="",
        layout="[6|6] [5|6]>[6|6].chain-a",
        to_move=1,
    )
    assert legal_place(state, 0)
    assert () == problems(attrs.evolve(state, to_move=0))
    assert ["DRAW-2"] == [problem.rule for problem in problems(state)]
    assert not walk_explains(state)
    no_fit = State.create(
        rules=Rules.standard(2),
        hands=(
            "[0|0] [0|1] [0|2] [0|3] [0|4] [1|1]",
            " ".join(map(str, (*DOUBLE_SIX[6:7], *DOUBLE_SIX[8:26], DOUBLE_SIX[5]))),
        ),
        boneyard="",
        layout="[6|6] [5|6]>[6|6].chain-a",
        to_move=1,
    )
    assert not legal_place(no_fit, 0)
    assert () == problems(no_fit)


def legal_place(state: State, seat: int) -> bool:
    """Whether ``seat`` holds a tile that fits an open point of ``state``."""
    values = {point.value for point in state.layout.open_points}
    return any(tile.low in values or tile.high in values for tile in state.hand(seat))


def test_a_later_round_score_beyond_what_the_last_settlement_left_is_refused() -> None:
    """POINTS-2: in round 2 a side came in below the target less the last round's deduction; 245 after a
    deduction of 10 needs at least 10 points this round, which an empty table has not scored."""
    state = first(lambda s: s.round_number == 2 and s.phase is Phase.PLAYING and not s.layout.placements)
    record = state.last_round
    assert record is not None
    cost = max(record.settlement.side_deductions)
    side = record.settlement.side_deductions.index(cost)
    assert cost > 0
    scores = list(state.scores)
    scores[side] = state.rules.target - 5
    wrong = attrs.evolve(state, scores=tuple(scores))
    assert ["POINTS-2"] == [problem.rule for problem in problems(wrong)]
    assert "scores" in unreachable(wrong)


def test_every_law_a_state_breaks_is_a_problem_without_asking_the_laws() -> None:
    """A state that breaks a position law of sniff_rules.position.laws has a problem even with the laws' own check
    switched off: the position check's own checks cover every law."""
    broken = 0
    for state in match_states()[::7]:
        for change in (
            {"to_move": (state.to_move + 1) % state.rules.players},
            {"scores": tuple(score + 5 for score in state.scores)},
            {"winner": 0},
            {"phase": Phase.PLAYING},
            {"phase": Phase.ROUND_OVER},
        ):
            try:
                changed = attrs.evolve(state, **change)
            except SniffError:
                continue
            if position_violations(changed):
                broken += 1
                with mock.patch("sniff_rules.position.reachability.position_violations", return_value=()):
                    assert problems(changed), repr(changed)
    assert broken > 100


def test_the_wide_search_falls_back_to_a_weaker_test_never_a_stricter_one() -> None:
    """POINTS-2: with the search's width capped at nothing, the side-by-side test accepts every state the exact
    one does, and still refuses a round-1 score no placement made."""
    late = [s for s in match_states() if not s.boneyard and s.phase is not Phase.MATCH_OVER][:60]
    with mock.patch.object(turn_order, "MAX_PARTIAL_ASSIGNMENTS", 0):
        assert [] == [state for state in late if problems(state)]
        deal_scored = attrs.evolve(new_match(Rules.standard(2), seed=1), scores=(10, 0))
        assert ["POINTS-2"] == [problem.rule for problem in problems(deal_scored)]


@given(st.sampled_from(range(0, 4000, 13)), st.integers(0, 3), st.integers(-2, 2))
def test_a_shifted_fact_is_either_a_problem_or_reachable_for_the_judge_too(index: int, kind: int, step: int) -> None:
    """TURN-1 DRAW-2 POINTS-2: the position check and the independent judge agree on states one fact away."""
    states_ = match_states()
    state = states_[index % len(states_)]
    players = state.rules.players
    if kind == 0:
        change: dict[str, object] = {"to_move": (state.to_move + step) % players}
    elif kind == 1:
        change = {"scores": tuple(score + 5 * step for score in state.scores)}
    elif kind == 2:
        change = {"context": attrs.evolve(state.context, opener=(state.opener + step) % players)}
    else:
        change = {"scores": (state.scores[0] + 5 * step, *state.scores[1:])}
    try:
        changed = attrs.evolve(state, **change)  # type: ignore[arg-type]
    except SniffError:
        return
    assert bool(problems(changed)) == bool(unreachable(changed)), (problems(changed), unreachable(changed))


@given(st.sampled_from(range(0, 4000, 7)), st.lists(st.integers(0, 6), min_size=1, max_size=3), st.integers(0, 27))
def test_states_a_few_facts_away_break_no_law_the_checks_miss(index: int, kinds: list[int], pick: int) -> None:
    """SETUP-1 END-1 BLOCK-1 DRAW-2 MATCH-1: with the laws' own check switched off, any state a few facts away
    from a real one that breaks a position law still has a problem."""
    states_ = match_states()
    state = states_[index % len(states_)]
    players, sides = state.rules.players, state.rules.sides
    for kind in kinds:
        masks = list(state.hand_masks)
        change: dict[str, object]
        if kind == 0:
            change = {"phase": list(Phase)[pick % 3]}
        elif kind == 1:
            change = {"winner": None if pick % 3 == 0 else pick % sides}
        elif kind == 2:
            change = {"drawn": pick if pick % 2 else -1}
        elif kind == 3:
            masks[pick % players], masks[(pick + 1) % players] = masks[(pick + 1) % players], masks[pick % players]
            change = {"hand_masks": tuple(masks)}
        elif kind == 4:
            masks[pick % players] = HandMask(masks[pick % players] ^ 1 << pick)
            change = {"hand_masks": tuple(masks)}
        elif kind == 5:
            change = {"boneyard_ids": state.boneyard_ids[1:] + state.boneyard_ids[:1]}
        else:
            change = {"scores": tuple(score + 5 * (pick - 14) for score in state.scores)}
        try:
            state = attrs.evolve(state, **change)  # type: ignore[arg-type]
        except SniffError:
            return
    if position_violations(state):
        with mock.patch("sniff_rules.position.reachability.position_violations", return_value=()):
            assert problems(state), repr(state)


_ODD_LOTS = st.sampled_from(
    [(), (("x",),), (((0, 6), (1, 6)),), (((0, 2), (1, 5)),), ((), ()), (((0, 1), (1, 1)),) * 70]
)
_ODD_SETTLEMENTS = st.builds(
    Settlement,
    st.sampled_from([(), (0, 0), ("a", 1), (1.5, 0), (0, 0, 0, 0)]),
    st.sampled_from([(), (0, 0), (5, 5), (True, 0)]),
    st.sampled_from([(), (0, 0), (10,), (0, 0, 0)]),
)


@given(
    st.sampled_from(range(0, 4000, 11)),
    _ODD_LOTS,
    st.none()
    | st.builds(
        RoundResult,
        st.integers(1, 10**6),
        st.none() | st.integers(0, 3),
        st.sampled_from([((), ()), ((Tile(0, 1),), ()), ((), (), (), ()), ((Tile(2, 2), Tile(0, 0)), (Tile(0, 0),))]),
        _ODD_SETTLEMENTS,
    ),
    st.integers(1, 2**62),
)
def test_problems_of_any_state_value_is_a_tuple_never_an_exception(
    index: int, lot: tuple[object, ...], record: RoundResult | None, number: int
) -> None:
    """FORMAT-3 OPEN-1 END-1 SETTLE-1: whatever a State holds in its lot, last round and round number, problems
    answers with Problem values and raises nothing."""
    states_ = match_states()
    state = states_[index % len(states_)]
    try:
        context = attrs.evolve(state.context, lot=lot, last_round=record, round_number=number)  # type: ignore[arg-type]
        odd = attrs.evolve(state, context=context)
    except SniffError:
        return
    found = problems(odd)
    assert all(isinstance(problem, Problem) and problem.rule for problem in found)
