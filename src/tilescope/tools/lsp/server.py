"""`tilescope lsp`: the language server (pygls), over stdio.

Every document is analysed from its buffer text (never from disk, never by
importing it) in one worker thread: on open at once, on change after a short
debounce. A newer edit cancels the analysis in flight; each analysis also has a
time budget. Requests answer from the latest analysis of the current version,
waiting a bounded time for it, and otherwise from the previous one.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from ...errors import Loc
from . import features as F
from .analysis import Analysis, Cancelled, Diag, analyze

log = logging.getLogger("tilescope.lsp")

DEBOUNCE_S = 0.15
ANALYSIS_BUDGET_S = 2.0
REQUEST_WAIT_S = 1.5
WORKER_STACK = 64 * 1024 * 1024

SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
            "information": T.DiagnosticSeverity.Information, "hint": T.DiagnosticSeverity.Hint}
COMPLETION_KIND = {"function": T.CompletionItemKind.Function, "constant": T.CompletionItemKind.Constant,
                   "enum": T.CompletionItemKind.EnumMember, "module": T.CompletionItemKind.Module,
                   "property": T.CompletionItemKind.Property, "method": T.CompletionItemKind.Method,
                   "keyword": T.CompletionItemKind.Variable, "class": T.CompletionItemKind.Class,
                   "variable": T.CompletionItemKind.Variable}


@dataclass
class DocState:
    uri: str
    version: Optional[int] = None
    analysis: Optional[Analysis] = None
    pending: Optional[asyncio.Future] = None
    pending_version: Optional[int] = None
    cancel: Optional[threading.Event] = None
    timer: Optional[asyncio.TimerHandle] = None
    waiters: List[asyncio.Future] = field(default_factory=list)


class TilescopeServer(LanguageServer):
    def __init__(self):
        super().__init__("tilescope", "0.1.0")
        self.docs: Dict[str, DocState] = {}
        self.execute_modules = False
        self.debounce_s = DEBOUNCE_S
        self._executor: Optional[concurrent.futures.ThreadPoolExecutor] = None

    # ---- the worker ----------------------------------------------------------

    def executor(self) -> concurrent.futures.ThreadPoolExecutor:
        if self._executor is None:
            # Kernels inline helpers recursively: give the worker a deep stack.
            old = threading.stack_size()
            try:
                threading.stack_size(WORKER_STACK)
                self._executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="tilescope-analysis")
                self._executor.submit(lambda: None).result()
            finally:
                threading.stack_size(old)
        return self._executor

    def state(self, uri: str) -> DocState:
        st = self.docs.get(uri)
        if st is None:
            st = self.docs[uri] = DocState(uri)
        return st

    def schedule(self, uri: str, delay: float) -> None:
        st = self.state(uri)
        if st.timer is not None:
            st.timer.cancel()
            st.timer = None
        if st.cancel is not None and st.pending_version != self.doc_version(uri):
            st.cancel.set()      # an edit made the analysis in flight useless
        loop = asyncio.get_running_loop()
        if delay <= 0:
            self.start(uri)
        else:
            st.timer = loop.call_later(delay, self.start, uri)

    def doc_version(self, uri: str) -> Optional[int]:
        return self.state(uri).version

    def start(self, uri: str) -> Optional[asyncio.Future]:
        st = self.state(uri)
        st.timer = None
        if st.pending is not None and st.pending_version == st.version and not st.pending.done():
            return st.pending
        try:
            doc = self.workspace.get_text_document(uri)
            text = doc.source
        except Exception:
            log.exception("reading %s", uri)
            return None
        version = st.version
        filename = _filename(uri)
        cancel = threading.Event()
        loop = asyncio.get_running_loop()
        fut = loop.run_in_executor(self.executor(), _run_analysis, text, filename, version, cancel)
        st.pending, st.pending_version, st.cancel = fut, version, cancel
        fut.add_done_callback(lambda f: self._finished(uri, version, f))
        return fut

    def _finished(self, uri: str, version, fut) -> None:
        st = self.state(uri)
        if fut.cancelled():
            return
        an = fut.result()
        if an is None:
            return
        if st.analysis is None or (an.version or 0) >= (st.analysis.version or 0):
            st.analysis = an
        if version == st.version:
            self.publish(uri, an)

    def publish(self, uri: str, an: Analysis) -> None:
        diags = [to_lsp_diagnostic(d, uri) for d in an.diagnostics]
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=diags,
                                                                          version=an.version))

    async def current(self, uri: str, wait: float = REQUEST_WAIT_S) -> Optional[Analysis]:
        """The analysis of the current text if it arrives within `wait`, else the latest one."""
        st = self.state(uri)
        if st.analysis is not None and st.analysis.version == st.version:
            return st.analysis
        fut = st.pending if (st.pending is not None and st.pending_version == st.version
                             and not st.pending.done()) else None
        if fut is None:
            fut = self.start(uri)          # skip the debounce: someone is waiting
        if fut is not None:
            try:
                an = await asyncio.wait_for(asyncio.shield(fut), wait)
                if an is not None:
                    return an
            except (asyncio.TimeoutError, Exception):
                pass
        return st.analysis


def _filename(uri: str) -> str:
    try:
        return to_fs_path(uri) or uri
    except Exception:
        return uri


def _run_analysis(text: str, filename: str, version, cancel: threading.Event) -> Optional[Analysis]:
    try:
        return analyze(text, filename, version=version, budget_s=ANALYSIS_BUDGET_S, cancel=cancel)
    except Cancelled:
        return None
    except BaseException:     # never let a bug take the server down
        log.exception("analysis of %s failed", filename)
        return None


# ---- conversions ------------------------------------------------------------------

def to_range(loc: Loc) -> T.Range:
    line = max(loc.line - 1, 0)
    col = max(loc.col - 1, 0)
    end_line = (loc.end_line - 1) if loc.end_line else line
    end_col = (loc.end_col - 1) if loc.end_col else col + 1
    if (end_line, end_col) < (line, col):
        end_line, end_col = line, col + 1
    return T.Range(T.Position(line, col), T.Position(end_line, end_col))


def to_lsp_diagnostic(d: Diag, uri: str) -> T.Diagnostic:
    related = [T.DiagnosticRelatedInformation(T.Location(uri, to_range(loc)), msg) for loc, msg in d.related]
    message = d.message if d.kind in ("info",) else f"{d.kind}: {d.message}"
    return T.Diagnostic(range=to_range(d.loc), message=message, severity=SEVERITY[d.severity],
                        source="tilescope", code=None if d.kind == "info" else d.kind,
                        related_information=related or None)


def _key_range(key) -> T.Range:
    l0, c0, l1, c1 = key
    return T.Range(T.Position(l0 - 1, c0 - 1), T.Position(l1 - 1, c1 - 1))


def _line(server: TilescopeServer, uri: str, line0: int) -> str:
    try:
        lines = server.workspace.get_text_document(uri).lines
        return lines[line0].rstrip("\r\n") if line0 < len(lines) else ""
    except Exception:
        return ""


# ---- the server and its features -------------------------------------------------------

def build_server() -> TilescopeServer:
    server = TilescopeServer()

    @server.feature(T.INITIALIZE)
    def initialize(ls: TilescopeServer, params: T.InitializeParams):
        opts = params.initialization_options or {}
        if isinstance(opts, dict):
            ls.execute_modules = bool(opts.get("executeModules", False))
            if "debounceMs" in opts:
                try:
                    ls.debounce_s = max(0.0, float(opts["debounceMs"]) / 1000)
                except (TypeError, ValueError):
                    pass
        if ls.execute_modules:
            log.warning("executeModules is not implemented yet: kernels are analysed statically")

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: TilescopeServer, params: T.DidOpenTextDocumentParams):
        st = ls.state(params.text_document.uri)
        st.version = params.text_document.version
        ls.schedule(params.text_document.uri, 0)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: TilescopeServer, params: T.DidChangeTextDocumentParams):
        st = ls.state(params.text_document.uri)
        st.version = params.text_document.version
        ls.schedule(params.text_document.uri, ls.debounce_s)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: TilescopeServer, params: T.DidCloseTextDocumentParams):
        st = ls.docs.pop(params.text_document.uri, None)
        if st is not None:
            if st.timer is not None:
                st.timer.cancel()
            if st.cancel is not None:
                st.cancel.set()
        ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                        diagnostics=[]))

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    async def hover(ls: TilescopeServer, params: T.HoverParams):
        try:
            an = await ls.current(params.text_document.uri)
            if an is None:
                return None
            h = F.hover(an, params.position.line + 1, params.position.character + 1)
            if h is None:
                return None
            return T.Hover(contents=T.MarkupContent(T.MarkupKind.Markdown, h.markdown), range=_key_range(h.range))
        except Exception:
            log.exception("hover failed")
            return None

    @server.feature(T.TEXT_DOCUMENT_INLAY_HINT, T.InlayHintRegistrationOptions(resolve_provider=False))
    async def inlay_hint(ls: TilescopeServer, params: T.InlayHintParams):
        try:
            an = await ls.current(params.text_document.uri)
            if an is None:
                return []
            hints = F.inlay_hints(an, params.range.start.line + 1, params.range.end.line + 1)
            return [T.InlayHint(position=T.Position(h.line - 1, h.col - 1), label=h.label,
                                kind=T.InlayHintKind.Type, padding_left=h.label.startswith(" "))
                    for h in hints]
        except Exception:
            log.exception("inlay hints failed")
            return []

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[".", "(", ","]))
    async def completion(ls: TilescopeServer, params: T.CompletionParams):
        try:
            uri = params.text_document.uri
            st = ls.state(uri)
            an = st.analysis or await ls.current(uri)
            if an is None:
                return None
            line = _line(ls, uri, params.position.line)
            items = F.completions(an, line, params.position.line + 1, params.position.character + 1)
            return T.CompletionList(is_incomplete=False, items=[
                T.CompletionItem(label=i.label, kind=COMPLETION_KIND.get(i.kind), detail=i.detail or None,
                                 documentation=T.MarkupContent(T.MarkupKind.Markdown, i.documentation)
                                 if i.documentation else None,
                                 insert_text=i.insert_text) for i in items])
        except Exception:
            log.exception("completion failed")
            return None

    @server.feature(T.TEXT_DOCUMENT_SIGNATURE_HELP, T.SignatureHelpOptions(trigger_characters=["(", ","]))
    async def signature_help(ls: TilescopeServer, params: T.SignatureHelpParams):
        try:
            uri = params.text_document.uri
            an = ls.state(uri).analysis or await ls.current(uri)
            if an is None:
                return None
            doc = ls.workspace.get_text_document(uri)
            lines = doc.lines
            ln, ch = params.position.line, params.position.character
            start = max(0, ln - 20)
            before = "".join(lines[start:ln]) + (lines[ln][:ch] if ln < len(lines) else "")
            sh = F.signature_help(an, before)
            if sh is None:
                return None
            info = T.SignatureInformation(
                label=sh.label,
                documentation=T.MarkupContent(T.MarkupKind.Markdown, sh.documentation) if sh.documentation else None,
                parameters=[T.ParameterInformation(label=p) for p in sh.parameters])
            return T.SignatureHelp(signatures=[info], active_signature=0, active_parameter=sh.active_parameter)
        except Exception:
            log.exception("signature help failed")
            return None

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: TilescopeServer, params: T.DefinitionParams):
        try:
            uri = params.text_document.uri
            an = await ls.current(uri)
            if an is None:
                return None
            d = F.definition(an, params.position.line + 1, params.position.character + 1)
            if d is None:
                return None
            path, l0, c0, l1, c1 = d
            target = uri if path == an.filename else _file_uri(path)
            return T.Location(target, T.Range(T.Position(l0 - 1, c0 - 1), T.Position(l1 - 1, c1 - 1)))
        except Exception:
            log.exception("definition failed")
            return None

    return server


def _file_uri(path: str) -> str:
    from pygls.uris import from_fs_path
    return from_fs_path(path) or path


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="tilescope-lsp %(levelname)s %(name)s: %(message)s")
    logging.getLogger("pygls").setLevel(logging.WARNING)     # it logs every message at INFO
    build_server().start_io()
    return 0
