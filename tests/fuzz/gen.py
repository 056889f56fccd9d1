"""Random, well-formed cuTile kernels for differential fuzzing.

`generate(draw)` builds one kernel as source text plus everything needed to compile
and run it: the argument spec string, the grid and a function making real NumPy
inputs. Every random decision goes through a `Draw` so the same generator runs under
Hypothesis (`HypothesisDraw`, shrinkable) or a plain seeded `random.Random`
(`RandomDraw`, fast, for the long profile in bench/fuzz.py).

The generator keeps a small type model of every variable (dtype, shape, kind) so
that most kernels are valid; when the model is wrong the kernel is simply rejected,
which the properties accept as long as the rejection is a located TileError (and,
with upstream installed, the same verdict as upstream).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from tilescope import dtypes as D


# ---------------------------------------------------------------------------------------
# Sources of randomness.
# ---------------------------------------------------------------------------------------

class Draw:
    def int(self, lo: int, hi: int) -> int:          # inclusive
        raise NotImplementedError

    def choice(self, seq: Sequence[Any]) -> Any:
        return seq[self.int(0, len(seq) - 1)]

    def chance(self, p: float) -> bool:
        return self.int(0, 999) < int(p * 1000)

    def seed(self) -> int:
        return self.int(0, 2 ** 31 - 1)


class RandomDraw(Draw):
    def __init__(self, rng: random.Random):
        self.rng = rng

    def int(self, lo, hi):
        return self.rng.randint(lo, hi)


class HypothesisDraw(Draw):
    def __init__(self, data):
        from hypothesis import strategies as st
        self.data, self.st = data, st

    def int(self, lo, hi):
        return self.data.draw(self.st.integers(lo, hi))


# ---------------------------------------------------------------------------------------
# The catalogue.
# ---------------------------------------------------------------------------------------

# (short spec name, ct attribute, DType)
DTYPES = {
    "f32": ("float32", D.float32), "f16": ("float16", D.float16), "bf16": ("bfloat16", D.bfloat16),
    "f64": ("float64", D.float64), "i32": ("int32", D.int32), "i64": ("int64", D.int64),
    "i16": ("int16", D.int16), "i8": ("int8", D.int8), "u8": ("uint8", D.uint8),
    "u32": ("uint32", D.uint32), "b8": ("bool_", D.bool_),
}
COMMON = ["f32", "f32", "f16", "bf16", "f64", "i32", "i32", "i64", "i16", "i8", "u8", "u32", "b8"]
SHORT = {dt: short for short, (_, dt) in DTYPES.items()}

FLOAT_UNARY = ["ct.exp", "ct.log", "ct.sqrt", "ct.sin", "ct.cos", "ct.tanh", "ct.floor", "ct.ceil",
               "ct.rsqrt", "ct.exp2", "ct.log2", "ct.abs", "ct.negative", "ct.sinh", "ct.cosh", "ct.tan"]
ARITH = ["+", "-", "*", "//", "%"]
BITWISE = ["&", "|", "^"]
SHIFTS = ["<<", ">>"]
COMPARE = ["<", "<=", ">", ">=", "==", "!="]
REDUCE = ["ct.sum", "ct.max", "ct.min", "ct.prod", "ct.argmax", "ct.argmin"]
PADDING = ["ct.PaddingMode.ZERO", "ct.PaddingMode.NEG_ZERO", "ct.PaddingMode.NAN", "ct.PaddingMode.POS_INF",
           "ct.PaddingMode.NEG_INF"]


def ct_dtype(dt: D.DType) -> str:
    return "ct." + DTYPES[SHORT[dt]][0]


@dataclass
class Var:
    name: str
    dtype: Optional[D.DType]       # None for loose Python constants
    shape: Tuple[int, ...]
    kind: str = "tile"             # "tile" (incl. 0-d scalars) or "loose"
    value: Any = None              # the Python value of a loose constant

    @property
    def rank(self) -> int:
        return len(self.shape)


@dataclass
class Param:
    name: str
    spec: str                      # one entry of the spec string
    kind: str                      # "in", "out", "scalar", "const"
    dtype: Optional[D.DType] = None
    shape: Tuple[int, ...] = ()
    value: Any = None              # scalars and constants


@dataclass
class Kernel:
    source: str
    name: str
    params: List[Param]
    grid: Tuple[int, ...]
    data_seed: int
    features: set = field(default_factory=set)
    spec_override: Optional[str] = None     # a mutated spec string

    @property
    def spec(self) -> str:
        if self.spec_override is not None:
            return self.spec_override
        return ", ".join(p.spec for p in self.params)

    def make_args(self) -> List[Any]:
        """Real arguments: inputs with NaNs/infs/negative ints, outputs filled with a sentinel."""
        rng = np.random.default_rng(self.data_seed)
        out = []
        for p in self.params:
            if p.kind == "in":
                out.append(random_array(rng, p.dtype, p.shape))
            elif p.kind == "out":
                out.append(sentinel_array(p.dtype, p.shape))
            else:
                out.append(p.value)
        return out

    def reproducer(self) -> str:
        return (f"# spec: {self.spec}\n# grid: {self.grid}\n# data_seed: {self.data_seed}\n"
                f"{self.source}")


def random_array(rng, dt: D.DType, shape) -> np.ndarray:
    npdt = dt.numpy
    if dt is D.bool_:
        return rng.random(shape) < 0.5
    if dt.is_int:
        info = np.iinfo(npdt)
        wide = rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=np.int64
                            if info.max <= np.iinfo(np.int64).max else np.uint64)
        small = rng.integers(max(info.min, -9), 10, size=shape)
        return np.where(rng.random(shape) < 0.3, wide, small).astype(npdt)
    x = rng.normal(0, 4, size=shape)
    special = rng.random(shape)
    x = np.where(special < 0.04, np.nan, x)
    x = np.where((special >= 0.04) & (special < 0.07), np.inf, x)
    x = np.where((special >= 0.07) & (special < 0.10), -np.inf, x)
    x = np.where((special >= 0.10) & (special < 0.13), 0.0, x)
    x = np.where((special >= 0.13) & (special < 0.15), -0.0, x)
    return x.astype(npdt)


def sentinel_array(dt: D.DType, shape) -> np.ndarray:
    if dt is D.bool_:
        return np.ones(shape, dtype=bool)
    if dt.is_int:
        return np.full(shape, 7, dtype=dt.numpy)
    return np.full(shape, -3.25, dtype=dt.numpy)


# ---------------------------------------------------------------------------------------
# The generator.
# ---------------------------------------------------------------------------------------

def _pow2(draw: Draw, lo: int = 0, hi: int = 5) -> int:
    return 1 << draw.int(lo, hi)


def _broadcast(a: Tuple[int, ...], b: Tuple[int, ...]) -> Optional[Tuple[int, ...]]:
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        return None


def _result_dtype(a: Var, b: Var, force_float: bool = False) -> Optional[D.DType]:
    try:
        if a.kind == "loose" and b.kind == "loose":
            return None
        if a.kind == "loose":
            return D.adapt_literal(a.value, b.dtype, force_float=force_float)
        if b.kind == "loose":
            return D.adapt_literal(b.value, a.dtype, force_float=force_float)
        return D.promote(a.dtype, b.dtype, force_float=force_float)
    except (D.PromotionError, D.LiteralRangeError):
        return None


class Gen:
    def __init__(self, draw: Draw):
        self.d = draw
        self.lines: List[str] = []
        self.helpers: List[str] = []
        self.vars: List[Var] = []
        self.params: List[Param] = []
        self.features: set = set()
        self.counter = 0
        self.indent = 1

    # -- small helpers ------------------------------------------------------------------
    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    def tiles(self, pred: Callable[[Var], bool] = lambda v: True) -> List[Var]:
        return [v for v in self.vars if v.kind == "tile" and pred(v)]

    def loose(self, category: str) -> Var:
        d = self.d
        if category == "bool":
            val = d.choice([True, False])
        elif category == "int":
            val = d.choice([0, 1, 2, 3, 5, -1, -7, 100, 127, 255, 1000, -128, 2 ** 31 - 1, 2 ** 40])
        else:
            val = d.choice([0.5, 2.0, -1.5, 3.25, 1e-3, 1e30, -0.0, 65504.0, 1e300])
        return Var(repr(val), None, (), "loose", val)

    def category(self, dt: D.DType) -> str:
        return "bool" if dt is D.bool_ else ("float" if dt.is_float else "int")

    def add(self, name: str, dt: D.DType, shape) -> Var:
        v = Var(name, dt, tuple(shape))
        self.vars.append(v)
        return v

    # -- program --------------------------------------------------------------------------
    def program(self) -> Kernel:
        d = self.d
        grid_rank = d.choice([1, 1, 1, 2])
        grid = tuple(d.choice([1, 2, 3, 4, 5, 8]) for _ in range(grid_rank))
        nblocks = int(np.prod(grid))
        if grid_rank == 1:
            self.emit(d.choice(["pid = ct.bid(0)", "pid = ct.bid(0) + 0"]))
        else:
            self.emit("pid = ct.bid(0) * ct.num_blocks(1) + ct.bid(1)")
            self.features.add("grid2d")
        self.add("pid", D.int32, ())

        for i in range(d.int(1, 3)):
            self.load_input(i, nblocks)
        if d.chance(0.5):
            self.params.append(Param("n", "i32", "scalar", D.int32, value=d.int(-2, 6)))
            self.add("n", D.int32, ())
        if d.chance(0.4):
            self.params.append(Param("C", str(d.int(0, 5)), "const", value=None))
            self.params[-1].value = int(self.params[-1].spec)
            self.features.add("constant_param")

        for _ in range(d.int(1, 8)):
            self.statement(depth=0)

        stored = self.choose_outputs()
        for i, v in enumerate(stored):
            self.store_output(i, v, nblocks)

        sig = []
        for p in self.params:
            sig.append(f"{p.name}: ct.Constant[int]" if p.kind == "const" else p.name)
        header = ["import cuda.tile as ct", ""]
        for h in self.helpers:
            header += [h, ""]
        header += ["", "@ct.kernel", f"def fuzz_kernel({', '.join(sig)}):"]
        source = "\n".join(header + self.lines) + "\n"
        return Kernel(source, "fuzz_kernel", self.params, grid, d.seed(), self.features)

    def load_input(self, i: int, nblocks: int) -> None:
        d = self.d
        short = d.choice(COMMON)
        dt = DTYPES[short][1]
        rank = d.choice([1, 1, 2])
        tshape = (_pow2(d, 0, 5),) if rank == 1 else (_pow2(d, 0, 4), _pow2(d, 0, 4))
        ragged = d.chance(0.4)
        rows = nblocks * tshape[0] - (d.int(1, tshape[0] - 1) if ragged and tshape[0] > 1 else 0)
        ashape = (rows,) + tshape[1:]
        if rank == 2 and d.chance(0.2):
            ashape = (rows, max(1, tshape[1] - d.int(0, tshape[1] - 1)))
            ragged = True
        name = f"x{i}"
        self.params.append(Param(name, f"{short}[{','.join('?' * rank)}]", "in", dt, ashape))
        index = "(pid,)" if rank == 1 else "(pid, 0)"
        shape_txt = f"({tshape[0]},)" if rank == 1 else f"({tshape[0]}, {tshape[1]})"
        pad = ""
        if ragged or d.chance(0.2):
            pad = f", padding_mode={d.choice(PADDING)}" if d.chance(0.85) else ""
            self.features.add("ragged")
        if d.chance(0.2):
            self.emit(f"t{i} = ct.load({name}, {index}, {shape_txt}{pad})")
        else:
            self.emit(f"t{i} = ct.load({name}, index={index}, shape={shape_txt}{pad})")
        self.add(f"t{i}", dt, tshape)

    def choose_outputs(self) -> List[Var]:
        d = self.d
        cands = self.tiles(lambda v: v.name != "n")
        # prefer recently computed values
        out = [cands[-1]]
        for _ in range(d.int(0, 2)):
            out.append(d.choice(cands))
        seen, uniq = set(), []
        for v in out:
            if v.name not in seen:
                seen.add(v.name)
                uniq.append(v)
        return uniq

    def store_output(self, i: int, v: Var, nblocks: int) -> None:
        d = self.d
        name = f"out{i}"
        expr = v.name
        shape = v.shape
        if not shape:
            expr = d.choice([f"ct.reshape({v.name}, (1,))", f"{v.name}.reshape((1,))",
                             f"ct.full((1,), {v.name}, dtype={ct_dtype(v.dtype)})"])
            shape = (1,)
        ragged = d.chance(0.3) and shape[0] > 1
        rows = nblocks * shape[0] - (d.int(1, shape[0] - 1) if ragged else 0)
        ashape = (rows,) + shape[1:]
        rank = len(shape)
        self.params.append(Param(name, f"{SHORT[v.dtype]}[{','.join('?' * rank)}]", "out", v.dtype, ashape))
        index = "(pid" + ", 0" * (rank - 1) + ("," if rank == 1 else "") + ")"
        self.emit(f"ct.store({name}, index={index}, tile={expr})")

    # -- statements -----------------------------------------------------------------------
    def statement(self, depth: int) -> None:
        d = self.d
        kinds = ["binop", "binop", "unary", "reduce", "shape", "where", "astype", "compare", "create",
                 "tuple", "helper"]
        if depth < 2:
            kinds += ["if", "for", "while"]
        kind = d.choice(kinds)
        getattr(self, "st_" + kind)(depth)

    def pick(self, pred=lambda v: True) -> Optional[Var]:
        c = self.tiles(pred)
        return self.d.choice(c) if c else None

    def partner(self, a: Var, same_dtype: bool = True) -> Var:
        """A second operand for `a`: a broadcast-compatible tile, a 0-d tile or a loose constant."""
        d = self.d
        r = d.int(0, 9)
        if r < 3:
            return self.loose(self.category(a.dtype) if d.chance(0.8) else d.choice(["int", "float", "bool"]))
        cands = self.tiles(lambda v: _broadcast(v.shape, a.shape) is not None
                           and (not same_dtype or v.dtype is a.dtype))
        if cands and (r < 8 or not same_dtype):
            return d.choice(cands)
        any_c = self.tiles(lambda v: _broadcast(v.shape, a.shape) is not None)
        return d.choice(any_c) if any_c else a

    def st_binop(self, depth) -> None:
        d = self.d
        a = self.pick()
        b = self.partner(a, same_dtype=d.chance(0.85))
        if d.chance(0.5):
            a, b = b, a
        dta = a.dtype if a.kind == "tile" else None
        dtb = b.dtype if b.kind == "tile" else None
        ints = all(x is None or x.is_int or x is D.bool_ for x in (dta, dtb))
        ops = ARITH + ["/", "**", "max", "min"] + (BITWISE + SHIFTS if ints else [])
        op = d.choice(ops)
        shape = _broadcast(a.shape, b.shape) or a.shape
        dt = _result_dtype(a, b, force_float=(op == "/")) or (dta or dtb)
        name = self.fresh()
        if op in ("max", "min"):
            fn = "ct.maximum" if op == "max" else "ct.minimum"
            self.emit(f"{name} = {fn}({a.name}, {b.name})")
        elif d.chance(0.15) and op in ("+", "-", "*", "/", "//", "%", "&", "|", "^", "**"):
            fn = {"+": "ct.add", "-": "ct.sub", "*": "ct.mul", "/": "ct.truediv", "//": "ct.floordiv",
                  "%": "ct.mod", "&": "ct.bitwise_and", "|": "ct.bitwise_or", "^": "ct.bitwise_xor",
                  "**": "ct.pow"}[op]
            self.emit(f"{name} = {fn}({a.name}, {b.name})")
        elif d.chance(0.1) and a.kind == "tile" and a.shape == shape and dt is a.dtype and a.name not in ("pid", "n"):
            self.emit(f"{a.name} {op}= {b.name}")
            self.features.add("augassign")
            return
        else:
            self.emit(f"{name} = {a.name} {op} {b.name}")
        self.features.add("binop")
        if b.kind == "loose" or a.kind == "loose":
            self.features.add("loose_constant")
        self.add(name, dt, shape)

    def st_unary(self, depth) -> None:
        d = self.d
        a = self.pick()
        name = self.fresh()
        if a.dtype.is_float or d.chance(0.1):
            fn = d.choice(FLOAT_UNARY)
            self.emit(f"{name} = {fn}({a.name})")
        elif a.dtype is D.bool_:
            self.emit(f"{name} = ~{a.name}")
        else:
            self.emit(f"{name} = {d.choice(['-', '~', 'ct.abs'])}{'(' + a.name + ')'}")
        self.features.add("unary")
        self.add(name, a.dtype, a.shape)

    def st_reduce(self, depth) -> None:
        d = self.d
        a = self.pick(lambda v: v.rank >= 1) or self.pick()
        fn = d.choice(REDUCE)
        name = self.fresh()
        keep = d.chance(0.4)
        if a.rank == 0 or d.chance(0.2):
            axis_txt, shape = "", ((1,) * a.rank if keep else ())
            if d.chance(0.5):
                axis_txt = ", axis=None"
        else:
            axis = d.int(0, a.rank - 1)
            neg = d.chance(0.2)
            axis_txt = f", axis={axis - a.rank if neg else axis}"
            shape = tuple(1 if i == axis else s for i, s in enumerate(a.shape)) if keep else \
                a.shape[:axis] + a.shape[axis + 1:]
        kd = ", keepdims=True" if keep else (", keepdims=False" if d.chance(0.2) else "")
        self.emit(f"{name} = {fn}({a.name}{axis_txt}{kd})")
        dt = D.int32 if fn in ("ct.argmax", "ct.argmin") else a.dtype
        self.features.add("reduce")
        self.add(name, dt, shape)

    def st_shape(self, depth) -> None:
        d = self.d
        a = self.pick()
        name = self.fresh()
        n = int(np.prod(a.shape)) if a.shape else 1
        choice = d.int(0, 4)
        if choice == 0 or a.rank == 0:
            # reshape to a random factorisation
            if n > 1 and d.chance(0.6):
                k = d.int(0, n.bit_length() - 1)
                shape = (1 << k, n >> k)
            else:
                shape = (n,)
            txt = d.choice([f"ct.reshape({a.name}, {shape})", f"{a.name}.reshape({shape})"])
            self.features.add("reshape")
        elif choice == 1 and a.rank == 2:
            if d.chance(0.5):
                txt = f"ct.permute({a.name}, (1, 0))"
            else:
                txt = d.choice([f"ct.transpose({a.name})", f"{a.name}.transpose()"]) if d.chance(0.5) \
                    else f"ct.transpose({a.name}, 0, 1)"
            shape = (a.shape[1], a.shape[0])
            self.features.add("permute")
        elif choice == 2 and a.rank < 3:
            axis = d.int(0, a.rank)
            txt = f"ct.expand_dims({a.name}, {axis})"
            shape = a.shape[:axis] + (1,) + a.shape[axis:]
            self.features.add("expand_dims")
        elif choice == 3:
            target = tuple(s if s != 1 else _pow2(d, 0, 3) for s in a.shape)
            if a.rank < 2 and d.chance(0.5):
                target = (_pow2(d, 0, 3),) + target
            txt = f"ct.broadcast_to({a.name}, {target})"
            shape = target
            self.features.add("broadcast_to")
        else:
            txt = f"{a.name}[{', '.join([':'] * a.rank + ['None'])}]" if a.rank else f"ct.reshape({a.name}, (1,))"
            shape = a.shape + (1,) if a.rank else (1,)
            self.features.add("index_none")
        self.emit(f"{name} = {txt}")
        self.add(name, a.dtype, shape)

    def st_compare(self, depth) -> None:
        d = self.d
        a = self.pick()
        b = self.partner(a)
        name = self.fresh()
        op = d.choice(COMPARE)
        self.emit(f"{name} = {a.name} {op} {b.name}")
        self.features.add("compare")
        self.add(name, D.bool_, _broadcast(a.shape, b.shape) or a.shape)

    def st_where(self, depth) -> None:
        d = self.d
        a = self.pick()
        conds = self.tiles(lambda v: v.dtype is D.bool_ and _broadcast(v.shape, a.shape) is not None)
        if conds and d.chance(0.6):
            c = d.choice(conds).name
            cshape = next(v.shape for v in conds if v.name == c)
        else:
            c = f"({a.name} > {a.name})" if d.chance(0.2) else f"(pid % 2 == 0)"
            cshape = a.shape if "pid %" not in c else ()
        b = self.partner(a)
        name = self.fresh()
        self.emit(f"{name} = ct.where({c}, {a.name}, {b.name})")
        self.features.add("where")
        shape = _broadcast(_broadcast(a.shape, b.shape) or a.shape, cshape) or a.shape
        self.add(name, _result_dtype(a, b) or a.dtype, shape)

    def st_astype(self, depth) -> None:
        d = self.d
        a = self.pick()
        short = d.choice(COMMON)
        dt = DTYPES[short][1]
        name = self.fresh()
        self.emit(d.choice([f"{name} = ct.astype({a.name}, {ct_dtype(dt)})", f"{name} = {a.name}.astype({ct_dtype(dt)})"]))
        self.features.add("astype")
        self.add(name, dt, a.shape)

    def st_create(self, depth) -> None:
        d = self.d
        name = self.fresh()
        short = d.choice(COMMON)
        dt = DTYPES[short][1]
        shape = d.choice([(), (_pow2(d, 0, 5),), (_pow2(d, 0, 3), _pow2(d, 0, 3))])
        r = d.int(0, 4)
        if r == 0:
            self.emit(f"{name} = ct.zeros({shape}, dtype={ct_dtype(dt)})")
        elif r == 1:
            self.emit(f"{name} = ct.ones({shape}, dtype={ct_dtype(dt)})")
        elif r == 2 and dt.is_int:
            shape = (_pow2(d, 0, 5),)
            self.emit(f"{name} = ct.arange({shape[0]}, dtype={ct_dtype(dt)})")
        else:
            fill = self.loose(self.category(dt)).name if d.chance(0.6) else "pid"
            self.emit(f"{name} = ct.full({shape}, {fill}, dtype={ct_dtype(dt)})")
        self.features.add("creation")
        self.add(name, dt, shape)

    def st_tuple(self, depth) -> None:
        d = self.d
        a, b = self.pick(), self.pick()
        tp = self.fresh("tp")
        self.emit(f"{tp} = ({a.name}, {b.name})")
        if d.chance(0.5):
            n1, n2 = self.fresh(), self.fresh()
            self.emit(f"{n1}, {n2} = {tp}")
            self.add(n1, a.dtype, a.shape)
            self.add(n2, b.dtype, b.shape)
        else:
            n1 = self.fresh()
            i = d.int(0, 1)
            self.emit(f"{n1} = {tp}[{i if d.chance(0.7) else i - 2}]")
            src = (a, b)[i]
            self.add(n1, src.dtype, src.shape)
        self.features.add("tuple")

    def preserving(self, a: Var, counter: Optional[str] = None) -> str:
        """An expression with exactly a's dtype and shape."""
        d = self.d
        cat = self.category(a.dtype)
        same = self.tiles(lambda v: v.dtype is a.dtype and _broadcast(v.shape, a.shape) == a.shape)
        r = d.int(0, 5)
        if cat == "bool":
            other = d.choice(same).name if same else "True"
            return f"{a.name} {d.choice(['^', '|', '&'])} {other}"
        if r == 0 and same:
            return f"{a.name} {d.choice(['+', '*', '-'])} {d.choice(same).name}"
        if r == 1:
            return f"ct.maximum({a.name}, {d.choice(same).name if same else a.name})"
        if r == 2 and counter is not None:
            return f"{a.name} + {counter}" if cat == "float" else f"{a.name} + {counter}"
        c = "1.5" if cat == "float" else "3"
        return f"{a.name} {d.choice(['+', '*', '-'])} {c}"

    def condition(self) -> str:
        d = self.d
        names = {p.name for p in self.params}
        opts = ["pid % 2 == 0", "pid < 2", "pid >= 3", "True", "1 > 2"]
        if "n" in names:
            opts += ["n > 2", "n <= pid"]
        if "C" in names:
            opts += ["C > 2", "C == 0"]
        cond = d.choice(opts)
        self.features.add("if_" + ("block" if "pid" in cond else "const" if cond in ("True", "1 > 2") or
                                   cond.startswith("C") else "runtime"))
        return cond

    def st_if(self, depth) -> None:
        d = self.d
        a = self.pick()
        name = self.fresh()
        cond = self.condition()
        before_if = len(self.lines)
        self.emit(f"if {cond}:")
        self.indent += 1
        self.emit(f"{name} = {self.preserving(a)}")
        if d.chance(0.3):
            self.emit("pass")
        self.indent -= 1
        if d.chance(0.8):
            self.emit("else:")
            self.indent += 1
            self.emit(f"{name} = {self.preserving(a)}")
            self.indent -= 1
        else:
            # the variable must exist on both paths: define it before the if
            self.lines.insert(before_if, "    " * self.indent + f"{name} = {a.name}")
        self.add(name, a.dtype, a.shape)

    def trip(self) -> str:
        d = self.d
        names = {p.name for p in self.params}
        opts = ["range(3)", "range(pid % 3 + 1)", "range(1, 4)", "range(0, 6, 2)", "range(pid)"]
        if "n" in names:
            opts += ["range(n)", "range(1, n, 2)"]
        if "C" in names:
            opts += ["range(C)"]
        t = d.choice(opts)
        self.features.add("for_" + ("block" if "pid" in t else "runtime" if "n" in t else "const"))
        return t

    def st_for(self, depth) -> None:
        d = self.d
        a = self.pick()
        acc = self.fresh("acc")
        it = self.fresh("i")
        self.emit(f"{acc} = {a.name}")
        self.emit(f"for {it} in {self.trip()}:")
        self.indent += 1
        accv = Var(acc, a.dtype, a.shape)
        self.emit(f"{acc} = {self.preserving(accv, counter=it if d.chance(0.3) else None)}")
        if d.chance(0.2):
            self.emit(f"if {it} == 1:")
            self.emit(f"    {d.choice(['break', 'continue'])}")
            self.features.add("break_continue")
        self.indent -= 1
        self.add(acc, a.dtype, a.shape)

    def st_while(self, depth) -> None:
        d = self.d
        a = self.pick()
        acc, j = self.fresh("acc"), self.fresh("j")
        self.emit(f"{acc} = {a.name}")
        self.emit(f"{j} = 0")
        self.emit(f"while {j} < {d.choice(['4', 'pid + 1', '3'])}:")
        self.indent += 1
        self.emit(f"{acc} = {self.preserving(Var(acc, a.dtype, a.shape))}")
        self.emit(f"{j} = {j} + 1")
        if d.chance(0.7):
            self.emit(f"if {j} > {d.choice(['pid', '1', '2'])}:")
            self.emit("    break")
            self.features.add("while_break")
        self.indent -= 1
        self.features.add("while")
        self.add(acc, a.dtype, a.shape)

    def st_helper(self, depth) -> None:
        d = self.d
        hname = f"helper{len(self.helpers)}"
        deco = "@ct.function\n" if d.chance(0.3) else ""
        a = self.pick()
        cat = self.category(a.dtype)
        name = self.fresh()
        style = d.int(0, 2)
        if cat == "bool":
            style = 2
        k = "2.0" if cat == "float" else "2"
        if style == 0:
            self.helpers.append(f"{deco}def {hname}(a, scale={k}):\n    return a * scale + a")
            call = f"{hname}({a.name})" if d.chance(0.5) else f"{hname}({a.name}, scale={k})"
            self.emit(f"{name} = {call}")
            self.add(name, a.dtype, a.shape)
        elif style == 1:
            self.helpers.append(f"{deco}def {hname}(a, b):\n    return a + b, a - b")
            n2 = self.fresh()
            self.emit(f"{name}, {n2} = {hname}({a.name}, {a.name})")
            self.add(name, a.dtype, a.shape)
            self.add(n2, a.dtype, a.shape)
        else:
            self.helpers.append(f"{deco}def {hname}(a, b):\n    c = a\n    if b:\n        c = a\n    return c")
            self.emit(f"{name} = {hname}({a.name}, True)")
            self.add(name, a.dtype, a.shape)
        self.features.add("helper")


def generate(draw: Draw) -> Kernel:
    return Gen(draw).program()
