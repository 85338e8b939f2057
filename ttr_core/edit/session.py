"""The opened file: its text now, what was last read from or written to disk, the
undo and redo history, and saving.

The file on disk is the only state the editor keeps between runs: edits live in
memory until they are saved, and saving writes the text through the atomic writer
`ttr fix` uses (`ttr_maps.io.files.write_text_atomically`), only to the opened
path, and only if the file is still what was read (`ConflictError` otherwise: the
page offers a reload).
"""

from __future__ import annotations

import errno
import threading
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from ttr_core.edit.edits import Edit, ReplaceText, apply_edit, describe
from ttr_core.edit.state import Checked, check
from ttr_maps.io import limits
from ttr_maps.io.files import (
    FileChangedError,
    FileIdentity,
    InputFileError,
    TextForm,
    describe_os_error,
    file_identity,
    read_regular_file,
    write_text_atomically,
)

#: Steps kept for undo (the issue asks for at least 200).
UNDO_STEPS = 500


class ConflictError(Exception):
    """The file changed on disk since it was read: it is not overwritten."""


class DropError(ConflictError):
    """The save would undo a change made on disk that a reload brought in (the
    page asks before saving anyway)."""


class OpenError(Exception):
    """The file cannot be opened for editing (the message says why)."""


@dataclass
class Step:
    text: str
    label: str


def read_map_text(path: Path) -> tuple[str, FileIdentity]:
    """The text of a map file and its identity, read as `ttr validate` reads it."""
    try:
        identity = file_identity(path)
        raw = read_regular_file(path, limits.MAX_MAP_BYTES)
    except InputFileError as problem:
        raise OpenError(f"{path}: {problem}") from None
    except OSError as problem:
        raise OpenError(f"{path}: {describe_os_error(problem)}") from None
    try:
        return raw.decode("utf-8"), identity
    except UnicodeDecodeError as problem:
        raise OpenError(f"{path}: not UTF-8 text ({problem.reason})") from None


@dataclass
class EditSession:
    """One file being edited. Every method holds the session's lock: the page's
    requests are handled one after another."""

    path: Path
    text: str
    #: The text as on disk when it was last read or written ("" for a new file).
    saved_text: str
    #: The file's identity then (None: the file did not exist).
    identity: FileIdentity | None
    #: (south, west, north, east) of the region a new map is drawn in.
    region: tuple[float, float, float, float] | None = None
    country: str | None = None
    undo_steps: deque[Step] = field(default_factory=lambda: deque(maxlen=UNDO_STEPS))
    redo_steps: list[Step] = field(default_factory=list)
    revision: int = 0
    #: (the file before, the file after) the last reload that brought in a change
    #: made on disk: a save that would undo it asks first.
    disk_change: tuple[str, str] | None = None
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    _checked: Checked | None = field(default=None, repr=False)

    @classmethod
    def open(cls, path: Path, new_text: str | None = None, **region: object) -> EditSession:
        """The session of an existing file, or of `new_text` for a path that
        does not exist yet (written on the first save)."""
        if new_text is not None and not path.exists():
            return cls(path, new_text, "", None, **region)  # type: ignore[arg-type]
        text, identity = read_map_text(path)
        return cls(path, text, text, identity, **region)  # type: ignore[arg-type]

    @property
    def checked(self) -> Checked:
        with self.lock:
            if self._checked is None or self._checked.text != self.text:
                self._checked = check(self.text, str(self.path), self.region)
            return self._checked

    @property
    def dirty(self) -> bool:
        return self.text != self.saved_text or self.identity is None

    def apply(self, edit: Edit) -> None:
        """Make an edit (`EditError` if it cannot be made; nothing changes then)."""
        with self.lock:
            new = apply_edit(self.text, edit)
            if new == self.text:
                return
            self.undo_steps.append(Step(self.text, describe(edit)))
            self.redo_steps.clear()
            self._set(new)

    def _set(self, text: str) -> None:
        self.text = text
        self.revision += 1

    def undo(self) -> bool:
        with self.lock:
            if not self.undo_steps:
                return False
            step = self.undo_steps.pop()
            self.redo_steps.append(Step(self.text, step.label))
            self._set(step.text)
            return True

    def redo(self) -> bool:
        with self.lock:
            if not self.redo_steps:
                return False
            step = self.redo_steps.pop()
            self.undo_steps.append(Step(self.text, step.label))
            self._set(step.text)
            return True

    def changed_on_disk(self) -> bool:
        """Whether the file is no longer what was last read or written."""
        try:
            now = file_identity(self.path)
        except FileNotFoundError:
            return self.identity is not None
        except OSError:
            return True
        if now == self.identity:
            return False
        try:
            return read_map_text(self.path)[0] != self.saved_text or self.identity is None
        except OpenError:
            return True

    def save(self, *, drop_disk_change: bool = False) -> None:
        """Write the text to the opened file (`ConflictError` if it changed on disk;
        `DropError` if it would undo the change on disk a reload brought in, unless
        `drop_disk_change`; `OSError` if it cannot be written)."""
        from ttr_core.edit.merge import keeps_changes

        with self.lock:
            if (
                self.disk_change is not None
                and not drop_disk_change
                and not keeps_changes(*self.disk_change, self.text)
            ):
                raise DropError(
                    f"saving now would undo the change made to {self.path.name} on disk "
                    "(brought in by the reload): redo it, or save anyway to drop it"
                )
            if self.changed_on_disk():
                raise ConflictError(
                    f"{self.path.name} changed on disk since it was opened; it was not "
                    "overwritten. Reload it (your edits can be undone back), or save elsewhere."
                )
            unchanged = file_identity(self.path) if self.identity is not None else None
            # In the file's form: its BOM and line ends, for the lines edited too.
            form = TextForm.of(self.saved_text)
            text = form.apply(form.strip(self.text))
            try:
                size = len(text.encode("utf-8"))
            except UnicodeEncodeError as problem:  # a lone surrogate: not UTF-8 text
                raise OSError(errno.EILSEQ, f"not UTF-8 text ({problem.reason})") from None
            if size > limits.MAX_MAP_BYTES:  # it could not be opened again (TTR004)
                raise OSError(
                    errno.EFBIG, f"{size:,} bytes, over the limit of {limits.MAX_MAP_BYTES:,}"
                )
            try:
                write_text_atomically(self.path, text, unchanged=unchanged)
            except FileChangedError as problem:
                raise ConflictError(f"{self.path.name}: {problem}") from None
            if self.identity is None:  # a new map: the schema its modeline names
                from ttr_maps.authoring.starter import write_schema_copy

                write_schema_copy(self.path)
            self.text = self.saved_text = text
            self.identity = file_identity(self.path)
            self.disk_change = None
            self.revision += 1

    def reload(self) -> str:
        """Read the file again, keeping both sides: the edits not saved yet are
        merged with the change made on disk when they touch other lines
        (`merge_lines`); else the file as on disk, the edits one undo away. Either
        way it is one undo step, and a save that would undo the disk change asks
        first (`DropError`). Returns what was done, in words."""
        from ttr_core.edit.merge import merge_lines

        with self.lock:
            disk, identity = read_map_text(self.path)
            before = self.saved_text
            merged = merge_lines(before, self.text, disk) if self.dirty else disk
            if merged is None:
                label = "reload from disk (your edits are one undo away)"
                said = (
                    "Reloaded from disk. Your edits touch the lines changed on disk: "
                    "they are one undo away (Undo brings them back, without the disk change)."
                )
                merged = disk
            elif merged == disk:
                label, said = "reload from disk", "Reloaded from disk."
            else:
                label = "reload from disk, merged with your edits"
                said = "Reloaded from disk: the change on disk and your edits are both kept."
            self.apply(ReplaceText(merged, label))
            self.saved_text, self.identity = disk, identity
            self.disk_change = (before, disk) if disk != before else None
            self.revision += 1
            return said

    def undo_label(self) -> str | None:
        return self.undo_steps[-1].label if self.undo_steps else None

    def redo_label(self) -> str | None:
        return self.redo_steps[-1].label if self.redo_steps else None
