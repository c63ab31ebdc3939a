"""American Sniff as an OpenSpiel game: importing this package registers ``python_american_sniff``.

Needs the ``openspiel`` extra (``pip install 'sniff-rules[openspiel]'``).
:mod:`~sniff_rules.adapters.openspiel.game` is the game and its states,
:mod:`~sniff_rules.adapters.openspiel.core` the position they share,
:mod:`~sniff_rules.adapters.openspiel.observer` the observation and
information-state tensors.
"""

from sniff_rules.adapters.openspiel.game import GAME_NAME, GAME_TYPE, AmericanSniffGame, AmericanSniffState

__all__ = ["GAME_NAME", "GAME_TYPE", "AmericanSniffGame", "AmericanSniffState"]
