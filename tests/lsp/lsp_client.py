"""A real LSP client for the tests: pygls' `LanguageClient` driving `ttr lsp` over
stdio in a subprocess, behind a synchronous face.

The client's event loop runs in a thread of its own; every call waits at most
`TIMEOUT` seconds, so a server that hangs fails the test instead of stalling the
suite. Diagnostics the server publishes are kept per document, in order.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types
from pygls.lsp.client import LanguageClient

#: Longest wait for any answer, in seconds (a check of a bundled map takes ~0.05 s).
TIMEOUT = 30.0

T = TypeVar("T")


class ServerGone(AssertionError):
    """The server process ended while the test talked to it."""


class LspSession:
    """One `ttr lsp` process and a client connected to it."""

    def __init__(
        self,
        *,
        hierarchical_symbols: bool = True,
        encodings: list[str] | None = None,
        cwd: Path | None = None,
    ):
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._published: dict[str, list[types.PublishDiagnosticsParams]] = {}
        self._changed = threading.Condition()
        self._versions: dict[str, int] = {}
        self.client = LanguageClient("ttr-tests", "1")
        self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(
            lambda params: self._on_diagnostics(params)
        )
        self.call(self.client.start_io(sys.executable, "-m", "ttr_core", "lsp", "--stdio", cwd=cwd))
        capabilities = types.ClientCapabilities(
            general=types.GeneralClientCapabilities(position_encodings=encodings),
            workspace=types.WorkspaceClientCapabilities(
                workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=True)
            ),
            text_document=types.TextDocumentClientCapabilities(
                document_symbol=types.DocumentSymbolClientCapabilities(
                    hierarchical_document_symbol_support=hierarchical_symbols
                ),
                publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                    version_support=True
                ),
            ),
        )
        self.initialized = self.call(
            self.client.initialize_async(
                types.InitializeParams(capabilities=capabilities, process_id=None)
            )
        )
        self.client.initialized(types.InitializedParams())

    # ------------------------------------------------------------ plumbing
    def call(self, coroutine: Coroutine[Any, Any, T], timeout: float = TIMEOUT) -> T:
        """Run a coroutine on the client's loop and wait for its result."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        return future.result(timeout)

    def _on_diagnostics(self, params: types.PublishDiagnosticsParams) -> None:
        with self._changed:
            self._published.setdefault(params.uri, []).append(params)
            self._changed.notify_all()

    @property
    def is_running(self) -> bool:
        server = self.client._server
        return server is not None and server.returncode is None

    def close(self) -> int | None:
        """Shut the server down the way an editor does; its exit code."""
        server = self.client._server
        try:
            if self.is_running:
                self.call(self.client.shutdown_async(None), timeout=10)
                self.client.exit(None)
                self.call(asyncio.wait_for(server.wait(), 10))
        finally:
            if server is not None and server.returncode is None:
                server.kill()
            self.call(self.client.stop(), timeout=10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)
        return server.returncode if server is not None else None

    # ------------------------------------------------------------ documents
    def open(self, uri: str, text: str) -> None:
        self._versions[uri] = 1
        item = types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))

    def change(self, uri: str, text: str) -> int:
        """Replace the whole text (the server asks for full synchronisation)."""
        self._versions[uri] += 1
        version = self._versions[uri]
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        return version

    def close_document(self, uri: str) -> None:
        self.client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )

    def published(self, uri: str) -> list[types.PublishDiagnosticsParams]:
        with self._changed:
            return list(self._published.get(uri, []))

    def diagnostics(self, uri: str, version: int | None = None) -> list[types.Diagnostic]:
        """Wait for the diagnostics of `version` (default: the latest sent) of `uri`."""
        wanted = self._versions[uri] if version is None else version
        with self._changed:
            ok = self._changed.wait_for(
                lambda: (
                    any(p.version == wanted for p in self._published.get(uri, []))
                    or not self.is_running
                ),
                TIMEOUT,
            )
            if not self.is_running:
                raise ServerGone("ttr lsp exited")
            assert ok, f"no diagnostics for version {wanted} of {uri} in {TIMEOUT} s"
            return list(
                next(p for p in reversed(self._published[uri]) if p.version == wanted).diagnostics
            )

    # ------------------------------------------------------------ requests
    @staticmethod
    def _doc(uri: str) -> types.TextDocumentIdentifier:
        return types.TextDocumentIdentifier(uri=uri)

    def hover(self, uri: str, line: int, character: int) -> types.Hover | None:
        params = types.HoverParams(
            text_document=self._doc(uri), position=types.Position(line, character)
        )
        return self.call(self.client.text_document_hover_async(params))

    def completion(self, uri: str, line: int, character: int) -> list[types.CompletionItem]:
        params = types.CompletionParams(
            text_document=self._doc(uri), position=types.Position(line, character)
        )
        found = self.call(self.client.text_document_completion_async(params))
        if found is None:
            return []
        return list(found.items if isinstance(found, types.CompletionList) else found)

    def definition(self, uri: str, line: int, character: int) -> Any:
        params = types.DefinitionParams(
            text_document=self._doc(uri), position=types.Position(line, character)
        )
        return self.call(self.client.text_document_definition_async(params))

    def references(self, uri: str, line: int, character: int) -> list[types.Location]:
        params = types.ReferenceParams(
            text_document=self._doc(uri),
            position=types.Position(line, character),
            context=types.ReferenceContext(include_declaration=True),
        )
        return list(self.call(self.client.text_document_references_async(params)) or [])

    def symbols(self, uri: str) -> list[Any]:
        params = types.DocumentSymbolParams(text_document=self._doc(uri))
        return list(self.call(self.client.text_document_document_symbol_async(params)) or [])

    def code_actions(
        self, uri: str, diagnostics: list[types.Diagnostic], where: types.Range | None = None
    ) -> list[types.CodeAction]:
        where = where or diagnostics[0].range
        params = types.CodeActionParams(
            text_document=self._doc(uri),
            range=where,
            context=types.CodeActionContext(diagnostics=diagnostics),
        )
        found = self.call(self.client.text_document_code_action_async(params)) or []
        return [action for action in found if isinstance(action, types.CodeAction)]


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP text edits (UTF-16 positions, lines broken at \\n, \\r\\n, \\r)
    the way an editor does: from the last to the first."""
    import re

    starts = [0, *(m.end() for m in re.finditer("\r\n|[\r\n]", text))]

    def offset(position: types.Position) -> int:
        start = starts[position.line] if position.line < len(starts) else len(text)
        units = 0
        index = start
        while units < position.character and index < len(text) and text[index] not in "\r\n":
            units += 2 if ord(text[index]) > 0xFFFF else 1
            index += 1
        return index

    spans = sorted(
        ((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits), reverse=True
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def edits_of(action: types.CodeAction, uri: str) -> list[types.TextEdit]:
    """The text edits of a code action on one document."""
    edit = action.edit
    assert edit is not None
    if edit.document_changes:
        return [
            e
            for change in edit.document_changes
            if isinstance(change, types.TextDocumentEdit) and change.text_document.uri == uri
            for e in change.edits
        ]
    return list((edit.changes or {}).get(uri, []))
