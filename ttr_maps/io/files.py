"""Reading and writing files safely.

Reading: only regular files are read (a FIFO would block, a device never ends), and
never more than a limit. Writing: atomically, so a reader never sees half a file
and a failure leaves the old file as it was; a symlink is written through (it
stays a link); a file with other hard links, or read-only, is refused (replacing
it would split the links or go round the permission); a FIFO or character device
is a stream, written once the output is complete and given up with a message when
nobody reads it for `STREAM_TIMEOUT` seconds; anything else that is not a regular
file is refused. And the one rule for an output path, checked before the work
that fills it (`check_output_path`): all of the above, and never one of the
command's inputs (the same file by device and inode, whatever its name).
"""

from __future__ import annotations

import errno
import io
import os
import select
import stat
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class OutputPathError(OSError, ValueError):
    """A file cannot be written at this path (the message says why, with the path).

    An `OSError`, so code that reports write errors reports this one too."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


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
    return _read_once(path, max_bytes)[1]


def _read_once(path: str | Path, max_bytes: int) -> tuple[os.stat_result, bytes, os.stat_result]:
    """Open `path` without blocking (a FIFO or device is refused, not waited on),
    check it is a regular file, read it (refused when larger than `max_bytes`): the
    file's status before the read, the bytes, and its status after."""
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
        before = os.fstat(descriptor)
        if not stat.S_ISREG(before.st_mode):
            raise InputFileError(f"is {describe_kind(before.st_mode)}, not a regular file")
        os.set_blocking(descriptor, True)
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            data = handle.read(max_bytes + 1)
        after = os.fstat(descriptor)
    except InputFileError:
        raise
    except OSError as error:
        raise InputFileError(_reason(error)) from None
    finally:
        os.close(descriptor)
    if len(data) > max_bytes:
        raise InputFileError(f"larger than the limit of {max_bytes:,} bytes", too_large=True)
    return before, data, after


def _reason(error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return "symlink loop (too many levels of symbolic links)"
    return error.strerror or str(error)


def describe_os_error(error: OSError) -> str:
    """An OSError as a short reason, without Python's decorations:
    "No space left on device", "File name too long"."""
    if isinstance(error, InputFileError | FileChangedError | OutputPathError):
        return str(error)
    return _reason(error)


def check_output_path(path: str | Path, inputs: Iterable[str | Path] = ()) -> Path:
    """`path` as a `Path` if a file can be written there, else `OutputPathError`:
    it is one of `inputs` (the same file by device and inode: a hard link or a
    symlink to an input counts), a folder, a block device or socket, a symlink
    loop, a file with other hard links or a read-only one (see `write_destination`),
    its folder does not exist or is not writable, or its name is too long.

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
        _refuse_inputs(target, inputs)
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


def _refuse_inputs(target: Path, inputs: Iterable[str | Path]) -> None:
    try:
        info = os.stat(target)
    except (OSError, ValueError):
        return  # a new file is nobody's input (other errors are found later)
    if not stat.S_ISREG(info.st_mode):
        return  # /dev/stdout may be both
    for given in inputs:
        try:
            other = os.stat(given)
        except (OSError, ValueError):
            continue
        if (other.st_dev, other.st_ino) == (info.st_dev, info.st_ino):
            shown = "" if Path(given) == target else f" ({given})"
            raise OutputPathError(
                f"{target}: is an input of this command{shown}; an input is never "
                "overwritten: write to another file"
            )


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
    folder, a symlink loop, a special file other than a FIFO or character device
    (which are streams), and for a regular file that an atomic replace would
    change more than asked: one with other hard links (the other names would keep
    the old text) or one without write permission for its owner (the rename would
    go round it)."""
    real = Path(os.path.realpath(path)) if os.path.islink(path) else path
    try:
        info = os.stat(real)
    except FileNotFoundError:
        return real
    except OSError as error:
        raise OutputPathError(f"{path}: {describe_os_error(error)}") from None
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise OutputPathError(f"{path}: is a folder; give a file name")
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        raise OutputPathError(f"{path}: is {describe_kind(mode)}; cannot write a file there")
    if stat.S_ISREG(mode) and info.st_nlink > 1:
        raise OutputPathError(
            f"{path}: has {info.st_nlink} hard links; replacing it would leave the other "
            "names with the old contents: not replaced (write elsewhere, or copy it to "
            "break the link)"
        )
    if stat.S_ISREG(mode) and not _writable(info, real):
        raise OutputPathError(f"{path}: is read-only; not replaced (chmod u+w to allow it)")
    return real


def _writable(info: os.stat_result, path: Path) -> bool:
    """Whether the file's mode lets this user write it (the owner's bit for our own
    files, so that root too respects a read-only file)."""
    if info.st_uid == os.geteuid():
        return bool(info.st_mode & stat.S_IWUSR)
    return os.access(path, os.W_OK)


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
    return _identity(os.stat(path))


@dataclass(frozen=True, slots=True)
class FileSnapshot:
    """A file as it was read: its identity (`file_identity`) and its bytes, taken from
    the same open descriptor. A write that must not overwrite an edit made since
    (`replace_if_unchanged`) compares both: a same-size edit within the file
    system's timestamp resolution changes the bytes, a rewrite of the same bytes
    changes the modification time."""

    identity: FileIdentity
    data: bytes

    def text(self) -> str:
        """The bytes as UTF-8 text (`UnicodeDecodeError` if they are not)."""
        return self.data.decode("utf-8")


#: Attempts at reading a file that changes while it is read (`read_snapshot`).
SNAPSHOT_ATTEMPTS = 5


def read_snapshot(path: str | Path, max_bytes: int) -> FileSnapshot:
    """Read a regular file as `read_regular_file` does, with the identity of what
    was read: fstat on the open descriptor before and after the read must agree
    (a file written meanwhile is read again, `SNAPSHOT_ATTEMPTS` times at most,
    then refused with `InputFileError`)."""
    for _ in range(SNAPSHOT_ATTEMPTS):
        before, data, after = _read_once(path, max_bytes)
        identity = _identity(after)
        if identity == _identity(before) and identity[2] == len(data):
            return FileSnapshot(identity, data)
    raise InputFileError("kept changing while it was read; try again when it is saved")


def _identity(info: os.stat_result) -> FileIdentity:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


#: Temporary files are named `.ttr-PID-RANDOM.tmp`: a short name (the target's
#: name may already be as long as the system allows) that says which process
#: made it, so the next write in the folder removes those of dead processes (a
#: killed write cannot clean up after itself; Ctrl-C and SIGTERM do).
_TEMPORARY_PREFIX = ".ttr-"
_TEMPORARY_SUFFIX = ".tmp"


@contextmanager
def atomic_target(
    path: Path, *, unchanged: FileIdentity | FileSnapshot | None = None
) -> Iterator[Path]:
    """A temporary path in the same folder as `path`; when the block succeeds it is
    renamed over `path` (keeping an existing file's permissions), otherwise removed.

    A symlink is written through to its target (the link stays a link). For a
    FIFO or character device (`/dev/stdout`) the temporary file is private and,
    once complete, copied into the stream (`copy_to_stream`), since renaming
    over it would replace it. With `unchanged`, the write is a compare-and-swap
    (`swap_if_unchanged`): `FileChangedError` instead of replacing a file changed
    since it was read (a `FileSnapshot`: identity and bytes; a bare `file_identity`:
    identity only).

        with atomic_target(Path("out.png")) as temporary:
            figure.savefig(temporary, format="png")
    """
    target = write_destination(path)
    if _is_stream(target):
        handle, name = tempfile.mkstemp(prefix=_TEMPORARY_PREFIX, suffix=_TEMPORARY_SUFFIX)
        os.close(handle)
        try:
            yield Path(name)
            copy_to_stream(Path(name), target)
        finally:
            Path(name).unlink(missing_ok=True)
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
            mode = target.stat().st_mode & 0o7777
        elif unchanged is not None:
            raise FileChangedError(errno.ENOENT, _CHANGED.format("was removed"))
        else:  # mkstemp makes the file private; a new file gets the usual mode
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temporary, mode)
        if unchanged is None:
            os.replace(temporary, target)
        else:
            swap_if_unchanged(temporary, target, unchanged)
    finally:
        temporary.unlink(missing_ok=True)


#: What a refused compare-and-swap says (the file "changed"/"was removed").
_CHANGED = "the file {} on disk since ttr read it; not replaced (run the command again)"


def swap_if_unchanged(new: Path, target: Path, unchanged: FileIdentity | FileSnapshot) -> None:
    """Compare-and-swap: put the file `new` in place of `target` only if `target` is
    still the file that was read (`unchanged`: its identity, and with a snapshot
    its bytes too); else raise `FileChangedError` and leave `target` alone.

    Where the system can (Linux's `renameat2` with `RENAME_EXCHANGE`), the two files
    are exchanged in one step and the file swapped out is checked afterwards; if it
    is not the one read, they are exchanged back. A writer that replaces the file
    (an editor's save: write elsewhere, rename over it) can then never be lost,
    whatever the timing. Elsewhere the file is checked just before the rename, which
    leaves a window of microseconds. A writer that keeps the old file open and
    writes into it after the swap writes into the file replaced (as with any
    atomic save)."""
    expected = unchanged if isinstance(unchanged, FileSnapshot) else None
    identity = unchanged.identity if isinstance(unchanged, FileSnapshot) else unchanged
    if not _is_unchanged(target, identity, expected):  # the common refusal: no swap at all
        raise FileChangedError(errno.EAGAIN, _CHANGED.format("changed"))
    mine = os.stat(new).st_ino
    with _signals_held():  # Ctrl-C or SIGTERM between the exchange and its check waits
        if not _exchange(new, target):
            os.replace(new, target)  # checked just above
            return
        # `new` now names the file that was at `target`: is it the one read?
        if _is_unchanged(new, identity, expected):
            return  # the caller removes `new` (the old file)
        with suppress(OSError):
            _give_back(new, target, mine)
    raise FileChangedError(errno.EAGAIN, _CHANGED.format("changed"))


#: The signals that stop a command (Ctrl-C, SIGTERM, SIGHUP: `stop_on_signals`).
_STOPPING_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold the signals that stop a command for the few system calls of a swap, so
    a stop never lands between the exchange and the check that may undo it (the
    file read would then be gone with the temporary one); they arrive right after.
    In the main thread only (elsewhere Python does not run signal handlers)."""
    import signal
    import threading

    wanted = {getattr(signal, name) for name in _STOPPING_SIGNALS if hasattr(signal, name)}
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "pthread_sigmask"
    ):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, wanted)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


#: Exchanges `_give_back` makes at most (each further one needs another save landing
#: within microseconds of the last).
_GIVE_BACK_ATTEMPTS = 16


def _give_back(held: Path, target: Path, placed: int) -> None:
    """Put the file `held` names (another writer's, just displaced from `target` by
    an exchange that put the file of inode `placed` there) back in place. If a
    newer save took `target` meanwhile, the exchange displaces that one instead, so
    it goes back in turn: each exchange ends when it displaces the file it put
    there itself."""
    for _ in range(_GIVE_BACK_ATTEMPTS):
        going_back = os.stat(held).st_ino
        if not _exchange(held, target):
            return
        if os.stat(held).st_ino == placed:
            return  # nobody wrote meanwhile: the other writer's file is in place
        placed = going_back


def _is_unchanged(path: Path, identity: FileIdentity, expected: FileSnapshot | None) -> bool:
    try:
        if expected is None:
            return file_identity(path) == identity
        now = read_snapshot(path, len(expected.data))
    except OSError:  # gone, grown past what was read, unreadable: not the file read
        return False
    return now.identity == identity and now.data == expected.data


#: `renameat2` flags and the "current folder" descriptor (Linux).
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(first: Path, second: Path) -> bool:
    """Exchange two paths in one step (renameat2 with RENAME_EXCHANGE); False where
    the system or the file system cannot (the caller falls back to a rename)."""
    renameat2 = _renameat2()
    if renameat2 is None:
        return False
    import ctypes

    result = renameat2(
        _AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE
    )
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM):
        return False  # not on this file system (or not in this sandbox)
    raise OSError(code, os.strerror(code), str(second))


def _renameat2() -> Any:
    """The C library's renameat2, or None where there is none."""
    global _RENAMEAT2
    if _RENAMEAT2 is _UNKNOWN:
        _RENAMEAT2 = None
        if sys.platform.startswith("linux"):
            import ctypes

            try:
                function = ctypes.CDLL(None, use_errno=True).renameat2
            except (AttributeError, OSError):
                pass
            else:
                function.argtypes = [
                    ctypes.c_int,
                    ctypes.c_char_p,
                    ctypes.c_int,
                    ctypes.c_char_p,
                    ctypes.c_uint,
                ]
                function.restype = ctypes.c_int
                _RENAMEAT2 = function
    return _RENAMEAT2


_UNKNOWN = object()
_RENAMEAT2: Any = _UNKNOWN


def replace_if_unchanged(path: str | Path, data: bytes, snapshot: FileSnapshot) -> None:
    """Replace the file at `path` with `data` in one step, only if it is still the
    file `snapshot` read (`read_snapshot`): the one compare-and-swap write of a file
    a command read and changes in place (a map by `ttr fix`, `ttr layout --write`,
    `ttr tickets suggest --write`, the editor's save). Raises `FileChangedError`
    (nothing written) when it changed or was removed, `OutputPathError` or another
    `OSError` when it cannot be written."""
    write_bytes_atomically(Path(path), data, unchanged=snapshot)


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


#: Seconds a stream output (a FIFO, a terminal, `/dev/stdout` on a pipe) may
#: wait for a reader, and then between two writes that make progress.
STREAM_TIMEOUT = 10.0


def copy_to_stream(source: Path, target: Path, *, append: bool = False) -> None:
    """Write the bytes of `source` into the FIFO or character device `target`
    without blocking for ever: raises `OSError` (ETIMEDOUT, with the file name)
    when no reader opens it or reads from it for `STREAM_TIMEOUT` seconds."""
    data = source.read_bytes()
    flags = os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | (os.O_APPEND if append else 0)
    deadline = time.monotonic() + STREAM_TIMEOUT
    while True:
        try:
            descriptor = os.open(target, flags)
            break
        except OSError as error:  # ENXIO: a FIFO that nobody has open for reading
            if error.errno != errno.ENXIO or time.monotonic() > deadline:
                raise _stream_error(error, target) from None
            time.sleep(0.05)
    try:
        view = memoryview(data)
        while view:
            _, ready, _ = select.select([], [descriptor], [], STREAM_TIMEOUT)
            if not ready:
                raise _stream_error(OSError(errno.ETIMEDOUT, "timed out"), target)
            try:
                view = view[os.write(descriptor, view[:65536]) :]
            except BlockingIOError:
                continue
            except OSError as error:
                raise _stream_error(error, target) from None
    finally:
        os.close(descriptor)


def _stream_error(error: OSError, target: Path) -> OSError:
    if error.errno in (errno.ENXIO, errno.ETIMEDOUT):
        reason = f"nobody read it for {STREAM_TIMEOUT:g} s; gave up"
    else:
        reason = describe_os_error(error)
    return OSError(error.errno, reason, str(target))


def append_text(path: Path, text: str) -> None:
    """Add `text` (UTF-8) at the end of `path` (a log such as GitHub's step
    summary), creating it if needed; a stream gets it like `copy_to_stream`."""
    target = write_destination(path)
    if _is_stream(target):
        with atomic_target(target) as temporary:
            temporary.write_bytes(text.encode("utf-8"))
        return
    with open(target, "a", encoding="utf-8") as handle:
        handle.write(text)


def write_bytes_atomically(
    path: Path, data: bytes, *, unchanged: FileIdentity | FileSnapshot | None = None
) -> None:
    """Replace `path` with `data` in one step (see `atomic_target`)."""
    with atomic_target(path, unchanged=unchanged) as temporary, open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


@dataclass(frozen=True, slots=True)
class TextForm:
    """How a text file is written, beyond its characters: a UTF-8 byte-order mark
    or not, and its line end. An edit keeps the form of the file it edits."""

    bom: bool = False
    newline: str = "\n"

    @classmethod
    def of(cls, text: str) -> TextForm:
        r"""The form of `text` as read (BOM kept as U+FEFF, line ends as written):
        CRLF when most of its lines end so.

        >>> TextForm.of("\ufeffa: 1\r\nb: 2\r\n")
        TextForm(bom=True, newline='\r\n')
        """
        crlf = text.count("\r\n")
        return cls(text.startswith("\ufeff"), "\r\n" if crlf > text.count("\n") - crlf else "\n")

    def strip(self, text: str) -> str:
        """`text` without its BOM, every line end a bare LF: what an edit works on."""
        return text.removeprefix("\ufeff").replace("\r\n", "\n")

    def apply(self, text: str) -> str:
        """`text` (LF line ends, no BOM) in this form."""
        if self.newline != "\n":
            text = text.replace("\n", self.newline)
        return "\ufeff" + text if self.bom else text


def write_text_atomically(
    path: Path, text: str, *, unchanged: FileIdentity | FileSnapshot | None = None
) -> None:
    """Replace `path` with `text` (UTF-8, newlines as written) in one step."""
    write_bytes_atomically(path, text.encode("utf-8"), unchanged=unchanged)


# ------------------------------------------------------------------ standard output


class ReaderMayLeave:
    """Standard output whose reader may go away: a write or flush that meets a
    broken pipe points the descriptor at /dev/null (so what is still buffered, and
    everything printed later, goes nowhere without failing) and returns as if it
    had been written; `reader_left` says it happened. Every other error is raised
    as it comes; everything else is the wrapped stream's."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.reader_left = False

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)  # type: ignore[no-any-return]
        except BrokenPipeError:
            self._drop_the_rest()
            return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._drop_the_rest()

    def _drop_the_rest(self) -> None:
        self.reader_left = True
        silence_standard_output(self._stream)
        with suppress(OSError, ValueError):
            self._stream.flush()  # what was buffered goes to /dev/null now

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _ClosedOutput(io.TextIOBase):
    """Standard output when the shell closed it (`>&-`): writing fails like a write
    to a closed descriptor, so it is reported (exit 2), not silently lost."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "it is closed")

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "it is closed")


def guard_standard_output() -> None:
    """The one rule for standard output, for every command (docs/ci.md): its
    reader going away is not an error (`ReaderMayLeave`); a standard output that
    was closed before the start fails every write (`OSError`, reported as exit 2)."""
    if sys.stdout is None:  # started with standard output closed (`>&-`)
        sys.stdout = _ClosedOutput()
    elif not isinstance(sys.stdout, ReaderMayLeave | _ClosedOutput):
        sys.stdout = ReaderMayLeave(sys.stdout)  # type: ignore[assignment]


def silence_standard_output(stream: Any = None) -> None:
    """Point the descriptor of `stream` (standard output by default) at /dev/null:
    what is written to it from now on (Python's flush at exit included) goes
    nowhere without failing. A stream without a descriptor is left alone."""
    try:
        descriptor = (sys.stdout if stream is None else stream).fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, descriptor)
        os.close(devnull)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):  # a test runner's
        pass
