"""Compilations reused across edits: only what a kernel reads makes it compile again,
and a reused result is always the one a fresh analysis gives."""
import ast

import pytest

from tilescope.tools.lsp import compile_cache
from tilescope.tools.lsp.analysis import analyze
from tilescope.tools.lsp.reads import statement_reads

MODULE = '''import cuda.tile as ct
BLOCK = 16
settings = {"n": 16}
alias = settings
_ = alias.update(n=32)
{extra}
# tilescope: args f32[64], f32[64]
@ct.kernel
def uses_block(a, b):
    i = ct.bid(0)
    t = ct.load(a, index=(i,), shape=(BLOCK,))
    ct.store(b, index=(i,), tile=t)

# tilescope: args f32[64], f32[64]
@ct.kernel
def uses_settings(a, b):
    i = ct.bid(0)
    t = ct.load(a, index=(i,), shape=(settings["n"],))
    ct.store(b, index=(i,), tile=t)
'''


def _outcome(an):
    diags = sorted((d.loc.line, d.loc.col, d.severity, d.message) for d in an.diagnostics)
    exprs = sorted((k, [r.text for r in v]) for k, v in an.exprs.items())
    return diags, exprs


def _analyse(text):
    compiled = []
    an = analyze(text, "/tmp/cache_case.py", on_compile=lambda kernel, key, loc: compiled.append(kernel))
    return an, sorted(compiled)


@pytest.mark.parametrize("edit, recompiled", [
    (lambda t: t.replace("{extra}", "unused = 1\nprint"), []),                  # names no kernel reads
    (lambda t: t.replace("{extra}", "# a comment\n\n\n"), []),                  # lines moved only
    (lambda t: t.replace("BLOCK = 16", "BLOCK = 3"), ["uses_block"]),           # a global it reads
    (lambda t: t.replace("{extra}", "BLOCK = 64"), ["uses_block"]),             # bound again
    # a call that changes the dict through another name: every kernel reads such a statement
    (lambda t: t.replace("n=32", "n=64"), ["uses_block", "uses_settings"]),
    (lambda t: t.replace("{extra}", 'if __name__ == "__main__":\n    run_all(BLOCK)'), []),    # not evaluated
    (lambda t: t.replace("def uses_block(a, b):", "def uses_block(a, b, ):"), ["uses_block"]),
])
def test_only_what_a_kernel_reads_compiles_it_again(edit, recompiled):
    base = MODULE.replace("{extra}", "")
    _analyse(base)
    _analyse(MODULE)
    edited = edit(MODULE)
    an, compiled = _analyse(edited)
    assert compiled == recompiled
    cached = _outcome(an)
    compile_cache._CACHE.clear()
    fresh, _ = _analyse(edited)
    assert cached == _outcome(fresh)


def test_the_change_made_through_an_alias_is_seen():
    _analyse(MODULE.replace("{extra}", ""))
    an, _ = _analyse(MODULE.replace("{extra}", "").replace("n=32", "n=64"))
    shapes = {r.text for recs in an.exprs.values() for r in recs if r.kernel == "uses_settings"}
    assert "Tile[float32,(64)]" in shapes


@pytest.mark.parametrize("source, binds, mutates", [
    ("x = y + 1", {"x"}, False),
    ("d['k'] = v", {"d"}, True),
    ("n += 1", {"n"}, True),
    ("import a.b as c, e.f", {"c", "e"}, False),
    ("@reg\ndef f(p=g()):\n    local = 1", {"f"}, False),
    ("if t:\n    u = 1\nelse:\n    w = 2", {"u", "w"}, False),
    ("class K:\n    z = 1\n    def m(self):\n        q = 2", {"K"}, False),
])
def test_statement_reads(source, binds, mutates):
    info = statement_reads(ast.parse(source).body[0])
    assert set(info.binds) == binds and info.mutates == mutates


def test_decorators_and_default_calls_are_calls():
    info = statement_reads(ast.parse("@reg\ndef f(p=g()):\n    h()").body[0])
    assert info.call_roots == {"reg", "g"}     # the body's h() does not run when the module is read
