"""Typing rules of print/printf/assert_ (tilescope/ops/debug.py)."""
import pytest

import tilescope
import tilescope.lang as ct
from tilescope.errors import TileSyntaxError, TileTypeError


def print_ops(compiled):
    return [op for op in compiled.final.walk() if op.name == "print"]


@ct.kernel
def print_fstring(x, n, N: ct.Constant[int]):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.print(f"bid={ct.bid(0)} n={n:5d} N={N} t={t:.3f}%", "done", 7, sep="|")


def test_print_builds_a_c_format_with_one_conversion_per_operand():
    c = tilescope.compile(print_fstring, "f32[16], i64, 4")
    [op] = print_ops(c)
    # numeric fields stay run-time operands even when constant (N), as in cuTile
    assert op.attrs["format"] == "bid=%d n=%5d N=%d t=%.3f%%|done|7\n"
    assert op.attrs["pieces"] == ("bid=", (0, "%d"), " n=", (1, "%5d"), " N=", (2, "%d"), " t=",
                                  (3, "%.3f"), "%|done|7\n")
    assert c.stored_types() == ["Tile[int32,()]", "Tile[int64,()]", "Tile[int32,()]", "Tile[float32,(16)]"]


@ct.kernel
def print_default_formats(x, y):
    a = ct.load(x, index=(0,), shape=(4,))
    b = ct.load(y, index=(0,), shape=(4,))
    print(a, b, a > 0, (1, a), end="")


def test_builtin_print_and_default_conversions():
    c = tilescope.compile(print_default_formats, "u64[4], f64[4]")
    [op] = print_ops(c)
    assert op.attrs["format"] == "%llu %lf %d (1, %llu)"
    assert op.attrs["origin"] == "print"


@ct.kernel
def print_spec_flags(x):
    t = ct.load(x, index=(0,), shape=(4,))
    print(f"{t:>+#08.3e}|{t:<5}|{ct.bid(0):x}")


def test_python_spec_translation():
    [op] = print_ops(tilescope.compile(print_spec_flags, "f32[4]"))
    assert op.attrs["format"] == "%+#08.3e|%-5f|%x\n"


@ct.kernel
def print_bad_spec(x):
    t = ct.load(x, index=(0,), shape=(4,))
    print(f"{t:d}")


@ct.kernel
def print_conversion(x):
    t = ct.load(x, index=(0,), shape=(4,))
    print(f"{t!r}")


@ct.kernel
def print_tile_sep(x):
    t = ct.load(x, index=(0,), shape=(4,))
    print(t, t, sep=t)


def test_print_errors():
    with pytest.raises(TileTypeError, match="format spec 'd' is incompatible with dtype float32"):
        tilescope.compile(print_bad_spec, "f32[4]")
    with pytest.raises(TileSyntaxError, match="conversions are not supported"):
        tilescope.compile(print_conversion, "f32[4]")
    with pytest.raises(TileTypeError, match="\"sep\" of print\\(\\): Expected a string"):
        tilescope.compile(print_tile_sep, "f32[4]")


@ct.kernel
def printfs(x):
    t = ct.load(x, index=(0,), shape=(8,))
    ct.printf("%% bid=%lld t=%5.2f\n", ct.bid(0), t.astype(ct.float32))
    ct.printf("%x\n", 3)


def test_printf():
    c = tilescope.compile(printfs, "i32[8]")
    a, b = print_ops(c)
    assert a.attrs["format"] == "%% bid=%lld t=%5.2f\n"
    assert a.attrs["pieces"] == ("% bid=", (0, "%lld"), " t=", (1, "%5.2f"), "\n")
    assert a.attrs["origin"] == "printf"
    assert c.stored_types() == ["Tile[int32,()]", "Tile[float32,(8)]", "Tile[int32,()]"]


@pytest.mark.parametrize("fmt,args,msg", [
    ("%s\n", "t", "Specifier s in %s is not supported"),
    ("%f %f\n", "t", "Not enough arguments for format string"),
    ("%f\n", "t, t", "Too many arguments for format string"),
    ("%d\n", "t", "Format %d for arg #0 got unexpected type of Tile\\[float32,\\(16\\)\\]"),
    ("%q\n", "t", "Invalid format string"),
])
def test_printf_errors(tmp_path, fmt, args, msg):
    from tilescope.lang.shim import load_file
    src = tmp_path / "k.py"
    src.write_text("import cuda.tile as ct\n\n@ct.kernel\ndef k(x):\n"
                   "    t = ct.load(x, index=(0,), shape=(16,))\n"
                   f"    ct.printf({fmt!r}, {args})\n")
    with pytest.raises(TileTypeError, match=msg):
        tilescope.compile(load_file(str(src)).k, "f32[16]")


@ct.kernel
def asserts(x):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.assert_(t >= 0.0, "negative input")
    ct.assert_(ct.bid(0) < 1000)


@ct.kernel
def assert_float(x):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.assert_(t)


@ct.kernel
def assert_fstring_message(x, N: ct.Constant[int]):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.assert_(t > 0, f"N={N}")


def test_assert():
    c = tilescope.compile(asserts, "f32[16]")
    ops = [op for op in c.final.walk() if op.name == "assert"]
    assert [op.attrs["message"] for op in ops] == ["negative input", ""]
    assert c.stored_types() == []
    with pytest.raises(TileTypeError, match="Type of condition must be bool, got Tile\\[float32,\\(16\\)\\]"):
        tilescope.compile(assert_float, "f32[16]")
    with pytest.raises(TileTypeError, match="Expected a string constant"):
        tilescope.compile(assert_fstring_message, "f32[16], 4")
