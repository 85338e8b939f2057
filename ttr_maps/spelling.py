"""The one "did you mean …?" helper: proposes a known name for a mistyped one.

Validation uses it for unknown cities, colours and keys; `ttr preview --ticket`
for unknown cities. Matching ignores case and surrounding spaces first (`omaha`
is `Omaha`), then falls back to the closest spelling by `difflib`'s ratio.

>>> closest_spelling("Omahaa", ["Denver", "Omaha"])
'Omaha'
>>> closest_spelling("grey", ["red", "gray", "green"])
'gray'
>>> closest_spelling("Paris", ["Denver", "Omaha"]) is None
True
>>> did_you_mean("colour", ["between", "length", "color"])
"; did you mean 'color'?"
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

#: How alike two spellings must be (difflib ratio, 0..1) to be proposed.
CUTOFF = 0.6


def closest_spelling(word: object, choices: Iterable[str], cutoff: float = CUTOFF) -> str | None:
    """The known name closest to `word`, or None when nothing is close enough."""
    if not isinstance(word, str):
        return None
    options = sorted(set(choices))  # sorted: the same answer on every run
    folded = {option.strip().casefold(): option for option in options}
    exact = folded.get(word.strip().casefold())
    if exact is not None and exact != word:
        return exact
    close = difflib.get_close_matches(word.strip().casefold(), list(folded), n=1, cutoff=cutoff)
    return folded[close[0]] if close else None


def did_you_mean(word: object, choices: Iterable[str]) -> str:
    """A message tail: `"; did you mean 'X'?"`, or "" when nothing is close."""
    found = closest_spelling(word, choices)
    return f"; did you mean {found!r}?" if found is not None else ""
