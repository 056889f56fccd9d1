"""The editor's analysis without the protocol: metadata sources, budgets, features."""
import json
import threading

import pytest

from tilescope.tools.lsp import features as F
from tilescope.tools.lsp.analysis import Cancelled, analyze
from tilescope.tools.lsp.summary import build_summary

KERNEL = '''import cuda.tile as ct
import torch

@ct.kernel
def vadd(a, b, c, TILE: ct.Constant[int]):
    i = ct.bid(0)
    x = ct.load(a, index=(i,), shape=(TILE,))
    ct.store(c, index=(i,), tile=x + ct.load(b, index=(i,), shape=(TILE,)))
'''


def summarize(an):
    s = build_summary(an)
    s.text = an.text
    return s


def _hover_at(an, needle, offset=0):
    s = summarize(an)
    for i, line in enumerate(s.lines):
        j = line.find(needle)
        if j >= 0:
            return F.hover(s, i + 1, j + 1 + offset)
    raise AssertionError(needle)


def test_recorded_signatures_json(tmp_path):
    src = tmp_path / "k.py"
    src.write_text(KERNEL)
    (tmp_path / ".tilescope").mkdir()
    (tmp_path / ".tilescope" / "signatures.json").write_text(
        json.dumps({"k.py::vadd": ["bf16[?], bf16[?], bf16[?], 128"]}))
    an = analyze(KERNEL, str(src))
    assert an.signatures["vadd"][0].source == "recorded"
    assert "Tile[bfloat16,(128)]" in _hover_at(an, "x = ct.load").markdown


@pytest.mark.parametrize("maker,expect", [
    ("torch.empty((1024,), dtype=torch.float16)", "Tile[float16,(256)]"),
    ("torch.zeros(1024, dtype=torch.bfloat16)", "Tile[bfloat16,(256)]"),
    ("np.zeros((N,), dtype=np.float32)", "Tile[float32,(256)]"),
    ("np.ones(N)", "Tile[float64,(256)]"),
])
def test_launch_site_metadata(maker, expect):
    text = KERNEL + f'''
N = 1024

def main():
    a = {maker}
    ct.launch(None, (4,), vadd, (a, a, a, 256))
'''
    an = analyze(text, "/tmp/nonexistent-dir/k.py")
    assert an.signatures["vadd"][0].source == "launch"
    assert expect in _hover_at(an, "x = ct.load").markdown


def test_directive_wins_and_no_metadata_is_information():
    an = analyze(KERNEL, "/tmp/k.py")
    assert not an.signatures and [d.severity for d in an.diagnostics] == ["information"]
    h = _hover_at(an, "x = ct.load")
    assert "type unknown" in h.markdown
    an = analyze(KERNEL.replace("@ct.kernel", "# tilescope: args f32[?], f32[?], f32[?], 64\n@ct.kernel"),
                 "/tmp/k.py")
    assert "Tile[float32,(64)]" in _hover_at(an, "x = ct.load").markdown


def test_generic_checks_without_metadata():
    text = KERNEL + '''
@ct.kernel
def bad(a):
    t = ct.load(a, shape=(16,))
    u = ct.frobnicate(t)
    with open("f") as f:
        pass
'''
    an = analyze(text, "/tmp/k.py")
    msgs = [(d.kind, d.message) for d in an.diagnostics if d.severity == "error"]
    assert any(k == "TileTypeError" and "index" in m for k, m in msgs)      # arity
    assert any("frobnicate" in m for k, m in msgs)                          # unknown ct name


def test_cancellation_and_budget():
    text = '''import cuda.tile as ct

# tilescope: args 1
@ct.kernel
def k(n: ct.Constant[int]):
    for i in ct.static_iter(range(1000)):
        for j in ct.static_iter(range(1000)):
            x = i + j
'''
    an = analyze(text, "/tmp/k.py", budget_s=0.2)
    assert an.timed_out, an.diagnostics
    ev = threading.Event()
    ev.set()
    with pytest.raises(Cancelled):
        analyze(text, "/tmp/k.py", cancel=ev)


def test_signature_help_and_call_context():
    an = summarize(analyze(KERNEL, "/tmp/k.py"))
    sh = F.signature_help(an, "    y = ct.load(a, index=(0,), shape=(1,), padding_mode=")
    assert sh.label.startswith("ct.load(") and sh.parameters[sh.active_parameter].startswith("padding_mode")
    assert "PaddingMode." in sh.label
    assert F.call_context("ct.sum(x, axis=") == ("ct.sum", 1, ["axis"])
    assert F.call_context("x = (1, 2") is None
