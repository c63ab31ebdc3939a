"""No refusal shows a secret (SETUP-6): every refusal path of the bots, the sampler, the table,
the adapters and the readers, provoked with a full state, names no hidden tile, in any written
form, and not the random source's state."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import attrs
import pytest

from sniff_rules.errors import SniffError, described
from sniff_rules.formats.notation import parse_typed_move
from sniff_rules.formats.record_json import record_from_json
from sniff_rules.formats.state_json import state_from_data, state_to_data
from sniff_rules.formats.table_json import table_from_data, table_to_data
from sniff_rules.moves import Place, apply, legal_moves
from sniff_rules.play.bots import greedy_bot, greedy_move, play_out, random_bot, random_move
from sniff_rules.play.deal_masks import MaskSampler
from sniff_rules.play.events import Dealt, Event, apply_with_events
from sniff_rules.play.ismcts import ISMCTSBot
from sniff_rules.play.sampler import DealSampler, SampledDeal
from sniff_rules.play.search import SearchBot
from sniff_rules.play.table import Table
from sniff_rules.play.view import SeatView, seat_view
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match
from sniff_rules.tiles import DOUBLE_SIX, Tile

TOKEN = "token-of-seat-0-abcdefgh"
"""The one person's token at the table the tests sit at."""


def _forms(tile: Tile) -> tuple[str, ...]:
    """Every way the library writes a tile: notation, typed, repr, JSON, either way round."""
    a, b = tile.low, tile.high
    return (
        f"[{a}|{b}]",
        f"[{b}|{a}]",
        f"{a}-{b}",
        f"{b}-{a}",
        f"Tile({a}, {b})",
        f"[{a}, {b}]",
        f"[{a},{b}]",
        f"{a}|{b}",
        f"{b}|{a}",
    )


def _source_forms(source: SplitMix64) -> tuple[str, ...]:
    """The source's state as its repr, its decimal and its JSON hex."""
    return (repr(source), str(source.state), f"{source.state:016x}")


def _played(players: int, seed: int, moves: int) -> tuple[State, list[Event]]:
    """A state ``moves`` greedy moves into a round, with its round's events so far."""
    state = new_match(Rules.standard(players), seed=seed)
    events: list[Event] = [Dealt.of(state)]
    for _ in range(moves):
        state, happened = apply_with_events(state, greedy_move(state))
        events += happened
    assert state.phase is Phase.PLAYING
    assert state.boneyard
    return state, events


STATE, EVENTS = _played(4, 17, 6)
VIEW = seat_view(STATE, STATE.to_move, EVENTS)


def _hidden_from(seat: int | None, state: State = STATE) -> set[Tile]:
    """The tiles ``seat`` cannot see (every hand and the boneyard when ``seat`` is None)."""
    hidden = set(state.boneyard)
    for holder, hand in enumerate(state.hands):
        if holder != seat:
            hidden |= set(hand)
    return hidden


def _leaks(message: str, hidden: Iterable[Tile], sources: Iterable[SplitMix64]) -> list[str]:
    """The written forms of a hidden tile or a source's state found in ``message``."""
    found = [form for tile in hidden for form in _forms(tile) if form in message]
    found += [form for source in sources for form in _source_forms(source) if form in message]
    return found


def _refusal(provoke: Callable[[], object]) -> str:
    """The message of the refusal ``provoke`` raises; it must raise one."""
    with pytest.raises(SniffError) as caught:
        provoke()
    return str(caught.value)


def _table() -> Table:
    """A 4-seat table, one person and three greedy bots, bots played up to the person's turn."""
    table = Table.new(Rules.standard(4), ("person", "greedy", "greedy", "greedy"), (TOKEN,), seed=5, bot_seed=9)
    table = table.step_bots()
    assert table.to_move == 0
    assert table.phase is Phase.PLAYING
    return table


TABLE = _table()


def _source_of(state: State) -> SplitMix64:
    """The state's own source, a SplitMix64 for a seeded match."""
    source = state.source
    assert type(source) is SplitMix64
    return source


SOURCE = _source_of(STATE)
ELSEWHERE = TABLE.state.hands[1][0]
"""A tile of another seat that the person names in a move of theirs."""


def _deal_of(state: State) -> SampledDeal:
    """The deal ``state``'s round started from, hands swapped so the public moves do not fit it."""
    dealt = EVENTS[0]
    assert type(dealt) is Dealt
    hands = tuple(hand for hand in dealt.hands if hand is not None)
    if len(hands) != state.rules.players:
        hands = state.hands
    return SampledDeal(tuple(reversed(hands)), state.boneyard)


def _bot_cases() -> dict[str, Callable[[], object]]:
    """Each fair bot handed the state, the table, a record or a deal; or a view and a bad source."""
    bots: dict[str, Any] = {
        "random": random_bot,
        "greedy": greedy_bot,
        "search": SearchBot(deals=2),
        "ismcts": ISMCTSBot(iterations=8),
    }
    cases: dict[str, Callable[[], object]] = {}
    wrong: dict[str, object] = {
        "state": STATE,
        "table": TABLE,
        "record": TABLE.record,
        "deal": _deal_of(STATE),
        "events": tuple(EVENTS),
    }
    for name, bot in bots.items():
        for what, value in wrong.items():
            cases[f"{name} bot given the {what}"] = partial(bot, value, SOURCE)
        if name in ("search", "ismcts"):
            cases[f"{name} bot given the state as its source"] = partial(bot, VIEW, STATE)
            cases[f"{name} bot given a view as its source"] = partial(bot, VIEW, VIEW)
    cases["a search bot of the state's deals"] = lambda: SearchBot(deals=STATE)  # type: ignore[arg-type]
    cases["an ismcts bot of the state's iterations"] = partial(ISMCTSBot, iterations=STATE)  # type: ignore[arg-type]
    cases["an ismcts bot of a view's exploration"] = partial(ISMCTSBot, exploration=VIEW)  # type: ignore[arg-type]
    cases["greedy_move given a view"] = lambda: greedy_move(VIEW)  # type: ignore[arg-type]
    cases["random_move given a view"] = lambda: random_move(VIEW, SOURCE)  # type: ignore[arg-type]
    cases["random_move given the state as its source"] = lambda: random_move(STATE, STATE)  # type: ignore[arg-type]
    cases["play_out given a view"] = lambda: play_out(VIEW, SOURCE)  # type: ignore[arg-type]
    cases["legal_moves given a view"] = lambda: legal_moves(VIEW)  # type: ignore[call-overload]
    cases["apply given a view"] = lambda: apply(VIEW, legal_moves(STATE)[0])  # type: ignore[call-overload]
    cases["apply given the state as a move"] = lambda: apply(STATE, STATE)  # type: ignore[call-overload]
    return cases


def _sampler_cases() -> dict[str, Callable[[], object]]:
    """Each sampler built from the state or drawing from the state or a view; replaying a deal that does not fit."""
    sampler, masks = DealSampler(VIEW), MaskSampler(VIEW)
    return {
        "a sampler of the state": lambda: DealSampler(STATE),  # type: ignore[arg-type]
        "a sampler drawing from the state": lambda: sampler.sample(STATE),  # type: ignore[arg-type]
        "a sampler's state drawn from a view": lambda: sampler.sample_state(VIEW),  # type: ignore[arg-type]
        "a sampler replaying the state": lambda: sampler.replay(STATE),  # type: ignore[arg-type]
        "a sampler replaying a deal that does not fit": lambda: sampler.replay(_deal_of(STATE)),
        "a bit-mask sampler of the state": lambda: MaskSampler(STATE),  # type: ignore[arg-type]
        "a bit-mask sampler drawing from the state": lambda: masks.sample_masks(STATE),  # type: ignore[arg-type]
        "a bit-mask sampler's deal drawn from a view": lambda: masks.sample(VIEW),  # type: ignore[arg-type]
    }


def _table_cases() -> dict[str, Callable[[], object]]:
    """The table's refusals: a state as a move, a version or a token; an illegal move; a bad restore."""
    target = legal_moves(TABLE.state)[0]
    assert type(target) is Place
    return {
        "a table move that is the state": lambda: TABLE.play(TOKEN, TABLE.state, TABLE.version),  # type: ignore[arg-type]
        "a table move of another seat's tile": lambda: TABLE.play(
            TOKEN, Place(0, ELSEWHERE, target.target), TABLE.version
        ),
        "a table move on a version that is the state": lambda: TABLE.play(TOKEN, target, TABLE.state),  # type: ignore[arg-type]
        "a table token that is the state": lambda: TABLE.view(TABLE.state),  # type: ignore[arg-type]
        "a table asked for a bot move on a person's turn": TABLE.step_bot,
        "a table asked to deal mid-round": lambda: TABLE.deal_on(TABLE.version),
        "a table restored from the state": lambda: Table.restored(
            TABLE.state,  # type: ignore[arg-type]
            TABLE.seats,
            TABLE.bot_source,
            TABLE.version,
        ),
        "a table restored with the state as its source": lambda: Table.restored(
            TABLE.record,
            TABLE.seats,
            TABLE.state,  # type: ignore[arg-type]
            TABLE.version,
        ),
        "a table of kinds that are the state": lambda: Table.new(Rules.standard(4), STATE, (), seed=1, bot_seed=1),  # type: ignore[arg-type]
    }


def _with(data: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**data, **changes}


def _reader_cases() -> dict[str, Callable[[], object]]:
    """The readers handed a full state's document spoiled one way at a time."""
    data: dict[str, Any] = json.loads(json.dumps(state_to_data(STATE)))
    hands = data["hands"]
    doubled = [hands[0], [*hands[1], hands[1][0]], *hands[2:]]
    source_text = data["source"]["splitmix64"]
    table_data: dict[str, Any] = json.loads(json.dumps(table_to_data(TABLE)))
    return {
        "a state document whose hand holds a tile twice": lambda: state_from_data(_with(data, hands=doubled)),
        "a state document whose boneyard holds a tile twice": lambda: state_from_data(
            _with(data, boneyard=[*data["boneyard"], data["boneyard"][0]])
        ),
        "a state document of a hand too few": lambda: state_from_data(_with(data, hands=hands[:-1])),
        "a state document with a source a digit too long": lambda: state_from_data(
            _with(data, source={"splitmix64": source_text + "0"})
        ),
        "a state document with a source in capitals": lambda: state_from_data(
            _with(data, source={"splitmix64": source_text.upper() + "G"})
        ),
        "a state document of another format": lambda: state_from_data(_with(data, format=hands)),
        "a state document with a phase that is a hand": lambda: state_from_data(_with(data, phase=hands[1])),
        "a table document with a bot source a digit too long": lambda: table_from_data(
            _with(table_data, bot_source={"splitmix64": "0" + table_data["bot_source"]["splitmix64"]})
        ),
        "a record document that is a state": lambda: record_from_json(json.dumps(data)),
        "a typed move read against a view": lambda: parse_typed_move("draw", VIEW),  # type: ignore[arg-type]
    }


def _adapter_cases() -> dict[str, Callable[[], object]]:
    """The actions' codec and both adapters handed the state, or an action the rules refuse."""
    from sniff_rules.adapters.actions import action_of, move_of

    cases: dict[str, Callable[[], object]] = {
        "an action of the state": lambda: action_of(STATE),  # type: ignore[arg-type]
        "a move of an action that is the state": lambda: move_of(STATE, 0),  # type: ignore[arg-type]
    }
    pettingzoo = pytest.importorskip("pettingzoo")
    assert pettingzoo
    from sniff_rules.adapters.pettingzoo.environment import raw_env

    def step(action: Callable[[State], object]) -> None:
        environment = raw_env(players=4)
        environment.reset(seed=17)
        environment.step(action(environment.game_state))  # type: ignore[arg-type]

    cases["a PettingZoo step with the state"] = lambda: step(lambda state: state)
    cases["a PettingZoo step of an illegal action"] = lambda: step(_illegal_action)
    return cases


def _illegal_action(state: State) -> int:
    """An action placing a tile the seat to move does not hold: the first such tile."""
    from sniff_rules.adapters.actions import action_of

    return action_of(Place(state.to_move, _not_held(state)))


def _not_held(state: State) -> Tile:
    """The first tile the seat to move does not hold."""
    return next(tile for tile in DOUBLE_SIX if tile not in state.hand(state.to_move))


def _pettingzoo_start() -> State:
    """The state the PettingZoo environment starts from at seed 17."""
    from sniff_rules.adapters.pettingzoo.environment import raw_env

    environment = raw_env(players=4)
    environment.reset(seed=17)
    return environment.game_state


CASES: dict[str, Callable[[], object]] = {**_bot_cases(), **_sampler_cases(), **_table_cases(), **_reader_cases()}


@pytest.mark.parametrize("name", list(CASES))
def test_no_refusal_shows_a_hidden_tile_or_the_source(name: str) -> None:
    """SETUP-6: the refusal names no tile of any hand or the boneyard, nor the source's state."""
    message = _refusal(CASES[name])
    sources = [SOURCE, TABLE.bot_source, _source_of(TABLE.state)]
    hidden = _hidden_from(None, TABLE.state) if name.startswith("a table") else _hidden_from(None)
    if name == "a table move of another seat's tile":
        # The person named the tile and holds hand 0: both are theirs to see.
        hidden = _hidden_from(0, TABLE.state) - {ELSEWHERE}
    assert [] == _leaks(message, hidden, sources), message


def test_the_adapters_refuse_without_a_hidden_tile() -> None:
    """SETUP-6: the actions' codec and the PettingZoo environment refuse the state and an illegal
    action without naming a tile the seat to move cannot see (it may name its own hand and its pick)."""
    pytest.importorskip("pettingzoo")
    state = _pettingzoo_start()
    picked = _not_held(state)
    for name, provoke in _adapter_cases().items():
        message = _refusal(provoke)
        hidden = _hidden_from(None) if "illegal" not in name else _hidden_from(state.to_move, state) - {picked}
        assert ([], name) == (_leaks(message, hidden, [SOURCE]), name), message


def test_the_check_catches_a_leaking_message() -> None:
    """The leak check can fail: a refusal quoting a hand, the repr of a state or the source is caught."""
    hand = STATE.hands[1]
    assert hand
    for message in (
        " ".join(map(str, hand)),
        f"{STATE!r:.200}",
        json.dumps(state_to_data(STATE)["hands"]),
        f"got {SOURCE!r}",
    ):
        assert [] != _leaks(message, _hidden_from(None), [SOURCE])


def test_described_names_a_secret_holder_by_its_type() -> None:
    """A refusal's quote of a value: scalars as typed, a State, view or source by its type alone."""
    expected = ("a State", "a SeatView", "a SplitMix64", "a tuple of 2", "5", "'[1|2]'")
    assert expected == tuple(described(value) for value in (STATE, VIEW, SOURCE, (1, 2), 5, "[1|2]"))


def test_every_case_is_a_refusal_of_its_own() -> None:
    """Each case provokes a refusal; no two are the same call under two names."""
    messages = {name: _refusal(provoke) for name, provoke in CASES.items()}
    assert len(CASES) == len(messages)
    assert all(re.match(r"[A-Z]+-\d+: ", message) for message in messages.values())


def test_view_fields_are_the_ones_the_cases_hide() -> None:
    """The view the bots are handed holds its own hand only: the cases' secrets are the others'."""
    assert set(VIEW.hand) == set(STATE.hand(VIEW.seat))
    assert attrs.has(SeatView)


def test_openspiel_refuses_an_illegal_action_without_a_hidden_tile() -> None:
    """SETUP-6: an OpenSpiel seat's illegal action and an id outside the space name no tile it cannot see."""
    pyspiel = pytest.importorskip("pyspiel")
    import sniff_rules.adapters.openspiel

    assert sniff_rules.adapters.openspiel
    game = pyspiel.load_game("python_american_sniff", {"players": 4})
    spiel_state = game.new_initial_state()
    rng = SplitMix64.from_seed(3)
    while spiel_state.is_chance_node():
        outcomes = spiel_state.legal_actions()
        pick, rng = rng.below(len(outcomes))
        spiel_state.apply_action(outcomes[pick])
    state = spiel_state.core.state
    legal = set(spiel_state.legal_actions())
    illegal = next(action for action in range(game.num_distinct_actions()) if action not in legal)
    from sniff_rules.adapters.actions import move_of

    named = move_of(illegal, state.to_move)
    hidden = _hidden_from(state.to_move, state) - ({named.tile} if type(named) is Place else set())
    for action in (illegal, game.num_distinct_actions()):
        message = _refusal(partial(spiel_state.apply_action, action))
        assert [] == _leaks(message, hidden, [SOURCE]), message
