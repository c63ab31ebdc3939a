"""``sniff-rules serve``: the browser game on a local web server (the ``web`` extra: Starlette, uvicorn).

This module imports neither: without the extra, the command says which
extra to install and exits 2. :func:`add_serve_parser` registers the
command's options on the command line's subparsers and :func:`run_serve`
runs it; :func:`serve_main` is the two together, for a list of arguments.
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, TextIO

from sniff_rules.errors import SniffError

if TYPE_CHECKING:
    from sniff_rules.web.store import TableStore

EXTRA_HINT: Final = "pip install 'sniff-rules[web]'"
"""How to install what ``serve`` needs."""

POSTGRES_HINT: Final = "pip install 'sniff-rules[postgres]'"
"""How to install what ``serve --postgres`` needs besides the web extra."""

_ANY_ADDRESS: Final = ("0.0.0.0", "::", "")


def add_serve_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the ``serve`` command to ``commands`` (what ``ArgumentParser.add_subparsers`` returned)."""
    says = "play in the browser against the library's fair bots (needs the web extra)"
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
        "--postgres",
        metavar="DSN",
        help="keep the tables in this PostgreSQL database (a libpq DSN or postgresql:// URI), shared with every "
        f"other server process given it (needs the postgres extra: {POSTGRES_HINT})",
    )
    return parser


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


def _store(args: argparse.Namespace, out: TextIO) -> TableStore | None:
    """The store the options name, or None with the reason printed (a missing extra, a database not reached)."""
    from sniff_rules.web.store import MemoryStore

    if args.postgres is None:
        return MemoryStore()
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
        return PostgresStore(args.postgres)
    except (psycopg.Error, SniffError) as err:
        # The DSN may hold a password: the error is shown, the DSN is not.
        print(f"cannot use the PostgreSQL database given to --postgres: {str(err).strip()}", file=out)
        return None


def run_serve(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Serve the game until interrupted: bind, print the URL, run uvicorn on the bound socket."""
    try:
        import uvicorn

        from sniff_rules.web.app import create_app
    except ModuleNotFoundError as missing:
        print(f"sniff-rules serve needs the web extra ({missing.name} is missing): {EXTRA_HINT}", file=out)
        return 2
    if not 0 <= args.port <= 65535 or args.bot_delay < 0 or args.bot_delay > 60:
        print("--port is 0..65535 and --bot-delay 0..60 seconds", file=out)
        return 2
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((args.host, args.port))
    except OSError as err:
        listener.close()
        print(f"cannot listen on {args.host} port {args.port}: {err.strerror or err}", file=out)
        return 2
    store = _store(args, out)
    if store is None:
        listener.close()
        return 2
    port = listener.getsockname()[1]
    app = create_app(
        allowed_hosts=allowed_hosts(args.host, args.allow_host), bot_delay=args.bot_delay, store=store, close_store=True
    )
    print(f"Sniff in the browser: {_url(args.host, port)}  (Ctrl-C stops)", file=out, flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws="websockets-sansio"))
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[listener])
    listener.close()
    return 0


def serve_main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    """``sniff-rules serve`` with ``argv`` (the arguments after ``serve``)."""
    parser = argparse.ArgumentParser(prog="sniff-rules")
    add_serve_parser(parser.add_subparsers(dest="command", required=True))
    return run_serve(parser.parse_args(["serve", *(argv or ())]), out)
