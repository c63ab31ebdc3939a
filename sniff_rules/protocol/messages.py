"""The messages of the engine and bot protocol as values, read and written without I/O.

A message is one JSON object on one line of UTF-8 (``specs/protocol.md``).
:func:`encode` writes one; :func:`decode` reads one, refusing a line
longer than :data:`MAX_LINE_BYTES` (PROTO-1), text that is no JSON object
(PROTO-1) and, for a request, a ``type`` the protocol does not know or a
missing ``id`` (PROTO-2). Every refusal is a :class:`ProtocolError`
carrying its protocol id, which ``specs/protocol.md`` defines.

>>> line = encode({"id": 1, "type": "hello", "protocol": PROTOCOL})
>>> line
b'{"id":1,"type":"hello","protocol":"sniff-protocol/2"}\\n'
>>> read_request(line)["type"]
'hello'
>>> try:
...     read_request(b'{"id": 2, "type": "fly"}')
... except ProtocolError as refusal:
...     print(refusal.rule, str(refusal).rpartition(";")[2])
PROTO-2  got 'fly'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Final

from sniff_rules.errors import SniffError
from sniff_rules.formats.strict_json import JsonObject, JsonValue, load_json

PROTOCOL: Final = "sniff-protocol/2"
"""The protocol's version tag, sent in ``hello``; every change to a request or an answer gets a new number."""

FIRST_PROTOCOL: Final = "sniff-protocol/1"
"""The version before: ``next_round`` carried a state alone (PROTO-6). Every request of it is a request of
version 2, which adds only ``next_round``'s ``order`` and ``opener``, so a process of version 2 still serves
a host that speaks 1."""

SERVED_PROTOCOLS: Final = (PROTOCOL, FIRST_PROTOCOL)
"""The versions this library serves (PROTO-6): its engine and bots answer a ``hello`` naming either, and a
host seats a bot that answers either, the bot role being the same in both."""

MAX_LINE_BYTES: Final = 1 << 20
"""The longest line either side may send, its newline included (PROTO-1): a state is about 1 KB, a seat
view with a round's history some 10 KB."""

REQUEST_SECONDS: Final = 10.0
"""The default time an engine or bot has to answer one request (PROTO-3); a host may allow more."""

ENGINE_REQUESTS: Final = ("hello", "new_match", "legal_moves", "apply", "next_round", "view", "score", "settle")
"""The requests an engine answers (``specs/protocol.md``, the engine role)."""

BOT_REQUESTS: Final = ("hello", "choose")
"""The requests a bot answers (the bot role)."""

REQUESTS: Final = (*ENGINE_REQUESTS, "choose", "quit")
"""Every request type; ``quit`` asks either role to exit."""

FRAMING: Final = "PROTO-1"
SHAPE: Final = "PROTO-2"
TIME: Final = "PROTO-3"
ANSWER: Final = "PROTO-4"
PROCESS: Final = "PROTO-5"
VERSION: Final = "PROTO-6"


class ProtocolError(SniffError):
    """A message or a peer that breaks the protocol; ``rule`` is a PROTO id of ``specs/protocol.md``."""


class RequestFailure(SniffError):
    """A peer's failure on one request, which ``request`` names (``new_match #3``, ``choose #4``).

    The one base of a host's failures, so that each of them survives
    pickling whole: a worker process or a Ray task hands it back to the run
    with its type, rule, request and message.
    """

    request: str

    def __init__(self, rule: str, request: str, message: str) -> None:
        super().__init__(rule, f"{request}: {message}")
        self.request = request
        self.detail = message

    def __reduce__(self) -> tuple[type[RequestFailure], tuple[str, str, str]]:
        return type(self), (self.rule, self.request, self.detail)


def spoken_protocol(request: Mapping[str, JsonValue]) -> str:
    """The version a ``hello`` is answered in: the one it names, if this library serves it (PROTO-6).

    >>> spoken_protocol({"id": 0, "type": "hello", "protocol": "sniff-protocol/1"})
    'sniff-protocol/1'
    >>> spoken_protocol({"id": 0, "type": "hello", "protocol": "sniff-protocol/9"})
    Traceback (most recent call last):
    ...
    sniff_rules.protocol.messages.ProtocolError: PROTO-6: this process speaks sniff-protocol/2 and \
sniff-protocol/1; the hello names 'sniff-protocol/9'
    """
    named = request.get("protocol")
    if named not in SERVED_PROTOCOLS:
        raise ProtocolError(
            VERSION, f"this process speaks {' and '.join(SERVED_PROTOCOLS)}; the hello names {named!r:.40}"
        )
    assert isinstance(named, str)
    return named


def encode(message: JsonObject) -> bytes:
    """``message`` as one line: compact JSON, UTF-8, ``\\n``-terminated; refused past :data:`MAX_LINE_BYTES`."""
    line = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
    if len(line) > MAX_LINE_BYTES:
        raise ProtocolError(FRAMING, f"a message of {len(line)} bytes passes the line limit of {MAX_LINE_BYTES}")
    return line


def decode(line: bytes | str) -> JsonObject:
    """The JSON object on ``line`` (its newline optional), or a :class:`ProtocolError` (PROTO-1)."""
    raw = line.encode() if isinstance(line, str) else line
    if len(raw) > MAX_LINE_BYTES:
        raise ProtocolError(FRAMING, f"a line of {len(raw)} bytes passes the limit of {MAX_LINE_BYTES}")
    try:
        value = load_json(raw.rstrip(b"\r\n"))
    except SniffError as err:
        raise ProtocolError(FRAMING, f"a line is one JSON object: {str(err).removeprefix(err.rule + ': ')}") from None
    if not isinstance(value, dict):
        raise ProtocolError(FRAMING, f"a line is one JSON object, got {_kind(value)}")
    return value


def _kind(value: JsonValue) -> str:
    return "an array" if isinstance(value, list) else type(value).__name__


def request_id(message: Mapping[str, JsonValue]) -> int:
    """The request's ``id``: a whole number from 0, echoed by the answer (PROTO-2)."""
    number = message.get("id")
    if type(number) is not int or number < 0:
        raise ProtocolError(SHAPE, f"a request has an id, a whole number from 0; got {number!r:.40}")
    return number


def read_request(line: bytes | str) -> JsonObject:
    """The request on ``line``: an object with an ``id`` and a known ``type`` (PROTO-1, PROTO-2)."""
    message = decode(line)
    number = request_id(message)
    kind = message.get("type")
    if kind not in REQUESTS:
        raise ProtocolError(SHAPE, f"request {number}: type is one of {', '.join(REQUESTS)}; got {kind!r:.40}")
    return message


def error_answer(number: int | None, error: SniffError) -> JsonObject:
    """The answer to a request that could not be read or carried out: its rule and message."""
    return {"id": number, "error": {"rule": error.rule, "message": str(error).removeprefix(f"{error.rule}: ")}}


def refusal_answer(number: int, error: SniffError) -> JsonObject:
    """The answer to a move or a next round that the rules refuse: the rule it breaks, never an error."""
    return {"id": number, "refused": {"rule": error.rule, "message": str(error).removeprefix(f"{error.rule}: ")}}
