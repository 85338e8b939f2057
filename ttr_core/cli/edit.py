"""`ttr edit`: draw a map in the browser, with the engine's checks live."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ttr_core.cli.app import EXIT_OK, app
from ttr_core.cli.common import fail
from ttr_core.cli.serve import check_host

HELP = (
    "Edit a map in the browser: draw cities (by clicking, or by name from a gazetteer), "
    "routes and tickets on the board, with ttr validate's checks after every edit, "
    "undo and redo, and play-tests from the page.\n\n"
    "MAP is a map file; a path that does not exist starts an empty map (its id from the "
    "file name) in the region given by --region (a country name or code, or 'plane' for "
    "an invented board), asked for if not given. Only MAP is ever written, and only when "
    "you save. The server listens on 127.0.0.1 unless --host says otherwise; the link "
    "it prints holds a secret token. Ctrl-C stops it. See docs/authoring.md."
)


def _region(region: str | None) -> str:
    if region is None:
        if not sys.stdin.isatty():
            raise fail("a new map needs --region (a country, e.g. 'Norway' or NO, or 'plane')")
        region = typer.prompt("Region of the new map (a country, e.g. Norway or NO, or 'plane')")
    return region.strip()


@app.command(help=HELP)
def edit(
    path: Annotated[Path, typer.Argument(metavar="MAP", help="The map file to edit or create.")],
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free port).")] = 8765,
    region: Annotated[
        str | None,
        typer.Option(
            help="Country the map is drawn in (name or ISO code; 'plane' for x/y): the "
            "empty board's extent, and where names are looked up first.",
            show_default=False,
        ),
    ] = None,
    open_browser: Annotated[
        bool, typer.Option("--open/--no-open", help="Open the page in the web browser.")
    ] = True,
) -> None:
    import socket

    import uvicorn

    from ttr_core.edit.app import create_app, new_token
    from ttr_core.edit.session import EditSession, OpenError
    from ttr_core.serve.guard import AllowedHosts
    from ttr_maps.authoring.gazetteer import country_code, country_frame, warm_index
    from ttr_maps.authoring.starter import StarterError, default_schema_reference, empty_map_text

    host = check_host(host)
    new_text = None
    country = None
    if path.suffix.lower() not in (".yaml", ".yml"):
        raise fail(f"{path}: a map file ends in .yaml or .yml")
    exists = path.exists() or path.is_symlink()
    if exists or region:
        chosen = _region(region) if not exists else region
        if chosen and chosen.lower() != "plane":
            country = country_code(chosen)
            if country is None:
                raise fail(f"--region {chosen!r}: no such country (give its name or ISO code)")
    if not exists:
        chosen = _region(region)
        plane = chosen.lower() == "plane"
        if not plane and country is None:
            country = country_code(chosen)
            if country is None:
                raise fail(f"--region {chosen!r}: no such country (give its name or ISO code)")
        try:
            new_text = empty_map_text(
                path.stem,
                coordinates="plane" if plane else "geographic",
                schema_ref=default_schema_reference(path),
            )
        except StarterError as problem:
            raise fail(f"{path}: {problem}; name the file after the map's id") from None
        if not path.parent.is_dir():
            raise fail(f"{path}: folder {path.parent} does not exist")
    frame = country_frame(country) if country else None
    try:
        session = EditSession.open(path, new_text, region=frame, country=country)
    except OpenError as problem:
        raise fail(str(problem)) from None
    if session.checked.drawable.is_geographic:
        warm_index()  # while the page loads: the first search by name is answered at once
    token = new_token()
    application = create_app(session, token, hosts=AllowedHosts.for_address(host))
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
        listener.listen(64)
    except (OSError, OverflowError, UnicodeError) as error:
        listener.close()
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise fail(f"cannot listen on {host}:{port}: {reason}") from None
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    url = f"http://{shown}:{listener.getsockname()[1]}/#token={token}"
    typer.echo(f"ttr edit: {path} at {url}  (Ctrl-C stops it)")
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    server = uvicorn.Server(uvicorn.Config(application, log_level="warning", lifespan="off"))
    try:
        server.run(sockets=[listener])
    except KeyboardInterrupt:
        pass
    finally:
        listener.close()
    if session.dirty:
        typer.echo(f"stopped; unsaved edits to {path.name} were left unsaved", err=True)
    else:
        typer.echo("stopped")
    raise typer.Exit(EXIT_OK)
