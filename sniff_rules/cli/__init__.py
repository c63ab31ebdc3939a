"""The ``sniff-rules`` command: play, simulate, replay, demo, serve, conform and vectors.

:func:`sniff_rules.cli.commands.main` is the entry point; each command
has its module here.
"""
