"""The conformance vectors: finding and reading the files, checking an engine against them, generating them.

====================================================  =======================================================
:mod:`~sniff_rules.verify.vectors.files`              finding and reading vector files, a verdict for each
:mod:`~sniff_rules.verify.vectors.conformance`        the runner: every shipped file, each checked by its kind
:mod:`~sniff_rules.verify.vectors.checks`             the checkers of the randomness, refusal and tally files
:mod:`~sniff_rules.verify.vectors.recorded_play`      the recorded-play policy and the facts of a move line
:mod:`~sniff_rules.verify.vectors.generate`           regenerating perft, randomness and recorded play
:mod:`~sniff_rules.verify.vectors.random_vectors`     the randomness vectors' generator
:mod:`~sniff_rules.verify.vectors.geometry_vectors`   the geometry vectors: generated and checked
:mod:`~sniff_rules.verify.vectors.limit_vectors`      the checker of the limits file
====================================================  =======================================================

The files themselves ship as the data package ``sniff_rules.vectors``
(``specs/vectors/`` in the repository).
"""
