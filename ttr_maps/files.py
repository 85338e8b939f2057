"""Writing files atomically: a reader never sees half a file, and a failure leaves
the old file as it was."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


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
