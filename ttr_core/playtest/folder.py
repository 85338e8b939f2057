"""The report folder of `ttr simulate`: `report.json`, `report.html`, the
pictures and the game records, written at once.

The files are written into a hidden staging folder (inside the target folder if it
exists, else beside it) and moved into place only when all of them are written,
`report.json` last, so a failure (a picture that cannot be drawn, a full disk)
leaves the target folder as it was.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ttr_core.playtest.html import PICTURES, to_html, write_pictures
from ttr_maps.io.files import is_running

if TYPE_CHECKING:
    from ttr_core.playtest.report import BalanceReport
    from ttr_core.playtest.tally import FinalScores
    from ttr_maps.model import Map

#: Every file of a report, in the order they are moved into place (report.json last).
REPORT_FILES = ("report.html", *PICTURES.values(), "report.json")
RECORDS_FOLDER = "records"


class ReportFolderError(ValueError):
    """The report cannot be written to the folder asked for; the message says why."""


def prepare_report_folder(out_dir: Path) -> Path:
    """Check that a report can be written to `out_dir` and make the staging folder
    for it: a new hidden folder inside `out_dir` when it exists, else in its parent
    (created if needed), so it is on the same file system. Call it before the games
    are played, so a bad folder fails at once.

    Raises `ReportFolderError`.
    """
    _check_targets(out_dir)
    target = out_dir.absolute()
    folder = target if target.is_dir() else target.parent
    prefix = f".{target.name}."
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _remove_abandoned_staging(folder, prefix)
        staging_name = f"{prefix}{os.getpid()}."
        staging = Path(tempfile.mkdtemp(dir=folder, prefix=staging_name, suffix=".tmp"))
    except OSError as error:
        raise ReportFolderError(f"cannot write in {folder}: {error.strerror or error}") from None
    return staging


def _remove_abandoned_staging(folder: Path, prefix: str) -> None:
    """Remove staging folders left by runs that were killed (SIGKILL, power loss):
    their name carries the process id, and that process is gone. A run still going
    keeps its folder."""
    for candidate in folder.glob(f"{prefix}*.tmp"):
        pid_text = candidate.name[len(prefix) :].split(".", 1)[0]
        if candidate.is_dir() and pid_text.isdecimal() and not is_running(int(pid_text)):
            shutil.rmtree(candidate, ignore_errors=True)


def _check_targets(out_dir: Path, record_names: list[str] | None = None) -> None:
    """Refuse a target whose folder, or one of whose files, is of the wrong kind."""
    for folder in (out_dir, *out_dir.absolute().parents):
        if folder.exists():
            if not folder.is_dir():
                raise ReportFolderError(f"{folder} exists and is not a folder")
            break
    if not out_dir.is_dir():
        return
    for name in REPORT_FILES:
        if (out_dir / name).is_dir():
            raise ReportFolderError(f"{out_dir / name} is a folder, not a file")
    records = out_dir / RECORDS_FOLDER
    if records.exists() and not records.is_dir():
        raise ReportFolderError(f"{records} exists and is not a folder")
    for name in record_names or []:
        if (records / name).is_dir():
            raise ReportFolderError(f"{records / name} is a folder, not a file")


def _publish(staging: Path, out_dir: Path) -> None:
    """Move the staged report into `out_dir`: the whole folder at once when
    `out_dir` does not exist, else file by file with report.json last."""
    records = staging / RECORDS_FOLDER
    record_names = sorted(p.name for p in records.iterdir()) if records.is_dir() else []
    _check_targets(out_dir, record_names)
    if not out_dir.exists():
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(staging, 0o777 & ~umask)  # mkdtemp makes the folder private
        os.rename(staging, out_dir)
        return
    if record_names:
        (out_dir / RECORDS_FOLDER).mkdir(exist_ok=True)
        for name in record_names:
            os.replace(records / name, out_dir / RECORDS_FOLDER / name)
    for name in REPORT_FILES:
        os.replace(staging / name, out_dir / name)


def write_report(
    report: BalanceReport,
    game_map: Map,
    out_dir: Path,
    scores: FinalScores,
    records: Sequence[tuple[int, str]] = (),
    *,
    staging: Path | None = None,
) -> list[Path]:
    """Write everything into `out_dir` (created if needed); return the files.

    `scores` holds every final score, for the distribution pictures; `records` the
    (seed, record text) of each game to keep. The files are written into `staging` (from
    `prepare_report_folder`; made here if not given), then moved into place; the
    staging folder is removed whatever happens. Raises `ReportFolderError`,
    `PreviewError` or `OSError`, leaving `out_dir` as it was.
    """
    from ttr_maps.io.files import write_text_atomically

    if staging is None:
        staging = prepare_report_folder(out_dir)
    try:
        write_text_atomically(staging / "report.html", to_html(report))
        write_pictures(report, game_map, staging, scores)
        if records:
            folder = staging / RECORDS_FOLDER
            folder.mkdir()
            for seed, text in records:
                write_text_atomically(folder / f"game-{seed}.json", text)
        text = json.dumps(report.to_dict(), indent=1, ensure_ascii=False) + "\n"
        write_text_atomically(staging / "report.json", text)
        _publish(staging, out_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    written = [out_dir / name for name in REPORT_FILES]
    if records:
        written.append(out_dir / RECORDS_FOLDER)
    return written
