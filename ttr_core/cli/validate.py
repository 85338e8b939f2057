"""`ttr validate`: check map files and report every problem."""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ttr_core.cli.app import EXIT_FAILED, EXIT_OK, EXIT_USAGE, app
from ttr_core.cli.common import MapPaths, checked_output, fail, output_file
from ttr_maps.checks.reporters import REPORTERS

if TYPE_CHECKING:
    from ttr_maps.checks.config import Selection
    from ttr_maps.checks.validate import FileReport

#: `--format` choices, derived from the validation reporters.
OutputFormat = StrEnum("OutputFormat", {name: name for name in REPORTERS})  # type: ignore[misc]
DEFAULT_FORMAT = OutputFormat("text")


@app.command(bounded=True)
def validate(
    paths: MapPaths = None,
    output_format: Annotated[
        OutputFormat,
        typer.Option(
            "--format",
            "-f",
            help="text: file:line:col lines; json: files, problems and totals; github: "
            "workflow annotations (plus a full table in $GITHUB_STEP_SUMMARY when set); "
            "sarif: SARIF 2.1.0 for code scanning.",
        ),
    ] = DEFAULT_FORMAT,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail the run too.")] = False,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Write the report to this file instead of standard output (never one of "
            "the maps checked; a FIFO or /dev/stdout is written as a stream).",
            parser=output_file,
        ),
    ] = None,
    list_checks: Annotated[
        bool,
        typer.Option("--list-checks", help="List every check (code, level, summary) and exit."),
    ] = False,
    select: Annotated[
        list[str] | None,
        typer.Option(
            "--select",
            help="Report only the warnings of these codes or prefixes (TTR3, TTR252; "
            "repeat or separate with commas). Replaces [tool.ttr] select. Errors are "
            "always reported.",
            show_default=False,
        ),
    ] = None,
    ignore: Annotated[
        list[str] | None,
        typer.Option(
            "--ignore",
            help="Never report the warnings of these codes or prefixes (added to "
            "[tool.ttr] ignore).",
            show_default=False,
        ),
    ] = None,
    statistics: Annotated[
        bool,
        typer.Option(
            "--statistics", help="Print how many problems each code has, not each problem."
        ),
    ] = False,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            help="The pyproject.toml whose [tool.ttr] table to read. Default: the nearest "
            "one with such a table, from the working folder up.",
            show_default=False,
        ),
    ] = None,
    stdin_filename: Annotated[
        str,
        typer.Option(
            "--stdin-filename",
            help="With the path '-' (the map read from standard input): the name to "
            "report it under.",
        ),
    ] = "-",
) -> None:
    """Validate map files: YAML, the schema, then every check (R2 ticket values and more).

    PATHS are files, folders or bundled map ids (north_america, europe, ...); none: every
    bundled map; `-` reads one map from standard input.

    Exit status: 0 when no file fails; 1 when a file has errors (or warnings, with
    --strict); 2 on a usage error or when a path cannot be read (the other files
    are still checked and reported). A file can silence warnings with a comment
    line such as `# ttr: disable=TTR252` (or one line: `# ttr: disable-line=…`), and a
    project with a [tool.ttr] table in pyproject.toml (select, ignore, severity,
    per-file-ignores; docs/ci.md). See docs/map-format.md for every check.
    """
    from ttr_maps.checks.reporters import check_table, statistics_table, to_markdown
    from ttr_maps.checks.validate import iter_map_files, validate_files
    from ttr_maps.io.files import append_text, describe_os_error, write_text_atomically

    if list_checks:
        typer.echo(check_table(), nl=False)
        raise typer.Exit(EXIT_OK)
    selection = _selection(config, select or [], ignore or [])
    from_stdin = paths is not None and [str(p) for p in paths] == ["-"]
    if paths is not None and "-" in [str(p) for p in paths] and not from_stdin:
        raise fail("'-' (standard input) is the only path when it is given")
    targets = (
        []
        if from_stdin
        else list(
            iter_map_files([_resolve(p) for p in paths] if paths else [bundled_maps_folder()])
        )
    )
    summary_file = os.environ.get("GITHUB_STEP_SUMMARY") if output_format == "github" else None
    # Before the work, so a mistyped folder fails at once; never over a map checked.
    checked_output(output, "--output", targets)
    checked_output(Path(summary_file) if summary_file else None, "GITHUB_STEP_SUMMARY", targets)
    found = [_standard_input_report(stdin_filename)] if from_stdin else validate_files(targets)
    reports = [selection.apply(report) for report in found]
    report = statistics_table if statistics else REPORTERS[output_format.value]
    rendered = report(reports)
    if output is None:
        typer.echo(rendered, nl=False)
    else:
        try:
            write_text_atomically(output, rendered)
        except OSError as error:
            raise fail(f"cannot write {output}: {describe_os_error(error)}") from None
    if summary_file:
        try:
            append_text(Path(summary_file), to_markdown(reports))
        except OSError as error:
            raise fail(f"cannot write the step summary: {describe_os_error(error)}") from None
    if any(r.is_unreadable for r in reports):
        raise typer.Exit(EXIT_USAGE)
    failed = any(r.fails(strict) for r in reports)
    raise typer.Exit(EXIT_FAILED if failed else EXIT_OK)


def _resolve(path: Path) -> Path:
    """A path as given, or the bundled map it names (`ttr validate europe`), as
    every command that reads one map takes a bundled id."""
    from ttr_maps.io.bundled import resolve_map_argument

    return path if path.exists() else resolve_map_argument(str(path))


def bundled_maps_folder() -> Path:
    """The bundled maps folder (what `ttr validate` and `ttr fix` check by default),
    relative to the working folder when it is inside it, so reports (and GitHub
    annotations) show short repository paths."""
    from ttr_maps.io.bundled import maps_dir

    folder = maps_dir()
    try:
        return folder.relative_to(Path.cwd())
    except ValueError:
        return folder


def _selection(config: Path | None, select: list[str], ignore: list[str]) -> Selection:
    """[tool.ttr] of `config` (or the nearest pyproject.toml), with the options."""
    from ttr_maps.checks.config import ConfigError, find_config, load_selection

    try:
        return load_selection(config or find_config(Path.cwd())).with_options(select, ignore)
    except ConfigError as error:
        raise fail(str(error)) from None


def _standard_input_report(name: str) -> FileReport:
    """The report of the map text on standard input, under `name`, read under the
    reader's size limit (a larger input is refused, exit 2)."""
    import sys

    from ttr_maps.checks.validate import validate_text
    from ttr_maps.io.limits import MAX_MAP_BYTES

    data = sys.stdin.buffer.read(MAX_MAP_BYTES + 1)
    if len(data) > MAX_MAP_BYTES:
        raise fail(f"standard input: larger than {MAX_MAP_BYTES:,} bytes, the most a map may be")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise fail(f"standard input: not UTF-8 text (byte {error.start})") from None
    return validate_text(text, name)
