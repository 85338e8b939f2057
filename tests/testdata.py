"""Where the tests' files are: the data folders and the repository."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DOCS = ROOT / "docs"
DATA = TESTS / "data"
BAD = DATA / "bad"
HOSTILE = DATA / "hostile"
REFERENCE = DATA / "reference"
