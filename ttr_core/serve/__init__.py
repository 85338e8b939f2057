"""`ttr serve`: the web table, a local page where people and bots play one engine.

- `tables`: the games in memory (one `Table` each), their per-seat secret tokens,
  bots moving at a readable pace, and idle games expiring.
- `payloads`: what the page receives, as JSON: a seat's `PlayerView` and the actions it
  may take, the result at the end, the frames of a replay.
- `svg`: the board as SVG, drawn from the map's board geometry.
- `app`: the Starlette application: routes, limits and clean errors.
- `static/`: the page itself (plain HTML, CSS and JavaScript; no build step, no CDN).

Starlette and uvicorn are imported only here, so `ttr --help` stays fast.
"""
