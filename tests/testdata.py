"""Where the tests' files are: the data folders and the repository."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DOCS = ROOT / "docs"
DATA = TESTS / "data"
BAD = DATA / "bad"
HOSTILE = DATA / "hostile"
REFERENCE = DATA / "reference"


def table_sizes(map_id: str) -> list[int]:
    """The player counts a bundled map may be played with (R1, the map's rules:
    Nordic Countries and Switzerland seat 2 or 3, India and the United Kingdom 2
    to 4, the others 2 to 5)."""
    from ttr_maps import load_map
    from ttr_maps.rules import map_rules

    return list(map_rules(load_map(map_id)).player_counts())


def nearest_table_size(map_id: str, players: int) -> int:
    """`players` if the map seats that many, else the nearest count it does seat."""
    sizes = table_sizes(map_id)
    return min(sizes, key=lambda n: (abs(n - players), n))


def is_laid_out(map_id: str) -> bool:
    """Whether a bundled map's file stores a board layout (`ttr layout --write`)."""
    from ttr_maps.io.bundled import bundled_map_path

    path = bundled_map_path(map_id)
    return path is not None and "\nlayout:" in path.read_text(encoding="utf-8")


def sigint_as_from_a_terminal() -> None:
    """A child's stopping signals as a terminal gives them (`preexec_fn` of a test's
    Popen): a shell started in the background, nohup or a CI runner may pass SIGINT
    on as ignored (Python then never raises KeyboardInterrupt in the child), and a
    library in the test process (Ray's driver) may have SIGTERM blocked in the
    thread that starts the child, which the child inherits: it would then wait out
    whatever it was doing before the signal lands."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
