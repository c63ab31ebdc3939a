"""A bot in another process, seated as a policy: ``cmd:COMMAND`` in a lineup of bots.

:class:`ProcessBot` is a policy of a seat's view for
:func:`sniff_rules.play.driver.play_match` (with
``present=sniff_rules.play.view.present_seat_view``): each decision sends
the bot ``choose`` with the seat's view as data — never another hand, the
boneyard or the source — and reads back one of its options. As
``specs/protocol.md`` states, a bot that answers late (PROTO-3), garbles
(PROTO-1), ends (PROTO-5) or answers a move not among its options (FORMAT-1
for text that is no move, TURN-1 for another seat's move, PLACE-1 for any
other) stops the match with a :class:`~sniff_rules.errors.SniffError`
naming the seat, the request and the rule; no move is made for it.

:class:`BotProcesses` is the server's side of the bots its operator offers
by name (:class:`~sniff_rules.play.registry.BotOffer`): a page names a bot,
never a command, and the server asks :meth:`BotProcesses.policy` for the
seat's policy — a fair bot, or the offered bot's process, started once for
its seat and ended with it.
"""

from __future__ import annotations

import shlex
from collections.abc import Hashable
from types import TracebackType
from typing import Final

from sniff_rules.errors import IllegalMoveError, NotationError, SniffError
from sniff_rules.formats.notation import parse_move
from sniff_rules.formats.view_json import seat_view_to_data
from sniff_rules.moves import Move
from sniff_rules.play.driver import Policy
from sniff_rules.play.registry import BotOffer, bot_policy
from sniff_rules.play.view import SeatView
from sniff_rules.protocol.messages import (
    ANSWER,
    FRAMING,
    PROCESS,
    PROTOCOL,
    REQUEST_SECONDS,
    SERVED_PROTOCOLS,
    SHAPE,
    TIME,
    VERSION,
    RequestFailure,
)
from sniff_rules.protocol.process import Peer, PeerFailure
from sniff_rules.randomness import RandomSource

COMMAND_PREFIX: Final = "cmd:"
"""How a lineup names a bot in another process: ``cmd:./my-bot --level 3``."""


def is_command_bot(name: str) -> bool:
    """Whether the bot ``name`` is a process, ``cmd:COMMAND``."""
    return name.strip().startswith(COMMAND_PREFIX)


def command_of(name: str) -> list[str]:
    """The command line a ``cmd:`` bot name runs, split as a shell would; an empty one is refused (FORMAT-1)."""
    command = shlex.split(name.strip().removeprefix(COMMAND_PREFIX))
    if not command:
        raise NotationError("FORMAT-1", f"{name!r:.40} names no command; write cmd:COMMAND [ARGS...]")
    return command


class BotAnswerError(RequestFailure, IllegalMoveError):
    """A bot's answer that is no move among its options; ``request`` names the request (``choose #3``)."""


_PUBLIC_REASONS: Final = {
    FRAMING: "its answer was no JSON object on one line within the line limit",
    SHAPE: "its answer was not shaped as the protocol states",
    TIME: "no answer within the time a request may take",
    ANSWER: "it answered another request",
    PROCESS: "its process ended or stopped reading",
    VERSION: "it speaks a version of the protocol this host does not",
    "FORMAT-1": "it answered no move",
    "TURN-1": "it answered another seat's move",
    "PLACE-1": "it answered a move not among its options",
}


def failure_line(who: str, failure: SniffError, *, public: bool = False) -> str:
    """The one line telling that the bot of ``who`` (``seat 1 (strong)``) stopped the match: its rule and request.

    With ``public``, for the other seats of a served table, the line says
    what went wrong in the protocol's own words and quotes nothing the bot
    wrote (its stderr, its answer), which could hold its hand.

    >>> failure_line("seat 1 (strong)", BotAnswerError("TURN-1", "choose #4", "it answered '0:draw'"), public=True)
    "The bot of seat 1 (strong) stopped the match (TURN-1): choose #4: it answered another seat's move. \
No move was made for it."
    """
    if public:
        request = failure.request if isinstance(failure, RequestFailure) else "choose"
        said = f"{request}: {_PUBLIC_REASONS.get(failure.rule, 'it broke the protocol')}"
    else:
        said = str(failure).removeprefix(f"{failure.rule}: ")
    return f"The bot of {who} stopped the match ({failure.rule}): {said}. No move was made for it."


class ProcessBot:
    """The bot that ``command`` runs, as a policy; close it (or use ``with``) to end the process."""

    def __init__(self, command: list[str], timeout: float = REQUEST_SECONDS) -> None:
        self.peer = Peer(command, timeout=timeout)
        spoken = self.peer.request({"type": "hello", "protocol": PROTOCOL}).get("protocol")
        if spoken not in SERVED_PROTOCOLS:
            # The bot role is the same in every version served, so a bot of version 1 is still seated.
            self.peer.close()
            raise PeerFailure(
                VERSION,
                "hello #0",
                f"the bot speaks {spoken!r:.40}; a host seats a bot of {' or '.join(SERVED_PROTOCOLS)}",
            )

    def __call__(self, view: SeatView, source: RandomSource) -> tuple[Move, RandomSource]:
        """The bot's move for ``view``, checked against its options; ``source`` is the host's, passed on untouched."""
        request = f"choose #{self.peer.sent}"
        answer = self.peer.request({"type": "choose", "view": seat_view_to_data(view)})
        text = answer.get("move")
        if not isinstance(text, str):
            raise BotAnswerError("FORMAT-1", request, f"the bot of seat {view.seat} answered no move: {answer!s:.200}")
        try:
            move = parse_move(text)
        except NotationError:
            raise BotAnswerError(
                "FORMAT-1", request, f"the bot of seat {view.seat} answered {text!r:.40}, which is no move"
            ) from None
        if move not in view.legal_moves:
            rule = "TURN-1" if move.seat != view.seat else "PLACE-1"
            raise BotAnswerError(
                rule, request, f"the bot of seat {view.seat} answered {text!r:.40}, not among its options"
            )
        return move, source

    def close(self) -> None:
        """End and reap the bot's process."""
        self.peer.close()

    def __enter__(self) -> ProcessBot:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


class BotProcesses:
    """The policies of seats named by a page among ``offer``'s bots; one process per offered seat.

    ``policy(key, name)`` reads ``name`` as :meth:`BotOffer.parse` does (a
    command is refused, FORMAT-1) and returns the fair bot's policy, or the
    process of the offered bot for ``key`` (a table's seat, say), started on
    first use with ``timeout`` seconds a request. :meth:`close` ends one
    key's process, :meth:`close_all` (or leaving ``with``) every one: none
    outlives its server.
    """

    def __init__(self, offer: BotOffer, timeout: float = REQUEST_SECONDS) -> None:
        self.offer = offer
        self.timeout = timeout
        self._running: dict[Hashable, ProcessBot] = {}

    def policy(self, key: Hashable, name: str) -> Policy[SeatView]:
        """The policy that plays ``name`` at ``key``: a fair bot, or the offered bot's process for ``key``."""
        command = self.offer.command_of(name)
        if command is None:
            return bot_policy(name)
        running = self._running.get(key)
        if running is None or running.peer.command != command or running.peer.failure is not None:
            if running is not None:
                running.close()
            running = self._running[key] = ProcessBot(list(command), timeout=self.timeout)
        return running

    @property
    def running(self) -> int:
        """How many bot processes are running."""
        return len(self._running)

    def kill(self, key: Hashable) -> None:
        """Kill the process of ``key`` now, from any thread (see :meth:`Peer.kill`); :meth:`close` reaps it."""
        running = self._running.get(key)
        if running is not None:
            running.peer.kill()

    def close(self, key: Hashable) -> None:
        """End and reap the process of ``key``, if it has one."""
        running = self._running.pop(key, None)
        if running is not None:
            running.close()

    def close_all(self) -> None:
        """End and reap every process."""
        for key in list(self._running):
            self.close(key)

    def __enter__(self) -> BotProcesses:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close_all()
