"""The web table's routes, grouped by what they do; each group is a list of
`ttr_core.web.routes.Endpoint`s (method, path, handler, access rule), and
`ttr_core.serve.app` builds the app from all of them.

- `lobby`: what a server offers (maps, players, paces; a map's board) and starting
  or continuing a game (public: whoever starts a game gets its tokens).
- `seats`: a seat's table and its moves, pace, name, and why a route cannot be
  claimed now (the table's view also for someone watching).
- `notes`: notes on a game, from a seat or someone watching.
- `records`: a finished game's record, and the frames of a replay (public: the
  record brought is the whole game).

A handler is `async def handler(server, request, grant)`: `server` is the
`TableServer`, `grant` what its access rule admitted (`ttr_core.serve.access`).
"""
