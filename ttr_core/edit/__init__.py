"""`ttr edit`: draw a map in the browser, with the engine's checks live.

- `splice`: the careful writer's tools: a node of the YAML tree by its path, and
  text spliced in at its span, so every byte not edited stays as written.
- `edits`: what a designer does (add, drag, rename or delete a city; add, change
  or delete a route or a ticket; bend points; the R2 fix), each one a typed edit
  turning one version of the file's text into the next.
- `drawing`: the board the page draws (the board's SVG, `ttr_core.web.svg`, of
  the map as far as it is drawable), the frame between the page's clicks and the
  map's coordinates, and the suggested length and colour of a new route.
- `session`: the opened file: its text, the undo and redo history, the dirty
  marker, saving through the atomic writer with a check that the file did not
  change on disk meanwhile.
- `state`: what the page receives after every edit: the board, the elements,
  `ttr validate`'s problems tied to the element they are about, and the numbers.
- `numbers`: the live numbers beside the board, each with the published boards'.
- `crowding`: crowding in play for the numbers, counted in greedy games in a
  background thread (the map as edited, then the published boards beside it).
- `playtest`: play-tests run in the background through the simulation machinery,
  with progress, a stop, findings, win rates and a claim heatmap.
- `tables`: CSV import and export of cities, routes and tickets.
- `server`: what every handler works with (`EditServer`: the session, the token,
  the play-test).
- `access`: the token every `/api/` route's access rule checks.
- `routes/`: the handlers, grouped by what they do (changes, files, lookups,
  exchange, play-tests), each group a list of endpoints with their access rule.
- `app`: the Starlette application, built from the route groups by
  `ttr_core.web.routes.web_app` (the guard, limits and JSON errors of `ttr_core.web`).
- `static/`: the page (plain HTML, CSS and JavaScript; no build step).

Starlette and uvicorn are imported only here and in `ttr_core.web` and
`ttr_core.serve`, so `ttr --help` stays fast.
"""
