"""Parse the kernel corpus (tests/corpus/<family>/<name>.py) without importing it.

Directive comments directly above a ``@ct.kernel``-decorated function:

    # tilescope: args <spec>          (one per signature; several allowed)
    # expect: ok | <ErrorClass> @ <line>
    # expect-match: <regex>           (optional, applies to the preceding expect)
    # upstream-note: <text>           (free text, documents upstream oddities)

An ``# expect:`` line applies to the most recent ``# tilescope: args`` line.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

CORPUS_DIR = Path(__file__).resolve().parent.parent / "corpus"
# The tileiras version the recorded verdicts were made for (upstream gates features on it).
ORACLE_TILEIRAS = "13.3"

_ARGS_RE = re.compile(r"^\s*#\s*tilescope:\s*args\s*(.*?)\s*$")
_EXPECT_RE = re.compile(r"^\s*#\s*expect:\s*(.*?)\s*$")
_MATCH_RE = re.compile(r"^\s*#\s*expect-match:\s*(.*?)\s*$")
_NOTE_RE = re.compile(r"^\s*#\s*upstream-note:\s*(.*?)\s*$")
_ERR_RE = re.compile(r"^(\w+)\s*@\s*(\d+)$")


@dataclass
class Expectation:
    ok: bool
    error: str | None = None
    line: int | None = None
    match: str | None = None

    def describe(self) -> str:
        if self.ok:
            return "ok"
        return f"{self.error} @ {self.line}" + (f" /{self.match}/" if self.match else "")


@dataclass
class Case:
    family: str
    file: str            # path relative to CORPUS_DIR, posix style
    kernel: str
    args: str
    expect: Expectation
    directive_line: int  # 1-based line of the '# tilescope: args' directive
    notes: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"{self.file}::{self.kernel}::{self.args}"

    @property
    def path(self) -> Path:
        return CORPUS_DIR / self.file


class CorpusError(Exception):
    pass


def _is_kernel_decorator(dec: ast.expr) -> bool:
    node = dec.func if isinstance(dec, ast.Call) else dec
    return isinstance(node, ast.Attribute) and node.attr == "kernel" or \
        isinstance(node, ast.Name) and node.id == "kernel"


def parse_expect(text: str, where: str) -> Expectation:
    if text == "ok":
        return Expectation(ok=True)
    m = _ERR_RE.match(text)
    if not m:
        raise CorpusError(f"{where}: bad expect directive {text!r}")
    return Expectation(ok=False, error=m.group(1), line=int(m.group(2)))


def parse_file(path: Path, root: Path = CORPUS_DIR) -> list[Case]:
    src = path.read_text()
    lines = src.splitlines()
    tree = ast.parse(src, filename=str(path))
    rel = path.relative_to(root).as_posix()
    family = rel.split("/")[0]
    cases: list[Case] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        if not any(_is_kernel_decorator(d) for d in node.decorator_list):
            continue
        first = min([d.lineno for d in node.decorator_list] + [node.lineno])
        # collect the contiguous comment block directly above the decorators
        i = first - 2
        block = []
        while i >= 0 and lines[i].lstrip().startswith("#"):
            block.append((i + 1, lines[i]))
            i -= 1
        block.reverse()
        cur: Case | None = None
        notes: list[str] = []
        file_cases: list[Case] = []
        for lineno, text in block:
            where = f"{rel}:{lineno}"
            if m := _ARGS_RE.match(text):
                cur = Case(family, rel, node.name, m.group(1), None, lineno)  # type: ignore
                file_cases.append(cur)
            elif m := _EXPECT_RE.match(text):
                if cur is None or cur.expect is not None:
                    raise CorpusError(f"{where}: '# expect:' without a preceding args line")
                cur.expect = parse_expect(m.group(1), where)
            elif m := _MATCH_RE.match(text):
                if cur is None or cur.expect is None or cur.expect.ok:
                    raise CorpusError(f"{where}: '# expect-match:' must follow an error expect")
                cur.expect.match = m.group(1)
            elif m := _NOTE_RE.match(text):
                notes.append(m.group(1))
        if not file_cases:
            raise CorpusError(f"{rel}:{node.lineno}: kernel {node.name!r} has no "
                              f"'# tilescope: args' directive")
        for c in file_cases:
            if c.expect is None:
                raise CorpusError(f"{rel}:{c.directive_line}: missing '# expect:'")
            c.notes = list(notes)
        cases.extend(file_cases)
    cases.sort(key=lambda c: c.directive_line)
    return cases


def corpus_files(root: Path = CORPUS_DIR) -> list[Path]:
    return sorted(p for p in root.glob("*/*.py") if not p.name.startswith("_"))


def load_corpus(root: Path = CORPUS_DIR) -> list[Case]:
    cases: list[Case] = []
    seen = set()
    for p in corpus_files(root):
        for c in parse_file(p, root):
            if c.key in seen:
                raise CorpusError(f"duplicate case key {c.key}")
            seen.add(c.key)
            cases.append(c)
    return cases


if __name__ == "__main__":
    import collections
    cs = load_corpus()
    fam = collections.Counter(c.family for c in cs)
    neg = collections.Counter(c.family for c in cs if not c.expect.ok)
    for f in sorted(fam):
        print(f"{f:12s} {fam[f]:4d} cases ({neg[f]} negative)")
    print(f"{'total':12s} {len(cs):4d} cases ({sum(neg.values())} negative)")
