"""City names as YAML scalars, for every writer that puts a name into a map file
(the ticket block, the layout section, the editor's splices, the language server's
edits): plain when that reads back as the same string, else a double-quoted (JSON)
string, which YAML reads as written.
"""

from __future__ import annotations

import json
import re

_PLAIN_NAME = re.compile(r"[^\W\d_][\w .'’()-]*[\w.)]|[^\W\d_]", re.UNICODE)
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}
#: What a YAML double-quoted scalar must escape beyond what JSON escapes.
_UNPRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]")


def name_scalar(name: str) -> str:
    """A city name as a YAML scalar, in a flow list, a block list or as a key.

    >>> name_scalar("Den Haag"), name_scalar("B: x"), name_scalar("No"), name_scalar("a\x85b")
    ('Den Haag', '"B: x"', '"No"', '"a\\\\u0085b"')
    """
    if _PLAIN_NAME.fullmatch(name) and name.lower() not in _YAML_WORDS:
        return name
    # JSON's escapes are YAML's too; a character YAML does not print as itself (C1
    # controls: U+0085 is a YAML line break; U+FEFF, the surrogates) is escaped.
    return _UNPRINTABLE.sub(
        lambda m: f"\\u{ord(m.group()):04x}", json.dumps(name, ensure_ascii=False)
    )
