"""The server's shell: this library's engine or a fair bot answering on stdin and stdout.

Reads one line at a time, at most :data:`~sniff_rules.protocol.messages.MAX_LINE_BYTES`
of it held (a longer line is read to its end, dropped and answered with a
PROTO-1 error), answers it with :func:`sniff_rules.protocol.engine.handle`
or :func:`sniff_rules.protocol.bot.handle_bot`, and ends on ``quit`` or at
the end of its input. Nothing else is written on stdout.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import BinaryIO

from sniff_rules.errors import SniffError
from sniff_rules.formats.strict_json import JsonObject
from sniff_rules.protocol.bot import bot_source, handle_bot
from sniff_rules.protocol.engine import handle
from sniff_rules.protocol.messages import (
    FRAMING,
    MAX_LINE_BYTES,
    ProtocolError,
    decode,
    encode,
    error_answer,
    read_request,
    request_id,
)
from sniff_rules.randomness import RandomSource


def _lines(read: BinaryIO) -> Iterator[bytes | None]:
    """Each line of ``read``, or None for a line past the limit (read to its end and dropped)."""
    while True:
        line = read.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while (rest := read.readline(MAX_LINE_BYTES)) and not rest.endswith(b"\n"):
                pass
            yield None
            continue
        yield line


def _serve(read: BinaryIO, write: BinaryIO, answer: Callable[[JsonObject], JsonObject]) -> int:
    for line in _lines(read):
        if line is None:
            reply = error_answer(None, ProtocolError(FRAMING, f"a line passes the limit of {MAX_LINE_BYTES} bytes"))
        elif not line.strip():
            continue
        else:
            try:
                request = read_request(line)
            except SniffError as error:
                try:
                    number: int | None = request_id(decode(line))
                except SniffError:
                    number = None
                reply = error_answer(number, error)
            else:
                reply = answer(request)
        write.write(encode(reply))
        write.flush()
        if reply.get("bye") is True:
            return 0
    return 0


def serve_engine(read: BinaryIO, write: BinaryIO) -> int:
    """Serve this library's engine until ``quit`` or the end of ``read``; the exit status (0)."""
    return _serve(read, write, handle)


def serve_bot(bot: str, seed: int, read: BinaryIO, write: BinaryIO) -> int:
    """Serve the fair bot ``bot`` (drawing from a source seeded by ``seed``) until ``quit`` or the end of ``read``."""
    source: list[RandomSource] = [bot_source(seed)]

    def answer(request: JsonObject) -> JsonObject:
        reply, source[0] = handle_bot(request, bot, source[0])
        return reply

    return _serve(read, write, answer)
