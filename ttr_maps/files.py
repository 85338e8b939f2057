"""Writing files atomically: a reader never sees half a file, and a failure leaves
the old file as it was. And checking an output path before the work that fills it."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class OutputPathError(ValueError):
    """A file cannot be written at this path (the message says why)."""


def check_output_path(path: str | Path) -> Path:
    """`path` as a `Path` if a file can be written there, else `OutputPathError`:
    it is a folder, its folder does not exist, or its folder is not writable.

    Commands call it before the work that fills the file, so a typo in a folder
    name fails at once; the write itself can still fail (a full disk) and must
    handle `OSError` too.

    >>> check_output_path("no_such_folder/x.png")
    Traceback (most recent call last):
    ...
    ttr_maps.files.OutputPathError: no_such_folder/x.png: folder no_such_folder does not exist
    """
    target = Path(path)
    if target.is_dir():
        raise OutputPathError(f"{target}: is a folder; give a file name")
    folder = target.parent
    if not folder.is_dir():
        raise OutputPathError(f"{target}: folder {folder} does not exist")
    # The atomic write creates a temporary file in the folder and renames it.
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputPathError(f"{target}: folder {folder} is not writable")
    return target


@contextmanager
def atomic_target(path: Path) -> Iterator[Path]:
    """A temporary path in the same folder as `path`; when the block succeeds it is
    renamed over `path` (keeping an existing file's permissions), otherwise removed.

        with atomic_target(Path("out.png")) as temporary:
            figure.savefig(temporary, format="png")
    """
    folder = path.parent if str(path.parent) else Path(".")
    handle, name = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
        if path.exists():
            mode = path.stat().st_mode & 0o7777
        else:  # mkstemp makes the file private; a new file gets the usual mode
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def write_bytes_atomically(path: Path, data: bytes) -> None:
    """Replace `path` with `data` in one step."""
    with atomic_target(path) as temporary, open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def write_text_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` (UTF-8, newlines as written) in one step."""
    write_bytes_atomically(path, text.encode("utf-8"))
