"""What a project asks of `ttr validate`, as linters take it: a `[tool.ttr]` table in
the nearest `pyproject.toml` and the command line's `--select` / `--ignore`.

```toml
[tool.ttr]
select = ["TTR1", "TTR3"]          # codes or prefixes of the warnings to report
ignore = ["TTR252"]                # warnings never reported
severity = { TTR451 = "error" }    # a warning that fails the run like an error
per-file-ignores = { "maps/drafts/*.yaml" = ["TTR151", "TTR152"] }
```

Only warnings are selected, ignored or raised: an error always stays (a map with
an error cannot be played), as with the `# ttr: disable` comments. `--select`
replaces the file's `select`; `--ignore` adds to its `ignore`. Globs of
`per-file-ignores` are relative to the folder of the `pyproject.toml`.
"""

from __future__ import annotations

import contextlib
import fnmatch
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ttr_maps.checks.problem import Level, Problem

if TYPE_CHECKING:
    from ttr_maps.checks.validate import FileReport

#: Largest pyproject.toml read for the settings.
_MAX_CONFIG_BYTES = 1_000_000
_KEYS = frozenset({"select", "ignore", "severity", "per-file-ignores"})


class ConfigError(ValueError):
    """A `[tool.ttr]` table that cannot be used; the message names the file and key."""


@dataclass(frozen=True)
class Selection:
    """Which warnings a run reports, and at which level."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, Level] = field(default_factory=dict)
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    root: Path | None = None
    source: str = "defaults"

    def with_options(self, select: Iterable[str], ignore: Iterable[str]) -> Selection:
        """The command line's `--select` (replacing) and `--ignore` (adding)."""
        chosen = _codes(select, "--select")
        return replace(
            self,
            select=chosen or self.select,
            ignore=(*self.ignore, *_codes(ignore, "--ignore")),
        )

    def keeps(self, problem: Problem) -> bool:
        """Whether the run reports `problem` (an error always)."""
        if problem.level is Level.ERROR:
            return True
        if self.select and not _matches(problem.code, self.select):
            return False
        if _matches(problem.code, self.ignore):
            return False
        return not _matches(problem.code, self._file_ignores(problem.path))

    def apply(self, report: FileReport) -> FileReport:
        """The report with only the kept problems, warnings raised where asked."""
        problems = [
            replace(p, level=self.severity[p.code])
            if p.level is Level.WARNING and p.code in self.severity
            else p
            for p in report.problems
        ]
        return replace(report, problems=[p for p in problems if self.keeps(p)])

    def _file_ignores(self, path: str) -> tuple[str, ...]:
        if not self.per_file_ignores:
            return ()
        candidate = Path(path)
        if self.root is not None:
            with contextlib.suppress(OSError, ValueError):  # a path outside the project
                candidate = candidate.resolve().relative_to(self.root.resolve())
        shown = candidate.as_posix()
        return tuple(
            code
            for pattern, codes in self.per_file_ignores
            if fnmatch.fnmatch(shown, pattern)
            for code in codes
        )


def _matches(code: str, prefixes: Iterable[str]) -> bool:
    return any(code.startswith(prefix) for prefix in prefixes)


def _codes(values: Iterable[str], where: str) -> tuple[str, ...]:
    """Codes or prefixes, upper-cased; commas split a value (`--ignore A,B`)."""
    found = []
    for value in values:
        if not isinstance(value, str):
            raise ConfigError(f"{where}: codes are strings such as 'TTR252', not {value!r}")
        for item in value.split(","):
            code = item.strip().upper()
            if not code:
                continue
            if (
                not code.startswith("TTR")
                or not (code[3:] == "" or code[3:].isdigit())
                or len(code) > 6
            ):
                raise ConfigError(f"{where}: {item.strip()!r} is not a code or prefix like TTR2")
            found.append(code)
    return tuple(found)


def find_config(start: Path) -> Path | None:
    """The nearest `pyproject.toml` with a `[tool.ttr]` table, from `start` up."""
    folder = start.resolve()
    for candidate in (folder, *folder.parents):
        path = candidate / "pyproject.toml"
        try:
            if path.is_file() and b"[tool.ttr" in path.read_bytes()[:_MAX_CONFIG_BYTES]:
                return path
        except OSError:
            continue
    return None


def load_selection(path: Path | None) -> Selection:
    """The settings of the `[tool.ttr]` table in `path` (defaults for None);
    `ConfigError` with the file and key when they cannot be used."""
    import tomllib

    if path is None:
        return Selection()
    where = str(path)
    try:
        raw = path.read_bytes()[: _MAX_CONFIG_BYTES + 1]
        if len(raw) > _MAX_CONFIG_BYTES:
            raise ConfigError(f"{where}: larger than {_MAX_CONFIG_BYTES:,} bytes")
        table: Any = tomllib.loads(raw.decode("utf-8")).get("tool", {}).get("ttr", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{where}: cannot read [tool.ttr]: {error}") from None
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: [tool.ttr] must be a table")
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        keys = ", ".join(sorted(_KEYS))
        raise ConfigError(f"{where}: [tool.ttr] has no key {unknown[0]!r} (keys: {keys})")
    severity = table.get("severity", {})
    if not isinstance(severity, dict):
        raise ConfigError(f"{where}: [tool.ttr] severity must be a table of code = level")
    levels = {}
    for code, level in severity.items():
        (name,) = _codes([code], f"{where}: severity")
        if level not in ("error", "warning"):
            raise ConfigError(f"{where}: severity {code}: 'error' or 'warning', not {level!r}")
        levels[name] = Level(level)
    ignores = table.get("per-file-ignores", {})
    if not isinstance(ignores, dict) or not all(isinstance(v, list) for v in ignores.values()):
        raise ConfigError(f"{where}: per-file-ignores maps globs to lists of codes")
    return Selection(
        select=_codes(_list(table, "select", where), f"{where}: select"),
        ignore=_codes(_list(table, "ignore", where), f"{where}: ignore"),
        severity=levels,
        per_file_ignores=tuple(
            (glob, _codes(codes, f"{where}: per-file-ignores")) for glob, codes in ignores.items()
        ),
        root=path.parent,
        source=where,
    )


def _list(table: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = table.get(key, [])
    if not isinstance(value, list):
        raise ConfigError(f"{where}: [tool.ttr] {key} must be a list of codes")
    return value
