"""The game in other frameworks: a fixed action space, OpenSpiel, and PettingZoo with a Gymnasium wrapper.

:mod:`~sniff_rules.adapters.actions` is the action space both use.
``import sniff_rules.adapters.openspiel`` registers the game with OpenSpiel
(the ``[openspiel]`` extra); ``import sniff_rules.adapters.pettingzoo`` the
AEC environment with PettingZoo (the ``[pettingzoo]`` extra). Nothing is
imported here, so neither framework loads unless asked for.
"""
