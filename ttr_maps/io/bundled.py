"""Where the bundled maps and schemas live, in a checkout and after `pip install`.

A wheel carries them inside the package (`ttr_maps/data/`); an editable install or a
plain checkout reads them from the repository's `maps/` and `schemas/` folders.
"""

from __future__ import annotations

from pathlib import Path

#: The `ttr_maps` package folder (this module is in its `io/`).
_PACKAGE = Path(__file__).resolve().parent.parent


def _data_dir(name: str) -> Path:
    installed = _PACKAGE / "data" / name
    return installed if installed.is_dir() else _PACKAGE.parent / name


#: The bundled published boards, which other maps' numbers are set beside
#: (`ttr stats`, `ttr tickets`, the editor's Numbers panel, `ttr simulate`, the
#: findings' baseline); what each one is comes from its file
#: (`ttr_maps.published.published_boards`). Every bundled map but Iran.
PUBLISHED_MAPS = (
    "north_america",
    "europe",
    "nordic_countries",
    "switzerland",
    "india",
    "italy",
    "japan",
    "pennsylvania",
    "legendary_asia",
    "united_kingdom",
    "northern_lights",
    "old_west",
)


def maps_dir() -> Path:
    """The folder holding the bundled map files."""
    return _data_dir("maps")


def schema_path(name: str = "map") -> Path:
    """The path of a bundled JSON Schema, e.g. `schema_path("game-record")`."""
    return _data_dir("schemas") / f"{name}.schema.json"


def bundled_map_ids() -> list[str]:
    """Ids of the bundled maps, sorted: `['europe', 'iran', 'north_america']`."""
    return sorted(p.stem for p in maps_dir().glob("*.yaml"))


def bundled_map_path(map_id: str) -> Path | None:
    """The file of a bundled map, or None if no bundled map has that id."""
    path = maps_dir() / f"{map_id}.yaml"
    return path if path.is_file() else None


def resolve_map_argument(argument: str) -> Path:
    """A command-line MAP: a bundled map id, or a path to a YAML file.

    An existing file wins over an id of the same name (a folder does not).
    """
    candidate = Path(argument)
    try:
        if candidate.is_file():
            return candidate
        bundled = bundled_map_path(argument)
    except (OSError, ValueError):  # a name too long, or with a NUL byte: the reader says so
        return candidate
    return bundled if bundled is not None else candidate
