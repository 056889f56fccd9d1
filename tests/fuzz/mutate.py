"""Breaking valid kernels, and throwing garbage at the public entry points.

`mutate(kernel, draw)` returns a copy of a generated kernel with one random defect
(or a few): wrong ranks, bad dtypes, unsupported syntax, non-power-of-two shapes, bad
keyword names, undefined names, out-of-range literals, wrong arity, tiles where
constants are needed, deleted/duplicated/swapped lines, or a wrong argument spec.

`garbage_*` produce bad inputs for `tilescope.parse_args`, `MetaTensor(...)`,
`tilescope.compile` and `ct.launch`.
"""
from __future__ import annotations

import copy
import re
from typing import Any, List, Tuple

import numpy as np

from .gen import Draw, Kernel

UNSUPPORTED_SYNTAX = [
    "lst = [1, 2, 3]", "w = (w2 := pid)", "try:\n    pass\nexcept Exception:\n    pass", "del pid",
    "global gx", "dd = {1: 2}", "ss = {1, 2}", "lam = lambda q: q\nlz = lam(pid)", "import os",
    "with open('f') as fh:\n    pass", "class K:\n    pass", "fs = f'{pid}'", "print('hello', pid)",
    "assert pid >= 0", "a1, *rest = (pid, pid, pid)", "yield pid", "raise ValueError('x')",
    "lc = [q for q in range(3)]", "sl = pid[1:2]", "x0 = None", "pid.foo = 3", "zz = pid @ pid",
    "bb = pid if pid else pid", "nonlocal pid", "async def af():\n    pass", "st = 'abc' + pid",
    "gg = ct.bid(3)", "gn = ct.num_blocks(-1)", "for q in pid:\n    pass", "while pid:\n    pass",
    "ee = ct.load(x0, index=(pid,), shape=(4,), order='F')", "ct.store(x0, index=(pid,), tile=3)",
    "rr = range(3)", "tt = (pid, pid)\ntt[0] = pid", "pp = ct.sum", "qq = pp(pid)",
]
BAD_DTYPES = ["ct.float8_e4m3fn", "ct.float8_e5m2", "ct.tfloat32", "ct.float4_e2m1fn", "ct.int4", "int",
              "float", "ct.uint64", "ct.float8_e8m0fnu", "3", "None", "'float32'", "ct.bool_"]
BAD_SHAPE_NUMBERS = ["0", "3", "12", "-4", "1.5", "2**40", "True", "None", "pid", "n", "(4,)", "t0"]
KEYWORD_RENAMES = [("shape=", "shap="), ("index=", "idx="), ("tile=", "value="), ("axis=", "axes="),
                   ("dtype=", "dt="), ("keepdims=", "keep_dims="), ("padding_mode=", "padding="),
                   ("scale=", "scal=")]
LITERAL_SWAPS = ["2**70", "-2**63 - 1", "1e400", "-1e400", "18446744073709551616", "0x7fffffff",
                 "255", "256", "-129", "True", "1j", "'s'", "b'x'", "...", "None", "2**31"]
ARITY = [(r"ct\.sum\(([^()]*)\)", r"ct.sum(\1, 0, True, 1)"), (r"ct\.exp\(([^()]*)\)", r"ct.exp(\1, \1)"),
         (r"ct\.load\(([a-z0-9]+),[^\n]*\)$", r"ct.load(\1)"), (r"ct\.where\(([^\n]*)\)", r"ct.where(pid)"),
         (r"ct\.bid\(0\)", "ct.bid()"), (r"ct\.maximum\(", "ct.maximum(pid, "), (r"ct\.reshape\(", "ct.reshape(pid, "),
         (r"ct\.astype\(([^,()]*), ", r"ct.astype(\1, \1, "), (r"helper0\(", "helper0(pid, pid, pid, ")]
CONST_NEEDED = [(r"shape=\((\d+),", r"shape=(pid,"), (r"axis=(-?\d)", r"axis=pid"), (r"dtype=ct\.\w+", "dtype=pid"),
                (r"keepdims=True", "keepdims=(pid > 0)"), (r"ct\.bid\(0\)", "ct.bid(pid)"),
                (r"ct\.arange\((\d+)", r"ct.arange(pid"), (r"\(1, 0\)\)", "(pid, 0))"),
                (r"ct\.full\(\(\)", "ct.full((pid,)"), (r"padding_mode=ct\.PaddingMode\.\w+", "padding_mode=pid")]
SPEC_SWAPS = [("f32[?]", "f32[?,?]"), ("[?]", "[]"), ("f32", "f8e4m3fn"), ("i32[?]", "i32"), ("i32", "f32"),
              ("f16", "bf16"), ("[?,?]", "[?]"), ("b8", "i8"), ("i32", "'abc'"), ("i32", "None"),
              ("[?]", "[?,?,?]"), ("f64", "u64")]


def _body_range(lines: List[str]) -> Tuple[int, int]:
    start = next(i for i, l in enumerate(lines) if l.startswith("def fuzz_kernel")) + 1
    return start, len(lines)


def _replace_one(draw: Draw, text: str, pattern: str, repl: str, regex: bool = True) -> str:
    matches = list(re.finditer(pattern if regex else re.escape(pattern), text, flags=re.M))
    if not matches:
        return text
    m = draw.choice(matches)
    new = m.expand(repl) if regex else repl
    return text[:m.start()] + new + text[m.end():]


def mutate(kernel: Kernel, draw: Draw) -> Tuple[Kernel, str]:
    """A broken copy of `kernel` and the name of the mutation applied."""
    k = copy.copy(kernel)
    k.params = [copy.copy(p) for p in kernel.params]
    k.spec_override = None
    lines = kernel.source.splitlines()
    lo, hi = _body_range(lines)
    body_line = lambda: draw.int(lo + 1, hi - 1)  # noqa: E731  (after `pid = ...`)
    kind = draw.choice(["syntax", "dtype", "shape_number", "keyword", "undefined", "literal", "arity",
                        "const_needed", "delete", "duplicate", "swap", "rank", "spec", "attr", "indent"])
    src = kernel.source
    if kind == "syntax":
        at = body_line()
        stmt = draw.choice(UNSUPPORTED_SYNTAX)
        lines[at:at] = ["    " + s for s in stmt.splitlines()]
        src = "\n".join(lines) + "\n"
    elif kind == "dtype":
        src = _replace_one(draw, src, r"ct\.(float|int|uint|bfloat)\d+|ct\.bool_", draw.choice(BAD_DTYPES))
    elif kind == "shape_number":
        src = _replace_one(draw, src, r"(?<=shape=\()\d+|(?<=, )\d+(?=\)\))|(?<=\(\()\d+", draw.choice(BAD_SHAPE_NUMBERS))
    elif kind == "keyword":
        old, new = draw.choice(KEYWORD_RENAMES)
        src = _replace_one(draw, src, old, new, regex=False)
    elif kind == "undefined":
        src = _replace_one(draw, src, r"\b(t\d|v\d+|acc\d+)\b(?!\s*=)", draw.choice(["undefined_name", "ct.nonexistent",
                                                                               "ct.sum.shape", "math.pi"]))
    elif kind == "literal":
        src = _replace_one(draw, src, r"(?<![\w.])(\d+\.\d+|\d+)(?![\w.])", draw.choice(LITERAL_SWAPS))
    elif kind == "arity":
        pattern, repl = draw.choice(ARITY)
        src = _replace_one(draw, src, pattern, repl)
    elif kind == "const_needed":
        pattern, repl = draw.choice(CONST_NEEDED)
        src = _replace_one(draw, src, pattern, repl)
    elif kind == "delete":
        del lines[body_line()]
        src = "\n".join(lines) + "\n"
    elif kind == "duplicate":
        at = body_line()
        lines.insert(at, lines[at])
        src = "\n".join(lines) + "\n"
    elif kind == "swap":
        a, b = body_line(), body_line()
        lines[a], lines[b] = lines[b], lines[a]
        src = "\n".join(lines) + "\n"
    elif kind == "rank":
        src = _replace_one(draw, src, draw.choice([r"index=\(pid,\)", r"index=\(pid, 0\)", r"shape=\((\d+),\)"]),
                           draw.choice(["index=(pid, 0)", "index=(pid,)", "index=()", "shape=(4, 4)", "shape=()",
                                        "index=(pid, 0, 0)"]))
    elif kind == "spec":
        old, new = draw.choice(SPEC_SWAPS)
        spec = kernel.spec
        if draw.chance(0.2):
            spec = spec + ", i32" if draw.chance(0.5) else spec.rsplit(",", 1)[0]
        else:
            spec = _replace_one(draw, spec, old, new, regex=False)
        k.spec_override = spec
    elif kind == "attr":
        src = _replace_one(draw, src, r"\b(t\d|v\d+)\b(?=\)|\s*$)", draw.choice([r"\1.nothing", r"\1()", r"\1[0]",
                                                                            r"\1.shape[7]", r"\1.dtype.foo",
                                                                            r"\1.shape", r"\1.ndim", r"\1[None, None]"]))
    elif kind == "indent":
        at = body_line()
        lines[at] = "    " + lines[at]
        src = "\n".join(lines) + "\n"
    k.source = src
    return k, kind


# ---------------------------------------------------------------------------------------
# Garbage for the public entry points.
# ---------------------------------------------------------------------------------------

SPEC_PIECES = ["f32", "f16", "bf16", "i32", "i64", "u8", "b8", "tf32", "f8e4m3fn", "i33", "float", "list", "xyz",
               "[", "]", "(", ")", ",", "?", "!", "%", "@i64", "@i16", ":", "0", "1", "16", "-1", "2.5", "1e999",
               "'a'", '"', "None", " ", "[?]", "[?,?]", "[4!]", "[?%16]", ":[?,1!]", "list[", "((", "))",
               "True", "{", "}", "\n", "\\", "#", "lambda", "__import__('os')", "1_000", "0x10", "[]"]


def garbage_spec(draw: Draw) -> str:
    return "".join(draw.choice(SPEC_PIECES) for _ in range(draw.int(0, 8)))


_OBJ = object()
GARBAGE_VALUES = [None, 5, -1, 0, 2.5, "f32", "bogus", b"x", (), (1, -1), (2.5,), (None,), [3, True], (True,),
                  np.float32, np.dtype("complex64"), np.dtype("float32"), np.int64(3), object, _OBJ, {1: 2}, {3},
                  (1 << 70,), (3, "a"), float("nan"), [None, None], ("?",), np.array([1, 2])]
META_KWARGS = ["index_dtype", "static_shape", "static_strides", "shape_divisible_by", "stride_divisible_by",
               "base_addr_divisible_by", "stride_lower_bound", "alias_groups", "may_alias_internally",
               "not_a_keyword"]


def garbage_meta_call(draw: Draw):
    """(args, kwargs) for MetaTensor(...)."""
    nargs = draw.int(0, 3)
    args = [draw.choice(GARBAGE_VALUES) for _ in range(nargs)]
    if nargs >= 2 and draw.chance(0.5):
        args[1] = draw.choice(["f32", "i32", "bf16", np.float32])
    if nargs >= 1 and draw.chance(0.5):
        args[0] = draw.choice([(4,), (None, 8), (3, 5), ()])
    kwargs = {draw.choice(META_KWARGS): draw.choice(GARBAGE_VALUES) for _ in range(draw.int(0, 2))}
    return args, kwargs


def garbage_compile_args(draw: Draw, kernel: Kernel) -> Any:
    r = draw.int(0, 6)
    if r == 0:
        return garbage_spec(draw)
    if r == 1:
        return draw.choice(GARBAGE_VALUES)
    if r == 2:
        return [draw.choice(GARBAGE_VALUES) for _ in range(len(kernel.params))]
    if r == 3:
        return [p.spec for p in kernel.params][:-1]
    if r == 4:
        return [p.spec for p in kernel.params] + ["i32"]
    if r == 5:
        specs = [p.spec for p in kernel.params]
        specs[draw.int(0, len(specs) - 1)] = draw.choice(["f32[?,?,?]", "i32", "f8e5m2[?]", "7", "(i32, i32)",
                                                          "list[f32[?]]", "'x'", "u64[?]"])
        return specs
    return kernel.spec + draw.choice([",", ", ,", " f32", "]", ", i32[?"])


GRIDS = [0, -1, (0,), (1, 0), (1, 2, 3, 4), 1.5, "3", None, (2.0,), (True,), (), [2], (np.int64(2),), 2 ** 40,
         (1, -3), object()]


def garbage_launch(draw: Draw, kernel: Kernel) -> Tuple[Any, List[Any], str]:
    """(grid, args, what) for a launch that should be rejected (or, for a few, may run)."""
    args = kernel.make_args()
    grid: Any = kernel.grid
    r = draw.int(0, 8)
    arrays = [i for i, a in enumerate(args) if isinstance(a, np.ndarray)]
    i = draw.choice(arrays)
    if r == 0:
        grid = draw.choice(GRIDS)
        what = f"grid {grid!r}"
    elif r == 1:
        target = draw.choice([np.complex64, np.float16, np.int8, np.uint64, object, np.bool_, "U3",
                              "datetime64[s]"])
        with np.errstate(all="ignore"):
            try:
                args[i] = args[i].astype(target)
            except (TypeError, ValueError):      # e.g. bfloat16 -> str: NumPy cannot cast
                args[i] = args[i].astype(np.float32).astype(target)
        what = f"dtype of argument {i}"
    elif r == 2:
        args[i] = args[i].reshape(args[i].shape + (1,)) if draw.chance(0.5) else np.asarray(args[i].ravel()[0])
        what = f"rank of argument {i}"
    elif r == 3:
        del args[draw.int(0, len(args) - 1)]
        what = "argument count"
    elif r == 4:
        args.append(draw.choice([np.zeros(3), 1, None]))
        what = "argument count"
    elif r == 5:
        a = args[i]
        args[i] = np.lib.stride_tricks.as_strided(a, shape=a.shape, strides=(0,) * a.ndim)
        what = f"overlapping (zero-stride) argument {i}"
    elif r == 6:
        a = args[i]
        big = np.repeat(a, 2, axis=0)
        args[i] = big[::2]
        what = f"non-contiguous argument {i}"
    elif r == 7:
        args[i] = draw.choice([None, "abc", [1, 2], {"a": 1}, 3.5, (np.zeros(2), 1), object()])
        what = f"argument {i} not an array"
    else:
        a = args[i]
        a.setflags(write=False)
        what = f"read-only argument {i}"
    return grid, args, what
