"""`ttr serve`: the web table, a local page to play-test maps with people and bots."""

from __future__ import annotations

from typing import Annotated

import typer

from ttr_core.cli.app import EXIT_OK, app
from ttr_core.cli.common import fail, load_map_argument

HELP = (
    "Serve the web table: play-test maps in the browser, with bots and friends.\n\n"
    "Open the printed URL, pick a map (the bundled ones and every MAP given), the seats "
    "(people or bots) and a seed, and start: each human seat gets its own join link. "
    "Games live in memory and expire when idle. The server listens on 127.0.0.1 unless "
    "--host says otherwise; Ctrl-C stops it. See docs/play-testing.md."
)


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
    idle_minutes: Annotated[
        float,
        typer.Option(min=1, help="A game nobody has looked at for this long expires."),
    ] = 120.0,
    max_games: Annotated[int, typer.Option(min=1, help="Most games held at once.")] = 200,
) -> None:
    import socket

    import uvicorn

    from ttr_core.serve.app import create_app
    from ttr_core.serve.tables import TableRegistry

    extra = [load_map_argument(argument) for argument in maps or []]
    application = create_app(
        extra, registry=TableRegistry(idle_seconds=idle_minutes * 60, max_tables=max_games)
    )
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
        listener.listen(128)  # connections made before uvicorn starts wait, not fail
    except (OSError, OverflowError) as error:
        listener.close()
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise fail(f"cannot listen on {host}:{port}: {reason}") from None
    bound_port = listener.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    typer.echo(f"ttr web table at http://{shown}:{bound_port}/  (Ctrl-C stops it)")
    server = uvicorn.Server(uvicorn.Config(application, log_level="warning", lifespan="off"))
    try:
        server.run(sockets=[listener])
    except KeyboardInterrupt:  # uvicorn shuts down, then passes Ctrl-C on
        pass
    finally:
        listener.close()
    typer.echo("stopped")
    raise typer.Exit(EXIT_OK)
