"""The editor's routes, grouped by what they do; each group is a list of
`ttr_core.web.routes.Endpoint`s (method, path, handler, access rule), and
`ttr_core.edit.app` builds the app from all of them. Every `/api/` route is
admitted by the editor's token (`ttr_core.edit.access.EDITOR`).

- `changes`: the file now, an edit (`parse` turns its JSON into a typed edit),
  undo and redo.
- `files`: saving the file and reading it again.
- `lookups`: places by name (the gazetteer), a new route's suggested length and
  colours, a ticket's shortest path, the live numbers.
- `exchange`: CSV export and import, the board as SVG and PNG.
- `playtests`: a play-test in the background: start, progress, stop.

A handler is `async def handler(server, request, grant)`: `server` is the
`EditServer` (the session, the token, the play-test); work on the session runs in
a worker thread, so the event loop keeps answering.
"""
