"""Reporters: turn validation reports into text for people, JSON for scripts,
GitHub workflow commands for pull requests, and SARIF for code scanning.

Every reporter takes the list of `FileReport`s of one run and returns a string;
none of them prints. `REPORTERS` maps a `--format` name to its reporter (the
choices of `ttr validate --format` are its keys); `to_markdown` writes the step
summary that goes with the github format.

This module imports little, so the `ttr` command can read `REPORTERS` at start-up.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ttr_maps.about import installed_version
from ttr_maps.checks.problem import Level, Problem

if TYPE_CHECKING:
    from ttr_maps.checks.validate import FileReport

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _problems(reports: Sequence[FileReport]) -> list[Problem]:
    return [p for report in reports for p in report.problems]


def summary_line(reports: Sequence[FileReport]) -> str:
    """One line: how many files, errors and warnings.

    >>> summary_line([])
    'Checked 0 files: no problems.'
    """
    problems = _problems(reports)
    errors = sum(p.level is Level.ERROR for p in problems)
    warnings = len(problems) - errors
    files = f"Checked {_plural(len(reports), 'file')}"
    if not problems:
        return f"{files}: no problems."
    with_problems = sum(bool(r.problems) for r in reports)
    counts = f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')}"
    return f"{files}: {counts} in {_plural(with_problems, 'file')}."


def to_text(reports: Sequence[FileReport]) -> str:
    """`maps/x.yaml:12:5: error TTR304 message` per problem, then a summary line."""
    lines = [str(p) for p in _problems(reports)]
    lines.append(summary_line(reports))
    return "\n".join(lines) + "\n"


def _problem_data(problem: Problem) -> dict[str, Any]:
    return {
        "path": problem.path,
        "line": problem.position.line,
        "column": problem.position.column,
        "level": problem.level.value,
        "code": problem.code,
        "message": problem.message,
    }


def to_json(reports: Sequence[FileReport]) -> str:
    """Every file with its problems, and totals.

    `{"files": [{"path", "errors", "warnings", "problems": [{"path", "line",
    "column", "level", "code", "message"}]}], "totals": {"files", "errors",
    "warnings"}}`
    """
    files = [
        {
            "path": report.path,
            "errors": len(report.errors),
            "warnings": len(report.warnings),
            "problems": [_problem_data(p) for p in report.problems],
        }
        for report in reports
    ]
    totals = {
        "files": len(files),
        "errors": sum(f["errors"] for f in files),
        "warnings": sum(f["warnings"] for f in files),
    }
    return json.dumps({"files": files, "totals": totals}, indent=2, ensure_ascii=False) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_command(problem: Problem) -> str:
    """One GitHub Actions workflow command, escaped as the runner expects.

    >>> from ttr_maps.io.document import Position
    >>> github_command(Problem("m,1.yaml", Position(3, 5), Level.ERROR, "TTR304", "50% off"))
    '::error file=m%2C1.yaml,line=3,col=5,title=TTR304::50%25 off'
    """
    properties = ",".join(
        f"{key}={_escape_property(str(value))}"
        for key, value in (
            ("file", problem.path),
            ("line", problem.position.line),
            ("col", problem.position.column),
            ("title", problem.code),
        )
    )
    return f"::{problem.level.value} {properties}::{_escape_data(problem.message)}"


def to_github(reports: Sequence[FileReport]) -> str:
    """Workflow commands (`::error file=…,line=…,col=…,title=TTR304::…`), one per
    problem, then the summary line. GitHub shows only 10 annotations of each level
    per step: `to_markdown` gives the full table for the step summary."""
    lines = [github_command(p) for p in _problems(reports)]
    lines.append(summary_line(reports))
    return "\n".join(lines) + "\n"


def _markdown_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def to_markdown(reports: Sequence[FileReport]) -> str:
    """A Markdown section with a table of every problem (for `$GITHUB_STEP_SUMMARY`)."""
    lines = ["## ttr validate", "", summary_line(reports), ""]
    problems = _problems(reports)
    if problems:
        lines += [
            "| File | Line | Column | Level | Code | Message |",
            "| --- | ---: | ---: | --- | --- | --- |",
        ]
        for p in problems:
            cells = (p.path, str(p.position.line), str(p.position.column), p.level.value, p.code)
            row = " | ".join(_markdown_cell(c) for c in (*cells, p.message))
            lines.append(f"| {row} |")
    return "\n".join(lines) + "\n"


def _artifact_uri(path: str) -> str:
    from urllib.parse import quote

    candidate = Path(path)
    if candidate.is_absolute():
        return candidate.as_uri()
    return quote(candidate.as_posix())


def _sarif_level(level: Level) -> str:
    return "error" if level is Level.ERROR else "warning"


def sarif_rules() -> list[dict[str, Any]]:
    """SARIF reporting descriptors for every registered code."""
    import inspect

    from ttr_maps.checks.catalog import all_checks

    rules = []
    for entry in all_checks():
        description = inspect.cleandoc(entry.doc) if entry.doc else entry.summary
        rules.append(
            {
                "id": entry.code,
                "name": entry.function.__name__ if entry.function else f"rule{entry.code}",
                "shortDescription": {"text": entry.summary},
                "fullDescription": {"text": description},
                "help": {"text": description},
                "defaultConfiguration": {"level": _sarif_level(entry.level)},
            }
        )
    return rules


def to_sarif(reports: Sequence[FileReport]) -> str:
    """A SARIF 2.1.0 log with one run: the rules from the check registry and one
    result per problem, located by file, line and column."""
    rules = sarif_rules()
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    results = []
    for problem in _problems(reports):
        result: dict[str, Any] = {
            "ruleId": problem.code,
            "level": _sarif_level(problem.level),
            "message": {"text": problem.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _artifact_uri(problem.path)},
                        "region": {
                            "startLine": problem.position.line,
                            "startColumn": problem.position.column,
                        },
                    }
                }
            ],
        }
        if problem.code in index:
            result["ruleIndex"] = index[problem.code]
        results.append(result)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "ttr",
                        "version": installed_version(),
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


#: `--format` names and their reporters.
REPORTERS: dict[str, Callable[[Sequence[FileReport]], str]] = {
    "text": to_text,
    "json": to_json,
    "github": to_github,
    "sarif": to_sarif,
}


def check_table() -> str:
    """Every registered code as a plain-text table: code, level, summary."""
    from ttr_maps.checks.catalog import all_checks

    return "".join(f"{c.code}  {c.level.value:<7}  {c.summary}\n" for c in all_checks())


def statistics_table(reports: Sequence[FileReport]) -> str:
    """How many problems each code has over `reports` (`ttr validate --statistics`),
    most first, with the check's level and summary, then the total.

    >>> from ttr_maps.checks.validate import FileReport
    >>> from ttr_maps.io.document import Position
    >>> p = Problem("a.yaml", Position(1, 1), Level.WARNING, "TTR152", "x")
    >>> print(statistics_table([FileReport("a.yaml", [p, p])]), end="")
        2  TTR152  warning  a dead-end city hangs on one single-track route
    2 problems in 1 file.
    """
    from collections import Counter

    from ttr_maps.checks.catalog import all_checks

    summaries = {c.code: c.summary for c in all_checks()}
    counts = Counter((p.code, p.level.value) for r in reports for p in r.problems)
    width = len(str(max(counts.values(), default=0)))
    lines = [
        f"{n:>{max(width, 5)}}  {code}  {level:<7}  {summaries.get(code, '')}".rstrip() + "\n"
        for (code, level), n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    ]
    files = sum(1 for r in reports if r.problems)
    total = sum(counts.values())
    lines.append(f"{total} problem{'s' * (total != 1)} in {files} file{'s' * (files != 1)}.\n")
    return "".join(lines)
