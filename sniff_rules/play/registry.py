"""The fair bots by name: the one list that the command line, the browser game and its page offer.

A bot's name is text a person types (``--bots greedy,search:8``) or a
page sends: ``random`` (:func:`~sniff_rules.play.bots.random_bot`),
``greedy`` (:func:`~sniff_rules.play.bots.greedy_bot`), ``search`` (a
:class:`~sniff_rules.play.search.SearchBot` of its default deals),
``search:N``, a search bot sampling N deals a decision, N from
:data:`MIN_DEALS` to :data:`MAX_DEALS`, ``ismcts`` (an
:class:`~sniff_rules.play.ismcts.ISMCTSBot` of its default iterations) or
``ismcts:N``, one of N iterations a decision, N from :data:`MIN_DEALS` to
:data:`MAX_ITERATIONS`. :func:`parse_bot` reads a name and
refuses any other with a :class:`BotNameError` (FORMAT-1: text that names
nothing); :func:`bot_policy` builds the bot as a policy of a seat's view,
for :func:`~sniff_rules.play.driver.play_match` with
``present=sniff_rules.play.view.present_seat_view``. A server's operator
may offer bots in other processes besides, by names of its own
(:class:`BotOffer`, :func:`parse_offer`): a page names them, never their
commands.

>>> parse_bot("search:8")
BotName(kind='search', deals=8, iterations=None)
>>> [choice.name for choice in BOT_CHOICES], bot_label("search:8"), bot_label("ismcts:500")
(['random', 'greedy', 'search', 'ismcts'], 'Search bot (8 deals)', 'ISMCTS bot (500 iterations)')
>>> try:
...     parse_bot("cheater")
... except BotNameError as refusal:
...     print(refusal.rule, str(refusal).split(";")[0])
FORMAT-1 FORMAT-1: 'cheater' is no bot
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from typing import Final

import attrs

from sniff_rules.errors import NotationError, described
from sniff_rules.play.bots import greedy_bot, random_bot
from sniff_rules.play.driver import Policy
from sniff_rules.play.ismcts import ISMCTSBot
from sniff_rules.play.search import SearchBot
from sniff_rules.play.view import SeatView

BOT_RULE: Final = "FORMAT-1"
"""The rule a bot's name is read by: text that names nothing is refused as malformed text."""

MIN_DEALS: Final = 1
"""The fewest deals a ``search:N`` bot samples a decision."""

MAX_DEALS: Final = 10_000
"""The most deals a ``search:N`` bot samples a decision: more would think for minutes a move."""

MAX_ITERATIONS: Final = 100_000
"""The most iterations an ``ismcts:N`` bot runs a decision: more would think for minutes a move."""

DEFAULT_BOT: Final = "greedy"
"""The bot offered first: quick, and a fair opponent."""


class BotNameError(NotationError):
    """A bot's name that names no fair bot (FORMAT-1)."""


@attrs.frozen
class BotChoice:
    """A bot offered by name: ``name`` as typed, ``label`` as a page or a seat's name shows it."""

    name: str
    label: str


BOT_CHOICES: Final = (
    BotChoice("random", "Random bot"),
    BotChoice("greedy", "Greedy bot"),
    BotChoice("search", "Search bot"),
    BotChoice("ismcts", "ISMCTS bot"),
)
"""The fair bots offered by name; ``search:N`` and ``ismcts:N`` are those bots of N deals or iterations besides."""

BOT_NAMES: Final = tuple(choice.name for choice in BOT_CHOICES)
"""The names of :data:`BOT_CHOICES`, in their order."""

_LABELS: Final = {choice.name: choice.label for choice in BOT_CHOICES}

BOT_GRAMMAR: Final = (
    f"random, greedy, search, ismcts, search:N (N deals, {MIN_DEALS} to {MAX_DEALS})"
    f" and ismcts:N (N iterations, {MIN_DEALS} to {MAX_ITERATIONS})"
)
"""The bots' names as a refusal or a help text lists them."""


@attrs.frozen
class BotName:
    """A bot's name read: its ``kind`` (one of :data:`BOT_NAMES`, or the name of a bot a
    :class:`BotOffer` offers) and, for ``search:N``, its ``deals`` or, for ``ismcts:N``, its ``iterations``."""

    kind: str
    deals: int | None = None
    iterations: int | None = None

    def __str__(self) -> str:
        count = self.deals if self.iterations is None else self.iterations
        return self.kind if count is None else f"{self.kind}:{count}"


def parse_bot(name: str) -> BotName:
    """The bot ``name`` names, spaces around it ignored; any other text raises :class:`BotNameError`."""
    if type(name) is not str:
        raise BotNameError(BOT_RULE, f"a bot's name is text, got {described(name, 40)}")
    kind, colon, deals = name.strip().partition(":")
    if kind in _LABELS and not colon:
        return BotName(kind)
    # ASCII digits only, so that no other script's numerals or a sign slip through int().
    if kind == "search" and deals.isascii() and deals.isdigit() and MIN_DEALS <= int(deals) <= MAX_DEALS:
        return BotName(kind, int(deals))
    if kind == "ismcts" and deals.isascii() and deals.isdigit() and MIN_DEALS <= int(deals) <= MAX_ITERATIONS:
        return BotName(kind, iterations=int(deals))
    raise BotNameError(BOT_RULE, f"{described(name, 40)} is no bot; the bots are {BOT_GRAMMAR}")


def bot_label(name: str) -> str:
    """How the bot ``name`` names is shown to people: ``Greedy bot``, ``Search bot (8 deals)``."""
    bot = parse_bot(name)
    label = _LABELS[bot.kind]
    if bot.iterations is not None:
        return f"{label} ({bot.iterations} iteration{'s' if bot.iterations > 1 else ''})"
    return label if bot.deals is None else f"{label} ({bot.deals} deal{'s' if bot.deals > 1 else ''})"


def bot_policy(name: str) -> Policy[SeatView]:
    """The fair bot ``name`` names, a policy of a seat's view and a source (see :func:`parse_bot`).

    The name of a bot an operator offers (:func:`is_offered_name`) is refused
    too: only its server runs its process, and passes its policy in.
    """
    if type(name) is str and is_offered_name(name):
        raise BotNameError(
            BOT_RULE, f"{name.strip()!r} is a bot its server runs as a process: the server passes in its policy"
        )
    bot = parse_bot(name)
    if bot.kind == "random":
        return random_bot
    if bot.kind == "greedy":
        return greedy_bot
    if bot.kind == "ismcts":
        return ISMCTSBot() if bot.iterations is None else ISMCTSBot(iterations=bot.iterations)
    return SearchBot() if bot.deals is None else SearchBot(deals=bot.deals)


# ---------------------------------------------------------------- bots the operator offers

OFFER_RULE: Final = "FORMAT-1"
"""The rule an operator's offer (``NAME=COMMAND``) is read by: text that names no bot is malformed."""

MAX_OFFERED: Final = 16
"""The most bot processes one server offers."""

_OFFER_NAME: Final = re.compile(r"[a-z][a-z0-9-]{0,31}")
_RESERVED: Final = frozenset({*BOT_NAMES, "cmd", "person", "you"})


@attrs.frozen
class OfferedBot:
    """A bot in another process that the server's operator offers by ``name``: ``command`` runs it
    (a process speaking ``specs/protocol.md``), ``label`` is how a page shows it."""

    name: str = attrs.field(validator=lambda _i, _a, v: _check_text(v, "an offered bot's name"))
    command: tuple[str, ...] = attrs.field(validator=lambda _i, _a, v: _check_command(v))
    label: str = attrs.field(validator=lambda _i, _a, v: _check_text(v, "an offered bot's label"))


def is_offered_name(name: str) -> bool:
    """Whether ``name`` is spelled as an offered bot's (see :func:`parse_offer`), not a fair bot's.

    A table stores an offered bot's seat by this name alone; which command
    runs it is its server's (:class:`BotOffer`), never the table's.

    >>> is_offered_name("strong"), is_offered_name("greedy"), is_offered_name("cmd:./x")
    (True, False, False)
    """
    return _OFFER_NAME.fullmatch(name.strip()) is not None and name.strip() not in _RESERVED


def offered_label(name: str) -> str:
    """How a page shows the offered bot ``name``: ``strong (bot process)``."""
    return f"{name.strip()} (bot process)"


def seat_label(name: str) -> str:
    """How a seat's bot is shown: :func:`bot_label` for a fair bot, :func:`offered_label` for an offered one."""
    return offered_label(name) if is_offered_name(name) else bot_label(name)


def check_seat_bot(name: str) -> BotName:
    """The bot a table's seat names: a fair bot (:func:`parse_bot`) or one spelled as an offered bot's."""
    if type(name) is str and is_offered_name(name):
        return BotName(name.strip())
    return parse_bot(name)


def _check_text(value: object, what: str) -> None:
    if type(value) is not str:
        raise BotNameError("FORMAT-3", f"{what} is a str, got {type(value).__name__}")


def _check_command(command: object) -> None:
    # A tuple, never a list: the offer is a frozen value a server shares between its tasks.
    if type(command) is not tuple or not command or any(type(part) is not str for part in command):
        raise BotNameError(
            "FORMAT-3", f"an offered bot's command is a non-empty tuple of str, got {type(command).__name__}"
        )


def parse_offer(text: str) -> OfferedBot:
    """The offer ``NAME=COMMAND [ARGS...]`` an operator writes (``serve --bot strong=./my-bot --level 3``).

    ``NAME`` is 1 to 32 of ``a-z``, ``0-9`` and ``-``, starting with a letter,
    and no name of :data:`BOT_NAMES` (nor ``cmd``, ``person``, ``you``), so
    that an offer never shadows a fair bot; the command is split as a shell
    would split it. Anything else is refused with :class:`BotNameError`
    (FORMAT-1).

    >>> parse_offer("strong=./my-bot --level 3")
    OfferedBot(name='strong', command=('./my-bot', '--level', '3'), label='strong (bot process)')
    """
    if type(text) is not str:
        raise BotNameError(OFFER_RULE, f"an offer is text, NAME=COMMAND; got {text!r:.40}")
    name, equals, command_text = text.partition("=")
    name = name.strip()
    if not equals or not _OFFER_NAME.fullmatch(name) or name in _RESERVED:
        raise BotNameError(
            OFFER_RULE,
            f"{text!r:.60} is no offer: write NAME=COMMAND, NAME 1-32 of a-z 0-9 - starting with a letter,"
            f" and none of {', '.join(sorted(_RESERVED))}",
        )
    try:
        command = tuple(shlex.split(command_text))
    except ValueError as err:
        raise BotNameError(OFFER_RULE, f"the command of {name!r} cannot be split: {err}") from None
    if not command:
        raise BotNameError(OFFER_RULE, f"the offer {name!r} names no command; write {name}=COMMAND [ARGS...]")
    return OfferedBot(name, command, offered_label(name))


def _check_offers(_instance: object, _attribute: object, bots: tuple[OfferedBot, ...]) -> None:
    if type(bots) is not tuple or any(type(bot) is not OfferedBot for bot in bots):
        raise BotNameError("FORMAT-3", f"offers are a tuple of OfferedBot, got {type(bots).__name__}")
    names = [bot.name for bot in bots]
    if len(set(names)) != len(names) or len(names) > MAX_OFFERED:
        raise BotNameError(OFFER_RULE, f"at most {MAX_OFFERED} offers, each name once; got {names!r:.200}")


@attrs.frozen
class BotOffer:
    """The bots a server seats by name: the fair bots and the operator's :class:`OfferedBot` processes.

    A name a page sends is read by :meth:`parse`: a fair bot's or an offered
    one's, never a command, so a visitor chooses among the bots the operator
    started the server with and can run nothing else. The command of an
    offered name is for the server alone (:meth:`command_of`).

    >>> offer = BotOffer.of(["strong=./my-bot --level 3"])
    >>> [choice.name for choice in offer.choices], offer.command_of("strong")
    (['random', 'greedy', 'search', 'ismcts', 'strong'], ('./my-bot', '--level', '3'))
    >>> offer.parse("cmd:./anything")
    Traceback (most recent call last):
    ...
    sniff_rules.play.registry.BotNameError: FORMAT-1: 'cmd:./anything' is no bot; the bots are random, greedy, \
search, ismcts, search:N (N deals, 1 to 10000) and ismcts:N (N iterations, 1 to 100000), strong
    """

    offered: tuple[OfferedBot, ...] = attrs.field(default=(), validator=_check_offers)

    @classmethod
    def of(cls, offers: Sequence[str]) -> BotOffer:
        """The offer of the operator's ``NAME=COMMAND`` texts (see :func:`parse_offer`)."""
        if isinstance(offers, str):
            raise BotNameError(OFFER_RULE, "offers are a sequence of NAME=COMMAND texts, not one text")
        return cls(tuple(parse_offer(text) for text in offers))

    @property
    def choices(self) -> tuple[BotChoice, ...]:
        """Every bot offered by name, the fair bots first, for a lobby to list."""
        return (*BOT_CHOICES, *(BotChoice(bot.name, bot.label) for bot in self.offered))

    def parse(self, name: str) -> BotName:
        """The bot ``name`` names: a fair bot (:func:`parse_bot`) or an offered one; anything else is refused."""
        for bot in self.offered:
            if type(name) is str and name.strip() == bot.name:
                return BotName(bot.name)
        try:
            return parse_bot(name)
        except BotNameError:
            if not self.offered:
                raise
            names = ", ".join(bot.name for bot in self.offered)
            raise BotNameError(BOT_RULE, f"{name!r:.40} is no bot; the bots are {BOT_GRAMMAR}, {names}") from None

    def command_of(self, name: str) -> tuple[str, ...] | None:
        """The command an offered ``name`` runs, or None for a fair bot's name; other names are refused."""
        bot = self.parse(name)
        return next((offered.command for offered in self.offered if offered.name == bot.kind), None)

    def label(self, name: str) -> str:
        """How the bot ``name`` is shown: :func:`bot_label`, or the offered bot's label."""
        bot = self.parse(name)
        offered = next((offered for offered in self.offered if offered.name == bot.kind), None)
        return bot_label(name) if offered is None else offered.label
