"""A long random-edit session against `tilescope lsp`, checking that nothing drifts or leaks.

Opens realistic kernel files (examples/ and tests/corpus/realistic/kernels.py) and
applies random incremental edits (typing and deleting characters, ASCII and not,
splitting and joining lines), each burst followed by an edit that restores what it
changed, with requests mixed in (hover, completion, signature help, inlay hints,
definition). The client pauses after half the bursts (a text never analysed before) and
after each restore (usually a text the server analysed before, as after an undo), and
waits for the diagnostics of that version. Checked and printed:

- crashes (the server exiting) and unanswered requests (no response within 30 s);
- the server's copy equal to the client's (a SHA-256 compare) at every pause;
- hover latency (p50/p95), diagnostics-after-a-pause latency (from the last edit to the
  publishDiagnostics of its version; includes the debounce);
- resident memory of the server and its analysis workers, every 5,000 edits; growth is
  measured from the sample at 10,000 edits to the end.

Usage: python bench/lsp_soak.py [--edits 100000] [--seed 1] [--debounce-ms 150]
"""
from __future__ import annotations

import argparse
import hashlib
import os
import random
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tests.lsp.rawclient import RawClient  # noqa: E402

FILES = ["tests/corpus/realistic/kernels.py", "examples/matmul.py", "examples/attention.py",
         "examples/layernorm.py", "examples/softmax.py"]
TYPED = list("abcdefghijklmnopqrstuvwxyz_0123456789 ().,+-*/=[]:") + ["ct.", "    ", "😀", "中", "é", "\t"]
REQUEST_TIMEOUT_S = 30.0
SAMPLE_EVERY = 5000


def utf16(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def pct(xs, p):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(round(p / 100 * (len(xs) - 1)))))]


class Doc:
    """The client's copy of one document, as lines without their "\\n"."""

    def __init__(self, uri: str, text: str):
        self.uri, self.lines, self.version = uri, text.split("\n"), 1

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def replace(self, line: int, a: int, b: int, new: str) -> dict:
        """Replace characters a..b of `line` (code points) by `new` (no "\\n" inside)."""
        src = self.lines[line]
        change = {"range": {"start": {"line": line, "character": utf16(src[:a])},
                            "end": {"line": line, "character": utf16(src[:b])}}, "text": new}
        self.lines[line] = src[:a] + new + src[b:]
        return change

    def split(self, line: int, a: int) -> dict:
        src = self.lines[line]
        change = {"range": {"start": {"line": line, "character": utf16(src[:a])},
                            "end": {"line": line, "character": utf16(src[:a])}}, "text": "\n"}
        self.lines[line:line + 1] = [src[:a], src[a:]]
        return change

    def join(self, line: int) -> dict:
        src = self.lines[line]
        change = {"range": {"start": {"line": line, "character": utf16(src)},
                            "end": {"line": line + 1, "character": 0}}, "text": ""}
        self.lines[line:line + 2] = [src + self.lines[line + 1]]
        return change

    def restore(self, first: int, count: int, original) -> dict:
        """Put `original` lines back in place of `count` lines from `first`."""
        last = first + count - 1
        change = {"range": {"start": {"line": first, "character": 0},
                            "end": {"line": last, "character": utf16(self.lines[last])}},
                  "text": "\n".join(original)}
        self.lines[first:last + 1] = list(original)
        return change


class Soak:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.client = RawClient({"debounceMs": args.debounce_ms}, stderr=open(args.log, "w") if args.log else None)
        self.docs = []
        for i, path in enumerate(FILES):
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                text = f.read()
            uri = f"file:///tmp/tilescope-soak/{i}_{os.path.basename(path)}"
            self.docs.append(Doc(uri, text))
            self.client.open(uri, text)
        for d in self.docs:
            self.client.wait_diagnostics(d.uri, version=1, timeout=60)
        self.edits = 0
        self.hover_ms, self.diag_ms, self.other_ms = [], [], []
        self.diag_new_ms, self.diag_back_ms = [], []
        self.unanswered = self.mismatches = self.checks = self.requests = 0
        self.rss = []
        self.started = time.monotonic()

    # ---- one burst: random edits on one line region, requests, a restore, a pause -------------

    def burst(self) -> None:
        rng, doc = self.rng, self.rng.choice(self.docs)
        first = rng.randrange(len(doc.lines) - 1)
        original = list(doc.lines[first:first + 2])
        count = 2          # lines now holding the region
        for _ in range(rng.randint(1, 24)):
            kind = rng.random()
            line = first + rng.randrange(count)
            src = doc.lines[line]
            if kind < 0.55:
                a = rng.randint(0, len(src))
                change = doc.replace(line, a, a, rng.choice(TYPED))
            elif kind < 0.85 and src:
                a = rng.randrange(len(src))
                change = doc.replace(line, a, min(len(src), a + rng.randint(1, 3)), "")
            elif kind < 0.93:
                change = doc.split(line, rng.randint(0, len(src)))
                count += 1
            elif count > 1 and line < first + count - 1:
                change = doc.join(line)
                count -= 1
            else:
                change = doc.replace(line, 0, len(src), src.strip())
            self.send(doc, change)
            if rng.random() < 0.3:
                self.request(doc)
        if rng.random() < 0.5:
            self.pause(doc, self.diag_new_ms)         # a text never analysed before
        self.send(doc, doc.restore(first, count, original))
        self.pause(doc, self.diag_back_ms)            # usually a text analysed before (as after an undo)

    def send(self, doc: Doc, change: dict) -> None:
        doc.version += 1
        self.edits += 1
        self.last_edit = time.perf_counter()
        self.client.change(doc.uri, doc.version, [change])
        if self.edits % SAMPLE_EVERY == 0:
            self.sample()

    def call(self, method: str, params: dict):
        self.requests += 1
        t = time.perf_counter()
        try:
            reply = self.client.call(method, params, timeout=REQUEST_TIMEOUT_S)
        except TimeoutError:
            self.unanswered += 1
            return None, None
        return reply, (time.perf_counter() - t) * 1000

    def request(self, doc: Doc) -> None:
        rng = self.rng
        line = rng.randrange(len(doc.lines))
        pos = {"line": line, "character": utf16(doc.lines[line][:rng.randint(0, len(doc.lines[line]))])}
        td = {"uri": doc.uri}
        kind = rng.random()
        if kind < 0.6:
            _, ms = self.call("textDocument/hover", {"textDocument": td, "position": pos})
            if ms is not None:
                self.hover_ms.append(ms)
            return
        if kind < 0.75:
            method, params = "textDocument/completion", {"textDocument": td, "position": pos}
        elif kind < 0.85:
            method, params = "textDocument/signatureHelp", {"textDocument": td, "position": pos}
        elif kind < 0.93:
            method, params = "textDocument/inlayHint", {"textDocument": td, "range": {
                "start": {"line": max(0, line - 20), "character": 0}, "end": {"line": line + 20, "character": 0}}}
        else:
            method, params = "textDocument/definition", {"textDocument": td, "position": pos}
        reply, ms = self.call(method, params)
        if ms is not None:
            self.other_ms.append(ms)

    def pause(self, doc: Doc, into) -> None:
        try:
            self.client.wait_diagnostics(doc.uri, version=doc.version, timeout=REQUEST_TIMEOUT_S)
            ms = (time.perf_counter() - self.last_edit) * 1000
            self.diag_ms.append(ms)
            into.append(ms)
        except TimeoutError:
            self.unanswered += 1
        state, _ = self.call("tilescope/documentState", {"textDocument": {"uri": doc.uri}})
        self.checks += 1
        expect = hashlib.sha256(doc.text.encode("utf-8")).hexdigest()
        if state is None or state["result"]["sha256"] != expect or state["result"]["version"] != doc.version:
            self.mismatches += 1
        self.state = state["result"] if state else None

    def sample(self) -> None:
        by_pid = self.client.rss_by_process(self.docs[0].uri)
        mb = sum(by_pid.values())
        self.rss.append((self.edits, mb))
        if self.args.progress:
            parts = "+".join(f"{v:.0f}" for v in by_pid.values())
            print(f"  {self.edits:>7} edits  {time.monotonic() - self.started:7.0f} s  rss {mb:6.1f} MB ({parts})  "
                  f"hover p95 {pct(self.hover_ms, 95):5.1f} ms  diag p95 {pct(self.diag_ms, 95):5.1f} ms", flush=True)

    def run(self) -> int:
        while self.edits < self.args.edits and self.client.proc.poll() is None:
            self.burst()
        crashed = self.client.proc.poll() is not None
        kills = (self.state or {}).get("kills", "?")
        code = self.client.shutdown()
        self.report(crashed, code, kills)
        return 0 if self.ok(crashed) else 1

    def growth(self):
        base = next((mb for n, mb in self.rss if n >= 10_000), None)
        if base is None or not self.rss:
            return None
        return (self.rss[-1][1] - base) / base * 100

    def ok(self, crashed) -> bool:
        g = self.growth()
        return (not crashed and self.unanswered == 0 and self.mismatches == 0 and pct(self.hover_ms, 95) <= 50
                and pct(self.diag_ms, 95) <= 300 and (g is None or g <= 10))

    def report(self, crashed, code, kills) -> None:
        minutes = (time.monotonic() - self.started) / 60
        print(f"edits {self.edits:,} in {minutes:.1f} min over {len(self.docs)} documents "
              f"(debounce {self.args.debounce_ms} ms, seed {self.args.seed})")
        print(f"crashes {int(crashed)} (exit status {code}), worker kills {kills}, requests {self.requests:,}, "
              f"unanswered {self.unanswered}, text checks {self.checks:,}, mismatches {self.mismatches}")
        for label, xs in (("hover", self.hover_ms), ("diagnostics after a pause", self.diag_ms),
                          ("  of a new text", self.diag_new_ms), ("  after restoring the text", self.diag_back_ms),
                          ("completion/signature/hints/definition", self.other_ms)):
            print(f"{label:40s} n={len(xs):6d}  p50 {pct(xs, 50):7.1f} ms  p95 {pct(xs, 95):7.1f} ms  "
                  f"max {max(xs) if xs else float('nan'):7.1f} ms")
        if self.rss:
            print("rss MB (server + workers): " + ", ".join(f"{n // 1000}k {mb:.0f}" for n, mb in self.rss))
        g = self.growth()
        print("rss growth after 10,000 edits: " + ("n/a (fewer edits)" if g is None else f"{g:+.1f}%"))
        print("RESULT: " + ("held" if self.ok(crashed) else "FAILED"))


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--edits", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--debounce-ms", type=float, default=150)
    p.add_argument("--log", default="", help="write the server's stderr here")
    p.add_argument("--progress", action="store_true", help="print a line every 5,000 edits")
    return Soak(p.parse_args()).run()


if __name__ == "__main__":
    sys.exit(main())
