"""The limits on what ttr reads from files, in one place (docs/map-format.md,
"Limits", lists them with their codes).

A map or a game record may come from anyone (a pull request, a download), so
reading it must finish quickly and in bounded memory whatever it holds. Each
limit is far above what a real board needs: the largest published boards have
under 100 cities, and a record of a 5-player game is a few hundred kilobytes.
"""

from __future__ import annotations

#: Largest map file read, in bytes (TTR004).
MAX_MAP_BYTES = 20_000_000
#: Deepest nesting of lists and mappings in a map (TTR005); a map needs 4.
MAX_DEPTH = 20
#: Most values that aliases (`*name`) may add to a map by repeating anchored
#: values (TTR006). Aliases stay allowed because designers use them to share a
#: colour list or a settings block; the cap stops "billion laughs" files.
MAX_ALIAS_VALUES = 10_000
#: Longest number, in characters (TTR009): a map's numbers are small, and Python
#: refuses to read integers of more than 4,300 digits anyway.
MAX_NUMBER_CHARS = 30
#: Most cities, routes and tickets in one map (TTR010). `ttr stats` and
#: `ttr preview` stay within 30 s and 1 GB at these sizes (benchmarks/hostile_bench.py).
MAX_CITIES = 10_000
MAX_ROUTES = 40_000
MAX_TICKETS = 10_000

#: Largest game record read, in bytes.
MAX_RECORD_BYTES = 20_000_000
#: Deepest nesting of arrays and objects in a record (a record needs 4).
MAX_RECORD_DEPTH = 20

#: A player's name at a table (as shown in logs, results and records), in characters.
MAX_PLAYER_NAME_CHARS = 40
#: A city's or a map's name as the editor writes it, in characters (a printed board
#: has room for far less).
MAX_CITY_NAME_CHARS = 60
#: One note of a game (the table's chat: feedback on the map kept in the record),
#: in characters, and most notes one game keeps.
MAX_NOTE_CHARS = 1_000
MAX_NOTES = 500

#: Longest line read at the `ttr play` prompt, in characters: an action is a few
#: dozen; a longer line is answered as one that cannot be read.
MAX_PROMPT_LINE_CHARS = 1_000

#: Most cities `ttr preview` (and every picture of a whole board) draws: label
#: placement grows with the square of the cities, and 1,000 take about 20 s of CPU
#: (benchmarks/hostile_bench.py). Real boards have under 100.
MAX_PREVIEW_CITIES = 1_000
#: Most cities `ttr tickets` (analyse and suggest) works on: it keeps the wagon
#: distance of every pair of cities, which grows with the square of the cities;
#: 3,000 take under 2 minutes of CPU and under 1 GB (benchmarks/big_maps_bench.py).
MAX_TICKET_CITIES = 3_000
#: Most cities `ttr layout` lays out. Past about a hundred, the map is far
#: denser than a published board and the layout neither reaches a readable
#: board nor finishes in minutes (docs/print.md, "Big maps"; measured by
#: benchmarks/big_maps_bench.py); a bigger map is refused with that message.
MAX_LAYOUT_CITIES = 200
#: Most cities `ttr probe` solves a map of. Its programme has a few variables
#: per connection and city; on generated maps with tickets across the board the
#: solver's root node (before any branch-and-bound node, so before --node-limit
#: applies) takes about a minute at 1,000 cities, and the work around the solve
#: (validation, the model, every ticket's cheapest path and its checks) about 10 s
#: of CPU at 2,000 and 22 s at 3,000, most of it the cheapest paths
#: (benchmarks/hostile_bench.py). Past this, refused with a message.
MAX_PROBE_CITIES = 2_000
