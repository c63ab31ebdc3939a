"""Checking an engine: perft, Hypothesis strategies, the stateful machine, CrossHair contracts, the vectors.

==================================================  =======================================================
:mod:`~sniff_rules.verify.perft`                    legal move sequences counted to a depth
:mod:`~sniff_rules.verify.strategies`               Hypothesis strategies for tiles, rules, states, moves
:mod:`~sniff_rules.verify.machine`                  :class:`~sniff_rules.verify.machine.SniffMachine`, the
                                                    reusable stateful machine whose invariants are the laws
:mod:`~sniff_rules.verify.adapter_checks`           the machine's checks of the adapter itself: what it must
                                                    refuse, with which rule, and what it must not change
:mod:`~sniff_rules.verify.contracts`                the CrossHair contracts
:mod:`~sniff_rules.verify.hypothesis_plugin`        Hypothesis's entry point: ``st.from_type(Tile)``
:mod:`sniff_rules.verify.vectors`                   the conformance vectors: reading, checking, generating
==================================================  =======================================================

Hypothesis is the ``[test]`` extra; nothing here is imported by
``import sniff_rules.verify``, so each module loads only what it needs.
"""
