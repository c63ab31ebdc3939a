"""Two processes, one PostgreSQL database, one match (TURN-2, END-1, MATCH-1): a person's process for each of
two person seats of a four-seat table, each racing the other for the bots' moves and the deals through the
store's compare-and-set, each woken by the other's notices; the match ends as one played in one process."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from postgres_player import next_change
from sniff_rules.formats.record_json import record_to_data
from sniff_rules.formats.table_json import table_from_json, table_to_json
from sniff_rules.play.table import Table
from sniff_rules.rules import Rules
from sniff_rules.state import Phase
from sniff_rules.web.postgres_store import PostgresStore
from sniff_rules.web.store import StoredTable, new_table_id

ROOT = Path(__file__).resolve().parent.parent
PLAYER = Path(__file__).resolve().parent / "postgres_player.py"
TOKENS = ("token-of-seat-0-abcdefgh", "token-of-seat-1-abcdefgh")
HANG = 600.0  # seconds before a stuck process fails the test: a bound on a hang, never a measure


def new_table() -> Table:
    """Four seats: people at 0 and 1 (opposing sides), a greedy and a random bot at 2 and 3."""
    return Table.new(Rules.standard(4), ("person", "person", "greedy", "random"), TOKENS, seed=23, bot_seed=5)


def played_in_one_process(table: Table) -> Table:
    """The same match with both seats played in turn by one loop, no store between them."""
    while table.phase is not Phase.MATCH_OVER:
        table = next(change for token in TOKENS if (change := next_change(table, token)) is not None)
    return table


def test_two_processes_on_one_database_play_the_match_one_process_plays(postgres_dsn: str) -> None:
    """Each process ends with the same record, the one a single process plays; the stored table is that one."""
    store = PostgresStore(postgres_dsn)
    table_id = new_table_id()
    start = new_table()
    store.add(StoredTable(table_id, table_to_json(start), start.version, "127.0.0.1", time.time()))
    players = [
        subprocess.Popen(
            [sys.executable, str(PLAYER), postgres_dsn, table_id, token],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for token in TOKENS
    ]
    try:
        results = [player.communicate(timeout=HANG) for player in players]
    finally:
        for player in players:
            player.kill()
    assert [0, 0] == [player.returncode for player in players], [err for _, err in results]
    ended = [json.loads(out) for out, _ in results]
    expected = played_in_one_process(start)
    stored = store.get(table_id)
    store.close()
    assert stored is not None
    assert [record_to_data(expected.record)] * 2 == [result["record"] for result in ended]
    assert expected == table_from_json(stored.document)
    # Every change was written once: the two processes' kept writes are the table's versions after the first.
    assert expected.version - start.version == sum(result["kept"] for result in ended)
