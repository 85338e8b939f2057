"""The pieces both web apps are built from: `ttr serve` (the web table) and `ttr edit`
(the map editor) are each a list of routes over these.

- `routes`: the one way a route comes to exist: an `Endpoint` names its method,
  path, handler and access rule, and `web_app` wraps every handler so that its
  rule admits the request before the handler runs (`PUBLIC`, or the app's own
  token rule). The app refuses any route given to it another way.
- `guard`: the Host, Origin and content-type checks in front of every route.
- `bodies`: a request's JSON body within a size and depth limit, and its fields
  (texts, whole numbers, true/false, points) with a 400 that names the field.
- `answers`: JSON errors (`{"error": …}`) for every refusal and failure, the
  headers of a page and of a private answer.
- `svg`: the board as SVG, drawn from the one board geometry (`ttr_maps.geometry`).
- `listen`: the listening socket of `ttr serve` and `ttr edit`, with a clear
  message when the address cannot be used.

Its place in the layer order of `ttr_core`: above `engine`, `bots` and `table` (the
board's SVG names routes in the table's words, `ttr_core.table.texts`), below
`serve` and `edit`, which are built from it, and `cli`. It imports neither `serve`
nor `edit` (tests/test_house.py). Starlette is imported only by the web rooms
(`web`, `serve`, `edit`), so `ttr --help` stays fast.
"""
