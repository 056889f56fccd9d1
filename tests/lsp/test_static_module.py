"""`frontend.static_module`: module globals from source text, nothing executed."""
import pytest

import tilescope
from tilescope import lang
from tilescope.errors import TileStaticEvalError
from tilescope.frontend.source import SourceFunction
from tilescope.frontend.static_module import analyze_module, parse_tolerant
from tilescope.frontend.unknown import UnknownValue, is_unknown_error

SRC = '''import cuda.tile as ct
from cuda.tile import float16, PaddingMode as PM
import math, os
import numpy as np
from contextlib import contextmanager

ConstInt = ct.Constant[int]
BLOCK = 2 ** 6
SHAPE = (BLOCK, BLOCK // 2)
LOG = int(math.log2(BLOCK))
DT = ct.float32
HOME = os.environ["HOME"]
ARR = np.zeros(3)

class Config:
    x = 1

def helper(t, scale=2.0, *, dt=DT):
    return (t * scale).astype(dt)

@contextmanager
def nothing():
    yield

@ct.kernel
def k(x, N: ConstInt):
    t = ct.load(x, index=(0,), shape=(N,))
    ct.store(x, index=(0,), tile=helper(t))

@ct.kernel
def uses_unknown(x):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(x, index=(0,), tile=t + ARR)
'''


def test_globals_are_evaluated_statically():
    sm = analyze_module(SRC, "m.py")
    g = sm.globals
    assert g["ct"] is lang and g["float16"] is lang.float16 and g["PM"] is lang.PaddingMode
    assert g["BLOCK"] == 64 and g["SHAPE"] == (64, 32) and g["LOG"] == 6 and g["DT"] is lang.float32
    assert g["math"].__name__ == "math"
    for name in ("os", "np", "HOME", "ARR"):
        assert isinstance(g[name], UnknownValue), name
    assert g["Config"].x == 1      # a plain class, built from its source
    assert sm.kernels == ["k", "uses_unknown"]
    assert "ct" in sm.tile_aliases


def test_functions_become_source_functions():
    sm = analyze_module(SRC, "m.py")
    k, helper, nothing = sm.functions["k"], sm.functions["helper"], sm.functions["nothing"]
    assert isinstance(k, SourceFunction) and k.is_kernel and not helper.is_kernel
    assert nothing.is_contextmanager
    assert helper.defaults == {"scale": 2.0, "dt": lang.float32}
    from tilescope.annotations import is_constant_annotation
    assert is_constant_annotation(k.__annotations__["N"])


def test_compile_source_function_with_helper():
    sm = analyze_module(SRC, "m.py")
    c = tilescope.compile(sm.functions["k"], "f32[?], 64")
    assert c.stored_types() == ["Tile[float32,(64)]"]
    # the helper's default dtype came from a module-level name
    names = [name for _, name, _ in c.bindings]
    assert "dt" in names and "scale" in names


def test_unknown_value_is_a_located_info_error():
    sm = analyze_module(SRC, "m.py")
    with pytest.raises(TileStaticEvalError) as ei:
        tilescope.compile(sm.functions["uses_unknown"], "f32[?]")
    e = ei.value
    assert is_unknown_error(e) and "ARR" in e.message and "unknown" in e.message
    assert e.loc.line == SRC.splitlines().index("    ct.store(x, index=(0,), tile=t + ARR)") + 1


def test_syntax_error_elsewhere_keeps_the_rest():
    broken = SRC.replace("class Config:\n    x = 1\n", "class Config(:\n    x = 1\n")
    sm = analyze_module(broken, "m.py")
    assert sm.syntax_errors and sm.syntax_errors[0].loc.line == broken.splitlines().index("class Config(:") + 1
    assert "k" in sm.functions and sm.globals["BLOCK"] == 64


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_statements_after_broken_ones_keep_their_lines(newline):
    lines = []
    for i in range(2000):      # many statements: recovering stays linear in the text
        lines += [f"v{i} = ({i}" if i % 500 == 7 else f"v{i} = {i}", f"def f{i}(a,", "      b):", "    return a"]
    text = newline.join(lines) + newline
    tree, errors = parse_tolerant(text, "m.py")
    assert [e.loc.line for e in errors] == [4 * i + 1 for i in range(2000) if i % 500 == 7]
    names = {getattr(st, "name", None) or st.targets[0].id: st for st in tree.body}
    assert "v7" not in names and names["f7"].lineno == 4 * 7 + 2
    assert names["v1999"].lineno == 4 * 1999 + 1 and names["f1999"].body[0].lineno == 4 * 1999 + 4
    assert names["f1999"].args.args[1].lineno == 4 * 1999 + 3


@pytest.mark.parametrize("expr", ["2 ** 10 ** 9", "1 << 10 ** 9", "(1,) * 10 ** 9", "open('/etc/passwd')",
                                  "__import__('os')", "ct.__dict__", "(1).__class__", "eval('1')",
                                  "list(range(10 ** 12))"])
def test_evaluator_refuses_dangerous_or_huge(expr):
    sm = analyze_module(f"import cuda.tile as ct\nX = {expr}\n", "m.py")
    assert isinstance(sm.globals["X"], UnknownValue)


def test_garbage_never_raises():
    for text in ["\x00", "def (", "x = " + "(" * 300 + "1" + ")" * 300, "@ct.kernel\n", "if x:\n  import torch\n"]:
        analyze_module(text, "m.py")


FOREIGN = '''import cuda.tile as ct
import numpy as np
import torch
from cuda.tile._numeric_semantics import RoundingMode as RMd

DT = torch.float16

@ct.kernel
def k(x, y, N: ct.Constant[int]):
    i = ct.arange(N, dtype=torch.int32) + ct.arange(N, dtype=np.int32)
    m = ct.full((N,), -np.inf, dtype=np.float32)
    t = ct.truediv(ct.load(x, index=(0,), shape=(N,)), 3.0, rounding_mode=RMd.APPROX)
    ct.store(y, index=(0,), tile=ct.maximum(t, m).astype(DT) + i.astype(torch.half))

@ct.kernel
def uses_torch_function(x, N: ct.Constant[int]):
    ct.store(x, index=(0,), tile=ct.full((N,), torch.pi * torch.ones(1), dtype=x.dtype))
'''


def test_dtypes_and_constants_of_modules_not_imported_are_known():
    """Public kernels (upstream's samples among them) write `dtype=torch.int32`, `-np.inf` and import
    upstream's enum modules: all known from the source; any other use of torch or NumPy is unknown."""
    sm = analyze_module(FOREIGN, "m.py")
    assert sm.globals["DT"] is lang.float16 and sm.globals["RMd"] is lang.RoundingMode
    c = tilescope.compile(sm.functions["k"], "f32[?], f16[?], 64")
    assert c.stored_types() == ["Tile[float16,(64)]"]
    with pytest.raises(TileStaticEvalError) as ei:
        tilescope.compile(sm.functions["uses_torch_function"], "f32[?], 64")
    assert is_unknown_error(ei.value) and "torch.ones" in ei.value.message
    assert ei.value.loc.line == FOREIGN.splitlines().index(
        "    ct.store(x, index=(0,), tile=ct.full((N,), torch.pi * torch.ones(1), dtype=x.dtype))") + 1


def test_helpers_imported_from_the_users_own_files_are_read_from_their_source(tmp_path):
    """TileGym's geglu imports `gelu_forward_ct` from `.gelu`; other projects import helpers by absolute
    name (`from cutile.ops.utils import ...`). Both files are read, not imported (they import torch and
    print here), and import cycles end."""
    pkg = tmp_path / "proj" / "ops"
    pkg.mkdir(parents=True)
    (tmp_path / "proj" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "helpers.py").write_text(
        "import torch\nimport cuda.tile as ct\nfrom .kern import k\nprint('helpers ran')\nSCALE = 3.0\n"
        "GPU = torch.cuda.get_device_name()\n\n@ct.function\ndef scaled(t):\n    return t * SCALE\n")
    (pkg / "consts.py").write_text("TILE = 2 ** 6\n")
    kern = pkg / "kern.py"
    kern.write_text("import cuda.tile as ct\nfrom .helpers import scaled, GPU\nfrom proj.ops.consts import TILE\n"
                    "from .missing import nothing\n\n@ct.kernel\ndef k(x):\n"
                    "    ct.store(x, index=(0,), tile=scaled(ct.load(x, index=(0,), shape=(TILE,))))\n")
    sm = analyze_module(kern.read_text(), str(kern))
    assert sm.globals["TILE"] == 64 and isinstance(sm.functions.get("k"), SourceFunction)
    assert isinstance(sm.globals["GPU"], UnknownValue) and isinstance(sm.globals["nothing"], UnknownValue)
    c = tilescope.compile(sm.functions["k"], "f16[?]")
    assert c.stored_types() == ["Tile[float16,(64)]"]
