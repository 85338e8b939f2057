"""`ttr serve`: the web table, a local page to play-test maps with people and bots."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ttr_core.cli.app import EXIT_OK, app
from ttr_core.cli.common import fail, load_map_argument

HELP = (
    "Serve the web table: play-test maps in the browser, with bots and friends.\n\n"
    "Open the printed URL, pick a map (the bundled ones and every MAP given) and the "
    "seats (people or bots), and start: each person's seat gets its own join link, and "
    "one link lets others watch. Every game is stored in the data folder after every "
    "move and comes back when the server starts again. The server listens on 127.0.0.1 "
    "unless --host says otherwise; Ctrl-C stops it. See docs/play-testing.md."
)


def check_host(host: str) -> str:
    """`--host` as given, if it can name an address to listen on: an IP address or
    a host name (letters, digits, hyphens, dots). Raises the usage error."""
    import ipaddress
    import re

    name = host.strip()
    if name != host or not name:
        raise fail(f"--host {host!r}: give an address to listen on, e.g. 127.0.0.1 or 0.0.0.0")
    try:
        ipaddress.ip_address(name)
        return name
    except ValueError:
        pass
    label = r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)"
    if len(name) > 253 or not re.fullmatch(rf"{label}(\.{label})*\.?", name):
        raise fail(f"--host {host!r}: not an IP address or a host name")
    return name


def lock_data_folder(folder: Path) -> object:
    """Hold the data folder for this server (released when the process ends):
    two servers writing one folder would each restore the other's games."""
    handle = (folder / "serve.lock").open("a+b")
    try:
        import fcntl
    except ImportError:  # Windows: SQLite's own locking still keeps the file whole
        return handle
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise fail(f"--data {folder}: another ttr serve is using this folder") from None
    return handle


@app.command(help=HELP)
def serve(
    maps: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="MAP",
            help="Map files (or bundled ids) to offer besides the bundled maps.",
            show_default=False,
        ),
    ] = None,
    host: Annotated[
        str,
        typer.Option(help="Address to listen on (0.0.0.0 lets other machines join)."),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free port).")] = 8000,
    data: Annotated[
        Path | None,
        typer.Option(
            help="Folder for the stored games (made if missing). Default: the platform's "
            "data folder, e.g. ~/.local/share/ttr.",
            show_default=False,
        ),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            help="Another name the page may be opened by (a DNS name of this machine, a "
            "proxy's name); repeat for several.",
            show_default=False,
        ),
    ] = None,
    idle_minutes: Annotated[
        float,
        typer.Option(
            min=1,
            help="An unfinished game nobody has looked at for this long leaves memory "
            "(it stays stored; its links bring it back).",
        ),
    ] = 120.0,
    keep_days: Annotated[
        float, typer.Option(min=1, help="Stored games untouched for this many days are deleted.")
    ] = 30.0,
    max_games: Annotated[int, typer.Option(min=1, help="Most games in memory at once.")] = 200,
    max_search_seats: Annotated[
        int,
        typer.Option(min=0, help="Most seats of thinking bots (search) playing at once."),
    ] = 8,
    bot_seconds: Annotated[
        float,
        typer.Option(
            min=0.1,
            help="Time a bot may think over one move; past it the seat plays the greedy "
            "bot's move that time.",
        ),
    ] = 15.0,
) -> None:
    from ttr_core.serve.app import create_app
    from ttr_core.serve.store import StoreError, default_data_folder, open_data_folder
    from ttr_core.serve.tables import TableRegistry
    from ttr_core.serve.thinkers import Thinkers
    from ttr_core.web.guard import AllowedHosts
    from ttr_core.web.listen import (
        EVERY_ADDRESS,
        ListenError,
        open_listener,
        page_address,
        serve_until_stopped,
    )

    host = check_host(host)
    extra = [load_map_argument(argument) for argument in maps or []]
    folder = data if data is not None else default_data_folder()
    try:
        store = open_data_folder(folder)
    except StoreError as error:
        raise fail(f"--data: {error}") from None
    lock = lock_data_folder(folder)
    registry = TableRegistry(
        store=store,
        thinkers=Thinkers(move_seconds=bot_seconds),
        idle_seconds=idle_minutes * 60,
        keep_days=keep_days,
        max_tables=max_games,
        max_heavy_seats=max_search_seats,
    )
    application = create_app(
        extra,
        registry=registry,
        hosts=AllowedHosts.for_address(host, allow_host or ()),
        warn=lambda message: typer.echo(f"warning: {message}", err=True),
    )
    try:
        listener = open_listener(host, port)
    except ListenError as error:
        store.close()
        raise fail(str(error)) from None
    also = " (and at this machine's addresses)" if host in EVERY_ADDRESS else ""
    typer.echo(f"ttr web table at {page_address(host, listener)}/{also}  (Ctrl-C stops it)")
    typer.echo(f"games are stored in {folder}")
    try:
        serve_until_stopped(application, listener, lifespan=True)
    finally:
        store.close()
        del lock
    typer.echo("stopped")
    raise typer.Exit(EXIT_OK)
