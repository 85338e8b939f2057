"""City names as people type them: any case, accents optional, unique prefixes.

`fold` reduces a name to lower-case words without accents or punctuation, so
`montreal`, `MONTRÉAL` and `Montréal` are one name, and `sault st marie` finds
`Sault St. Marie`. A query matches a city when it is its folded name, or when each
of its words starts the city's word at the same position (`sal l c`, `little r`).

>>> finder = CityFinder(["Montréal", "Little Rock", "Los Angeles", "Salt Lake City"])
>>> finder.find("montreal")
('Montréal',)
>>> finder.find("l")
('Little Rock', 'Los Angeles')
>>> fold("København, Sault St. Marie")
'kobenhavn sault st marie'
>>> finder.suggest("litle rok")
('Little Rock',)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from ttr_maps.spelling import closest_spellings

_NOT_WORD = re.compile(r"[\W_]+")
#: Letters that Unicode does not decompose into a base letter and an accent.
_LETTERS = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "ı": "i"})


def fold(text: str) -> str:
    """Lower case, accents dropped, punctuation and `_`/`-` read as spaces."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().translate(_LETTERS))
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(_NOT_WORD.sub(" ", bare).split())


class CityFinder:
    """Finds cities by what a person typed (see the module docstring)."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = tuple(names)
        self._folded = {name: fold(name) for name in self.names}
        self._words = {name: folded.split() for name, folded in self._folded.items()}

    def find(self, query: str) -> tuple[str, ...]:
        """The cities `query` names: one exact match, else every prefix match (in
        map order); empty when none."""
        folded = fold(query)
        if not folded:
            return ()
        exact = tuple(name for name, f in self._folded.items() if f == folded)
        if exact:
            return exact
        words = folded.split()
        return tuple(
            name
            for name, city_words in self._words.items()
            if len(words) <= len(city_words)
            and all(c.startswith(w) for w, c in zip(words, city_words, strict=False))
        )

    def suggest(self, query: str, count: int = 3) -> tuple[str, ...]:
        """Cities whose names look like `query` (for "did you mean"): the one
        spelling helper (`ttr_maps.spelling`), with accents and case folded away."""
        return closest_spellings(query, self._folded, count, fold)

    def complete(self, typed: str) -> list[str]:
        """Completions of the last word of `typed`, a city name being typed (maybe
        over several words): the rest of every matching city's name from that word,
        in lower case. `"little r"` gives `["rock"]`. The longest run of words
        that starts a city name wins: `"claim little r"` completes Little Rock."""
        words = typed.split(" ")
        for start in range(len(words)):
            candidates: set[str] = set()
            query = words[start:]
            folded_query = [fold(w) for w in query]
            for name, city_words in self._words.items():
                if len(query) > len(city_words):
                    continue
                if all(c.startswith(w) for w, c in zip(folded_query, city_words, strict=False)):
                    original = name.lower().split()
                    if len(original) == len(city_words):
                        candidates.add(" ".join(original[len(query) - 1 :]))
            if candidates:
                return sorted(candidates)
        return []


def quoted_choices(names: Iterable[str]) -> str:
    """`A, B or C` for a message."""
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]
