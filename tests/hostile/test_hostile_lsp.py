"""Hostile input, round four (issue 40): the LSP wire of `ttr lsp`
(`ttr_core.lsp.wire`). Raw bytes go to a real server process; after each hostile
message a good request must still be answered (never silence for ever), a request
gets the error JSON-RPC and LSP ask for, a notification is ignored, and nothing
prints a traceback."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from typing import Any

import pytest
from testdata import ROOT

#: Longest wait for an answer (a mended framing waits `BODY_WAIT_SECONDS`, 2 s).
WAIT = 20.0


def frame(message: Any) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class RawLsp:
    """A `ttr lsp` process spoken to in raw bytes."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ttr_core", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        self.messages: queue.Queue[dict] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 1000
        answer = self.request("initialize", {"processId": None, "capabilities": {}})
        assert "result" in answer, answer
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def _read(self) -> None:
        out = self.process.stdout
        assert out is not None
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    return
                if not line.strip():
                    break
                name, _, value = line.decode().partition(":")
                headers[name.strip().lower()] = value.strip()
            body = out.read(int(headers["content-length"]))
            self.messages.put(json.loads(body))

    def write(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: Any) -> None:
        self.write(frame(message))

    def answer_to(self, message_id: Any, wait: float = WAIT) -> dict:
        """The response with this id (notifications and other answers skipped)."""
        deadline = time.monotonic() + wait
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no answer to {message_id!r} in {wait} s: silence")
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if "method" not in message and message.get("id") == message_id:
                return message

    def request(self, method: str, params: Any = None) -> dict:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.answer_to(self.next_id)

    def still_answers(self) -> None:
        """A good request after the hostile bytes is answered."""
        answer = self.request(
            "textDocument/hover",
            {
                "textDocument": {"uri": "file:///nowhere.yaml"},
                "position": {"line": 0, "character": 0},
            },
        )
        assert answer.get("result", "missing") is None, answer

    def close(self) -> str:
        """Stop the server the way an editor does; its standard error."""
        if self.process.poll() is None:
            try:
                self.request("shutdown")
                self.send({"jsonrpc": "2.0", "method": "exit"})
            except (AssertionError, BrokenPipeError, OSError):
                self.process.kill()
        _, errors = self.process.communicate(timeout=WAIT)
        return errors.decode("utf-8", "replace")


@pytest.fixture(scope="module")
def lsp():
    """One server for the module: every test ends by checking it still answers."""
    server = RawLsp()
    yield server
    errors = server.close()
    assert "Traceback" not in errors, errors


HOVER = {
    "jsonrpc": "2.0",
    "method": "textDocument/hover",
    "params": {"textDocument": {"uri": "file:///x.yaml"}, "position": {"line": 0, "character": 0}},
}


def _hover(message_id: int) -> bytes:
    return json.dumps({**HOVER, "id": message_id}).encode()


# ---------------------------------------------------------------- framing

#: Framing gone wrong: (name, the bytes, the id of a request in them to be answered).
FRAMINGS = [
    ("bare-newline-headers", b"Content-Length: %d\n\n%s" % (len(_hover(1)), _hover(1)), 1),
    ("lower-case-name", b"content-length: %d\r\n\r\n%s" % (len(_hover(2)), _hover(2)), 2),
    ("length-too-long-then-nothing",
     b"Content-Length: %d\r\n\r\n%s" % (len(_hover(3)) + 40, _hover(3)), 3),
    ("length-too-short", b"Content-Length: %d\r\n\r\n%s" % (len(_hover(4)) - 9, _hover(4)), 4),
    ("length-not-a-number", b"Content-Length: many\r\n\r\n%s" % _hover(5), 5),
    ("length-negative", b"Content-Length: -3\r\n\r\n%s" % _hover(6), 6),
    ("length-huge", b"Content-Length: 99999999999999999999\r\n\r\n%s" % _hover(7), 7),
    ("length-past-the-limit", b"Content-Length: 999999999999\r\n\r\n%s" % _hover(8), 8),
    ("no-length-only-a-type", b"Content-Type: application/vscode-jsonrpc\r\n\r\n%s" % _hover(9), 9),
    ("garbage-lines-first", b"}}]] leftover\r\nnot a header\r\n" + frame({**HOVER, "id": 10}), 10),
    ("blank-lines-first", b"\r\n\r\n\n" + frame({**HOVER, "id": 11}), 11),
    ("header-without-line-end", b"x" * 20_000 + b"\r\n" + frame({**HOVER, "id": 12}), 12),
    ("two-in-one-write", frame({**HOVER, "id": 13}) + frame({**HOVER, "id": 14}), 14),
    ("one-byte-at-a-time", frame({**HOVER, "id": 15}), 15),
]  # fmt: skip


@pytest.mark.parametrize(("name", "data", "answered"), FRAMINGS, ids=[f[0] for f in FRAMINGS])
def test_broken_framing_never_silences_the_server(lsp, name, data, answered):
    if name == "one-byte-at-a-time":
        for byte in data:
            lsp.write(bytes([byte]))
    else:
        lsp.write(data)
    answer = lsp.answer_to(answered)
    assert answer.get("result", "missing") is None, answer
    lsp.still_answers()


def test_a_length_too_long_followed_by_the_next_message_loses_neither(lsp):
    first = _hover(21)
    lsp.write(
        b"Content-Length: %d\r\n\r\n%s" % (len(first) + 30, first) + frame({**HOVER, "id": 22})
    )
    assert lsp.answer_to(21)["result"] is None
    assert lsp.answer_to(22)["result"] is None


# ---------------------------------------------------------------- envelope


def _error(answer: dict) -> int:
    assert "error" in answer, answer
    return answer["error"]["code"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"{not json", -32700),
        (b"\xff\xfe\x00garbage", -32700),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "x", "params": ' + b"9" * 5000 + b"}", -32700),
        (b"[1, 2, 3]", -32600),
        (b'"just a string"', -32600),
        (b"42", -32600),
        (b'{"jsonrpc": "2.0", "id": {"an": "object"}, "method": "shutdown"}', -32600),
    ],
    ids=["not-json", "not-utf8", "number-past-limit", "array", "string", "number", "object-id"],
)
def test_a_body_that_is_no_message_gets_an_error_with_id_null(lsp, body, code):
    lsp.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    answer = lsp.answer_to(None)
    assert _error(answer) == code
    lsp.still_answers()


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"jsonrpc": "2.0", "id": 31}, -32600),
        ({"jsonrpc": "1.0", "id": 32, "method": "textDocument/hover"}, -32600),
        ({"jsonrpc": "2.0", "id": 33, "method": 12}, -32600),
        ({**HOVER, "id": 34, "params": "not an object"}, -32602),
        ({**HOVER, "id": 35, "params": {"textDocument": 5}}, -32602),
        ({"jsonrpc": "2.0", "id": 36, "method": "no/such/method"}, -32601),
        ({"jsonrpc": "2.0", "id": "thirty-seven", "method": "textDocument/definition"}, -32602),
    ],
    ids=["no-method", "old-jsonrpc", "method-number", "params-string", "params-wrong",
         "unknown-method", "string-id-no-params"],
)  # fmt: skip
def test_a_malformed_request_is_answered_with_its_id(lsp, message, code):
    lsp.send(message)
    answer = lsp.answer_to(message["id"])
    assert _error(answer) == code, answer
    lsp.still_answers()


def test_json_nested_too_deep_is_answered_with_the_id_read_from_the_top(lsp):
    deep = b'{"jsonrpc": "2.0", "id": 41, "method": "x", "params": ' + b"[" * 100_000
    deep += b"]" * 100_000 + b"}"
    lsp.write(b"Content-Length: %d\r\n\r\n%s" % (len(deep), deep))
    assert _error(lsp.answer_to(41)) == -32600
    notification = b'{"jsonrpc": "2.0", "method": "x", "params": ' + b"{" * 50_000
    lsp.write(b"Content-Length: %d\r\n\r\n%s" % (len(notification), notification))
    lsp.still_answers()


@pytest.mark.parametrize(
    "message",
    [
        {"jsonrpc": "2.0", "method": "textDocument/didChange",
         "params": {"textDocument": {"uri": "file:///never-opened.yaml", "version": 2},
                    "contentChanges": [{"text": "format: 1"}]}},
        {"jsonrpc": "2.0", "method": "textDocument/didClose",
         "params": {"textDocument": {"uri": "file:///never-opened.yaml"}}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": 3}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen"},
        {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 999}},
        {"jsonrpc": "2.0", "method": "no/such/notification"},
        {"jsonrpc": "2.0", "id": 77777, "result": {"unasked": True}},
    ],
    ids=["change-before-open", "close-before-open", "open-bad-params", "open-no-params",
         "cancel-unknown", "unknown-notification", "unasked-response"],
)  # fmt: skip
def test_a_bad_notification_is_ignored_quietly(lsp, message):
    lsp.send(message)
    lsp.still_answers()


def test_after_shutdown_requests_are_refused_and_exit_ends_it():
    lsp = RawLsp()
    assert lsp.request("shutdown").get("result", "missing") is None
    lsp.send({**HOVER, "id": 51})
    assert _error(lsp.answer_to(51)) == -32600
    lsp.send({"jsonrpc": "2.0", "id": 52, "method": "initialize", "params": {"capabilities": {}}})
    assert _error(lsp.answer_to(52)) == -32600
    lsp.send({"jsonrpc": "2.0", "method": "exit"})
    assert lsp.process.wait(timeout=WAIT) == 0
    assert b"Traceback" not in lsp.process.stderr.read()


def test_the_input_ending_inside_a_body_stops_the_server_quietly():
    server = RawLsp()
    server.write(b'Content-Length: 500\r\n\r\n{"jsonrpc": "2.0", "id"')
    assert server.process.stdin is not None
    server.process.stdin.close()
    assert server.process.wait(timeout=WAIT) == 0
    assert b"Traceback" not in server.process.stderr.read()


def test_an_editor_that_stops_reading_stops_the_server():
    process = subprocess.Popen(
        [sys.executable, "-m", "ttr_core", "lsp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdout.close()  # the editor is gone: nobody reads the answers
    for number in range(200):
        try:
            process.stdin.write(frame({**HOVER, "id": 60 + number}))
            process.stdin.flush()
        except BrokenPipeError:
            break  # the server has stopped
        time.sleep(0.05)
        if process.poll() is not None:
            break
    assert process.wait(timeout=WAIT) in (0, 1)
    assert process.stderr is not None and b"Traceback" not in process.stderr.read()
