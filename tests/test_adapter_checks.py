"""The adapter checks of sniff_rules.verify.adapter_checks, called directly, without the machine."""

from __future__ import annotations

from sniff_rules.errors import IllegalMoveError
from sniff_rules.moves import Draw, Place, apply
from sniff_rules.rules import Rules
from sniff_rules.state import State, new_match
from sniff_rules.verify.adapter_checks import Call, Failure, library_refusal, refusal_failure


def a_deal() -> State:
    """A 2-player deal, seat 0 to move (SETUP-4)."""
    return new_match(Rules.standard(2), seed=3, opener=0)


def test_every_call_refused_as_the_library_does_is_no_failure() -> None:
    """TURN-1: seat 1 drawing out of turn is refused with the library's rule, and nothing is reported."""
    state = a_deal()
    calls: list[Call] = [(lambda: apply(state, Draw(1)), Draw(1))]
    assert None is refusal_failure(state, calls, check="illegal-move", compare_with_reference=True)


def test_a_call_raising_something_else_fails_the_check() -> None:
    """TURN-1: a refusal that is not a SniffError fails the check the caller names, with the state."""
    state = a_deal()

    def refuse() -> object:
        raise ValueError("no")

    expected = Failure("match-over", "apply(state, Draw(1)) raised ValueError('no'), not a SniffError", state)
    assert expected == refusal_failure(state, [(refuse, Draw(1))], check="match-over", compare_with_reference=True)


def test_a_refusal_citing_another_rule_fails_refusal_rule_only_when_compared() -> None:
    """TURN-2: a refusal citing PLACE-1 where the library cites TURN-2 fails refusal-rule, unless not compared."""
    state = a_deal()
    move = Place(1, state.hand(1)[0])

    def refuse() -> object:
        raise IllegalMoveError("PLACE-1", "no")

    assert "TURN-2" == library_refusal(state, move)
    found = refusal_failure(state, [(refuse, move)], check="illegal-move", compare_with_reference=True)
    assert found is not None
    assert ("refusal-rule", state) == (found.check, found.state)
    assert None is refusal_failure(state, [(refuse, move)], check="illegal-move", compare_with_reference=False)
