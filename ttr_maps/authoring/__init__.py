"""Writing maps: starter maps (`ttr new`), real places from the gazetteer, a deck
as a `tickets:` block and a board layout as a `layout:` section, each stored into
a map file with every other byte kept. It sits above the checks and the analyses,
which validate what it writes.
"""
