"""The live table (sniff_rules.play.table): tokens, versions, turns, bots on request, the pause, what a seat sees."""

from __future__ import annotations

import json

import attrs
import pytest

from sniff_rules.errors import IllegalMoveError, InvalidStateError
from sniff_rules.formats.event_json import event_to_data
from sniff_rules.formats.view_json import seat_view_to_json
from sniff_rules.moves import Draw
from sniff_rules.play.events import Dealt
from sniff_rules.play.registry import BotNameError
from sniff_rules.play.sampler import DealSampler
from sniff_rules.play.table import PERSON, SeatTokenError, StaleVersionError, Table
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import Phase

TOKENS = ("token-seat-zero-0000000000", "token-seat-one-11111111111", "token-seat-two-22222222222")


def _people(players: int = 2, kinds: tuple[str, ...] | None = None, seed: int = 20) -> Table:
    kinds = kinds or (PERSON,) * players
    people = kinds.count(PERSON)
    return Table.new(Rules.standard(len(kinds)), kinds, TOKENS[:people], seed=seed, bot_seed=3)


def _token_to_move(table: Table) -> str:
    seat = table.person_to_move
    assert seat is not None
    return next(player.token for index, player in enumerate(table.seats) if index == seat and player.token)


def _first_move(table: Table) -> Table:
    """The person to move plays the first legal move."""
    token = _token_to_move(table)
    return table.play(token, table.view(token).legal_moves[0], table.version)


def _to_round_end(table: Table) -> Table:
    while table.phase is Phase.PLAYING:
        table = table.step_bots() if table.bot_to_move else _first_move(table)
    return table


def _to_match_end(table: Table) -> Table:
    while table.phase is not Phase.MATCH_OVER:
        table = _to_round_end(table)
        if table.phase is Phase.ROUND_OVER:
            table = table.deal_on(table.version, TOKENS[0])
    return table


def test_a_token_acts_for_its_own_seat_alone() -> None:
    """SETUP-6, TURN-2: seat 1's token cannot move seat 0, and sees seat 1's hand, never seat 0's."""
    table = _people(2)
    assert 1 == table.to_move
    view = table.view(TOKENS[1])
    assert (1, table.state.hand(1)) == (view.seat, view.hand)
    assert table.state.hand(0) != view.hand
    seat_0_move = attrs.evolve(view.legal_moves[0], seat=0)
    with pytest.raises(IllegalMoveError) as refused:
        table.play(TOKENS[1], seat_0_move, table.version)
    assert "TURN-2" == refused.value.rule
    with pytest.raises(IllegalMoveError) as out_of_turn:
        table.play(TOKENS[0], seat_0_move, table.version)
    assert "TURN-2" == out_of_turn.value.rule


def test_a_token_of_no_seat_is_refused_for_every_request() -> None:
    """SETUP-6: a token no seat has, or a bot's (none), acts for no seat and reads no hand or event."""
    table = _people(3, (PERSON, "greedy", PERSON))
    for token in (TOKENS[2], TOKENS[0][:-1], "", TOKENS[0].upper()):
        for request in (
            lambda token=token: table.view(token),
            lambda token=token: table.events_for(token),
            lambda token=token: table.join(token),
            lambda token=token: table.deal_on(table.version, token),
        ):
            with pytest.raises(SeatTokenError) as refused:
                request()
            assert "SETUP-6" == refused.value.rule


def test_each_seat_reads_its_own_events_redacted() -> None:
    """SETUP-6: the deal shows each seat its own hand alone."""
    table = _people(2)
    for seat, token in enumerate(TOKENS[:2]):
        dealt = table.events_for(token)[0]
        assert isinstance(dealt, Dealt)
        hands = dealt.hands
        assert [hand is not None for hand in hands] == [other == seat for other in range(2)]


def test_two_moves_on_one_version_give_one_success_and_one_stale_refusal() -> None:
    """TURN-2: the second request made on the version the first changed is refused, and the table is the first's."""
    table = _people(2)
    view = table.view(TOKENS[1])
    first = table.play(TOKENS[1], view.legal_moves[0], table.version)
    with pytest.raises(StaleVersionError) as refused:
        first.play(TOKENS[1], view.legal_moves[-1], table.version)
    assert "TURN-2" == refused.value.rule
    assert (table.version + 1, (view.legal_moves[0],)) == (first.version, first.record.moves)
    assert first.record.final_state() == first.state


def test_bots_move_only_when_asked() -> None:
    """TURN-1: a bot to move waits until the caller steps it; then the bots play up to the person's turn."""
    table = _people(kinds=(PERSON, "greedy", "random"))
    table = _first_move(table) if table.person_to_move == 0 else table
    assert table.bot_to_move
    assert table == attrs.evolve(table)  # nothing moved by itself
    moved = table.step_bots()
    assert (False, moved.phase is Phase.PLAYING) == (moved.bot_to_move, moved.person_to_move == 0)
    assert len(moved.record.moves) > len(table.record.moves)
    one = table.step_bot()
    assert (table.version + 1, len(table.record.moves) + 1) == (one.version, len(one.record.moves))


def test_step_bot_is_refused_on_a_persons_turn() -> None:
    """TURN-2: no bot moves on a person's turn."""
    table = _people(2)
    with pytest.raises(IllegalMoveError) as refused:
        table.step_bot()
    assert "TURN-2" == refused.value.rule


def test_the_table_waits_at_a_rounds_end_until_a_seat_or_the_caller_asks() -> None:
    """END-1: a settled round is not dealt on until asked; no move is taken meanwhile; a stale ask is refused."""
    table = _to_round_end(_people(kinds=(PERSON, "greedy")))
    assert Phase.ROUND_OVER == table.phase
    assert (True, Phase.ROUND_OVER) == (table.record.paused, table.record.final_state().phase)
    with pytest.raises(IllegalMoveError) as no_move:
        table.play(TOKENS[0], Draw(0), table.version)
    assert "END-1" == no_move.value.rule
    with pytest.raises(StaleVersionError):
        table.deal_on(table.version - 1)
    by_seat = table.deal_on(table.version, TOKENS[0])
    by_timer = table.deal_on(table.version)
    assert by_seat == by_timer
    assert (Phase.PLAYING, 2, False) == (by_seat.phase, by_seat.state.round_number, by_seat.record.paused)
    with pytest.raises(IllegalMoveError) as playing:
        by_seat.deal_on(by_seat.version)
    assert "END-1" == playing.value.rule


def test_a_match_replays_from_its_seeds_and_its_record() -> None:
    """MATCH-1: tables of the same seeds and requests end alike; the record replays to the table's state."""
    first = _to_match_end(_people(kinds=(PERSON, "greedy", "random", PERSON)))
    second = _to_match_end(_people(kinds=(PERSON, "greedy", "random", PERSON)))
    assert first == second
    assert first.record.final_state() == first.state
    with pytest.raises(IllegalMoveError) as over:
        first.deal_on(first.version)
    assert "MATCH-2" == over.value.rule


def test_the_version_grows_with_every_change_and_joins_are_idempotent() -> None:
    """Each change adds one to the version; a second join or leave changes nothing."""
    table = _people(2)
    joined = table.join(TOKENS[0])
    assert (table.version + 1, True) == (joined.version, joined.seats[0].joined)
    assert joined is joined.join(TOKENS[0])
    left = joined.leave(TOKENS[0])
    assert (joined.version + 1, False) == (left.version, left.seats[0].joined)


@pytest.mark.parametrize(
    ("kinds", "tokens", "rule"),
    [
        ((PERSON,), TOKENS[:1], "SETUP-2"),
        ((PERSON, PERSON), TOKENS[:1], "SETUP-2"),
        ((PERSON, PERSON), (TOKENS[0], TOKENS[0]), "FORMAT-3"),
        ((PERSON, "greedy"), ("short",), "FORMAT-3"),
        ((PERSON, "greedy"), ("has spaces in it, so no token",), "FORMAT-3"),
        ((PERSON, "cheater!"), TOKENS[:1], "FORMAT-1"),
    ],
)
def test_a_table_is_refused_for_bad_seats(kinds: tuple[str, ...], tokens: tuple[str, ...], rule: str) -> None:
    """SETUP-2, FORMAT-1, FORMAT-3: a seat count, a token count, a duplicate or short token, a name of no bot."""
    rules = Rules.standard(2)
    with pytest.raises((InvalidStateError, BotNameError)) as refused:
        Table.new(rules, kinds, tokens, seed=1, bot_seed=1)
    assert rule == refused.value.rule


def test_rewinding_goes_back_with_a_newer_version() -> None:
    """An undo is a change: the earlier table's play, under a version past the current one."""
    table = _people(2)
    later = _first_move(table)
    back = later.rewound_to(table)
    assert (table.record, later.version + 1) == (back.record, back.version)
    with pytest.raises(InvalidStateError):
        table.rewound_to(later)


def _redealt(table: Table, token: str, seed: int) -> Table:
    """``table`` with the hidden tiles of its round dealt anew, consistent with what the seat of ``token`` saw."""
    start = max(index for index, event in enumerate(table.events) if type(event).__name__ == "Dealt")
    sampler = DealSampler(table.view(token))
    deal, _ = sampler.sample(SplitMix64.from_seed(seed))
    state, round_events = sampler.replay(deal, SplitMix64.from_seed(seed + 99))
    return attrs.evolve(table, state=state, events=(*table.events[:start], *round_events))


def _sent_to(table: Table, token: str) -> bytes:
    events = [event_to_data(event) for event in table.events_for(token)]
    return (seat_view_to_json(table.view(token)) + json.dumps(events)).encode()


def test_what_a_person_seat_receives_does_not_depend_on_the_hidden_tiles() -> None:
    """SETUP-6: at every version of a match of two people and two bots, each person's view and events are,
    byte for byte, those of the same table with its hidden tiles re-dealt."""
    table = _people(kinds=(PERSON, "greedy", PERSON, "random"), seed=7)
    compared = 0
    while table.phase is not Phase.MATCH_OVER and table.state.round_number <= 2:
        if table.phase is Phase.PLAYING:
            for token in TOKENS[:2]:
                for seed in (1, 2):
                    assert _sent_to(table, token) == _sent_to(_redealt(table, token, seed), token)
                    compared += 1
        if table.phase is Phase.ROUND_OVER:
            table = table.deal_on(table.version)
        elif table.bot_to_move:
            table = table.step_bot()
        else:
            table = _first_move(table)
    assert compared > 40
