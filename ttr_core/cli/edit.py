"""`ttr edit`: draw a map in the browser, with the engine's checks live."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ttr_core.cli.app import EXIT_OK, app
from ttr_core.cli.common import fail
from ttr_core.cli.serve import check_host

if TYPE_CHECKING:
    from ttr_core.edit.session import EditSession

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


def _country_of(region: str) -> str | None:
    """The ISO code of the country `--region` names (None for 'plane')."""
    from ttr_maps.authoring.gazetteer import country_code

    if region.lower() == "plane":
        return None
    country = country_code(region)
    if country is None:
        raise fail(f"--region {region!r}: no such country (give its name or ISO code)")
    return country


def _new_map_text(path: Path, plane: bool) -> str:
    """The text of an empty map for a file that does not exist yet (its id from the
    file name)."""
    from ttr_maps.authoring.starter import StarterError, default_schema_reference, empty_map_text

    try:
        text = empty_map_text(
            path.stem,
            coordinates="plane" if plane else "geographic",
            schema_ref=default_schema_reference(path),
        )
    except StarterError as problem:
        raise fail(f"{path}: {problem}; name the file after the map's id") from None
    if not path.parent.is_dir():
        raise fail(f"{path}: folder {path.parent} does not exist")
    return text


def open_session(path: Path, region: str | None) -> EditSession:
    """The editing session of `path`: the file as it is, or an empty map in the
    region asked for (`--region`, else asked at the terminal). Raises the usage
    error."""
    from ttr_core.edit.session import EditSession, OpenError
    from ttr_maps.authoring.gazetteer import country_frame

    if path.suffix.lower() not in (".yaml", ".yml"):
        raise fail(f"{path}: a map file ends in .yaml or .yml")
    if path.exists() or path.is_symlink():
        country = _country_of(region) if region else None
        new_text = None
    else:
        chosen = _region(region)
        country = _country_of(chosen)
        new_text = _new_map_text(path, plane=chosen.lower() == "plane")
    frame = country_frame(country) if country else None
    try:
        return EditSession.open(path, new_text, region=frame, country=country)
    except OpenError as problem:
        raise fail(str(problem)) from None


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
    from ttr_core.edit.access import new_token
    from ttr_core.edit.app import create_app
    from ttr_core.web.guard import AllowedHosts
    from ttr_core.web.listen import ListenError, open_listener, page_address, serve_until_stopped

    host = check_host(host)
    session = open_session(path, region)
    if session.checked.drawable.is_geographic:
        from ttr_maps.authoring.gazetteer import warm_index

        warm_index()  # while the page loads: the first search by name is answered at once
    token = new_token()
    application = create_app(session, token, hosts=AllowedHosts.for_address(host))
    try:
        listener = open_listener(host, port)
    except ListenError as error:
        raise fail(str(error)) from None
    url = f"{page_address(host, listener)}/#token={token}"
    typer.echo(f"ttr edit: {path} at {url}  (Ctrl-C stops it)")
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    serve_until_stopped(application, listener, lifespan=False)
    if session.dirty:
        typer.echo(f"stopped; unsaved edits to {path.name} were left unsaved", err=True)
    else:
        typer.echo("stopped")
    raise typer.Exit(EXIT_OK)
