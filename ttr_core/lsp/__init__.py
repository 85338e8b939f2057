"""`ttr lsp`: the language server that brings the map checks into a text editor.

A front end like `ttr_core/serve/` (the web table) and `ttr_core/cli/` (the
terminal): it adds no check of its own. Every diagnostic comes from the one
validator (`ttr_maps.checks.validate.validate_text`, the function behind `ttr
validate`), so a check added to the registry shows in the editor without a change
here, and the R2 fix is `ttr fix`'s own plan (`ttr_maps.analysis.fix`).

- `server`: the pygls server: documents, debouncing, the features' wiring;
- `snapshot`: one version of a document, checked (in a worker thread);
- `outline`: where each city, route and ticket is written in the file;
- `lines`: offsets, ttr's `line:col` and the editor's positions;
- `diagnostics`, `actions`, `hover`, `completion`, `navigation`: one feature each.

pygls and lsprotocol are imported only here, so `ttr --help` stays fast.
"""
