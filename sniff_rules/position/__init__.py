"""What legal play can reach: the laws of the game and every reason a position breaks them.

:func:`problems` lists every reason legal play from a deal cannot reach a
state (``specs/positions.md``); the JSON reader refuses a document on
them. :mod:`sniff_rules.position.laws` holds the laws as plain functions
returning :class:`Violation` values, for any engine's states or a
production log.
"""

from sniff_rules.position._position_laws import Violation, move_list_violations, position_violations
from sniff_rules.position._step_laws import deal_violations, step_violations
from sniff_rules.position.reachability import Problem, problems

__all__ = [
    "Problem",
    "Violation",
    "deal_violations",
    "move_list_violations",
    "position_violations",
    "problems",
    "step_violations",
]
