"""One person's process at a table kept in a PostgreSQL store: ``python tests/postgres_player.py DSN TABLE_ID TOKEN``.

The process plays the seat of ``TOKEN`` (the first of its legal moves, so a
match played this way is one match whatever the timing), moves the bots
when theirs is the turn and asks for the next round when one is settled,
each change written with the store's compare-and-set. Another process at
the same table does the same for its own seat, so the two race for every
bot move and every deal: the loser's write is refused as stale, and it
reads the table again. It wakes on the store's notices, never on a timer.
At the match's end it prints one line of JSON: the final record and how
many of its writes were kept and refused.
"""

from __future__ import annotations

import json
import queue
import sys
import time
from typing import Final

from sniff_rules.formats.record_json import record_to_data
from sniff_rules.formats.table_json import table_from_json, table_to_json
from sniff_rules.play.table import Table
from sniff_rules.state import Phase
from sniff_rules.web.store import StoredTable, TableStore

HANG: Final = 60.0  # seconds without any notice before the process gives up: a bound on a hang only


def next_change(table: Table, token: str) -> Table | None:
    """What the seat of ``token`` does to ``table`` now: deal on, move a bot, play its own move, or nothing."""
    if table.phase is Phase.ROUND_OVER:
        return table.deal_on(table.version, token)
    if table.bot_to_move:
        return table.step_bot()
    if table.person_to_move == table.seat_of(token):
        return table.play(token, table.view(token).legal_moves[0], table.version)
    return None


def play_seat(store: TableStore, table_id: str, token: str) -> tuple[Table, int, int]:
    """Play the seat of ``token`` through ``store`` to the match's end; the last table, writes kept and refused."""
    heard: queue.Queue[int] = queue.Queue()
    # Subscribed before the first read, so a change made after that read is waiting in the queue.
    store.subscribe(lambda changed, version: heard.put(version) if changed == table_id else None)
    kept = refused = 0
    while True:
        stored = store.get(table_id)
        if stored is None:
            raise SystemExit(f"table {table_id} is gone")
        table = table_from_json(stored.document)
        if table.phase is Phase.MATCH_OVER:
            return table, kept, refused
        changed = next_change(table, token)
        if changed is None:
            heard.get(timeout=HANG)
            continue
        written = StoredTable(table_id, table_to_json(changed), changed.version, stored.creator, time.time())
        if store.replace(written, expected_version=table.version):
            kept += 1
        else:
            refused += 1


def main(argv: list[str]) -> int:
    """Play one seat from the command line's DSN, table id and token; print the result as one JSON line."""
    from sniff_rules.web.postgres_store import PostgresStore

    dsn, table_id, token = argv
    store = PostgresStore(dsn)
    try:
        table, kept, refused = play_seat(store, table_id, token)
    finally:
        store.close()
    print(json.dumps({"record": record_to_data(table.record), "kept": kept, "refused": refused}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
