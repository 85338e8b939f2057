"""The person at the table: what `ttr play` (and, for parsing and words, the web
table) needs besides the engine.

- `commands`: the command language (`deck`, `m 3`, `claim dallas little rock`, …)
  read against a player's view; completions for readline.
- `names`: city names as people type them (case, accents, prefixes, did you mean).
- `payments`: which cards pay for a claim, a station or a tunnel.
- `progress`: routes claimable now, wagons a ticket still needs, kinds of action.
- `journal`: what every seat did, as the table saw it.
- `texts`: the words shown (routes, payments, the command reference).
- `screen`: the terminal screen of a turn (rich), fitted to the terminal's size.
- `picture`: the board in play, drawn by the preview code.

Nothing here reads or writes the terminal: `ttr_core.table.terminal` does.
"""

#: The player name of a seat played by a person (`--bots human,greedy`, the web
#: table's seat menu): every other player name is a bot's (`ttr_core.bots.BOTS`).
HUMAN = "human"
