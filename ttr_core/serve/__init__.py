"""`ttr serve`: the web table, a local page where people and bots play one engine.

- `tables`: the games (one `Table` each) and the registry that holds them: per-seat
  secret tokens (kept as digests), the deal kept secret until the end, bots moving at
  a readable pace through the one game loop, the turn timer, names, notes, slots
  freed by finished and idle games.
- `store`: every table in SQLite (WAL) in the data folder, written after every
  change and read back when the server starts.
- `thinkers`: where bots think, off the event loop (threads; worker processes for
  the search bot), with a time budget per move.
- `payloads`: what the page receives, as JSON: a seat's `PlayerView` and the actions it
  may take (or the public part of a view, for someone watching), the result and the
  seed at the end, the frames of a replay.
- `catalogue`: the maps a server offers, each board drawn once as SVG.
- `server`: what every handler works with (`TableServer`: the maps, the tables).
- `access`: the routes' access rules: a seat's token, or a seat's or the
  spectators' token (the table of the URL first, then the token).
- `routes/`: the handlers, grouped by what they do (lobby, seats, notes, records),
  each group a list of endpoints with their access rules.
- `app`: the Starlette application, built from the route groups by
  `ttr_core.web.routes.web_app` (the guard, limits and JSON errors of `ttr_core.web`).
- `static/`: the page itself (plain HTML, CSS and JavaScript; no build step, no CDN).

Starlette and uvicorn are imported only here and in `ttr_core.web` and
`ttr_core.edit`, so `ttr --help` stays fast.
"""
