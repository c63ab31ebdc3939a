"""Many matches between the fair bots, and how each bot did: ``sniff-rules simulate``.

A :class:`Simulation` names the rules, a lineup of bots (one per side),
a seed and a number of matches. Match ``i`` is dealt by
``new_match(rules, seed=seed + i)`` and its bots draw from
``SplitMix64.from_seed(seed + i + POLICY_SEED_OFFSET)``, so every match
can be replayed alone from its seed; it is played by
:func:`sniff_rules.play.driver.play_match`, each seat handed its view
(:func:`~sniff_rules.play.view.present_seat_view`). The lineup turns with the
match: in match ``i`` side ``s`` is played by lineup entry
``(s + i) % sides``, so each entry plays each seat equally often.

Because a match depends on its index alone, :func:`run` gives the same
outcomes whether the matches are played in this process, over local worker
processes (``workers``) or on a Ray cluster (``ray_address``, the
optional ``[ray]`` extra); the outcomes come back in match order. A
``cmd:`` bot is a process per seat and match, started where the match is
played, so each worker runs its own; a refusal it causes (the protocol
broken, a move not offered) comes back from the worker as the same rule and
message and stops the run.

>>> simulation = Simulation(Rules(2, 7, 50), ("greedy", "random"), seed=1, matches=4)
>>> summary = run(simulation)
>>> [row.bot for row in summary.rows], sum(row.wins for row in summary.rows)
(['greedy', 'random'], 4)
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final

import attrs

from sniff_rules._fast import is_tuple
from sniff_rules.errors import InvalidStateError, SniffError
from sniff_rules.formats.strict_json import JsonObject, JsonValue
from sniff_rules.play.driver import Policy, play_match
from sniff_rules.play.registry import bot_policy, parse_bot
from sniff_rules.play.view import SeatView, present_seat_view
from sniff_rules.protocol.bot_process import ProcessBot, command_of, is_command_bot
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import new_match
from sniff_rules.verify.vectors.recorded_play import POLICY_SEED_OFFSET

SIMULATION_FORMAT: Final = "sniff-rules/simulation@1"
"""The ``format`` tag of a simulation's JSON."""

Z95: Final = 1.959964
"""The standard normal quantile of a two-sided 95% interval."""


class SimulationError(InvalidStateError):
    """A lineup of the wrong length for the sides of its rules (SETUP-2), or a bad count of matches (FORMAT-3).

    A name that is no bot is refused by the registry, :class:`~sniff_rules.play.registry.BotNameError` (FORMAT-1).
    """


def lineup_for(rules: Rules, names: Sequence[str]) -> tuple[str, ...]:
    """One bot name per side from ``names``: one name for every side, or one per side.

    At four players, one name per seat is accepted too when partners are the same bot. A name that
    is no bot raises :class:`~sniff_rules.play.registry.BotNameError`, a count that fits no lineup
    :class:`SimulationError`.
    """
    names = tuple(name.strip() for name in names)
    for name in names:
        if is_command_bot(name):
            command_of(name)
        else:
            parse_bot(name)
    if len(names) == 1:
        return names * rules.sides
    if len(names) == rules.sides:
        return names
    if len(names) == rules.players and all(names[seat] == names[seat % rules.sides] for seat in range(rules.players)):
        return names[: rules.sides]
    seats = (
        f", or one per seat ({rules.players}) with partners the same bot (seats 0 and 2, 1 and 3)"
        if rules.partnerships
        else ""
    )
    raise SimulationError(
        "SETUP-2",
        f"{rules.players} players need one bot for all, or one per side ({rules.sides}){seats}; got {len(names)}: "
        + ",".join(names),
    )


def _check_lineup(instance: Simulation, _attribute: object, bots: tuple[str, ...]) -> None:
    if type(bots) is not tuple or lineup_for(instance.rules, bots) != bots:
        raise SimulationError("SETUP-2", f"a simulation's lineup has one bot per side, got {bots!r:.200}")


def _check_count(_instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or value < 0:
        raise SimulationError("FORMAT-3", f"{attribute.name} is an int from 0, got {value!r:.40}")


@attrs.frozen
class Simulation:
    """``matches`` matches under ``rules`` between the lineup ``bots`` (one per side), from ``seed``."""

    rules: Rules
    bots: tuple[str, ...] = attrs.field(validator=_check_lineup)
    seed: int = attrs.field(default=1, validator=attrs.validators.instance_of(int))
    matches: int = attrs.field(default=100, validator=_check_count)

    def match_seed(self, index: int) -> int:
        """The seed that deals match ``index``."""
        return self.seed + index

    def entry_of_side(self, index: int, side: int) -> int:
        """The lineup entry playing ``side`` in match ``index``: the lineup turns with the match."""
        return (side + index) % self.rules.sides


@attrs.frozen
class MatchOutcome:
    """How match ``index`` ended: the lineup entry that won, its length, each entry's final score."""

    index: int
    seed: int
    winner: int
    rounds: int
    scores: tuple[int, ...] = attrs.field(validator=is_tuple)


def play_one(simulation: Simulation, index: int) -> MatchOutcome:
    """Play match ``index`` of ``simulation`` through :func:`~sniff_rules.play.driver.play_match`."""
    rules = simulation.rules
    seed = simulation.match_seed(index)
    entries = [simulation.entry_of_side(index, rules.side_of(seat)) for seat in range(rules.players)]
    with contextlib.ExitStack() as processes:
        # A cmd: bot is a process per seat for the match, ended and reaped when the match is over.
        shared = {name: bot_policy(name) for name in set(simulation.bots) if not is_command_bot(name)}
        seated: list[Policy[SeatView]] = [
            shared[name] if name in shared else processes.enter_context(ProcessBot(command_of(name)))
            for name in (simulation.bots[entry] for entry in entries)
        ]
        state = new_match(rules, seed=seed)
        source = SplitMix64.from_seed(seed + POLICY_SEED_OFFSET)
        for step in play_match(state, seated, source, present=present_seat_view):
            state = step.state
    assert state.winner is not None
    scores = [0] * rules.sides
    for side, score in enumerate(state.scores):
        scores[simulation.entry_of_side(index, side)] = score
    return MatchOutcome(index, seed, simulation.entry_of_side(index, state.winner), state.round_number, tuple(scores))


def _play_chunk(task: tuple[Simulation, int, int]) -> list[MatchOutcome]:
    """Matches ``start`` to ``stop`` of a simulation: the unit of work of a worker process or a Ray task."""
    simulation, start, stop = task
    return [play_one(simulation, index) for index in range(start, stop)]


def chunks_of(simulation: Simulation, workers: int) -> list[tuple[Simulation, int, int]]:
    """The matches cut into runs of consecutive indices, about eight a worker, at most 50 matches each."""
    size = max(1, min(50, simulation.matches // (8 * max(1, workers))))
    return [(simulation, start, min(start + size, simulation.matches)) for start in range(0, simulation.matches, size)]


def outcomes(
    simulation: Simulation,
    workers: int = 1,
    ray_address: str | None = None,
    advance: Callable[[int], object] | None = None,
) -> Iterator[MatchOutcome]:
    """Every match's outcome in match order, played here, over ``workers`` processes, or on Ray.

    ``advance`` is told how many matches each finished chunk held (a progress bar).
    """
    tasks = chunks_of(simulation, workers)
    if ray_address is not None:
        from sniff_rules.cli.simulate_ray import ray_chunks

        chunked: Iterator[list[MatchOutcome]] = ray_chunks(_play_chunk, tasks, ray_address, workers)
    elif workers > 1:
        chunked = _pooled(tasks, workers)
    else:
        chunked = map(_play_chunk, tasks)
    for chunk in chunked:
        if advance is not None:
            advance(len(chunk))
        yield from chunk


@attrs.frozen
class _Refused:
    """A refusal raised in a worker, carried back as data: an exception's pickle calls its class
    with ``args`` alone, which a :class:`SniffError` (rule and message) does not take."""

    rule: str
    message: str


def _pooled_chunk(task: tuple[Simulation, int, int]) -> list[MatchOutcome] | _Refused:
    try:
        return _play_chunk(task)
    except SniffError as refusal:
        return _Refused(refusal.rule, str(refusal).removeprefix(f"{refusal.rule}: "))


def _pooled(tasks: list[tuple[Simulation, int, int]], workers: int) -> Iterator[list[MatchOutcome]]:
    with ProcessPoolExecutor(workers) as pool:
        for chunk in pool.map(_pooled_chunk, tasks):
            if isinstance(chunk, _Refused):
                # The chunks not yet started are dropped, so the run stops as soon as the running ones end.
                pool.shutdown(cancel_futures=True)
                raise SniffError(chunk.rule, chunk.message)
            yield chunk


# ---------------------------------------------------------------- the summary


def wilson(wins: int, matches: int) -> tuple[float, float]:
    """Wilson's 95% score interval for a rate of ``wins`` in ``matches``.

    >>> [round(bound, 3) for bound in wilson(8, 10)]
    [0.49, 0.943]
    """
    if matches == 0:
        return 0.0, 1.0
    rate = wins / matches
    spread = Z95 * math.sqrt(rate * (1 - rate) / matches + Z95**2 / (4 * matches**2))
    middle = rate + Z95**2 / (2 * matches)
    scale = 1 + Z95**2 / matches
    return max(0.0, (middle - spread) / scale), min(1.0, (middle + spread) / scale)


@attrs.frozen
class BotRow:
    """How lineup entry ``entry`` (bot ``bot``) did: matches won, the 95% interval, points a round."""

    entry: int
    bot: str
    wins: int
    matches: int
    interval: tuple[float, float] = attrs.field(validator=is_tuple)
    points_per_round: float

    @property
    def win_rate(self) -> float:
        """The share of matches won."""
        return self.wins / self.matches if self.matches else 0.0


@attrs.frozen
class Summary:
    """A simulation's result: a row per lineup entry, the mean match length and every outcome."""

    simulation: Simulation
    rows: tuple[BotRow, ...] = attrs.field(validator=is_tuple)
    mean_rounds: float
    outcomes: tuple[MatchOutcome, ...] = attrs.field(validator=is_tuple)

    @property
    def even_rate(self) -> float:
        """The win rate of a bot no better than the others: one in as many as there are sides."""
        return 1 / self.simulation.rules.sides


def summarize(simulation: Simulation, played: Sequence[MatchOutcome]) -> Summary:
    """The rows and means of ``played``, the outcomes of ``simulation``'s matches."""
    rounds = sum(outcome.rounds for outcome in played)
    rows = []
    for entry, bot in enumerate(simulation.bots):
        wins = sum(outcome.winner == entry for outcome in played)
        points = sum(outcome.scores[entry] for outcome in played)
        rows.append(
            BotRow(entry, bot, wins, len(played), wilson(wins, len(played)), points / rounds if rounds else 0.0)
        )
    return Summary(simulation, tuple(rows), rounds / len(played) if played else 0.0, tuple(played))


def run(
    simulation: Simulation,
    workers: int = 1,
    ray_address: str | None = None,
    advance: Callable[[int], object] | None = None,
) -> Summary:
    """Play every match of ``simulation`` (see :func:`outcomes`) and summarize them."""
    return summarize(simulation, list(outcomes(simulation, workers, ray_address, advance)))


def _percent(rate: float) -> str:
    return f"{rate * 100:.1f}%"


def table(summary: Summary) -> str:
    """The summary as a text table, one row per lineup entry, and a line of totals."""
    simulation = summary.simulation
    rules = simulation.rules
    label = "side" if rules.partnerships else "seat"
    head = (
        f"{simulation.matches} matches, {rules.players} players, target {rules.target},"
        f" seeds {simulation.seed}..{simulation.seed + simulation.matches - 1}; the lineup turns round the {label}s"
    )
    # The bot column is as wide as its longest name, whole: a cmd: bot's command is its name, and two may
    # differ only at their ends. The entry numbers take one width too, past nine entries.
    number = len(str(len(summary.rows)))
    width = max([11, *(len(row.bot) for row in summary.rows)])
    lines = [head, f"{'bot':<{number + 2 + width}} {'won':>11} {'rate':>7}  {'95% interval':<17} {'points/round':>12}"]
    for row in summary.rows:
        low, high = row.interval
        lines.append(
            f"{f'{row.entry + 1}.':<{number + 1}} {row.bot:<{width}} {f'{row.wins}/{row.matches}':>11}"
            f" {_percent(row.win_rate):>7}  {_percent(low) + ' - ' + _percent(high):<17} {row.points_per_round:>12.1f}"
        )
    lines.append(f"an even result: {_percent(summary.even_rate)}; a match lasts {summary.mean_rounds:.2f} rounds")
    return "\n".join(lines) + "\n"


def summary_to_data(summary: Summary) -> JsonObject:
    """The summary as a JSON object: the simulation, the rows and every match's outcome."""
    simulation = summary.simulation
    rows: list[JsonValue] = [
        {
            "bot": row.bot,
            "wins": row.wins,
            "matches": row.matches,
            "win_rate": row.win_rate,
            "interval": list(row.interval),
            "points_per_round": row.points_per_round,
        }
        for row in summary.rows
    ]
    played: list[JsonValue] = [
        {"seed": outcome.seed, "winner": outcome.winner, "rounds": outcome.rounds, "scores": list(outcome.scores)}
        for outcome in summary.outcomes
    ]
    rules: dict[str, Any] = {
        "players": simulation.rules.players,
        "hand_size": simulation.rules.hand_size,
        "target": simulation.rules.target,
    }
    return {
        "format": SIMULATION_FORMAT,
        "rules": rules,
        "bots": list(simulation.bots),
        "seed": simulation.seed,
        "matches": simulation.matches,
        "policy_seed_offset": POLICY_SEED_OFFSET,
        "even_rate": summary.even_rate,
        "mean_rounds": summary.mean_rounds,
        "rows": rows,
        "outcomes": played,
    }
