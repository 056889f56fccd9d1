"""A compile-time number's constant is made where upstream's front end binds the number: a
`ct.Constant` parameter once, at the kernel's `def` among the arrays' views; a literal where it is
evaluated (before a loop, in a dataclass default at the construction, as a helper's argument at
the call); a use in another type converts it where it is used; a use the binding does not
dominate keeps its own constant. The typed IR is unchanged (a constant op per use)."""
import re
import subprocess
from pathlib import Path

import pytest

import tilescope
from tilescope.backends.tileir import find_toolchain, write_bytecode
from tilescope.lang.shim import load_file, upstream_available
from tilescope.passes.bound import BoundFloat, BoundInt, bind, plain, site_of
from tilescope.ir.core import Site

KERNELS = Path(__file__).with_name("kernels_bound.py")
MOD = load_file(str(KERNELS))
SPEC = {"constant_param_twice": "f32[64], 2.5, f32[64]", "counter_before_loop": "f32[1024], f32[64], i32",
        "dataclass_default": "i32[2]", "helper_argument": "f32[64], f32[64]",
        "converted_where_used": "f16[64]", "bound_in_a_branch": "i32[2], i32[1]", "with_helper": "i32[4]",
        "literal_into_i64_tile": "i64[64,64]"}
TOOLCHAIN = find_toolchain(required=False)
SOURCE = KERNELS.read_text().splitlines()


def _line(text: str) -> int:
    """The line of kernels_bound.py that contains `text`."""
    return next(i for i, s in enumerate(SOURCE, 1) if text in s)


def _compiled(name):
    return tilescope.compile(getattr(MOD, name), SPEC[name], tileiras_version="13.4")


def _constants(name):
    """(value, line) of every constant in the kernel's TileIR, in order (nested blocks included)."""
    out = []

    def walk(block):
        for op in block.ops:
            if op.name == "constant":
                out.append((op.results[0].type, op.loc.line if op.loc is not None else None))
            for r in op.regions:
                walk(r)
    walk(_compiled(name).tileir_module().funcs[0].body)
    return out


def _body_ops(name):
    """The kernel body's ops as 'name' or 'constant@line'."""
    out = []

    def walk(block):
        for op in block.ops:
            out.append(f"constant@{op.loc.line}" if op.name == "constant" and op.loc is not None else op.name)
            for r in op.regions:
                walk(r)
    walk(_compiled(name).tileir_module().funcs[0].body)
    return out


def test_a_constant_parameter_is_one_constant_at_the_def_after_the_views_before_it():
    ops = _body_ops("constant_param_twice")
    defline = _line("def constant_param_twice")
    assert ops.count(f"constant@{defline}") == 1
    first_view, alpha = ops.index("make_tensor_view"), ops.index(f"constant@{defline}")
    second_view = ops.index("make_tensor_view", first_view + 1)
    assert first_view < alpha < second_view        # x's view, ALPHA, y's view: parameter order


def test_a_counter_is_made_where_assigned_before_the_loop():
    ops = _body_ops("counter_before_loop")
    assert ops.index(f"constant@{_line('cnt = 0')}") < ops.index(f"constant@{_line('for i in range(1, n, 2)')}") \
        < ops.index("for")


def test_a_dataclass_default_is_made_at_the_construction():
    lines = [line for _, line in _constants("dataclass_default")]
    assert lines[:2] == [_line("p = Pair(2)")] * 2      # 2 and the default 5, before the scatters' ops


def test_a_helper_argument_is_one_constant_at_the_call():
    consts = [c for c in _constants("helper_argument") if c[0].elem.name == "f32"]
    assert consts == [(consts[0][0], _line("_scaled(t, 1.5)"))]


def test_a_number_used_in_another_type_is_converted_where_used():
    consts = [c for c in _constants("converted_where_used") if c[0].elem.name == "f16"]
    assert [line for _, line in consts] == [_line("tile=t * k")]


def test_a_use_the_binding_does_not_dominate_keeps_its_own_constant():
    consts = [line for t, line in _constants("bound_in_a_branch") if t.elem.name == "i32" and t.shape == ()]
    assert _line(".item() + k") in consts
    assert _line("k = 7") not in consts


def test_an_integer_literal_converted_for_an_integer_tile_is_one_splat_constant():
    # upstream converts the literal, then its dataflow knows the broadcast: an i64 splat at the top
    consts = [t for t, _ in _constants("literal_into_i64_tile") if t.shape]
    assert [(t.shape, t.elem.name) for t in consts] == [((16, 16), "i64")]
    assert "exti" not in _body_ops("literal_into_i64_tile")


def test_the_typed_ir_keeps_a_constant_per_use():
    text = _compiled("helper_argument").final_text()
    assert len(re.findall(r"const 1\.5", text)) == 2


def test_bound_numbers_behave_as_numbers_and_leave_plain():
    site = Site(None, None, 0)
    x, y = bind(3, site), bind(2.5, site)
    assert isinstance(x, BoundInt) and isinstance(y, BoundFloat) and site_of(x) is site
    assert type(x + 1) is int and type(y * 2) is float and x == 3 and y == 2.5
    assert type(x).__name__ == "int" and repr(x) == "3" and repr(y) == "2.5"
    assert type(plain((x, (y, "s")))[1][0]) is float and bind(True, site) is True


@pytest.mark.skipif(TOOLCHAIN is None or not upstream_available(), reason="needs tileiras and cuda-tile")
def test_same_constants_on_the_same_lines_as_upstream(tmp_path):
    from tests.oracle.upstream_export import export_spec

    def disassembled(data: bytes) -> str:
        path = tmp_path / "k.tilebc"
        path.write_bytes(data)
        return subprocess.run([TOOLCHAIN.tileirdisasm, "-g", str(path)], capture_output=True, text=True).stdout

    def scopes(data: bytes):
        return re.findall(r'linkageName = "([^"]*)"', disassembled(data))

    def constants(data: bytes):
        body, _, tail = disassembled(data).partition("#di_file")
        lines = dict(re.findall(r'^#(loc\d*) = loc\("[^"]*":(\d+):\d+\)', tail, re.M))
        for a, b in re.findall(r'^#(loc\d*) = #cuda_tile.di_loc<#(loc\d*) in', tail, re.M):
            lines[a] = lines.get(b)
        ops = []
        for line in body.splitlines():
            m = re.search(r"= (\w+) .*loc\(#(loc\d*)\)", line)
            if m:
                ops.append(f"{m.group(1)}@{lines.get(m.group(2))}" if m.group(1) == "constant" else m.group(1))
        return ops

    # (upstream yields bound_in_a_branch's two 7s out of an `if`: a difference in code, not in where
    # constants are made)
    spec = {k: v for k, v in SPEC.items() if k != "bound_in_a_branch"}
    theirs = export_spec("bound", KERNELS, spec, "13.4", str(tmp_path))
    assert len(theirs) == len(spec)
    for kernel, path in theirs.items():
        ours = write_bytecode(_compiled(kernel).tileir_module(), "13.4")
        assert constants(ours) == constants(Path(path).read_bytes()), kernel
        # the inlined helpers' numbers too (a `with` helper's: contextlib's wrapper takes one first)
        assert scopes(ours) == scopes(Path(path).read_bytes()), kernel
