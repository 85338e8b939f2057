"""The language server: pygls wiring, one state per open document, debouncing.

Only `.yaml`/`.yml` documents whose text is a map (`is_map_text`) are checked;
other YAML gets no diagnostics and no answers. A document is re-judged on every
change, so a file becomes a map when its `format:` is written, and stops being one
(its diagnostics cleared) when it is gone.

Diagnostics are published on open at once, and after a change once the text has
been still for `DEBOUNCE_SECONDS`. Checking runs in a worker thread, one version
at a time per document: while one runs, later edits wait and only the newest
text is checked next, so a burst of typing costs one check, not one per key.
A request (hover, completion…) answers from the snapshot of the current text,
taking it first if the debounce has not yet.

The text is synchronised in full (each change sends the whole text): pygls
applies ranged edits by lines it splits on more characters than LSP does, and a
map is small next to what a check costs.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
from dataclasses import dataclass, field
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from ttr_core.lsp import actions, completion, diagnostics, hover, navigation, wire
from ttr_core.lsp.lines import LineIndex
from ttr_core.lsp.snapshot import Snapshot, take_snapshot
from ttr_maps.about import installed_version
from ttr_maps.checks.validate import MAP_SUFFIXES
from ttr_maps.io.document import is_map_text

#: How long the text must be still after a change before it is checked.
DEBOUNCE_SECONDS = 0.1
#: How long after the last diagnostics the garbage collector runs (see `serve_stdio`).
IDLE_COLLECT_SECONDS = 1.0
#: Objects allocated since the last collection past which it runs at once.
MOST_UNCOLLECTED = 2_000_000

logger = logging.getLogger(__name__)


@dataclass
class _Document:
    """What the server keeps for one open document."""

    uri: str
    path: str
    is_map: bool = False
    snapshot: Snapshot | None = None
    #: The version whose diagnostics the editor shows (None: none shown).
    published: int | None = None
    timer: asyncio.TimerHandle | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The city names of the text as last parsed (completion while it is not YAML).
    cities: tuple[str, ...] = ()


def _path_of(uri: str) -> str:
    """The file path of a document (or its URI's path, for other schemes)."""
    return unquote(urlparse(uri).path) or uri


class MapLanguageServer(LanguageServer):
    """`ttr lsp`: the checks of `ttr validate`, and more, in the editor."""

    def __init__(self) -> None:
        super().__init__(
            "ttr", installed_version(), text_document_sync_kind=types.TextDocumentSyncKind.Full
        )
        self.documents: dict[str, _Document] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._collector: asyncio.TimerHandle | None = None
        self.is_shut_down = False

    # ----------------------------------------------------------- documents
    def _text(self, uri: str) -> tuple[int, str] | None:
        """The version and text of an open document (None once it is closed: never
        `get_text_document`, which would read a closed one from disk)."""
        document = self.workspace.text_documents.get(unquote(uri))
        if document is None:
            return None
        return document.version or 0, document.source

    def opened(self, uri: str) -> None:
        self.documents[uri] = _Document(uri, _path_of(uri))
        self.changed(uri, delay=0.0)

    def changed(self, uri: str, delay: float = DEBOUNCE_SECONDS) -> None:
        state = self.documents.get(uri)
        current = self._text(uri)
        if state is None or current is None:
            return
        was_map = state.is_map
        state.is_map = state.path.endswith(MAP_SUFFIXES) and is_map_text(current[1])
        if state.timer is not None:
            state.timer.cancel()
            state.timer = None
        if state.is_map:
            loop = asyncio.get_running_loop()
            state.timer = loop.call_later(delay, self._start_publishing, uri)
        elif was_map:
            state.snapshot = None
            self._clear(state)

    def closed(self, uri: str) -> None:
        state = self.documents.pop(uri, None)
        if state is None:
            return
        if state.timer is not None:
            state.timer.cancel()
        self._clear(state)

    def _clear(self, state: _Document) -> None:
        if state.published is not None:
            state.published = None
            params = types.PublishDiagnosticsParams(uri=state.uri, diagnostics=[])
            self.text_document_publish_diagnostics(params)

    def _start_publishing(self, uri: str) -> None:
        task = asyncio.ensure_future(self._publish(uri))
        self._tasks.add(task)  # a task nobody holds may be collected before it ends
        task.add_done_callback(self._tasks.discard)

    async def _publish(self, uri: str) -> None:
        """Check the current text (unless it is checked) and publish its diagnostics."""
        try:
            snapshot = await self.snapshot(uri)
        except Exception:  # never leave the editor without a word
            logger.exception("ttr lsp: checking %s failed", uri)
            self.window_log_message(
                types.LogMessageParams(
                    type=types.MessageType.Error,
                    message=f"ttr lsp: checking {uri} failed (see the server's log)",
                )
            )
            return
        state = self.documents.get(uri)
        current = self._text(uri)
        if snapshot is None or state is None or current is None or not state.is_map:
            return
        version = current[0]
        if snapshot.version != version or state.published == version:
            return  # a newer text is on its way, or this one is shown already
        state.published = version
        params = types.PublishDiagnosticsParams(
            uri=uri, diagnostics=diagnostics.diagnostics(snapshot), version=version
        )
        self.text_document_publish_diagnostics(params)
        self._collect_when_idle()

    def _collect_when_idle(self) -> None:
        """Collect garbage once the editor has been quiet a while (a full collection
        over a map's objects takes tens of milliseconds: not while one waits)."""
        if self._collector is not None:
            self._collector.cancel()
        if gc.get_count()[0] > MOST_UNCOLLECTED:  # never idle for long: collect now
            gc.collect()
        self._collector = asyncio.get_running_loop().call_later(IDLE_COLLECT_SECONDS, gc.collect)

    async def snapshot(self, uri: str) -> Snapshot | None:
        """The checked state of the document's current text (None: not a map)."""
        state = self.documents.get(uri)
        if state is None or not state.is_map:
            return None
        async with state.lock:
            current = self._text(uri)
            if current is None or self.documents.get(uri) is not state:
                return None  # closed while it waited
            version, text = current
            if state.snapshot is not None and state.snapshot.version == version:
                return state.snapshot
            encoding = self.position_encoding
            loop = asyncio.get_running_loop()
            snapshot = await loop.run_in_executor(
                None, take_snapshot, uri, state.path, version, text, encoding
            )
            state.snapshot = snapshot
            if snapshot.outline is not None and snapshot.outline.cities:
                state.cities = snapshot.outline.city_names
            return snapshot

    async def run(self, uri: str, answer, *args):  # type: ignore[no-untyped-def]
        """Run `answer(snapshot, *args)` in a worker thread on the current snapshot."""
        snapshot = await self.snapshot(uri)
        if snapshot is None:
            return None
        return await asyncio.get_running_loop().run_in_executor(None, answer, snapshot, *args)

    @property
    def position_encoding(self) -> str:
        """How columns are counted, as agreed at start-up: "utf-16", "utf-8" or
        "utf-32" (an enum's value: `str()` of the enum would be its name)."""
        kind = self.workspace.position_encoding
        return str(getattr(kind, "value", kind) or "utf-16")

    async def complete(self, uri: str, position: types.Position) -> types.CompletionList | None:
        """Completion from the current text (which need not be YAML) and the city
        names as last parsed."""
        state = self.documents.get(uri)
        if state is None or not state.is_map:
            return None
        if not state.cities:  # nothing parsed yet: parse now
            await self.snapshot(uri)
        current = self._text(uri)
        if current is None:
            return None
        encoding = self.position_encoding

        def answer() -> list[types.CompletionItem]:
            lines = LineIndex(current[1], encoding)
            offset = lines.from_lsp(position.line, position.character)
            return completion.completions(lines, offset, state.cities)

        items = await asyncio.get_running_loop().run_in_executor(None, answer)
        return types.CompletionList(is_incomplete=False, items=items)

    def report_server_error(self, error: Exception, source: object) -> None:
        """pygls' errors outside a request (a notification that failed): one line
        in the server's log, never a traceback nor a message popping up in the
        editor (`ttr_core.lsp.wire` answers what must be answered)."""
        reason = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
        logger.warning("%s: %s", getattr(source, "__name__", "error"), reason)

    def client_has(self, *path: str) -> bool:
        """Whether the client's capabilities have `path` set and true."""
        found: object = self.client_capabilities
        for name in path:
            found = getattr(found, name, None)
            if found is None:
                return False
        return bool(found)


def create_server() -> MapLanguageServer:
    """A `MapLanguageServer` with every feature registered."""
    server = MapLanguageServer()

    @server.feature(types.SHUTDOWN)
    def on_shutdown(params: None) -> None:
        server.is_shut_down = True

    @server.feature(types.EXIT)
    def on_exit(params: None) -> None:
        # The protocol's reader thread may still wait on standard input, and would
        # hold the process until the editor closes it; nothing is left to save, so
        # leave now, with the code LSP asks for (1 without a shutdown first).
        os._exit(0 if server.is_shut_down else 1)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        server.opened(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        server.changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        server.closed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(params: types.HoverParams) -> types.Hover | None:
        def answer(snapshot: Snapshot) -> types.Hover | None:
            return hover.hover(snapshot, snapshot.offset(params.position))

        return await server.run(params.text_document.uri, answer)

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=completion.TRIGGERS),
    )
    async def on_completion(params: types.CompletionParams) -> types.CompletionList | None:
        return await server.complete(params.text_document.uri, params.position)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def on_definition(params: types.DefinitionParams) -> types.Location | None:
        def answer(snapshot: Snapshot) -> types.Location | None:
            return navigation.definition(snapshot, snapshot.offset(params.position))

        return await server.run(params.text_document.uri, answer)

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    async def on_references(params: types.ReferenceParams) -> list[types.Location] | None:
        def answer(snapshot: Snapshot) -> list[types.Location]:
            offset = snapshot.offset(params.position)
            return navigation.references(snapshot, offset, params.context.include_declaration)

        return await server.run(params.text_document.uri, answer)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def on_symbols(
        params: types.DocumentSymbolParams,
    ) -> list[types.DocumentSymbol] | list[types.SymbolInformation] | None:
        hierarchical = server.client_has(
            "text_document", "document_symbol", "hierarchical_document_symbol_support"
        )
        answer = navigation.document_symbols if hierarchical else navigation.flat_symbols
        return await server.run(params.text_document.uri, answer)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[
                types.CodeActionKind.QuickFix,
                types.CodeActionKind.SourceFixAll,
            ]
        ),
    )
    async def on_code_action(params: types.CodeActionParams) -> list[types.CodeAction] | None:
        versioned = server.client_has("workspace", "workspace_edit", "document_changes")

        def answer(snapshot: Snapshot) -> list[types.CodeAction]:
            start, end = snapshot.offset(params.range.start), snapshot.offset(params.range.end)
            return actions.code_actions(snapshot, start, end, params.context, versioned=versioned)

        return await server.run(params.text_document.uri, answer)

    return server


class OneLineLog(logging.Filter):
    """Every log line of the server on one line, without a traceback: pygls logs
    the messages it could not handle with theirs, which an editor shows its user
    (`ttr_core.lsp.wire` has said what went wrong by then, in one line)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        first = message.splitlines()[0] if message else ""
        record.msg, record.args = first[:300], None
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


def log_on_one_line() -> None:
    """Put `OneLineLog` on every handler of the root logger."""
    for handler in logging.getLogger().handlers:
        handler.addFilter(OneLineLog())


def serve_stdio() -> None:
    """Speak LSP on standard input and output until the editor says exit (or
    closes standard input).

    The protocol gets copies of the two descriptors; descriptor 1 then points at
    standard error and descriptor 0 at /dev/null, so a stray print can never
    corrupt the protocol's stream, and closing the protocol's output at exit
    leaves Python's own `sys.stdout` usable.

    The garbage collector runs only when the editor is idle: left to itself it
    would scan a check's many young objects every few edits, right inside the
    time the designer waits for the diagnostics (a spike of 100-200 ms). What the
    server holds from start-up is frozen out of those scans.
    """
    from ttr_maps.checks.validate import validate_file
    from ttr_maps.garbage import collect_only_when_idle
    from ttr_maps.io.bundled import maps_dir

    validate_file(maps_dir() / "north_america.yaml")  # the imports of every check
    collect_only_when_idle()
    for signum in (signal.SIGTERM, signal.SIGHUP):  # the editor stops it: at once
        signal.signal(signum, lambda number, _: os._exit(128 + number))
    protocol_in = os.dup(0)
    protocol_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.close(nothing)
    wire.serve(create_server(), protocol_in, protocol_out)  # framing and envelope hardened
