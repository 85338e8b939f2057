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
from collections.abc import Callable, Iterable

#: How alike two spellings must be (difflib ratio, 0..1) to be proposed.
CUTOFF = 0.6


def closest_spellings(
    word: object,
    choices: Iterable[str],
    count: int = 1,
    fold: Callable[[str], str] = str.casefold,
    cutoff: float = CUTOFF,
) -> tuple[str, ...]:
    """Up to `count` known names closest to `word`, closest first, compared after
    `fold` (case by default; the table folds accents too): a name that differs
    from `word` only by folding comes first."""
    if not isinstance(word, str):
        return ()
    options = sorted(set(choices))  # sorted: the same answer on every run
    folded = {fold(option.strip()): option for option in options}
    query = fold(word.strip())
    exact = folded.get(query)
    if exact is not None and exact != word:
        return (exact,)
    close = difflib.get_close_matches(query, list(folded), n=count, cutoff=cutoff)
    return tuple(folded[match] for match in close)


def closest_spelling(word: object, choices: Iterable[str], cutoff: float = CUTOFF) -> str | None:
    """The known name closest to `word`, or None when nothing is close enough."""
    found = closest_spellings(word, choices, cutoff=cutoff)
    return found[0] if found else None


def did_you_mean(word: object, choices: Iterable[str]) -> str:
    """A message tail: `"; did you mean 'X'?"`, or "" when nothing is close."""
    found = closest_spelling(word, choices)
    return f"; did you mean {found!r}?" if found is not None else ""
