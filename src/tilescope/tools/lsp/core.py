"""The language server's state: documents, options, analyses and their workers.

The server keeps each open document (documents.py) and never runs anything from it:
analysis happens in separate worker processes (pool.py, worker.py) that send back plain
summaries (summary.py). A document is analysed on open at once and after each change
following a short debounce; a newer edit stops the analysis in flight. Requests answer
from the latest summary; a summary of an older text still answers for the lines that
did not change since (`view.View`), and a request on a changed line waits a bounded time
for the analysis of the current text.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional, Set

from lsprotocol import types as T
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from . import options as O
from .documents import Document, DocumentStore, UnknownDocument
from .pool import Job, Outcome, PoolConfig, WorkerPool
from .protocol import TilescopeProtocol, strict_converter
from .summary import Diagnostic, Summary
from .view import View

log = logging.getLogger("tilescope.lsp")

REQUEST_WAIT_S = 1.5
RECENT_SUMMARIES = 2
MAX_HUNG_PER_DOCUMENT = 64
DOCUMENT_STATE = "tilescope/documentState"

SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
            "information": T.DiagnosticSeverity.Information, "hint": T.DiagnosticSeverity.Hint}



@dataclass
class DocState:
    uri: str
    summary: Optional[Summary] = None          # the latest complete analysis (features read it)
    analysed_version: Optional[int] = None     # the version the latest outcome was for
    analysed: bool = False
    timer: Optional[asyncio.TimerHandle] = None
    job_version: Optional[int] = None          # the version submitted last
    hung: Set[str] = field(default_factory=set)
    recent: List[Summary] = field(default_factory=list)    # the last complete summaries of distinct texts
    event: asyncio.Event = field(default_factory=asyncio.Event)
    view: Optional[View] = None
    early: Optional[tuple] = None               # (version, diagnostics) published ahead of their summary

    def notify(self) -> None:
        self.event.set()
        self.event = asyncio.Event()


class TilescopeServer(LanguageServer):
    def __init__(self):
        super().__init__("tilescope", "0.1.0", protocol_cls=TilescopeProtocol,
                         converter_factory=strict_converter)
        self.documents = DocumentStore()
        self.states: Dict[str, DocState] = {}
        self.options = O.Options()
        self.option_problems: List[str] = []
        self._pool: Optional[WorkerPool] = None

    # ---- options and the worker pool ------------------------------------------------

    def set_options(self, raw) -> List[str]:
        before = self.options
        self.options, problems = O.apply(self.options, raw)
        if self._pool is not None:
            self._pool.config = self.pool_config()
            if any(getattr(before, n) != getattr(self.options, n) for n in O.WORKER_OPTIONS):
                for w in list(self._pool.workers):
                    w.retire = True
                    if w.job is None:
                        w.send(("quit",))
                        w.dead = True
                        self._pool._forget(w)
        for p in problems:
            log.warning("%s", p)
        return problems

    def pool_config(self) -> PoolConfig:
        o = self.options
        return PoolConfig(max_workers=o.workers, budget_s=o.budget_s, hard_limit_s=o.hard_limit_s,
                          memory_mb=o.workerMemoryMB, recycle_mb=max(256, o.workerMemoryMB // 2),
                          execute_modules=o.executeModules)

    @property
    def pool(self) -> WorkerPool:
        if self._pool is None:
            self._pool = WorkerPool(self.pool_config(), self._on_outcome, self._on_extras, self._on_diagnostics)
        return self._pool

    def report_server_error(self, error: Exception, source) -> None:
        """pygls reports here a message it could not read: answer it (-32700), as JSON-RPC asks."""
        if isinstance(error, (json.JSONDecodeError, UnicodeDecodeError)):
            self.protocol.send_parse_error(error)
        log.error("%s: %s", getattr(source, "__name__", source), error)

    def tell(self, message: str, kind=T.MessageType.Warning) -> None:
        self.window_show_message(T.ShowMessageParams(type=kind, message=message))

    # ---- documents and their analyses ----------------------------------------------------

    def state(self, uri: str) -> DocState:
        st = self.states.get(uri)
        if st is None:
            st = self.states[uri] = DocState(uri)
        return st

    def document(self, uri: str) -> Document:
        try:
            return self.documents.get(uri)
        except UnknownDocument as e:
            raise JsonRpcInvalidParams(str(e)) from None

    def schedule(self, uri: str, delay: float) -> None:
        st = self.state(uri)
        if st.timer is not None:
            st.timer.cancel()
            st.timer = None
        if self._pool is not None:
            self._pool.drop(uri)        # an edit made the analysis in flight useless
        st.job_version = None
        doc = self.documents.find(uri)
        if delay <= 0 or (doc is not None and _recent(st, doc.text) is not None):
            self.start(uri)         # an undo, a change typed and deleted: nothing to analyse, nothing to wait for
        else:
            st.timer = asyncio.get_running_loop().call_later(delay, self.start, uri)

    def start(self, uri: str) -> None:
        st = self.state(uri)
        st.timer = None
        doc = self.documents.find(uri)
        if doc is None or (st.job_version == doc.version and st.job_version is not None):
            return
        text = doc.text
        limit = self.options.max_document_bytes
        size = len(text) if len(text) * 4 <= limit else len(text.encode("utf-8", "surrogatepass"))
        if size > limit:
            message = (f"tilescope: this document is {size / 1024:,.0f} KB, over the "
                       f"{limit / 1024:,.0f} KB analysis limit (option maxDocumentKB): it is not analysed")
            summary = Summary(doc.version, [Diagnostic((1, 1, 1, 2), "warning", "info", message)], text=text)
            self._accept(uri, doc.version, summary, complete=True)
            return
        summary = _recent(st, text)
        if summary is not None:          # undo, redo, a change typed and deleted: nothing to analyse
            self._accept(uri, doc.version, replace(summary, version=doc.version), complete=True)
            return
        st.job_version = doc.version
        self.pool.submit(Job(uri, doc.version, text, _filename(uri), frozenset(st.hung)))

    def _on_outcome(self, job: Job, outcome: Outcome) -> None:
        st = self.states.get(job.uri)
        doc = self.documents.find(job.uri)
        if st is None or doc is None:
            return
        if outcome.kind == "done":
            outcome.summary.text = job.text
            self._accept(job.uri, job.version, outcome.summary, complete=True)
            if log.isEnabledFor(logging.DEBUG):
                now = time.monotonic()
                received, unpickled = job.received or now, job.unpickled or now
                log.debug("analysed %s v%s: queued %.1f ms, worker %.1f ms (analysis %.1f), unpickle %.1f ms, "
                          "publish %.1f ms", job.uri, job.version, (job.started - job.submitted) * 1000,
                          (received - job.started) * 1000, outcome.summary.elapsed_ms,
                          (unpickled - received) * 1000, (now - unpickled) * 1000)
        elif outcome.kind == "killed" and outcome.hung is not None:
            kernel, fingerprint, _ = outcome.hung
            log.warning("analysis of %s stopped in kernel %s: %s", job.uri, kernel, outcome.message)
            if len(st.hung) >= MAX_HUNG_PER_DOCUMENT:
                st.hung.clear()
            st.hung.add(fingerprint)
            if job.version == doc.version:       # again, without that kernel: the others still get checked
                st.job_version = None
                self.start(job.uri)
        elif outcome.crashed and job.attempt == 1 and job.version == doc.version:
            log.warning("analysis worker died while analysing %s: trying once more", job.uri)
            st.job_version = doc.version
            self.pool.submit(Job(job.uri, job.version, job.text, job.filename, job.skip, attempt=2))
        elif outcome.kind in ("killed", "failed"):
            what = "did not finish in time and was stopped" if outcome.kind == "killed" else "failed"
            message = f"tilescope: the analysis of this document {what}: {outcome.message}"
            self._accept(job.uri, job.version, Summary(job.version, [Diagnostic((1, 1, 1, 2), "warning", "info",
                                                                               message)], text=job.text),
                         complete=False)

    def _on_diagnostics(self, job: Job, diagnostics) -> None:
        """A job's diagnostics, sent as soon as its analysis is done: published at once when the
        text is still the job's (its summary, with the same diagnostics, follows)."""
        st = self.states.get(job.uri)
        doc = self.documents.find(job.uri)
        if st is None or doc is None or doc.version != job.version:
            return
        self.publish(doc, Summary(job.version, diagnostics, text=job.text))
        st.early = (job.version, diagnostics)

    def _on_extras(self, job: Job, extras) -> None:
        """What the worker computed after the summary (the kernels' costs): added to it."""
        st = self.states.get(job.uri)
        for summary in (st.recent if st is not None else ()):
            if summary.text is job.text:
                for key, values in extras.items():
                    summary.extras.setdefault(key, {}).update(values)

    def _accept(self, uri: str, version, summary: Summary, *, complete: bool) -> None:
        st = self.state(uri)
        if complete and (st.summary is None or _newer_or_same(version, st.summary.version)):
            st.summary = summary
            st.view = None
            st.recent = [summary] + [r for r in st.recent if r.text != summary.text][:RECENT_SUMMARIES - 1]
        if st.analysed_version is None or _newer_or_same(version, st.analysed_version):
            st.analysed_version, st.analysed = version, True
        doc = self.documents.find(uri)
        if doc is not None and doc.version == version and st.early != (version, summary.diagnostics):
            self.publish(doc, summary)
        st.early = None
        st.notify()

    def publish(self, doc: Document, summary: Summary) -> None:
        view = View(summary, doc)
        diags = []
        for d in summary.diagnostics:
            rng = view.range(d.range)
            if rng is None:
                continue
            related = [T.DiagnosticRelatedInformation(T.Location(doc.uri, r), msg)
                       for r, msg in ((view.range(k), m) for k, m in d.related) if r is not None]
            message = d.message if d.kind == "info" else f"{d.kind}: {d.message}"
            diags.append(T.Diagnostic(range=rng, message=message, severity=SEVERITY.get(d.severity),
                                      source="tilescope", code=None if d.kind == "info" else d.kind,
                                      related_information=related or None))
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=doc.uri, diagnostics=diags,
                                                                          version=doc.version))

    async def view(self, uri: str, line: Optional[int] = None, wait: float = REQUEST_WAIT_S) -> Optional[View]:
        """The latest analysis seen from the current text. When it is older than the text and
        `line` (0-based) changed since, wait up to `wait` for the analysis of the current text."""
        doc = self.document(uri)
        st = self.state(uri)
        deadline = asyncio.get_running_loop().time() + wait
        while True:
            v = self._view(st, doc)
            fresh = st.analysed and st.analysed_version == doc.version
            # (once the current text's diagnostics are out its summary is moments away: wait for it
            # rather than answer from an older text's, which a client would take for the new one's)
            due = st.early is not None and st.early[0] == doc.version
            if fresh or (v is not None and not due and (line is None or v.summary_line(line) is not None)):
                return v
            if st.timer is not None or st.job_version != doc.version:
                self.start(uri)          # skip the debounce: someone is waiting
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                return v
            try:
                await asyncio.wait_for(st.event.wait(), left)
            except asyncio.TimeoutError:
                return self._view(st, doc)
            doc = self.document(uri)

    def _view(self, st: DocState, doc: Document) -> Optional[View]:
        if st.summary is None:
            return None
        if st.view is None or not st.view.is_for(st.summary, doc):
            st.view = View(st.summary, doc)
        return st.view


def _recent(st: DocState, text: str) -> Optional[Summary]:
    """A recent complete summary of exactly this text."""
    for summary in st.recent:
        if len(summary.text) == len(text) and summary.text == text:
            return summary
    return None


def _newer_or_same(a, b) -> bool:
    if a is None or b is None:
        return True
    return a >= b


def _filename(uri: str) -> str:
    try:
        return to_fs_path(uri) or uri
    except Exception:
        return uri


def _file_uri(path: str) -> str:
    return from_fs_path(path) or path
