"""The `ttr` command. Commands are wiring: they parse options, call a library
function and hand its result to a reporter. Each lives in its own module.

Ctrl-C while the commands load (typer, rich and click come with them) ends the
process like Ctrl-C anywhere in a command: exit 130, no traceback.
"""

from __future__ import annotations

#: Exit status after Ctrl-C (128 + SIGINT), as shells report it and typer exits.
EXIT_INTERRUPTED = 130

try:
    from ttr_core.cli.app import app

    # Importing a command module registers its command on `app`.
    from ttr_core.cli import validate  # noqa: F401  isort: skip
    from ttr_core.cli import fix  # noqa: F401  isort: skip
    from ttr_core.cli import preview  # noqa: F401  isort: skip
    from ttr_core.cli import stats  # noqa: F401  isort: skip
    from ttr_core.cli import new  # noqa: F401  isort: skip
    from ttr_core.cli import play  # noqa: F401  isort: skip
    from ttr_core.cli import replay  # noqa: F401  isort: skip
    from ttr_core.cli import simulate  # noqa: F401  isort: skip
    from ttr_core.cli import serve  # noqa: F401  isort: skip
    from ttr_core.cli import layout  # noqa: F401  isort: skip
    from ttr_core.cli import print  # noqa: F401  isort: skip
    from ttr_core.cli import tickets  # noqa: F401  isort: skip
    from ttr_core.cli import probe  # noqa: F401  isort: skip
    from ttr_core.cli import ladder  # noqa: F401  isort: skip
    from ttr_core.cli import compare  # noqa: F401  isort: skip
    from ttr_core.cli import lsp  # noqa: F401  isort: skip
    from ttr_core.cli import edit  # noqa: F401  isort: skip
except KeyboardInterrupt:  # the console script imports this first
    raise SystemExit(EXIT_INTERRUPTED) from None

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the `ttr` console script.

    The process ends with the command: what it built is left out of the garbage
    collector's passes at exit (`ttr_maps.garbage.freeze_for_exit`)."""
    import os
    import sys

    from ttr_core.cli.app import run
    from ttr_maps.garbage import freeze_for_exit

    try:
        run()
    except KeyboardInterrupt:  # Ctrl-C outside the command (typer handles it inside)
        sys.exit(EXIT_INTERRUPTED)
    except Exception as error:
        if not _caused_by_ctrl_c(error):
            raise
        # Ctrl-C landed inside an extension module's import (matplotlib's ft2font:
        # "ImportError: initialization failed"): the command's clean-up has run while
        # the error unwound, but the half-made module can crash the interpreter's own
        # exit, so the process ends here, as Ctrl-C ends it anywhere else.
        sys.stderr.write("interrupted\n")
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(EXIT_INTERRUPTED)
    finally:
        freeze_for_exit()


def _caused_by_ctrl_c(error: BaseException) -> bool:
    """Whether a KeyboardInterrupt is among the causes of `error`."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False
