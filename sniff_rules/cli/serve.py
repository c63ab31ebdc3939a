"""``sniff-rules serve``: the browser game on a local web server (the ``web`` extra: Starlette, uvicorn).

This module imports neither: without the extra, the command says which
extra to install and exits 2. :func:`add_serve_parser` registers the
command's options on the command line's subparsers and :func:`run_serve`
runs it; :func:`serve_main` is the two together, for a list of arguments.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import shutil
import socket
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TextIO

from sniff_rules.errors import SniffError
from sniff_rules.play.registry import BotOffer
from sniff_rules.protocol.messages import REQUEST_SECONDS

if TYPE_CHECKING:
    from sniff_rules.web.store import TableStore

EXTRA_HINT: Final = "pip install 'sniff-rules[web]'"
"""How to install what ``serve`` needs."""

DATABASE_NAME: Final = "tables.sqlite3"
"""The SQLite file the tables are kept in, inside ``--data DIR``."""

POSTGRES_HINT: Final = "pip install 'sniff-rules[postgres]'"
"""How to install what ``serve --postgres`` needs besides the web extra."""

_ANY_ADDRESS: Final = ("0.0.0.0", "::", "")


def add_serve_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the ``serve`` command to ``commands`` (what ``ArgumentParser.add_subparsers`` returned)."""
    says = "host tables in the browser for people and the library's fair bots (needs the web extra)"
    parser: argparse.ArgumentParser = commands.add_parser("serve", help=says, description=says)
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine)")
    parser.add_argument("--port", type=int, default=0, help="port to listen on; 0, the default, picks a free one")
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another Host name the page may be reached by (DNS names are refused unless listed)",
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.6, help="seconds each bot waits before its move (default 0.6)"
    )
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="offer a bot that runs as a process speaking specs/protocol.md, by NAME (1-32 of a-z 0-9 -), beside the "
        "fair bots; may be given up to 16 times; the page names the bot, never its command",
    )
    parser.add_argument(
        "--bot-timeout",
        type=float,
        default=REQUEST_SECONDS,
        metavar="SECONDS",
        help=f"seconds a bot process may take to answer (default {REQUEST_SECONDS:g}; 0.1..600)",
    )
    parser.add_argument(
        "--max-bot-processes",
        type=int,
        default=None,
        metavar="N",
        help="the most bot processes run at once; a table needing more is refused (default 8; 1..256)",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--data",
        metavar="DIR",
        default=None,
        help=f"keep the tables in DIR/{DATABASE_NAME}, so a restart loses nothing (default {default_data_dir()})",
    )
    where.add_argument("--memory", action="store_true", help="keep the tables in memory only: gone when it stops")
    where.add_argument(
        "--postgres",
        metavar="DSN",
        help="keep the tables in this PostgreSQL database (a libpq DSN or postgresql:// URI), shared with every "
        f"other server process given it (needs the postgres extra: {POSTGRES_HINT})",
    )
    return parser


def default_data_dir() -> Path:
    """Where the tables are kept by default: ``$XDG_DATA_HOME/sniff-rules``, else ``~/.local/share/sniff-rules``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sniff-rules"


def allowed_hosts(host: str, extra: Sequence[str]) -> list[str]:
    """The ``Host`` names served: the address listened on (unless a wildcard), this machine's, and ``extra``."""
    names = [] if host in _ANY_ADDRESS else [host]
    for name in ("127.0.0.1", "localhost", "::1", *extra):
        if name not in names:
            names.append(name)
    return names


def _url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in _ANY_ADDRESS else host
    return f"http://[{shown}]:{port}/" if ":" in shown else f"http://{shown}:{port}/"


def _postgres_store(dsn: str, out: TextIO) -> TableStore | None:
    """The PostgreSQL store of ``dsn``, or None with the reason printed (a missing extra, a database not reached)."""
    try:
        import psycopg

        from sniff_rules.web.postgres_store import PostgresStore
    except ModuleNotFoundError as missing:
        print(
            f"sniff-rules serve --postgres needs the postgres extra ({missing.name} is missing): {POSTGRES_HINT}",
            file=out,
        )
        return None
    try:
        return PostgresStore(dsn)
    except (psycopg.Error, SniffError) as err:
        # The DSN may hold a password: the error is shown, the DSN is not.
        print(f"cannot use the PostgreSQL database given to --postgres: {str(err).strip()}", file=out)
        return None


def run_serve(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Serve the game until interrupted: bind, print the URL, run uvicorn on the bound socket."""
    try:
        import uvicorn

        from sniff_rules.web.app import create_app
        from sniff_rules.web.store import MemoryStore, SQLiteStore
    except ModuleNotFoundError as missing:
        print(f"sniff-rules serve needs the web extra ({missing.name} is missing): {EXTRA_HINT}", file=out)
        return 2
    if not 0 <= args.port <= 65535 or args.bot_delay < 0 or args.bot_delay > 60:
        print("--port is 0..65535 and --bot-delay 0..60 seconds", file=out)
        return 2
    offer = _offer(args, out)
    if offer is None:
        return 2
    from sniff_rules.web.bot_seats import MAX_BOT_PROCESSES, TableBots

    limit = MAX_BOT_PROCESSES if args.max_bot_processes is None else args.max_bot_processes
    bots = TableBots(offer, timeout=args.bot_timeout, limit=limit)
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((args.host, args.port))
    except OSError as err:
        listener.close()
        print(f"cannot listen on {args.host} port {args.port}: {err.strerror or err}", file=out)
        return 2
    port = listener.getsockname()[1]
    store: TableStore
    if args.memory:
        store, kept = MemoryStore(), "in memory only"
    elif args.postgres is not None:
        shared = _postgres_store(args.postgres, out)
        if shared is None:
            listener.close()
            return 2
        store, kept = shared, "in the PostgreSQL database given to --postgres"
    else:
        folder = Path(args.data) if args.data is not None else default_data_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            store = SQLiteStore(folder / DATABASE_NAME)
        except (OSError, sqlite3.Error) as err:
            listener.close()
            print(f"cannot keep the tables in {folder}: {err}", file=out)
            return 2
        kept = f"in {folder / DATABASE_NAME}"
    app = create_app(
        store=store,
        allowed_hosts=allowed_hosts(args.host, args.allow_host),
        bot_delay=args.bot_delay,
        close_store=True,
        bots=bots,
    )
    print(f"Sniff in the browser: {_url(args.host, port)}  (Ctrl-C stops)", file=out, flush=True)
    print(f"Tables are kept {kept}.", file=out, flush=True)
    for bot in offer.offered:
        print(f"Bot offered: {bot.name}, run as {shlex.join(bot.command)}", file=out, flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws="websockets-sansio"))
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[listener])
    listener.close()
    return 0


def _offer(args: argparse.Namespace, out: TextIO) -> BotOffer | None:
    """The bots ``--bot`` offers, or None with the reason printed: an offer misspelt, a command not found, a
    timeout or a limit out of range."""
    if not 0.1 <= args.bot_timeout <= 600:
        print(f"--bot-timeout is 0.1..600 seconds, got {args.bot_timeout:g}", file=out)
        return None
    if args.max_bot_processes is not None and not 1 <= args.max_bot_processes <= 256:
        print(f"--max-bot-processes is 1..256, got {args.max_bot_processes}", file=out)
        return None
    try:
        offer = BotOffer.of(args.bot)
    except SniffError as err:
        print(f"--bot: {err}", file=out)
        return None
    for bot in offer.offered:
        if shutil.which(bot.command[0]) is None:
            print(f"--bot {bot.name}: cannot find the program {bot.command[0]!r}", file=out)
            return None
    return offer


def serve_main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    """``sniff-rules serve`` with ``argv`` (the arguments after ``serve``)."""
    parser = argparse.ArgumentParser(prog="sniff-rules")
    add_serve_parser(parser.add_subparsers(dest="command", required=True))
    return run_serve(parser.parse_args(["serve", *(argv or ())]), out)
