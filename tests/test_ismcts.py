"""The ISMCTS bot (sniff_rules.play.ismcts): legal, seeded, bounded, and its benchmarks keep working."""

from __future__ import annotations

import pytest

from benchmarks import ismcts_match, search_speed
from sniff_rules.errors import IllegalMoveError, InvalidStateError
from sniff_rules.play.events import Dealt
from sniff_rules.play.ismcts import MAX_ITERATIONS, ISMCTSBot
from sniff_rules.play.playout import DRAW_KEY, PASS_KEY, Playout, move_key
from sniff_rules.play.view import seat_view
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import new_match
from test_playout import _turns


def test_the_bot_plays_a_legal_move_and_replays_by_seed() -> None:
    """The move is one of the view's, and the same view and source give the same move and source."""
    bot = ISMCTSBot(iterations=30)
    for index, (_state, view) in enumerate(_turns(4, 11)[:12]):
        move, after = bot(view, SplitMix64.from_seed(index))
        assert move in view.legal_moves
        assert (move, after) == bot(view, SplitMix64.from_seed(index))


def test_a_forced_move_takes_no_search_and_leaves_the_source() -> None:
    """A view with one legal move is answered at once, the source unchanged."""
    for _state, view in _turns(2, 5):
        if len(view.legal_moves) == 1:
            source = SplitMix64.from_seed(1)
            assert (view.legal_moves[0], source) == ISMCTSBot()(view, source)
            return
    raise AssertionError("no forced move in the match")


def test_the_bot_refuses_what_it_cannot_decide_from() -> None:
    """FORMAT-3 for a State or a bad budget; TURN-1 for a view with no move."""
    state = new_match(Rules.standard(2), seed=1)
    with pytest.raises(InvalidStateError):
        ISMCTSBot()(state, SplitMix64.from_seed(1))  # type: ignore[arg-type]
    for iterations in (0, MAX_ITERATIONS + 1, 2.0, True):
        with pytest.raises(InvalidStateError):
            ISMCTSBot(iterations=iterations)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError):
        ISMCTSBot(exploration=-1.0)
    off_turn = seat_view(state, 1 - state.to_move, [Dealt.of(state)])
    with pytest.raises(IllegalMoveError):
        ISMCTSBot()(off_turn, SplitMix64.from_seed(1))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_playouts_move_numbers_are_the_legal_moves(players: int) -> None:
    """Playout.keys numbers the legal moves of every state, in their order, as move_key does."""
    for state, view in _turns(players, 40 + players)[::2]:
        expected = [move_key(move) for move in view.legal_moves]
        assert expected == Playout.of_state(state).keys()
    assert (DRAW_KEY, PASS_KEY) == (-1, -2)


def test_the_match_benchmark_plays_both_seatings_and_reports() -> None:
    """A tiny seeded run: both halves played, the wins counted, decision times over real decisions."""
    figures = ismcts_match.measure(matches=2, iterations=5, deals=2, target=40, first_seed=3)
    assert 2 == figures["matches"]
    assert 0 <= figures["wins"] <= 2
    assert figures["ismcts"]
    assert figures["search"]
    assert figures == ismcts_match.measure(matches=2, iterations=5, deals=2, target=40, first_seed=3) | {
        "ismcts": figures["ismcts"],
        "search": figures["search"],
    }
    assert "95% [" in ismcts_match.report(figures, 5, 2)


def test_the_instruction_count_searches_the_real_decisions_it_recorded(capsys: pytest.CaptureFixture[str]) -> None:
    """search_speed --instructions: the measured child searches every recorded real decision, deals
    times moves playouts each, and prints them; the base child records the same and searches none."""
    decisions = search_speed.recorded_decisions(1)
    assert decisions
    assert all(len(view.legal_moves) > 1 for view, _source in decisions)
    search_speed.main(["--child", "1", "2", "1"])
    assert int(capsys.readouterr().out.split()[-1]) == 2 * sum(len(view.legal_moves) for view, _ in decisions)
    search_speed.main(["--child", "1", "2", "0"])
    assert int(capsys.readouterr().out.split()[-1]) == 0


def test_the_speed_benchmark_counts_the_playouts_of_real_decisions() -> None:
    """A tiny run of each form: deals times moves playouts per real decision, and the same decisions."""
    fast = search_speed.measure(matches=1, deals=2, reference=False)
    slow = search_speed.measure(matches=1, deals=2, reference=True)
    assert fast.playouts == slow.playouts
    assert len(fast.decisions) == len(slow.decisions)
    assert fast.playouts >= 2 * 2 * len(fast.decisions)
    assert "playouts per CPU-second" in search_speed.report(fast)
    assert fast.playouts / sum(fast.decisions) == search_speed.rate(fast)


def test_the_speed_benchmark_compares_both_forms_round_by_round(capsys: pytest.CaptureFixture[str]) -> None:
    """--compare prints each round's two forms and the medians with their ratio."""
    search_speed.main(["--compare", "2", "--matches", "1", "--deals", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert 2 == sum(line.startswith("round ") for line in lines)
    assert lines[-1].startswith("median playouts per CPU-second: bit-mask ")
