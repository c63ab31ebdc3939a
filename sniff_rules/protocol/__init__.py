"""The engine and bot protocol (``specs/protocol.md``): JSON lines between processes, sans I/O.

:mod:`~sniff_rules.protocol.messages` reads and writes the lines,
:mod:`~sniff_rules.protocol.engine` answers an engine's requests and
:mod:`~sniff_rules.protocol.bot` a bot's, each a pure function of a request;
:mod:`~sniff_rules.protocol.process` and :mod:`~sniff_rules.protocol.serve`
are the thin shells that run another process or serve this library on
stdin and stdout.
"""
