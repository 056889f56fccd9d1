"""`tilescope lsp`: the language server (pygls) over stdio, and its protocol methods.

Documents, options and analyses live in core.py; the editor features in features.py.
Every request is answered: bad parameters and unknown documents with error -32602
(Invalid params), a failure inside a feature with an empty result (and a log line).
"""
from __future__ import annotations

import hashlib
import logging

from lsprotocol import types as T
from pygls.exceptions import JsonRpcInvalidParams

from . import features as F
from .core import DOCUMENT_STATE, TilescopeServer, _file_uri
from .documents import UnknownDocument
from .positions import choose_encoding

log = logging.getLogger("tilescope.lsp")

SIGNATURE_CONTEXT_LINES = 20


def _client_encodings(params: T.InitializeParams):
    general = params.capabilities.general if params.capabilities is not None else None
    return general.position_encodings if general is not None else None


def _checked_range(rng: T.Range) -> T.Range:
    if (rng.end.line, rng.end.character) < (rng.start.line, rng.start.character):
        raise JsonRpcInvalidParams("invalid params: the range ends before it starts")
    return rng


async def _query_typing(ls: TilescopeServer, params, query, what: str):
    """query(view, text before the cursor) for a request made while typing (no wait when an
    analysis exists); None when there is no view or the query fails (logged as "<what> failed")."""
    uri = params.text_document.uri
    ls.document(uri)
    view = await ls.view(uri, None, wait=0.0 if ls.state(uri).summary is not None else 1.5)
    if view is None:
        return None
    try:
        return query(view, _text_before(ls, uri, params.position))
    except Exception:
        log.exception("%s failed", what)
        return None


async def _query_at(ls: TilescopeServer, uri: str, position: T.Position, query, what: str):
    """(view, query(summary, line, col)) at `position`; (view, None) when there is no analysed
    position there or the query fails (logged as "<what> failed")."""
    view = await ls.view(uri, position.line)
    pos = view.position_in(position) if view is not None else None
    if pos is None:
        return view, None
    try:
        return view, query(view.summary, *pos)
    except Exception:
        log.exception("%s failed", what)
        return view, None


def build_server() -> TilescopeServer:
    server = TilescopeServer()

    # ---- lifecycle and options ------------------------------------------------------------

    @server.feature(T.INITIALIZE)
    def initialize(ls: TilescopeServer, params: T.InitializeParams):
        ls.documents.encoding = choose_encoding(_client_encodings(params))
        ls.option_problems = ls.set_options(params.initialization_options)

    @server.feature(T.INITIALIZED)
    def initialized(ls: TilescopeServer, params: T.InitializedParams):
        for problem in ls.option_problems:
            ls.tell(problem)
        ls.option_problems = []

    @server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(ls: TilescopeServer, params: T.DidChangeConfigurationParams):
        for problem in ls.set_options(params.settings):
            ls.tell(problem)

    @server.feature(T.SHUTDOWN)
    async def shutdown(ls: TilescopeServer, params):
        if ls._pool is not None:
            await ls._pool.shutdown()

    # ---- documents ---------------------------------------------------------------------

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: TilescopeServer, params: T.DidOpenTextDocumentParams):
        item = params.text_document
        ls.documents.open(item.uri, item.text, item.version)
        st = ls.state(item.uri)
        st.analysed, st.summary, st.view, st.hung, st.recent = False, None, None, set(), []
        ls.schedule(item.uri, 0)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: TilescopeServer, params: T.DidChangeTextDocumentParams):
        uri = params.text_document.uri
        doc = ls.documents.find(uri)
        if doc is None:
            log.warning("didChange for a document that is not open: %s", uri)
            return
        for change in params.content_changes:
            if isinstance(change, T.TextDocumentContentChangePartial):
                r = change.range
                doc.apply((r.start.line, r.start.character), (r.end.line, r.end.character), change.text)
            else:
                doc.replace_all(change.text)
        doc.version = params.text_document.version
        ls.schedule(uri, ls.options.debounce_s)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: TilescopeServer, params: T.DidCloseTextDocumentParams):
        uri = params.text_document.uri
        ls.documents.close(uri)
        st = ls.states.pop(uri, None)
        if st is not None and st.timer is not None:
            st.timer.cancel()
        if ls._pool is not None:
            ls._pool.close(uri)
        ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(DOCUMENT_STATE)
    def document_state(ls: TilescopeServer, params):
        """The server's copy of a document, to check it against the client's: its hash, and
        its text when `withText` is true."""
        uri = getattr(getattr(params, "textDocument", None), "uri", None)
        if not isinstance(uri, str):
            raise JsonRpcInvalidParams("invalid params: expected {\"textDocument\": {\"uri\": ...}}")
        try:
            doc = ls.documents.get(uri)
        except UnknownDocument as e:
            raise JsonRpcInvalidParams(str(e)) from None
        st = ls.state(uri)
        pool = ls._pool.stats() if ls._pool is not None else {}
        text = doc.text
        state = {"uri": uri, "version": doc.version, "length": len(text), "lineCount": doc.line_count(),
                 "sha256": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
                 "analysedVersion": st.analysed_version, "workers": pool.get("workers", []),
                 "kills": pool.get("kills", 0), "pendingRequests": ls.protocol.pending_requests()}
        if getattr(params, "withText", False) is True:
            state["text"] = text
        return state

    # ---- features ------------------------------------------------------------------

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    async def hover(ls: TilescopeServer, params: T.HoverParams):
        view, h = await _query_at(ls, params.text_document.uri, params.position, F.hover, "hover")
        if h is None:
            return None
        return T.Hover(contents=T.MarkupContent(T.MarkupKind.Markdown, h.markdown), range=view.range(h.range))

    @server.feature(T.TEXT_DOCUMENT_INLAY_HINT, T.InlayHintRegistrationOptions(resolve_provider=False))
    async def inlay_hint(ls: TilescopeServer, params: T.InlayHintParams):
        rng = _checked_range(params.range)
        view = await ls.view(params.text_document.uri, None)
        if view is None:
            return []
        out = []
        try:
            for h in F.inlay_hints(view.summary):
                pos = view.position_out(h.line, h.col)
                if pos is None or not rng.start.line <= pos.line <= rng.end.line:
                    continue
                out.append(T.InlayHint(position=pos, label=h.label, kind=T.InlayHintKind.Type,
                                       padding_left=h.label.startswith(" ")))
        except Exception:
            log.exception("inlay hints failed")
            return []
        return out

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[".", "(", ","]))
    async def completion(ls: TilescopeServer, params: T.CompletionParams):
        line = params.position.line
        items = await _query_typing(ls, params, lambda view, before: F.completions(
            view.summary, before, view.summary_line(line) or line + 1), "completion")
        if items is None:
            return None
        return T.CompletionList(is_incomplete=False, items=[
            T.CompletionItem(label=i.label, kind=COMPLETION_KIND.get(i.kind), detail=i.detail or None,
                             documentation=T.MarkupContent(T.MarkupKind.Markdown, i.documentation)
                             if i.documentation else None,
                             insert_text=i.insert_text) for i in items])

    @server.feature(T.TEXT_DOCUMENT_SIGNATURE_HELP, T.SignatureHelpOptions(trigger_characters=["(", ","]))
    async def signature_help(ls: TilescopeServer, params: T.SignatureHelpParams):
        sh = await _query_typing(ls, params, lambda view, before: F.signature_help(view.summary, before),
                                 "signature help")
        if sh is None:
            return None
        info = T.SignatureInformation(
            label=sh.label,
            documentation=T.MarkupContent(T.MarkupKind.Markdown, sh.documentation) if sh.documentation else None,
            parameters=[T.ParameterInformation(label=p) for p in sh.parameters])
        return T.SignatureHelp(signatures=[info], active_signature=0, active_parameter=sh.active_parameter)

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: TilescopeServer, params: T.DefinitionParams):
        uri = params.text_document.uri
        view, d = await _query_at(ls, uri, params.position, F.definition, "definition")
        if d is None:
            return None
        path, key = d
        if path is None:
            rng = view.range(key)
            return T.Location(uri, rng) if rng is not None else None
        l0, c0, l1, c1 = key
        return T.Location(_file_uri(path), T.Range(T.Position(l0 - 1, c0 - 1), T.Position(l1 - 1, c1 - 1)))

    return server


COMPLETION_KIND = {"function": T.CompletionItemKind.Function, "constant": T.CompletionItemKind.Constant,
                   "enum": T.CompletionItemKind.EnumMember, "module": T.CompletionItemKind.Module,
                   "property": T.CompletionItemKind.Property, "method": T.CompletionItemKind.Method,
                   "keyword": T.CompletionItemKind.Variable, "class": T.CompletionItemKind.Class,
                   "variable": T.CompletionItemKind.Variable}


def _text_before(ls: TilescopeServer, uri: str, pos: T.Position) -> str:
    """The current text before the cursor, up to SIGNATURE_CONTEXT_LINES lines back."""
    doc = ls.document(uri)
    line, index = doc.to_index(pos.line, pos.character)
    start = max(0, line - SIGNATURE_CONTEXT_LINES)
    return "\n".join(doc.lines(start, line) + [doc.line(line)[:index]])


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="tilescope-lsp %(levelname)s %(name)s: %(message)s")
    logging.getLogger("pygls").setLevel(logging.WARNING)     # it logs every message at INFO
    build_server().start_io()
    return 0
