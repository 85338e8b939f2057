"""`ttr fix`: rewrite wrong ticket values (R2) in place."""

from __future__ import annotations

from typing import Annotated

import typer

from ttr_core.cli.app import EXIT_FAILED, EXIT_OK, EXIT_USAGE, app
from ttr_core.cli.common import MapPaths
from ttr_maps.text import shorten_message


@app.command(bounded=True)
def fix(
    paths: MapPaths = None,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Change nothing: list what would change (file:line:col old -> new) and "
            "exit 1 if anything would.",
        ),
    ] = False,
) -> None:
    """Rewrite ticket values that differ from the shortest wagon distance (R2, TTR304).

    Only those numbers change: comments, order and formatting stay byte for byte
    the same, and each file is replaced atomically. A file with other errors
    (YAML, schema, unknown cities, repeated keys...) is reported and skipped, and
    so is a value written as an alias, or with an anchor or a tag (fix it by
    hand). A symlinked map is fixed at its target; a file changed on disk while
    fix worked on it is not replaced.

    Exit status: 0 when nothing is left to fix; 1 with --check when something
    would change, or when a file was skipped for other errors; 2 when a path
    cannot be read or written.
    """
    from ttr_core.cli.validate import bundled_maps_folder
    from ttr_maps.analysis.fix import apply_fix, plan_fix
    from ttr_maps.checks.validate import iter_map_files

    status = EXIT_OK
    changed_files = 0
    for target in iter_map_files(paths or [bundled_maps_folder()]):
        plan = plan_fix(target)
        if plan.is_skipped:
            for problem in plan.blockers:
                typer.echo(shorten_message(str(problem)), err=True)
            if plan.unreadable:
                status = EXIT_USAGE
            else:
                typer.echo(f"{plan.path}: skipped: fix the errors above first", err=True)
                status = max(status, EXIT_FAILED)
            continue
        if not plan.changes:
            continue
        if check:
            status = max(status, EXIT_FAILED)
        else:
            try:
                apply_fix(plan)
            except OSError as error:
                typer.echo(f"{plan.path}: cannot write: {error.strerror or error}", err=True)
                status = EXIT_USAGE
                continue
        # Said only once the file is written (or, with --check, would be).
        changed_files += 1
        for change in plan.changes:
            verb = "would change" if check else "changed"
            typer.echo(
                f"{plan.path}:{change.line}:{change.column}: {verb} ticket {change.ticket} "
                f"value {change.old} -> {change.new} (R2)"
            )
    if check:
        typer.echo(f"{changed_files} file(s) would change.")
    else:
        typer.echo(f"{changed_files} file(s) changed.")
    raise typer.Exit(status)
