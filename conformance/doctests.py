"""Doc examples of upstream's public API (`.. testcode::` / `.. testoutput::` in `_stub.py` docstrings).

Collection happens in a child that imports the *real* cuda.tile with the checkout's `_stub.py`
loaded over it, because many docstrings are rendered at import time (f-strings filled per
operation). If that fails, the raw docstrings of the file are parsed instead. The examples
are then run in another child where `cuda.tile` is tilescope, expanded into upstream's
templates (docs/source/_templates/doctest/), and checked like Sphinx's doctest builder does:
`exec` mode, the doctest output checker with Sphinx's default flags (ELLIPSIS,
IGNORE_EXCEPTION_DETAIL, DONT_ACCEPT_TRUE_FOR_1) plus each block's `:options:`.
"""
from __future__ import annotations

import ast
import dataclasses
import inspect
import json
import os
import re
import sys
import textwrap
from typing import Dict, List, Optional

from .common import Result, child_env, run_child

STUB = os.path.join("src", "cuda", "tile", "_stub.py")
TEMPLATES = os.path.join("docs", "source", "_templates", "doctest")
CONF = os.path.join("docs", "source", "conf.py")
EXAMPLE_TIMEOUT = 120.0

_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+(testcode|testoutput)::\s*(.*)$")
_OPTION = re.compile(r"^\s*:([\w-]+):\s*(.*)$")


@dataclasses.dataclass
class DocExample:
    name: str                       # e.g. "Array.slice#1"
    code: str
    template: Optional[str] = None
    skipif: Optional[str] = None
    want: Optional[str] = None      # None: no testoutput block (then it must print nothing)
    options: str = ""


def _block(lines: List[str], start: int, indent: int):
    """Options and body of the directive at lines[start]; returns (options, body_lines, next_index)."""
    options: Dict[str, str] = {}
    i = start + 1
    while i < len(lines) and _OPTION.match(lines[i]) and len(lines[i]) - len(lines[i].lstrip()) > indent:
        m = _OPTION.match(lines[i])
        options[m.group(1)] = m.group(2).strip()
        i += 1
    body = []
    while i < len(lines):
        line = lines[i]
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        body.append(line)
        i += 1
    while body and not body[-1].strip():
        body.pop()
    return options, textwrap.dedent("\n".join(body)).strip("\n"), i


def parse_docstring(doc: str, owner: str) -> List[DocExample]:
    lines = inspect.cleandoc(doc).splitlines()
    examples: List[DocExample] = []
    i = 0
    while i < len(lines):
        m = _DIRECTIVE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, kind = len(m.group(1)), m.group(2)
        options, body, i = _block(lines, i, indent)
        if kind == "testcode":
            examples.append(DocExample(f"{owner}#{len(examples)}", body, options.get("template"),
                                       options.get("skipif")))
        elif examples and examples[-1].want is None:
            examples[-1].want = body + "\n"
            examples[-1].options = options.get("options", "")
    return examples


# ---------------------------------------------------------------------------------------
# Collection (child process with the real cuda.tile)
# ---------------------------------------------------------------------------------------

_COLLECT = r"""
import importlib.util, inspect, json, sys
stub_path = sys.argv[1]
import cuda.tile
spec = importlib.util.spec_from_file_location("cuda.tile._stub_conformance", stub_path)
mod = importlib.util.module_from_spec(spec)
mod.__package__ = "cuda.tile"
sys.modules[spec.name] = mod
spec.loader.exec_module(mod)
docs, seen = [], set()
def add(name, obj):
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if isinstance(obj, property):
        obj = obj.fget
    doc = getattr(obj, "__doc__", None)
    if isinstance(doc, str) and "testcode::" in doc and doc not in seen:
        seen.add(doc)
        docs.append([name, doc])
for name, obj in list(vars(mod).items()):
    add(name, obj)
    if isinstance(obj, type) and obj.__module__ == mod.__name__:
        for attr, member in vars(obj).items():
            add(f"{name}.{attr}", member)
json.dump(docs, sys.stdout)
"""


def _static_docstrings(stub_path: str):
    with open(stub_path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    out = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(child, clean=False)
                name = prefix + child.name
                if doc and "testcode::" in doc:
                    out.append([name, doc])
                if isinstance(child, ast.ClassDef):
                    visit(child, name + ".")
    visit(tree, "")
    return out


def collect(upstream: str) -> tuple:
    """(examples, how): `how` says whether the rendered or the raw docstrings were used."""
    stub_path = os.path.join(upstream, STUB)
    env = child_env()
    env["PYTHONPATH"] = ""                      # the real cuda.tile, not tilescope
    proc = run_child(["-c", _COLLECT, stub_path], timeout=300, env=env, cwd=os.path.dirname(stub_path))
    try:
        docs = json.loads(proc.stdout)
        how = "rendered docstrings (checkout's _stub.py loaded over the installed cuda.tile)"
    except ValueError:
        docs = _static_docstrings(stub_path)
        how = "raw docstrings (rendering failed: " + (proc.stderr.strip().splitlines() or ["?"])[-1] + ")"
    examples = []
    for name, doc in docs:
        examples.extend(parse_docstring(doc, name))
    return examples, how


# ---------------------------------------------------------------------------------------
# Running (child process with tilescope as cuda.tile)
# ---------------------------------------------------------------------------------------

def expand_template(template: str, body: str) -> str:
    out = []
    for line in template.split("\n"):
        m = re.match(r"^(\s*)\{\{body\}\}\s*$", line)
        if m:
            out.extend(m.group(1) + b if b.strip() else b for b in body.split("\n"))
        else:
            out.append(line)
    return "\n".join(out)


def full_code(example: DocExample, upstream: str) -> str:
    code = example.code
    if example.template:
        with open(os.path.join(upstream, TEMPLATES, example.template), encoding="utf-8") as f:
            code = expand_template(f.read(), textwrap.dedent(code))
    lines = [l for l in code.split("\n") if not re.match(r"^\s*#\s*(begin|end)-snippet\s*$", l)]
    return textwrap.dedent("\n".join(lines))


def global_setup(upstream: str) -> str:
    """Sphinx's `doctest_global_setup` from upstream's docs/source/conf.py."""
    try:
        with open(os.path.join(upstream, CONF), encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError):
        return ""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "doctest_global_setup"
                                                for t in node.targets):
            try:
                return ast.literal_eval(node.value)
            except ValueError:
                return ""
    return ""


def run_examples_here(payload: dict) -> List[dict]:
    """Runs in the tilescope child: each example's verdict (outcome, detail, got)."""
    import builtins
    import doctest
    import io

    from . import boot
    boot.install()
    boot.assert_tilescope()
    # Sphinx runs testcode blocks in "exec" mode; doctest's runner looks up `compile` globally.
    doctest.compile = lambda src, filename, mode, *a, **k: builtins.compile(src, filename, "exec", *a, **k)
    base_flags = doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL | doctest.DONT_ACCEPT_TRUE_FOR_1
    verdicts = []
    for ex in payload["examples"]:
        globs: dict = {"__name__": "__main__"}
        exec(payload["setup"], globs)
        if ex["skipif"]:
            try:
                if eval(ex["skipif"], globs):
                    verdicts.append({"outcome": "skipped", "detail": f"skipif: {ex['skipif']} (true on an H200)"})
                    continue
            except Exception as e:  # noqa: BLE001
                verdicts.append({"outcome": "failed", "detail": f"skipif failed: {e!r}"})
                continue
        want = ex["want"] if ex["want"] is not None else ""     # as Sphinx: no testoutput = no output
        flags = base_flags
        for opt in filter(None, (o.strip() for o in ex["options"].split(","))):
            flag = doctest.OPTIONFLAGS_BY_NAME.get(opt[1:])
            if flag:
                flags = flags | flag if opt[0] == "+" else flags & ~flag
        exc_msg = None
        m = doctest.DocTestParser._EXCEPTION_RE.match(want)
        if m:
            exc_msg = m.group("msg")
        example = doctest.Example(ex["source"], want, exc_msg=exc_msg, lineno=0)
        test = doctest.DocTest([example], globs, ex["name"], ex["file"], 0, None)
        report = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=flags, verbose=False)
        result = runner.run(test, out=report.write, clear_globs=True)
        if result.failed:
            verdicts.append({"outcome": "failed", "detail": report.getvalue()[-3000:]})
        else:
            verdicts.append({"outcome": "passed", "detail": ""})
    return verdicts


def run(upstream: str, jobs: int = 1) -> List[Result]:
    from .categories import categorize
    import tempfile
    examples, how = collect(upstream)
    setup = global_setup(upstream)
    rel = STUB.replace(os.sep, "/")
    items = [{"name": e.name, "file": rel, "source": full_code(e, upstream), "want": e.want,
              "options": e.options, "skipif": e.skipif} for e in examples]
    results: List[Result] = []
    jobs = max(1, jobs)
    chunks = [list(range(len(items)))[i::jobs] for i in range(jobs)]
    from concurrent.futures import ThreadPoolExecutor

    def run_chunk(indices):
        with tempfile.TemporaryDirectory(prefix="tilescope-doctest-") as tmp:
            out = os.path.join(tmp, "verdicts.json")
            payload = {"examples": [items[i] for i in indices], "setup": setup, "out": out}
            inp = os.path.join(tmp, "payload.json")
            with open(inp, "w") as f:
                json.dump(payload, f)
            proc = run_child(["-c", "import sys, json; from conformance.doctests import run_examples_here; "
                              "p = json.load(open(sys.argv[1])); json.dump(run_examples_here(p), open(p['out'], 'w'))",
                              inp], timeout=EXAMPLE_TIMEOUT * max(1, len(indices)), cwd=tmp)
            if os.path.exists(out):
                with open(out) as f:
                    return list(zip(indices, json.load(f)))
            return [(i, {"outcome": "failed", "detail": (proc.stdout + proc.stderr)[-3000:]}) for i in indices]

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        verdicts = dict(v for part in pool.map(run_chunk, chunks) for v in part)
    for i, item in enumerate(items):
        v = verdicts[i]
        if v["outcome"] == "passed":
            results.append(Result("doctests", rel, item["name"], "passed"))
        elif v["outcome"] == "skipped":
            results.append(Result("doctests", rel, item["name"], "skipped", "skipped by upstream's own condition",
                                  v["detail"]))
        else:
            category, detail = categorize_doc_failure(v["detail"])
            results.append(Result("doctests", rel, item["name"], "failed", category, detail))
    run.how = how
    return results


def categorize_doc_failure(text: str):
    from .categories import categorize
    if "Expected:" in text and "Got:" in text and "Exception raised" not in text:
        got = text.split("Got:", 1)[1].strip().splitlines()
        exp = text.split("Expected:", 1)[1].split("Got:", 1)[0].strip().splitlines()
        return "printed output differs", f"expected {exp[:2]} got {got[:2]}"
    if "Exception raised" in text:
        return categorize(text.split("Exception raised", 1)[1])
    return categorize(text)
