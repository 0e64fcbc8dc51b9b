"""``cpwords serve``: the web pages and JSON API, on FastAPI and uvicorn.

The main command adds this sub-command with :func:`add_parser`. FastAPI and uvicorn are imported
only when the server starts, so the rest of cpwords works without them (``cpwords[serve]``).
"""

from __future__ import annotations

import argparse
import errno
import os
import socket
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cpwords.errors import InputError
from cpwords.wording import counted

if TYPE_CHECKING:
    from cpwords.server.config import ServerConfig

#: Hosts that only this machine can reach.
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
#: Bounds of ``--max-time`` (seconds, exclusive) and ``--max-memory`` (mebibytes, inclusive).
MAX_TIME_S = 1_000_000
MIN_MEMORY_MIB, MAX_MEMORY_MIB = 256, 2**40


def add_parser(subparsers: argparse._SubParsersAction[Any], parents: Sequence[argparse.ArgumentParser] = ()) -> None:
    """Add ``serve`` to the main command's ``subparsers``."""
    from cpwords.commands import SERVE_HELP
    from cpwords.server.config import MAX_BODY_BYTES, default_workers, size_text

    p = subparsers.add_parser(
        "serve", parents=list(parents), help=SERVE_HELP,
        description="Serve a page for every puzzle kind and the JSON API (/docs). Listens on 127.0.0.1 "
                    "unless --host says otherwise; give --token (or CPWORDS_TOKEN) before exposing it. "
                    f"Files on the server are never read for a request; bodies are capped at "
                    f"{size_text(MAX_BODY_BYTES)}.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--workers", type=int, metavar="N",
                   help=f"solver processes (default {default_workers()}: one a core, at most 8; capped at the cores)")
    p.add_argument("--max-time", type=float, default=10.0, metavar="S",
                   help="seconds every solve may run (default 10); a spec's time_limit is lowered to it")
    p.add_argument("--token", metavar="T",
                   help="require this token on every page and API call (default: $CPWORDS_TOKEN, if set)")
    p.add_argument("--queue", type=int, default=64, metavar="N",
                   help="jobs that may wait for a worker; beyond, requests get 429 (default 64)")
    p.add_argument("--max-memory", type=float, metavar="MIB",
                   help="mebibytes each worker may allocate; a request needing more gets a 422 (default: an "
                        "equal share of the machine's memory, 1 to 4 GiB)")
    p.set_defaults(func=run)


def config_from(args: argparse.Namespace) -> ServerConfig:
    """The :class:`~cpwords.server.config.ServerConfig` the options ask for.

    Raises
    ------
    InputError
        For a bad option value (naming the option).
    """
    from cpwords.server.config import ServerConfig, default_workers

    if not 0 <= args.port <= 65535:
        raise InputError("a port is a number from 0 to 65535", field="--port", value=args.port)
    token = args.token if args.token is not None else os.environ.get("CPWORDS_TOKEN") or None
    memory = getattr(args, "max_memory", None)
    for option, value, ok, rule in (
            ("--workers", args.workers, args.workers is None or args.workers >= 1, "at least 1"),
            ("--max-time", args.max_time, 0 < args.max_time < MAX_TIME_S,
             f"a number of seconds above 0 and below {MAX_TIME_S:,}"),
            ("--queue", args.queue, args.queue >= 1, "at least 1"),
            ("--token", token, token is None or bool(token.strip()), "not blank"),
            ("--max-memory", memory, memory is None or MIN_MEMORY_MIB <= memory <= MAX_MEMORY_MIB,
             f"a number of mebibytes from {MIN_MEMORY_MIB} to {MAX_MEMORY_MIB:,} (2**40)")):
        if not ok:
            raise InputError(f"must be {rule}", field=option, value=value)
    return ServerConfig(host=args.host, port=args.port, workers=args.workers or default_workers(),
                        max_time=args.max_time, token=token, queue=args.queue,
                        max_memory=None if memory is None else int(memory * 1024**2))


def run(args: argparse.Namespace) -> int:
    """Start the server and serve until Ctrl-C; returns the exit code."""
    try:
        import uvicorn

        from cpwords.server.app import create_app
    except ImportError as exc:
        raise InputError(f"cpwords serve needs FastAPI and uvicorn ({exc.name} is missing); "
                         "install them with: pip install 'cpwords[serve]'") from None
    config = config_from(args)
    sock = listening_socket(config.host, config.port)  # before the first line: a port in use is one error line
    port = sock.getsockname()[1]  # --port 0: the port the system chose
    if args.workers and args.workers > config.workers:
        print(f"cpwords serve: {counted(args.workers, 'worker')} asked for; this machine has "
              f"{counted(config.workers, 'core')}",
              file=sys.stderr)
    if config.host not in LOOPBACK and not config.token:
        print("cpwords serve: warning: listening beyond this machine without --token: anyone who can reach "
              "the port can use the server", file=sys.stderr)
    url = f"http://{_url_host(config.host)}:{port}/"
    if config.token:
        url += "?token=<the token>"
    workers = f"{config.workers} worker{'s' if config.workers != 1 else ''}"
    print(f"cpwords serve: {url} ({workers}, {config.max_time:g} s a solve; Ctrl-C stops)",
          file=sys.stderr)
    server = uvicorn.Server(uvicorn.Config(create_app(config), host=config.host, port=port, log_level="warning",
                                           proxy_headers=True, timeout_graceful_shutdown=3, limit_concurrency=512))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn raises the Ctrl-C it caught again once it has shut down
        pass
    return 0


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening (what uvicorn would open), or one InputError
    line naming the option at fault: a port in use, a host that is no address of this machine."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError, OverflowError) as exc:
        raise InputError(f"not an address to listen on ({getattr(exc, 'strerror', None) or exc})",
                         field="--host", value=host) from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise InputError(f"port {port} is in use; choose another with --port N (--port 0: any free port)",
                             field="--port", value=port) from None
        if exc.errno == errno.EACCES:
            raise InputError(f"no permission to listen on port {port}; ports below 1024 need privileges",
                             field="--port", value=port) from None
        raise InputError(f"cannot listen there ({exc.strerror or exc})", field="--host", value=host) from None
    sock.set_inheritable(True)
    return sock


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
