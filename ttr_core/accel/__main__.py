"""`python -m ttr_core.accel`: build the compiled modules in place, say which flavour
is loaded (`--status`), or remove them (`--clean`)."""

from __future__ import annotations

import argparse
import os
import sys

from ttr_core import accel

#: The most compilers run at once.
MAX_JOBS = 64


def _jobs(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_JOBS:
        raise argparse.ArgumentTypeError(
            f"{text[:20]!r} is not a whole number from 1 to {MAX_JOBS}"
        )
    return int(text)


def main(argv: list[str] | None = None) -> int:
    """Run the command; what standard output's failures and Ctrl-C end in follows
    the rule of every `ttr` command (docs/ci.md): a reader that goes away is not an
    error, any other output error is one line and exit 2, Ctrl-C exit 130."""
    from ttr_maps.io.files import describe_os_error, guard_standard_output

    guard_standard_output()
    try:
        status = _run(argv)
        sys.stdout.flush()
    except KeyboardInterrupt:
        print("python -m ttr_core.accel: interrupted", file=sys.stderr)
        return 130
    except OSError as error:
        where = f"{error.filename}: " if error.filename else "cannot write to standard output: "
        print(f"python -m ttr_core.accel: {where}{describe_os_error(error)}", file=sys.stderr)
        return 2
    return status


def _run(argv: list[str] | None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ttr_core.accel",
        description=" ".join(accel.__doc__.split("\n\n")[0].split()),
        epilog="Without an option: compile the hot modules in place (README, 'The fast build').",
    )
    parser.add_argument("--status", action="store_true", help="say which flavour is loaded")
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    parser.add_argument(
        "--jobs",
        type=_jobs,
        default=min(os.cpu_count() or 1, MAX_JOBS),
        help=f"compilers run at once, 1 to {MAX_JOBS} (default: the cores)",
    )
    args = parser.parse_args(argv)
    if args.clean:
        print(f"removed {accel.clean()} compiled module(s): pure Python from now on")
        return 0
    if not args.status:
        cwd = os.getcwd()
        os.chdir(accel.ROOT)  # the extensions are named by paths relative to the package folder
        try:
            accel.build(args.jobs)
        except accel.BuildError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        finally:
            os.chdir(cwd)
        print(
            f"compiled {len(accel.MODULES)} modules and {len(accel.NATIVE)} native kernel(s) "
            "in place: new processes load them"
        )
        return 0
    stale = accel.stale_modules()
    print(accel.flavour() + (f"; stale, source used: {', '.join(stale)}" if stale else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
