"""The one HTML page skeleton: every whole page ttr writes (the play-test report,
`ttr compare --format html`) is this doctype, language, charset, title and style
around a body.

>>> page = html_page("Denver & Co", "<p>hi</p>", "p{color:red}")
>>> page.splitlines()[0], page.endswith("<body><p>hi</p></body></html>\\n")
('<!DOCTYPE html>', True)
>>> page[page.index("<title>") :].split("</title>")[0]
'<title>Denver &amp; Co'
"""

from __future__ import annotations

from ttr_maps.text import for_html


def html_page(title: str, body: str, style: str, lang: str = "en") -> str:
    """A self-contained HTML page. `title` is text (a map's name comes from its
    file: it is escaped here); `body` is markup whose text the caller escaped with
    `ttr_maps.text.for_html`; `style` is the page's CSS."""
    return (
        f'<!DOCTYPE html>\n<html lang="{for_html(lang)}"><head><meta charset="utf-8">'
        f"<title>{for_html(title)}</title><style>{style}</style></head>"
        f"<body>{body}</body></html>\n"
    )
