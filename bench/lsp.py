"""Latency of `tilescope lsp` during a replayed typing session.

Starts the real server over stdio (pygls client), opens realistic kernels
(matmul, attention, layernorm from tests/corpus/realistic/kernels.py), then for
each kernel deletes one statement line and re-types it character by character as
incremental didChange notifications. Measured:

- diagnostics-after-edit: from a didChange to the publishDiagnostics of that
  version (includes the debounce, 150 ms by default — reported separately as
  `analysis` too: publish time minus the debounce);
- hover and inlay hints on the settled document (after its diagnostics arrived),
  and hover issued right after an edit (it waits for the fresh analysis).

Usage: python bench/lsp.py [--chars N] [--debounce-ms MS]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time

from lsprotocol import types as T
from pygls.lsp.client import LanguageClient

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = ("matmul_swizzled", "attention_online_softmax", "layernorm_fwd")


def pct(xs, p):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, int(round(p / 100 * (len(xs) - 1)))))
    return xs[k]


async def main(args) -> int:
    text = open(os.path.join(ROOT, "tests/corpus/realistic/kernels.py")).read()
    lines = text.splitlines(keepends=True)
    client = LanguageClient("tilescope-bench", "0")
    published: dict = {}
    events: dict = {}

    @client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diags(params: T.PublishDiagnosticsParams):
        published[params.version] = time.perf_counter()
        ev = events.get(params.version)
        if ev is not None:
            ev.set()

    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    await client.start_io(sys.executable, "-m", "tilescope", "lsp", env=env)
    await client.initialize_async(T.InitializeParams(capabilities=T.ClientCapabilities(),
                                                     initialization_options={"debounceMs": args.debounce_ms}))
    client.initialized(T.InitializedParams())
    uri = "file://" + os.path.join(ROOT, "bench", "_lsp_bench_kernels.py")
    version = 1
    events[version] = asyncio.Event()
    t0 = time.perf_counter()
    client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(uri, "python", version, text)))
    await asyncio.wait_for(events[version].wait(), 30)
    print(f"open + first analysis: {(time.perf_counter() - t0) * 1000:.0f} ms ({len(lines)} lines)")

    diag_ms, hover_ms, hover_fresh_ms, hints_ms = [], [], [], []
    doc_id = lambda: T.VersionedTextDocumentIdentifier(uri=uri, version=version)  # noqa: E731
    for name in KERNELS:
        def_line = next(i for i, l in enumerate(lines) if l.startswith(f"def {name}("))
        # a statement two lines into the body with an assignment to hover on
        target = next(i for i in range(def_line + 1, len(lines)) if " = " in lines[i] and "ct." in lines[i])
        stmt = lines[target].rstrip("\n")
        indent = len(stmt) - len(stmt.lstrip())
        # delete the statement's text (keep the indentation)
        version += 1
        client.text_document_did_change(T.DidChangeTextDocumentParams(doc_id(), [T.TextDocumentContentChangePartial(
            range=T.Range(T.Position(target, indent), T.Position(target, len(stmt))), text="")]))
        body = stmt[indent:]
        typed = body[:args.chars] if args.chars else body
        col = indent
        for ch in typed:
            version += 1
            events[version] = asyncio.Event()
            sent = time.perf_counter()
            client.text_document_did_change(T.DidChangeTextDocumentParams(doc_id(), [T.TextDocumentContentChangePartial(
                range=T.Range(T.Position(target, col), T.Position(target, col)), text=ch)]))
            col += 1
            # a keystroke every ~`interval` ms; wait for this version's diagnostics only when
            # the user pauses (every --pause-every characters and at the end)
            if (col - indent) % args.pause_every == 0 or col - indent == len(typed):
                await asyncio.wait_for(events[version].wait(), 30)
                diag_ms.append((published[version] - sent) * 1000)
                # hover right after the edit settled
                for c in (indent, indent + 1):
                    s = time.perf_counter()
                    await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(uri),
                                                                         T.Position(target, c)))
                    hover_ms.append((time.perf_counter() - s) * 1000)
                s = time.perf_counter()
                await client.text_document_inlay_hint_async(T.InlayHintParams(
                    T.TextDocumentIdentifier(uri), T.Range(T.Position(def_line, 0), T.Position(def_line + 40, 0))))
                hints_ms.append((time.perf_counter() - s) * 1000)
            else:
                await asyncio.sleep(args.interval_ms / 1000)
        if typed != body:      # finish the line so the next kernel starts from valid code
            version += 1
            client.text_document_did_change(T.DidChangeTextDocumentParams(doc_id(), [T.TextDocumentContentChangePartial(
                range=T.Range(T.Position(target, col), T.Position(target, col)), text=body[len(typed):])]))
        # hover immediately after an edit (no pause): waits for the new analysis
        version += 1
        events[version] = asyncio.Event()
        client.text_document_did_change(T.DidChangeTextDocumentParams(doc_id(), [T.TextDocumentContentChangePartial(
            range=T.Range(T.Position(target, len(stmt)), T.Position(target, len(stmt))), text=" ")]))
        s = time.perf_counter()
        await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(uri), T.Position(target, indent)))
        hover_fresh_ms.append((time.perf_counter() - s) * 1000)
        await asyncio.wait_for(events[version].wait(), 30)

    await client.shutdown_async(None)
    client.exit(None)
    await asyncio.sleep(0.1)
    db = args.debounce_ms
    print(f"debounce {db} ms, keystroke interval {args.interval_ms} ms, kernels: {', '.join(KERNELS)}")
    print(f"{'measure':38s} {'n':>4s} {'p50 ms':>8s} {'p95 ms':>8s}")
    for label, xs in (("diagnostics after edit (incl. debounce)", diag_ms),
                      ("  analysis part (minus debounce)", [x - db for x in diag_ms]),
                      ("hover (settled)", hover_ms),
                      ("inlay hints (40 lines, settled)", hints_ms),
                      ("hover right after an edit", hover_fresh_ms)):
        print(f"{label:38s} {len(xs):4d} {pct(xs, 50):8.1f} {pct(xs, 95):8.1f}")
    return 0


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--chars", type=int, default=0, help="type only the first N characters of each line")
    p.add_argument("--debounce-ms", type=float, default=150)
    p.add_argument("--interval-ms", type=float, default=30, help="time between keystrokes")
    p.add_argument("--pause-every", type=int, default=4, help="characters typed between pauses")
    sys.exit(asyncio.run(main(p.parse_args())))
