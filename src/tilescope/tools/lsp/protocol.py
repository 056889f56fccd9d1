"""JSON-RPC as the specification says it, on top of pygls: every request gets an answer.

- Parameters are checked strictly (`"3"` is not a line number, `true` is not a
  character) and a request whose parameters do not fit gets error -32602 (Invalid
  params) naming the field; pygls alone logs it and never answers.
- A message that is not a JSON-RPC request or notification gets -32600 (Invalid
  request), unparsable JSON gets -32700 (Parse error), a request after `shutdown` gets
  -32600 too.
- Documents are kept in `documents.DocumentStore` (lines split as LSP splits them, in the
  negotiated position encoding), not in pygls' workspace.
- Handlers' futures are forgotten once done (pygls kept one per notification).
"""
from __future__ import annotations

import logging
import re
from typing import Any

import cattrs
from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol, default_converter, lsp_method

log = logging.getLogger("tilescope.lsp")

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602


def _strict(kind, check):
    def hook(value, _type):
        if not check(value):
            raise TypeError(f"expected {kind}, got {type(value).__name__} {value!r}"[:120])
        return value
    return hook


def strict_converter() -> cattrs.Converter:
    """pygls' converter, without its silent coercions (`int("3")`, `str(5)`, `int(True)`)."""
    c = default_converter()
    c.register_structure_hook(int, _strict("an integer", lambda v: type(v) is int))
    c.register_structure_hook(bool, _strict("true or false", lambda v: type(v) is bool))
    c.register_structure_hook(str, _strict("a string", lambda v: isinstance(v, str)))
    c.register_structure_hook(float, lambda v, _t: float(_strict("a number", lambda x: type(x) in (int, float))(v, _t)))
    return c


class _Answered:
    """A message already answered with an error while it was being read."""
    jsonrpc = "answered"


ANSWERED = _Answered()


_CAMEL = re.compile(r"_([a-z])")


def _describe_error(exc: BaseException) -> str:
    cause = exc.__cause__ or exc
    if isinstance(cause, cattrs.BaseValidationError):
        try:
            # cattrs names Python fields (`text_document`): show the protocol's (`textDocument`).
            return "; ".join(_CAMEL.sub(lambda m: m.group(1).upper(), e) for e in cattrs.transform_error(cause)[:4])
        except Exception:
            pass
    return str(cause)[:200]


class TilescopeProtocol(LanguageServerProtocol):

    def structure_message(self, data: Any):
        if isinstance(data, dict) and "jsonrpc" in data and data["jsonrpc"] != "2.0" \
                and "method" in data and "id" in data:
            msg_id = data["id"] if isinstance(data["id"], (int, str)) and not isinstance(data["id"], bool) else None
            self._send_error(msg_id, INVALID_REQUEST, 'jsonrpc must be "2.0"')
            return ANSWERED
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if not isinstance(data, dict) or "method" not in data or "id" not in data:
                log.warning("dropping a malformed notification: %s", _describe_error(exc))
                return ANSWERED
            msg_id = data["id"]
            if isinstance(msg_id, bool) or not isinstance(msg_id, (int, str)):
                self._send_error(None, INVALID_REQUEST, "the request id must be a number or a string")
            else:
                self._send_error(msg_id, INVALID_PARAMS,
                                 f"invalid params for {data.get('method')}: {_describe_error(exc)}")
            return ANSWERED

    def handle_message(self, message):
        if message is ANSWERED:
            return
        if not hasattr(message, "jsonrpc"):          # a JSON array, number, string...
            self._send_error(None, INVALID_REQUEST, "not a JSON-RPC 2.0 message object")
            return
        if message.jsonrpc != "2.0" and hasattr(message, "method") and getattr(message, "id", None) is not None:
            self._send_error(message.id, INVALID_REQUEST, "jsonrpc must be \"2.0\"")
            return
        if self._shutdown and getattr(message, "method", "") != T.EXIT and hasattr(message, "method") \
                and getattr(message, "id", None) is not None:
            self._send_error(message.id, INVALID_REQUEST, "the server is shutting down")
            return
        super().handle_message(message)

    def _execute_handler(self, msg_id, handler, callback, args=None, kwargs=None):
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        # pygls files the future of every generator or coroutine handler under its id, and
        # removes it only when it answers a request: each notification (didChange...) left
        # one Future behind for good. Remove it once done, whatever it was for.
        future = self._request_futures.get(msg_id)
        if future is not None:
            future.add_done_callback(lambda f, i=msg_id: self._forget(i, f))

    def _forget(self, msg_id, future) -> None:
        if self._request_futures.get(msg_id) is future:
            del self._request_futures[msg_id]

    def pending_requests(self) -> int:
        return len(self._request_futures)

    def _send_error(self, msg_id, code: int, message: str) -> None:
        self._send_response(msg_id, error=T.ResponseError(code=code, message=message))

    def send_parse_error(self, exc: BaseException) -> None:
        self._send_error(None, PARSE_ERROR, f"parse error: {str(exc)[:200]}")

    # ---- documents: our store, not pygls' workspace ---------------------------------------

    @lsp_method(T.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: T.DidOpenTextDocumentParams):
        if (handler := self.fm.features.get(T.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(T.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: T.DidChangeTextDocumentParams):
        if (handler := self.fm.features.get(T.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(T.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: T.DidCloseTextDocumentParams):
        if (handler := self.fm.features.get(T.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None
