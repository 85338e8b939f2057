"""What this package is called where it is installed from: its distribution name
on the public package index (`pip install ttr-mapkit`; the command stays `ttr`),
and the version installed.
"""

from __future__ import annotations

#: The distribution name (the bare name `ttr` on the index is another project).
DISTRIBUTION = "ttr-mapkit"


def installed_version() -> str:
    """The installed version of `DISTRIBUTION`, or "unknown" (a plain checkout)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown"
