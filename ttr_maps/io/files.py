"""Reading and writing files safely.

Reading: only regular files are read (a FIFO would block, a device never ends), and
never more than a limit. Writing: atomically, so a reader never sees half a file
and a failure leaves the old file as it was; a symlink is written through (it
stays a link), a FIFO or character device is written in place, and anything else
that is not a regular file is refused. And checking an output path before the
work that fills it.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path


class OutputPathError(ValueError):
    """A file cannot be written at this path (the message says why)."""


class InputFileError(OSError):
    """A path that cannot be read as a file; `str()` says why, without the path."""

    def __init__(self, reason: str, *, too_large: bool = False):
        super().__init__(reason)
        self.reason = reason
        #: True when the file is a regular file, only larger than the limit.
        self.too_large = too_large

    def __str__(self) -> str:
        return self.reason


class FileChangedError(OSError):
    """The file changed on disk after it was read: it is not replaced."""


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def describe_kind(mode: int) -> str:
    """What a file of this mode is, in words: "a FIFO (named pipe)", "a file"."""
    return next((name for test, name in _KINDS if test(mode)), "a file")


def read_regular_file(path: str | Path, max_bytes: int) -> bytes:
    """The bytes of a regular file, or `InputFileError` saying why not.

    The file is opened without blocking (a FIFO would wait for a writer) and
    checked with fstat on the open descriptor, so nothing can swap it between the
    check and the read; at most `max_bytes` are read even if it grows meanwhile.

    >>> read_regular_file("/dev/zero", 10)
    Traceback (most recent call last):
    ...
    ttr_maps.io.files.InputFileError: is a character device, not a regular file
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except ValueError:  # a NUL byte in the name
        raise InputFileError("the name contains a NUL byte") from None
    except FileNotFoundError:
        reason = "dangling symlink" if os.path.islink(path) else "no such file"
        raise InputFileError(reason) from None
    except OSError as error:
        raise InputFileError(_reason(error)) from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise InputFileError(f"is {describe_kind(mode)}, not a regular file")
        os.set_blocking(descriptor, True)
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            data = handle.read(max_bytes + 1)
    except InputFileError:
        raise
    except OSError as error:
        raise InputFileError(_reason(error)) from None
    finally:
        os.close(descriptor)
    if len(data) > max_bytes:
        raise InputFileError(f"larger than the limit of {max_bytes:,} bytes", too_large=True)
    return data


def _reason(error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return "symlink loop (too many levels of symbolic links)"
    return error.strerror or str(error)


def describe_os_error(error: OSError) -> str:
    """An OSError as a short reason, without Python's decorations:
    "No space left on device", "File name too long"."""
    if isinstance(error, InputFileError | FileChangedError):
        return str(error)
    return _reason(error)


def check_output_path(path: str | Path) -> Path:
    """`path` as a `Path` if a file can be written there, else `OutputPathError`:
    it is a folder, a device or socket, a symlink loop, its folder does not exist
    or is not writable, or its name is too long.

    Commands call it before the work that fills the file, so a typo in a folder
    name fails at once; the write itself can still fail (a full disk) and must
    handle `OSError` too.

    >>> check_output_path("no_such_folder/x.png")
    Traceback (most recent call last):
    ...
    ttr_maps.io.files.OutputPathError: no_such_folder/x.png: folder no_such_folder does not exist
    """
    target = Path(path)
    try:
        real = write_destination(target)
        if _is_stream(real):
            return target
        folder = real.parent
        if not folder.is_dir():
            raise OutputPathError(f"{target}: folder {folder} does not exist")
        # The atomic write creates a temporary file in the folder and renames it.
        if not os.access(folder, os.W_OK | os.X_OK):
            raise OutputPathError(f"{target}: folder {folder} is not writable")
        if len(os.fsencode(real.name)) > _name_max(folder):
            raise OutputPathError(f"{target}: file name too long")
        _try_creating_in(folder, target)
    except OutputPathError:
        raise
    except OSError as error:
        raise OutputPathError(f"{target}: {describe_os_error(error)}") from None
    except ValueError:  # a NUL byte in the name
        raise OutputPathError(f"{target}: the name contains a NUL byte") from None
    return target


def _try_creating_in(folder: Path, target: Path) -> None:
    """Create and remove a temporary file in `folder`: permissions can look right
    and a file system still refuse (read-only mounts, /proc), and a command must
    learn that before its work, not after (a game played to its end, then lost)."""
    try:
        handle, probe = tempfile.mkstemp(
            dir=folder, prefix=f"{_TEMPORARY_PREFIX}{os.getpid()}-", suffix=_TEMPORARY_SUFFIX
        )
    except OSError as error:
        raise OutputPathError(
            f"{target}: cannot write in {folder}: {describe_os_error(error)}"
        ) from None
    os.close(handle)
    os.unlink(probe)


def write_destination(path: Path) -> Path:
    """Where writing `path` really goes: a symlink's final target, so a linked
    file is updated and the link stays a link. Raises `OutputPathError` for a
    folder, a symlink loop or a special file other than a FIFO or character
    device (which are written in place, as streams)."""
    real = Path(os.path.realpath(path)) if os.path.islink(path) else path
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        return real
    except OSError as error:
        raise OutputPathError(f"{path}: {describe_os_error(error)}") from None
    if stat.S_ISDIR(mode):
        raise OutputPathError(f"{path}: is a folder; give a file name")
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        raise OutputPathError(f"{path}: is {describe_kind(mode)}; cannot write a file there")
    return real


def _is_stream(path: Path) -> bool:
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def _name_max(folder: Path) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255


#: Device, inode, size and modification time of a file (`file_identity`).
FileIdentity = tuple[int, int, int, int]


def file_identity(path: str | Path) -> FileIdentity:
    """What changes when a file is replaced or written: device, inode, size and
    modification time. Compare two to notice an edit made meanwhile."""
    info = os.stat(path)
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


#: Temporary files are named `.ttr-PID-RANDOM.tmp`: a short name (the target's
#: name may already be as long as the system allows) that says which process
#: made it, so the next write in the folder removes those of dead processes (a
#: killed write cannot clean up after itself; Ctrl-C and SIGTERM do).
_TEMPORARY_PREFIX = ".ttr-"
_TEMPORARY_SUFFIX = ".tmp"


@contextmanager
def atomic_target(path: Path, *, unchanged: FileIdentity | None = None) -> Iterator[Path]:
    """A temporary path in the same folder as `path`; when the block succeeds it is
    renamed over `path` (keeping an existing file's permissions), otherwise removed.

    A symlink is written through to its target (the link stays a link); a FIFO
    or character device (`/dev/stdout`) is yielded as is, since renaming over it
    would replace it. With `unchanged` (a `file_identity` taken when the file was
    read), `FileChangedError` is raised instead of replacing a file edited since.

        with atomic_target(Path("out.png")) as temporary:
            figure.savefig(temporary, format="png")
    """
    target = write_destination(path)
    if _is_stream(target):
        yield target
        return
    folder = target.parent if str(target.parent) else Path(".")
    _remove_abandoned_temporaries(folder)
    handle, name = tempfile.mkstemp(
        dir=folder, prefix=f"{_TEMPORARY_PREFIX}{os.getpid()}-", suffix=_TEMPORARY_SUFFIX
    )
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
        if target.exists():
            if unchanged is not None and file_identity(target) != unchanged:
                raise FileChangedError(
                    errno.EAGAIN, "the file changed on disk while ttr worked on it; not replaced"
                )
            mode = target.stat().st_mode & 0o7777
        else:  # mkstemp makes the file private; a new file gets the usual mode
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


def _remove_abandoned_temporaries(folder: Path) -> None:
    """Remove temporary files left in `folder` by ttr processes that no longer run."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        name = entry.name
        if not (name.startswith(_TEMPORARY_PREFIX) and name.endswith(_TEMPORARY_SUFFIX)):
            continue
        pid = name[len(_TEMPORARY_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and not is_running(int(pid)):
            with suppress(OSError):
                os.unlink(entry.path)


def is_running(pid: int) -> bool:
    """Whether process `pid` still runs (a temporary file or folder named after it
    is then still in use)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # someone else's process (or a pid we cannot ask about)
    return True


def write_bytes_atomically(
    path: Path, data: bytes, *, unchanged: FileIdentity | None = None
) -> None:
    """Replace `path` with `data` in one step (see `atomic_target`)."""
    with atomic_target(path, unchanged=unchanged) as temporary, open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        if not _is_stream(temporary):
            os.fsync(handle.fileno())


def write_text_atomically(path: Path, text: str, *, unchanged: FileIdentity | None = None) -> None:
    """Replace `path` with `text` (UTF-8, newlines as written) in one step."""
    write_bytes_atomically(path, text.encode("utf-8"), unchanged=unchanged)
