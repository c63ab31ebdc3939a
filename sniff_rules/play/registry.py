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
``present=sniff_rules.play.view.present_seat_view``.

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
    """A bot's name read: its ``kind`` (one of :data:`BOT_NAMES`) and, for ``search:N``, its ``deals``
    or, for ``ismcts:N``, its ``iterations``."""

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
    """The fair bot ``name`` names, a policy of a seat's view and a source (see :func:`parse_bot`)."""
    bot = parse_bot(name)
    if bot.kind == "random":
        return random_bot
    if bot.kind == "greedy":
        return greedy_bot
    if bot.kind == "ismcts":
        return ISMCTSBot() if bot.iterations is None else ISMCTSBot(iterations=bot.iterations)
    return SearchBot() if bot.deals is None else SearchBot(deals=bot.deals)
