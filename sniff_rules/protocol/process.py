"""The host's shell: another process behind the protocol, with every limit of ``specs/protocol.md`` enforced.

:class:`Peer` starts a command, sends one request at a time and reads its
answer. Whatever the process does, a request ends within its time
(PROTO-3) with an answer or a :class:`PeerFailure` naming the request: a
line past :data:`~sniff_rules.protocol.messages.MAX_LINE_BYTES` or no JSON
object (PROTO-1), an answer to another request (PROTO-4), a process that
ends or stops reading (PROTO-5). The host's memory stays bounded: at most
one line of the answer is held, and of stderr only its last
:data:`STDERR_KEPT` bytes. :meth:`Peer.close` (and leaving the ``with``
block) always kills and reaps the process.
"""

from __future__ import annotations

import collections
import contextlib
import os
import selectors
import subprocess
import threading
import time
from collections.abc import Sequence
from types import TracebackType
from typing import Final

from sniff_rules.formats.strict_json import JsonObject
from sniff_rules.protocol.messages import (
    ANSWER,
    FRAMING,
    MAX_LINE_BYTES,
    PROCESS,
    REQUEST_SECONDS,
    TIME,
    ProtocolError,
    RequestFailure,
    decode,
    encode,
)

STDERR_KEPT: Final = 4096
"""The last bytes of a peer's stderr kept to show with a failure; the rest is read and dropped."""

_CHUNK: Final = 1 << 16


class PeerFailure(RequestFailure, ProtocolError):
    """A peer broke the protocol on a request; ``request`` names it (``new_match #3``)."""


class Peer:
    """A process speaking the protocol on its stdin and stdout; one request at a time.

    ``timeout`` is the seconds each request may take (PROTO-3). After a
    failure every later request raises the same :class:`PeerFailure`.
    """

    def __init__(self, command: Sequence[str], timeout: float = REQUEST_SECONDS) -> None:
        self.command = tuple(command)
        self.timeout = timeout
        self.failure: PeerFailure | None = None
        self.sent = 0
        self._stderr: collections.deque[bytes] = collections.deque()
        self._stderr_size = 0
        self._buffer = b""
        try:
            self._process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
        except OSError as err:
            raise PeerFailure(PROCESS, "start", f"cannot run {' '.join(self.command)!r:.200}: {err}") from None
        assert self._process.stdin is not None
        assert self._process.stdout is not None
        os.set_blocking(self._process.stdin.fileno(), False)
        os.set_blocking(self._process.stdout.fileno(), False)
        self._drain = threading.Thread(target=self._read_stderr, daemon=True)
        self._drain.start()

    def _read_stderr(self) -> None:
        # Read all of it, so that a peer flooding stderr never blocks on a full pipe; keep only the tail.
        stream = self._process.stderr
        assert stream is not None
        for chunk in iter(lambda: os.read(stream.fileno(), _CHUNK), b""):
            self._stderr.append(chunk)
            self._stderr_size += len(chunk)
            while self._stderr_size - len(self._stderr[0]) >= STDERR_KEPT:
                self._stderr_size -= len(self._stderr.popleft())

    def stderr_tail(self) -> str:
        """The last bytes the peer wrote on stderr, as text."""
        return b"".join(self._stderr)[-STDERR_KEPT:].decode(errors="replace")

    def _fail(self, rule: str, request: str, message: str) -> PeerFailure:
        tail = self.stderr_tail().strip()
        self.failure = PeerFailure(rule, request, message + (f"; its stderr ends: {tail[-400:]!r}" if tail else ""))
        self.close()
        return self.failure

    def request(self, message: JsonObject) -> JsonObject:
        """Send ``message`` (its ``id`` set here) and return the answer with the same ``id``."""
        if self.failure is not None:
            raise self.failure
        number = self.sent
        self.sent += 1
        name = f"{message.get('type')} #{number}"
        line = encode({**message, "id": number})
        deadline = time.monotonic() + self.timeout
        self._write(line, name, deadline)
        answer = decode_or_fail(self, self._read_line(name, deadline), name)
        if answer.get("id") != number:
            raise self._fail(ANSWER, name, f"the answer is to request {answer.get('id')!r:.40}, not {number}")
        return answer

    def _write(self, line: bytes, name: str, deadline: float) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        view = memoryview(line)
        with selectors.DefaultSelector() as selector:
            selector.register(stdin, selectors.EVENT_WRITE)
            while view:
                if not selector.select(max(0.0, deadline - time.monotonic())):
                    raise self._fail(TIME, name, f"did not read the request within {self.timeout:g} s")
                try:
                    written = os.write(stdin.fileno(), view)
                except BlockingIOError:
                    continue
                except (BrokenPipeError, OSError):
                    raise self._fail(PROCESS, name, f"the process ended before the request ({self._ended()})") from None
                view = view[written:]

    def _read_line(self, name: str, deadline: float) -> bytes:
        stdout = self._process.stdout
        assert stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_LINE_BYTES:
                    raise self._fail(FRAMING, name, f"the answer passes the line limit of {MAX_LINE_BYTES} bytes")
                if not selector.select(max(0.0, deadline - time.monotonic())):
                    raise self._fail(TIME, name, f"no answer within {self.timeout:g} s")
                try:
                    chunk = os.read(stdout.fileno(), _CHUNK)
                except BlockingIOError:
                    continue
                if not chunk:
                    raise self._fail(PROCESS, name, f"the process ended without an answer ({self._ended()})")
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        if len(line) >= MAX_LINE_BYTES:
            raise self._fail(FRAMING, name, f"the answer passes the line limit of {MAX_LINE_BYTES} bytes")
        return line

    def _ended(self) -> str:
        try:
            code = self._process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return "its output closed"
        return f"exit status {code}"

    def kill(self) -> None:
        """Kill the process now, from any thread, its pipes left open: a request waiting on it ends (PROTO-5).

        :meth:`close` still reaps it; call that once no request is under way.
        """
        if self._process.poll() is None:
            with contextlib.suppress(OSError):
                self._process.kill()

    def close(self) -> None:
        """Ask the peer to quit, then kill and reap it: no process outlives its host."""
        process = self._process
        if process.poll() is None and self.failure is None:
            with contextlib.suppress(OSError):
                os.write(process.stdin.fileno(), encode({"id": self.sent, "type": "quit"}))  # type: ignore[union-attr]
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=1)
        if process.poll() is None:
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()
        self._drain.join(timeout=5)
        if process.stderr is not None and not self._drain.is_alive():
            process.stderr.close()

    @property
    def returncode(self) -> int | None:
        """The process's exit status once it has been reaped, else None."""
        return self._process.returncode

    def __enter__(self) -> Peer:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


def decode_or_fail(peer: Peer, line: bytes, name: str) -> JsonObject:
    """The answer on ``line``, or the peer failed: its line is no JSON object (PROTO-1)."""
    try:
        return decode(line)
    except ProtocolError as err:
        raise peer._fail(err.rule, name, str(err).removeprefix(f"{err.rule}: ")) from None
