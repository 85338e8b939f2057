"""`ttr serve`: the web table, a local page where people and bots play one engine.

- `tables`: the games (one `Table` each) and the registry that holds them: per-seat
  secret tokens (kept as digests), the deal kept secret until the end, bots moving at
  a readable pace through the one game loop, the turn timer, names, notes, slots
  freed by finished and idle games.
- `store`: every table in SQLite (WAL) in the data folder, written after every
  change and read back when the server starts.
- `thinkers`: where bots think, off the event loop (threads; worker processes for
  the search bot), with a time budget per move.
- `guard`: the Host, Origin and content-type checks in front of every route.
- `payloads`: what the page receives, as JSON: a seat's `PlayerView` and the actions it
  may take (or the public part of a view, for someone watching), the result and the
  seed at the end, the frames of a replay.
- `svg`: the board as SVG, drawn from the map's board geometry.
- `app`: the Starlette application: routes, limits and clean errors.
- `static/`: the page itself (plain HTML, CSS and JavaScript; no build step, no CDN).

Starlette and uvicorn are imported only here, so `ttr --help` stays fast.
"""
