"""The LSP wire, hardened: framing and the JSON-RPC envelope between the editor and
pygls' protocol, for whatever bytes arrive.

pygls reads `Content-Length: N\\r\\n` headers and N bytes, and trusts both: a bare
`\\n` header, a wrong length or a body that is not a JSON-RPC message leave it
waiting for ever, lose the messages that follow, or pop up a traceback. Here:

- **Headers** end in `\\r\\n` or a bare `\\n`; names are matched without case;
  `Content-Type` and unknown headers are ignored. A line that is not a header
  (bytes left over from a broken message) is skipped with one log line, up to the
  next header, so the next good message is read (resynchronisation).
- **The body** is read by its `Content-Length`. When that is missing, not a
  number, past `MAX_MESSAGE_BYTES`, or simply wrong, the message is the JSON value
  that starts the body: a length too long (the body then holds the next message's
  header, or the editor sent nothing more for `BODY_WAIT_SECONDS`) or too short
  (the value goes on) is mended, with a log line, and what follows the value is
  read as the next message. Nothing waits for ever on bytes that do not come.
- **The envelope** follows JSON-RPC 2.0 and LSP: a body that is not JSON gets a
  Parse error (-32700, id null); JSON that is not a request, a notification or a
  response, or a request whose `jsonrpc`, `method` or `id` is wrong, gets Invalid
  Request (-32600, with the id when it can be read, even out of JSON nested too
  deep to parse); parameters that do not fit the method get Invalid params
  (-32602) with the id. After `shutdown`, every request but `exit` gets Invalid
  Request, as LSP asks. A notification is never answered: a bad one, or one about
  a document that is not open (`didChange` before `didOpen`), is ignored with one
  log line. Nothing prints a traceback or pops up a message in the editor.

`serve` runs the loop: a thread reads standard input in chunks into the event
loop, which frames, checks and hands each message to pygls.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
from dataclasses import dataclass
from typing import Any, BinaryIO

from ttr_maps.io.limits import MAX_MAP_BYTES

logger = logging.getLogger("ttr_core.lsp")

#: The largest message read: a `didOpen` or `didChange` carries the whole text of
#: a map (at most `MAX_MAP_BYTES`), escaped as JSON (up to six bytes a character).
MAX_MESSAGE_BYTES = 6 * MAX_MAP_BYTES + 65_536
#: How long a body may stall before what came is taken as all of it (an editor
#: waits for an answer before it sends more, so a too-long `Content-Length`
#: would otherwise wait for ever).
BODY_WAIT_SECONDS = 2.0
#: The longest header line kept; longer ones are skipped.
MAX_HEADER_BYTES = 8_192
#: Bytes read from standard input at a time.
CHUNK_BYTES = 65_536

#: JSON-RPC 2.0 error codes.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

#: Notifications about an open document, ignored (with a log line) when it is not open.
_ABOUT_AN_OPEN_DOCUMENT = (
    "textDocument/didChange",
    "textDocument/didClose",
    "textDocument/didSave",
    "textDocument/willSave",
)


class Input:
    """Standard input as an asyncio queue of chunks, read by a thread of its own
    (b"" at the end)."""

    def __init__(self, descriptor: int, loop: asyncio.AbstractEventLoop) -> None:
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()
        self._descriptor, self._loop = descriptor, loop
        threading.Thread(target=self._read, name="lsp-input", daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self._descriptor, CHUNK_BYTES)
            except OSError:
                chunk = b""
            self._loop.call_soon_threadsafe(self.queue.put_nowait, chunk)
            if not chunk:
                return


@dataclass
class Body:
    """One message's body as framed: its bytes, and why the framing was mended."""

    data: bytes
    mended: str = ""


class Framer:
    """Messages out of a stream of chunks (see the module docstring)."""

    def __init__(self, chunks: asyncio.Queue[bytes]) -> None:
        self._chunks = chunks
        self._buffer = bytearray()
        self._ended = False

    async def _more(self, wait: float | None = None) -> bool:
        """Append the next chunk; False at the end of input or after `wait` seconds."""
        if self._ended:
            return False
        try:
            chunk = await asyncio.wait_for(self._chunks.get(), wait)
        except TimeoutError:
            return False
        if not chunk:
            self._ended = True
            return False
        self._buffer += chunk
        return True

    async def next_body(self) -> Body | None:
        """The next message's body, or None at the end of input."""
        while True:
            headers = await self._headers()
            if headers is None:
                return None
            length, problem = headers
            body = await self._body(length, problem)
            if body is not None:
                return body

    async def _line(self) -> bytes | None:
        """The next line without its end (`\\r\\n` or `\\n`); None at the end."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                return line.removesuffix(b"\r")
            if len(self._buffer) > MAX_HEADER_BYTES:
                logger.warning("skipped %d bytes without a line end", len(self._buffer))
                self._buffer.clear()
            if not await self._more():
                if self._buffer:
                    logger.warning(
                        "input ended inside a header: %d bytes dropped", len(self._buffer)
                    )
                    self._buffer.clear()
                return None

    async def _headers(self) -> tuple[int | None, str] | None:
        """The header block: (the body's length if it said a good one, what was
        wrong with it); None at the end of input."""
        length: int | None = None
        problem = ""
        seen = False
        while True:
            line = await self._line()
            if line is None:
                return None
            if not line.strip():
                if seen:
                    return length, problem or ("" if length is not None else "no Content-Length")
                continue  # a blank line between messages
            name, colon, value = line.partition(b":")
            if not colon or not name.strip() or b" " in name.strip():
                logger.warning("skipped a line that is not a header: %s", _shown(line))
                seen, length, problem = False, None, ""
                continue
            seen = True
            if name.strip().lower() == b"content-length":
                length, problem = _content_length(value)

    async def _body(self, length: int | None, problem: str) -> Body | None:
        """The body after a header block (see the module docstring)."""
        if length is not None:
            while len(self._buffer) < length:
                if not await self._more(BODY_WAIT_SECONDS):
                    break
            candidate = bytes(self._buffer[:length])
            if len(candidate) == length and _is_json(candidate):
                del self._buffer[:length]
                return Body(candidate)  # the common case
            whole = _leading_value(candidate)
            if whole is not None:  # the length was too long: a message and more
                del self._buffer[:whole]
                said = f"Content-Length {length} for a message of {whole} bytes"
                return Body(candidate[:whole], said)
            closes = _Scanner().feed(bytearray(candidate.rstrip())) == len(candidate.rstrip())
            if len(candidate) == length and not closes and not await self._header_follows(length):
                found = await self._json_value()  # the length was too short: it goes on
                if found is not None:
                    end, value = found
                    del self._buffer[:end]
                    return Body(value, f"Content-Length {length} for a message of {end} bytes")
            del self._buffer[: len(candidate)]
            return Body(candidate, problem)  # not JSON: answered as such
        found = await self._json_value()  # no usable length: the JSON value that starts here
        if found is not None:
            end, value = found
            del self._buffer[:end]
            return Body(value, problem)
        data = bytes(self._buffer[: _next_header(self._buffer)])
        del self._buffer[: len(data)]
        return Body(data, problem)

    async def _header_follows(self, at: int) -> bool:
        """Whether what follows byte `at` is the next message's header (or nothing
        came): the body before it was as long as it said."""
        while len(self._buffer) < at + len(b"content-length"):
            if not await self._more(BODY_WAIT_SECONDS):
                break
        following = bytes(self._buffer[at : at + 64]).lstrip().lower()
        return not following or following.startswith(b"content-")

    async def _json_value(self) -> tuple[int, bytes] | None:
        """(where it ends, its bytes) for the JSON object or array that starts the
        buffer (after blanks), waiting for more of it while it comes; None if the
        buffer does not start with one, or it breaks off."""
        scanner = _Scanner()
        while True:
            end = scanner.feed(self._buffer)
            if end is not None:
                if end < 0:
                    return None
                return end, bytes(self._buffer[:end])
            if len(self._buffer) > MAX_MESSAGE_BYTES or not await self._more(BODY_WAIT_SECONDS):
                return None


def _content_length(value: bytes) -> tuple[int | None, str]:
    text = value.strip()
    if not text.isdigit() or len(text) > 12:
        return None, f"Content-Length {_shown(text)} is not a number of bytes"
    length = int(text)
    if length > MAX_MESSAGE_BYTES:
        return None, f"Content-Length {length:,} is past the limit of {MAX_MESSAGE_BYTES:,}"
    return length, ""


def _next_header(buffer: bytearray) -> int:
    """Where the next header block seems to start (the whole buffer if none)."""
    found = buffer.lower().find(b"content-length")
    return found if found > 0 else len(buffer)


def _leading_value(data: bytes) -> int | None:
    """Where the JSON value at the start of `data` ends (in bytes), if one does
    before the end of `data` (with something after it); else None."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    start = len(text) - len(text.lstrip())
    try:
        _, end = json.JSONDecoder().raw_decode(text, start)
    except (ValueError, RecursionError):
        return None
    if not text[end:].strip():
        return None  # the whole of it: not JSON for another reason
    return len(text[:end].encode("utf-8"))


def _is_json(data: bytes) -> bool:
    try:
        json.loads(data)
    except RecursionError:
        return True  # JSON, only too deep to parse: the envelope says so
    except ValueError:
        return False
    return True


class _Scanner:
    """Finds where the JSON object or array at the start of a buffer ends, fed the
    growing buffer again and again (it resumes where it stopped)."""

    def __init__(self) -> None:
        self.position = 0
        self.depth = 0
        self.in_string = self.escaped = self.started = False

    def feed(self, buffer: bytearray) -> int | None:
        """The end of the value (-1: the buffer does not start with one), or None
        if it goes on past the buffer."""
        data = bytes(buffer)
        position = self.position
        while position < len(data):
            byte = data[position]
            position += 1
            if self.in_string:
                if self.escaped:
                    self.escaped = False
                elif byte == 0x5C:  # backslash
                    self.escaped = True
                elif byte == 0x22:
                    self.in_string = False
            elif not self.started:
                if byte in b" \t\r\n":
                    continue
                if byte not in b"{[":
                    return -1
                self.started, self.depth = True, 1
            elif byte == 0x22:
                self.in_string = True
            elif byte in b"{[":
                self.depth += 1
            elif byte in b"}]":
                self.depth -= 1
                if self.depth == 0:
                    return position
        self.position = position
        return None


def _shown(data: bytes) -> str:
    """A few bytes of the wire, for a log line."""
    text = data[:60].decode("utf-8", "replace")
    return repr(text + ("…" if len(data) > 60 else ""))


# ------------------------------------------------------------------ the envelope


def read_message(body: Body) -> tuple[Any, str]:
    """The JSON of a body, or (None, why not)."""
    try:
        return json.loads(body.data), ""
    except RecursionError:
        return None, "nested too deep"
    except ValueError as error:  # not JSON, not UTF-8, a number past Python's limit
        return None, f"not JSON ({str(error)[:80]})"


def id_of_unparsed(data: bytes) -> Any:
    """The `id` of a request JSON could not parse (nested too deep), read from the
    top level of its object without parsing the rest; None if it has none."""
    depth, position, in_string, escaped, key_start = 0, 0, False, False, -1
    text = data
    while position < len(text):
        byte = text[position]
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
                if depth == 1 and text[key_start : position + 1] == b'"id"':
                    rest = text[position + 1 :].lstrip()
                    if rest.startswith(b":"):
                        return _scalar_at(rest[1:].lstrip())
        elif byte == 0x22:
            in_string, key_start = True, position
        elif byte in b"{[":
            depth += 1
        elif byte in b"}]":
            depth -= 1
        position += 1
    return None


def _scalar_at(data: bytes) -> Any:
    """The number or string that starts `data`, as an id; None otherwise."""
    try:
        value, _ = json.JSONDecoder().raw_decode(data[:200].decode("utf-8", "replace"))
    except ValueError:
        return None
    return value if _is_valid_id(value) else None


def _is_valid_id(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, str)


class Envelope:
    """Checks each message and hands it to pygls, answering what JSON-RPC and LSP
    say must be answered (see the module docstring)."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.protocol = server.protocol

    def answer_error(self, message_id: Any, code: int, text: str) -> None:
        error = {"code": code, "message": text}
        self.send({"jsonrpc": "2.0", "id": message_id, "error": error})

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message, ensure_ascii=True, separators=(",", ":")).encode("ascii")
        writer = self.protocol.writer
        if writer is not None:
            writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def handle(self, body: Body) -> None:
        if body.mended:
            logger.warning("mended the framing of a message: %s", body.mended)
        message, problem = read_message(body)
        if problem:
            message_id = id_of_unparsed(body.data) if problem == "nested too deep" else None
            logger.warning("a message that is %s: answered with an error", problem)
            code = INVALID_REQUEST if message_id is not None else PARSE_ERROR
            self.answer_error(message_id, code, f"the message is {problem}")
            return
        if not isinstance(message, dict):
            logger.warning("a message that is not a JSON object: answered with an error")
            self.answer_error(None, INVALID_REQUEST, "a message is a JSON object")
            return
        self._dispatch(message)

    def _dispatch(self, message: dict[str, Any]) -> None:
        has_id = "id" in message
        message_id = message.get("id")
        if has_id and not _is_valid_id(message_id) and message_id is not None:
            logger.warning("a message whose id is neither a number nor a string: answered")
            self.answer_error(None, INVALID_REQUEST, "`id` must be a number or a string")
            return
        method = message.get("method")
        if "method" not in message:
            if has_id and ("result" in message or "error" in message):
                self._pass_on(message, None, "a response")  # to a request of ours
            elif has_id:
                logger.warning("a message with an id but no method nor result: answered")
                self.answer_error(message_id, INVALID_REQUEST, "a request needs a `method`")
            else:
                logger.warning("ignored a message with neither a method nor an id")
            return
        is_request = has_id
        if not isinstance(method, str) or message.get("jsonrpc") != "2.0":
            why = '`jsonrpc` must be "2.0" and `method` a string'
            if is_request:
                self.answer_error(message_id, INVALID_REQUEST, why)
            logger.warning("a message whose %s: %s", why, "answered" if is_request else "ignored")
            return
        if self.server.is_shut_down and method != "exit":
            if is_request:
                self.answer_error(
                    message_id, INVALID_REQUEST, "the server is shut down: only `exit` now"
                )
            else:
                logger.warning("ignored %s after shutdown", method)
            return
        if not self._knows(method):
            if is_request:
                self.answer_error(message_id, METHOD_NOT_FOUND, f"no method {method[:100]!r}")
            logger.warning(
                "%s the unknown method %s", "answered" if is_request else "ignored", method[:100]
            )
            return
        if not is_request and method in _ABOUT_AN_OPEN_DOCUMENT and not self._is_open(message):
            logger.warning("ignored %s for a document that is not open", method)
            return
        self._pass_on(message, message_id if is_request else None, method)

    def _knows(self, method: str) -> bool:
        features = self.protocol.fm
        return method in features.builtin_features or method in features.features

    def _is_open(self, message: dict[str, Any]) -> bool:
        params = message.get("params")
        document = params.get("textDocument") if isinstance(params, dict) else None
        uri = document.get("uri") if isinstance(document, dict) else None
        if not isinstance(uri, str):
            return True  # malformed: pygls' checks below say so
        from urllib.parse import unquote

        return unquote(uri) in self.server.workspace.text_documents

    def _pass_on(self, message: dict[str, Any], request_id: Any, what: str) -> None:
        """Structure the message as pygls does and hand it over; a message that does
        not fit its method is answered (a request) or ignored (the rest)."""
        from pygls.exceptions import JsonRpcException

        try:
            structured = self.protocol.structure_message(message)
        except JsonRpcException as error:
            self._refuse(request_id, what, INVALID_PARAMS, error)
            return
        except Exception as error:  # pygls wraps most failures; anything else alike
            self._refuse(request_id, what, INVALID_PARAMS, error)
            return
        try:
            self.protocol.handle_message(structured)
        except Exception as error:  # a handler that failed before answering
            self._refuse(request_id, what, INTERNAL_ERROR, error)

    def _refuse(self, request_id: Any, what: str, code: int, error: Exception) -> None:
        reason = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
        if request_id is not None:
            logger.warning("%s could not be handled (%s): answered with an error", what, reason)
            self.answer_error(request_id, code, f"{what}: {reason}")
        else:
            logger.warning("ignored %s that could not be handled (%s)", what, reason)


async def _serve(server: Any, descriptor: int, stop: threading.Event) -> None:
    framer = Framer(Input(descriptor, asyncio.get_running_loop()).queue)
    envelope = Envelope(server)
    while not stop.is_set():
        body = await framer.next_body()
        if body is None:
            return
        envelope.handle(body)


class EditorWriter:
    """The answers' way to the editor (pygls' writer interface). When the editor
    stops reading (a broken pipe, wherever the write comes from: an answer, a
    callback, diagnostics), the server has nobody left to serve and holds nothing
    to save: it says so in one line and ends at once (exit 0, as when the input
    ends)."""

    def __init__(self, output: BinaryIO) -> None:
        self._output = output

    def write(self, data: bytes) -> None:
        try:
            self._output.write(data)
            self._output.flush()
        except (BrokenPipeError, ConnectionResetError):
            logger.warning("the editor stopped reading: the server stops")
            os._exit(0)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._output.close()


def serve(server: Any, input_descriptor: int, output: BinaryIO) -> None:
    """Speak LSP for `server` (a pygls `LanguageServer`): messages read from
    `input_descriptor`, answers written to `output`, until the input ends, the
    editor says `exit` or stops reading (a broken pipe)."""
    stop = threading.Event()
    server._stop_event = stop  # pygls' own stop (its `shutdown` sets it)
    server.protocol.set_writer(EditorWriter(output))
    try:
        asyncio.run(_serve(server, input_descriptor, stop))
    except BrokenPipeError:
        logger.warning("the editor stopped reading: the server stops")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
