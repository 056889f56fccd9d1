"""Render a kernel's final typed IR as a readable, standalone NumPy module.

The generated module is the prelude (`prelude.py`, copied verbatim: NumPy + ml_dtypes only)
followed by one function per kernel and a `launch(grid, *args)` wrapper. The kernel function
has the executor's whole-grid semantics (leading block axis, masks for divergent control
flow) but reads as straight-line Python: one statement per op, named after the user's
variables, with the source line as a comment. Each op either becomes a plain NumPy
expression (where that is exactly the executor's rule) or calls the prelude function of the
same name as the IR op, with its attributes as Python literals.
"""
from __future__ import annotations

import builtins
import enum
import keyword
import linecache
import math
import os
import re
from typing import Callable, Dict, List, Optional

from ....dtypes import DType
from .. import fusion
from ..nans import canonical_sites
from ....errors import TileUnsupportedFeatureError
from ....ir.core import Block, Function, Op, Value
from ....ir.types import ArrayType, ListType, TileType

PRELUDE_PATH = os.path.join(os.path.dirname(__file__), "prelude.py")

# dtypes whose NumPy storage arithmetic is exactly the executor's rule (no emulation needed).
_NATIVE_FLOAT = ("float32", "float64")
_NATIVE = _NATIVE_FLOAT + ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_NP_NAME = {"bool_": "np.bool_"}
_FLOAT_OPERATOR = {"add": "+", "sub": "-", "mul": "*", "truediv": "/"}
_INT_OPERATOR = {"add": "+", "sub": "-", "mul": "*", "and": "&", "or": "|", "xor": "^"}
_COMPARE_OPERATOR = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


def prelude_source() -> str:
    """The prelude with its shared sections (numerics, printf emulation) copied in from their sources,
    so the generated module is standalone and the repository holds one copy of that code."""
    from .sync_prelude import synced
    with open(PRELUDE_PATH) as f:
        return synced(f.read())


def literal(x) -> str:
    """A Python expression for an attribute value (the prelude takes enums by member name)."""
    if isinstance(x, DType):
        return f"D.{x.name}"
    if isinstance(x, enum.Enum):
        return repr(x.name)
    if isinstance(x, bool) or x is None or isinstance(x, (int, str)):
        return repr(x)
    if isinstance(x, float):
        if math.isnan(x):
            return "float('nan')"
        if math.isinf(x):
            return "float('inf')" if x > 0 else "float('-inf')"
        return repr(x)
    if isinstance(x, tuple):
        inner = ", ".join(literal(v) for v in x)
        return f"({inner},)" if len(x) == 1 else f"({inner})"
    if isinstance(x, list):
        return "[" + ", ".join(literal(v) for v in x) + "]"
    if hasattr(x, "item"):                       # NumPy scalars
        return literal(x.item())
    raise TypeError(f"no literal for {x!r}")


def _np_dtype(dt: DType) -> str:
    return _NP_NAME.get(dt.name, f"np.{dt.name}")


def _dtype_of(v: Value) -> Optional[DType]:
    return v.type.dtype if isinstance(v.type, TileType) else None


class Names:
    """Python names for IR values: the user's variable name where there is one, made unique."""

    def __init__(self, reserved):
        self.taken = set(reserved)
        self.names: Dict[int, str] = {}
        self.temps = 0

    def fresh(self, base: str) -> str:
        base = re.sub(r"\W", "_", base.lstrip("$")) or "v"
        if base[0].isdigit():
            base = "v" + base
        name, k = base, 0
        while name in self.taken or keyword.iskeyword(name):
            k += 1
            name = f"{base}_{k}"
        self.taken.add(name)
        return name

    def define(self, v: Value) -> str:
        if v.name:
            name = self.fresh(v.name)
        else:
            self.temps += 1
            name = self.fresh(f"t{self.temps}")
        self.names[v.id] = name
        return name

    def __getitem__(self, v: Value) -> str:
        return self.names[v.id]


class KernelWriter:
    """Writes the Python function of one kernel."""

    def __init__(self, fn: Function, reserved):
        self.fn = fn
        # The kernel's function must not hide a prelude function of the same name (e.g. `scan`).
        self.py_name = fn.name + "_kernel" if fn.name in reserved else fn.name
        self.names = Names(set(reserved) | {self.py_name})
        self.lines: List[str] = []
        self.depth = 1
        self.last_line = None
        self.loops: List[str] = []           # Loop object names, innermost last
        self.branches: List[str] = []        # Branch object names, innermost last
        self.chunked: Dict[int, str] = {}    # id of an mma whose loop joins its products -> MmaChunks name

    # ---- output ------------------------------------------------------------------------

    def emit(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def comment_for(self, op: Op) -> None:
        loc = op.loc
        if loc is None or (loc.filename, loc.line) == self.last_line:
            return
        self.last_line = (loc.filename, loc.line)
        src = linecache.getline(loc.filename, loc.line).strip()
        self.emit(f"# {os.path.basename(loc.filename)}:{loc.line}" + (f"  {src}" if src else ""))

    def n(self, v: Value) -> str:
        return self.names[v]

    def args(self, values) -> str:
        return ", ".join(self.n(v) for v in values)

    def define_results(self, op: Op) -> str:
        """'a = ' / 'a, b = ' for the op's results (names defined here)."""
        names = [self.names.define(r) for r in op.results]
        if not names:
            return ""
        return (names[0] if len(names) == 1 else ", ".join(names)) + " = "

    def unpack(self, values: List[Value]) -> str:
        names = [self.names.define(v) for v in values]
        return ", ".join(names) + ("," if len(names) == 1 else "")

    # ---- walking ---------------------------------------------------------------------

    def function(self) -> List[str]:
        fn = self.fn
        params = [self.names.define(v) for p in fn.params if not p.is_constant for v in p.values]
        consts = ", ".join(f"{p.name}={p.constant!r}" for p in fn.params if p.is_constant)
        header = [f"def {self.py_name}(ctx, {', '.join(params)}):" if params else f"def {self.py_name}(ctx):"]
        doc = f'    """Kernel `{fn.name}` for one group of blocks (`ctx`)'
        doc += f"; compiled with {consts}." if consts else "."
        header.append(doc + '"""')
        self.block(fn.body)
        return header + self.lines

    def block(self, block: Block) -> None:
        start = len(self.lines)
        for op in block.ops:
            self.op(op)
        if len(self.lines) == start:
            self.emit("pass")

    def op(self, op: Op) -> None:
        render = RENDERERS.get(op.name)
        if render is None:
            raise TileUnsupportedFeatureError(
                f"tilescope transpile does not support op '{op.name}' yet", op.loc)
        if op.name not in ("yield",):
            self.comment_for(op)
        render(self, op)
        # (a joined mma passes its accumulator through; MmaChunks rewrites NaNs when it flushes)
        if id(op) in canonical_sites(self.fn) and id(op) not in self.chunked and \
                any(_is_float(r.type) for r in op.results):
            for r in op.results:
                self.emit(f"{self.n(r)} = canonical_nans({self.n(r)})")


# ---- renderers --------------------------------------------------------------------------

def _is_float(t) -> bool:
    dtype = getattr(t, "dtype", None)
    return dtype is not None and dtype.is_float


Renderer = Callable[[KernelWriter, Op], None]
RENDERERS: Dict[str, Renderer] = {}


def renders(*names: str):
    def deco(fn: Renderer) -> Renderer:
        for name in names:
            RENDERERS[name] = fn
        return fn
    return deco


def _kwargs(op: Op, keys, **extra) -> str:
    parts = [f"{k}={literal(op.attrs[k])}" for k in keys if k in op.attrs and op.attrs[k] is not None]
    parts += [f"{k}={literal(v)}" for k, v in extra.items()]
    return ", ".join(parts)


def _call(w: KernelWriter, op: Op, fn: str, positional: List[str], kwargs: str = "") -> None:
    args = ", ".join([p for p in positional if p] + ([kwargs] if kwargs else []))
    w.emit(f"{w.define_results(op)}{fn}({args})")


@renders("const")
def _const(w, op):
    dt = op.results[0].type.dtype
    value = op.attrs["value"]
    if dt.name in _NATIVE:
        w.emit(f"{w.define_results(op)}np.array([{literal(value)}], dtype={_np_dtype(dt)})")
    else:
        _call(w, op, "const", [literal(value), literal(dt)])


@renders("bid", "num_blocks")
def _block_query(w, op):
    _call(w, op, op.name, ["ctx"], _kwargs(op, ["axis"]))


@renders("array_dim")
def _array_dim(w, op):
    _call(w, op, "array_dim", [w.n(op.operands[0])],
          _kwargs(op, ["axis", "what"], dtype=op.results[0].type.dtype))


@renders("num_tiles")
def _num_tiles(w, op):
    _call(w, op, "num_tiles", [w.n(op.operands[0])], _kwargs(op, ["axis", "shape", "order", "traversal_steps"]))


@renders("load_tile")
def _load_tile(w, op):
    t = op.results[0].type
    _call(w, op, "load_tile", ["ctx", w.args(op.operands)],
          _kwargs(op, ["order", "padding_mode", "traversal_steps"], shape=t.shape, dtype=t.dtype))


@renders("store_tile")
def _store_tile(w, op):
    _call(w, op, "store_tile", ["ctx", w.args(op.operands)],
          _kwargs(op, ["order", "traversal_steps"], shape=op.operands[-1].type.shape))


def _same_dtypes(op: Op) -> bool:
    dts = {_dtype_of(v) for v in list(op.operands) + list(op.results)}
    return len(dts) == 1


@renders("binary")
def _binary(w, op):
    dt = op.results[0].type.dtype
    fn = op.attrs["fn"]
    x, y = (w.n(v) for v in op.operands)
    plain = (_same_dtypes(op) and not op.attrs.get("rounding_mode") and not op.attrs.get("flush_to_zero"))
    if plain and dt.name in _NATIVE_FLOAT and fn in _FLOAT_OPERATOR:
        w.emit(f"{w.define_results(op)}{x} {_FLOAT_OPERATOR[fn]} {y}")
    elif plain and dt.name in _NATIVE and not dt.is_float and fn in _INT_OPERATOR:
        w.emit(f"{w.define_results(op)}{x} {_INT_OPERATOR[fn]} {y}")
    elif plain and dt.name in _NATIVE and not dt.is_float and fn in ("max", "min"):
        w.emit(f"{w.define_results(op)}np.{'maximum' if fn == 'max' else 'minimum'}({x}, {y})")
    else:
        _call(w, op, "binary", [x, y],
              _kwargs(op, ["fn", "rounding_mode", "flush_to_zero", "propagate_nan"], dtype=dt))


@renders("compare")
def _compare(w, op):
    dt = op.operands[0].type.dtype
    x, y = (w.n(v) for v in op.operands)
    if dt.name in _NATIVE and _dtype_of(op.operands[1]) is dt:
        w.emit(f"{w.define_results(op)}{x} {_COMPARE_OPERATOR[op.attrs['fn']]} {y}")
    else:
        _call(w, op, "compare", [x, y], _kwargs(op, ["fn"], dtype=dt))


@renders("unary")
def _unary(w, op):
    dt = op.results[0].type.dtype
    x = w.n(op.operands[0])
    fn = op.attrs["fn"]
    if fn == "not" and dt.is_bool:
        w.emit(f"{w.define_results(op)}np.logical_not({x})")
    elif fn == "neg" and dt.is_int:
        w.emit(f"{w.define_results(op)}-{x}")
    else:
        _call(w, op, "unary", [x], _kwargs(op, ["fn", "rounding_mode", "flush_to_zero"], dtype=dt))


@renders("fma")
def _fma(w, op):
    dt = op.results[0].type.dtype
    extra = [literal(op.attrs.get("rounding_mode")), literal(op.attrs.get("flush_to_zero", False))] \
        if op.attrs.get("rounding_mode") is not None or op.attrs.get("flush_to_zero") else []
    _call(w, op, "fma", [w.args(op.operands), literal(dt)] + extra)


@renders("astype")
def _astype(w, op):
    src, dst = op.operands[0].type.dtype, op.attrs["dtype"]
    x = w.n(op.operands[0])
    if src is dst:
        w.emit(f"{w.define_results(op)}{x}")
    else:
        _call(w, op, "astype", [x, literal(src), literal(dst)],
              _kwargs(op, ["rounding_mode"]))


@renders("where")
def _where(w, op):
    dt = op.results[0].type.dtype
    if _dtype_of(op.operands[1]) is dt and _dtype_of(op.operands[2]) is dt:
        w.emit(f"{w.define_results(op)}np.where({w.args(op.operands)})")
    else:
        _call(w, op, "where", [w.args(op.operands)], _kwargs(op, [], dtype=dt))


@renders("broadcast", "reshape")
def _shape_op(w, op):
    _call(w, op, op.name, [w.n(op.operands[0]), literal(tuple(op.results[0].type.shape))])


@renders("permute")
def _permute(w, op):
    _call(w, op, "permute", [w.n(op.operands[0]), literal(tuple(op.attrs["axes"]))])


@renders("arange")
def _arange(w, op):
    t = op.results[0].type
    _call(w, op, "arange", [literal(t.shape[0]), literal(t.dtype)])


@renders("literal_tile")
def _literal_tile(w, op):
    t = op.results[0].type
    _call(w, op, "literal_tile", [literal(tuple(op.attrs["values"])), literal(tuple(t.shape)), literal(t.dtype)])


@renders("from_scalars")
def _from_scalars(w, op):
    t = op.results[0].type
    _call(w, op, "from_scalars", [w.args(op.operands)], _kwargs(op, [], shape=tuple(t.shape), dtype=t.dtype))


@renders("undef")
def _undef(w, op):
    t = op.results[0].type
    _call(w, op, "undef", [literal(tuple(t.shape)), literal(t.dtype)])


@renders("assume")
def _assume(w, op):
    w.emit(f"{w.define_results(op)}{w.n(op.operands[0])}  # assume divisible by {op.attrs.get('divisor')}")


@renders("grid_control", "breakpoint")
def _no_op(w, op):
    w.emit(f"pass  # {op.name}: nothing to do on the CPU")


@renders("mma")
def _mma(w, op):
    if id(op) in w.chunked:                  # products joined per chunk of iterations (fusion.py)
        _call(w, op, f"{w.chunked[id(op)]}.add", [w.args(op.operands)])
        return
    _call(w, op, "mma", [w.args(op.operands)],
          _kwargs(op, [], x_dtype=op.operands[0].type.dtype, y_dtype=op.operands[1].type.dtype))


def _combiner(w: KernelWriter, op: Op) -> str:
    """A nested function for a custom reduce/scan combiner region; returns its name."""
    block = op.blocks[0]
    name = w.names.fresh("combine")
    params = [w.names.define(a) for a in block.args]
    w.emit(f"def {name}({', '.join(params)}):")
    w.depth += 1
    saved = w.last_line
    for inner in block.ops:
        if inner.name == "yield":
            w.emit(f"return [{w.args(inner.operands)}]")
        else:
            w.op(inner)
    w.depth -= 1
    w.last_line = saved
    return name


@renders("reduce", "scan")
def _reduce_scan(w, op):
    keys = ["fn", "axes", "axis", "reverse", "rounding_mode", "flush_to_zero", "propagate_nan"]
    extra = {}
    if op.attrs["fn"] == "custom":
        extra["combine"] = _combiner(w, op)
        if op.name == "reduce":
            extra["identities"] = literal(tuple(op.attrs["identities"]))
    elif op.name == "reduce":
        extra["dtype"] = literal(op.results[0].type.dtype)
    kw = _kwargs(op, keys)
    kw += "".join(f", {k}={v}" for k, v in extra.items())
    _call(w, op, op.name, [w.args(op.operands)], kw)


# ---- control flow ----------------------------------------------------------------------------

@renders("if")
def _if(w, op):
    br = w.names.fresh("branch")
    w.emit(f"{br} = Branch(ctx, {w.n(op.operands[0])})")
    for method, block in (("then", op.blocks[0]), ("orelse", op.blocks[1])):
        if all(o.name == "yield" and not o.operands for o in block.ops):
            continue                         # nothing to run on this side
        w.emit(f"if {br}.{method}():")
        w.depth += 1
        w.branches.append(br)
        w.block(block)
        w.branches.pop()
        w.depth -= 1
    if op.results:
        w.emit(f"{w.unpack(op.results)} = {br}.join()")
    else:
        w.emit(f"{br}.join()")


@renders("yield")
def _yield(w, op):
    if w.branches and op.operands:
        w.emit(f"{w.branches[-1]}.yield_({w.args(op.operands)})")


@renders("for")
def _for(w, op):
    loop = w.names.fresh("loop")
    body = op.blocks[0]
    start, stop, step = (w.n(v) for v in op.operands[:3])
    w.emit(f"{loop} = Loop(ctx, [{w.args(op.operands[3:])}])")
    chain = fusion.fused_mmas(w.fn, op) or []
    for mma, acc in zip(chain, op.operands[3:]):
        name = w.chunked[id(mma)] = w.names.fresh("products")
        dts = ", ".join(literal(v.type.dtype) for v in mma.operands[:2])
        w.emit(f"{name} = MmaChunks(ctx, {start}, {stop}, {step}, {fusion.chunk_iterations(mma)}, {w.n(acc)}, {dts})")
    iv = w.names.define(body.args[0])
    w.emit(f"for {iv} in {loop}.range({start}, {stop}, {step}, {literal(body.args[0].type.dtype)}):")
    _loop_body(w, loop, body.args[1:], body)
    _loop_results(w, op, loop)
    for mma, r in zip(chain, op.results):
        w.emit(f"{w.n(r)} = {w.chunked[id(mma)]}.end({w.n(r)})")


@renders("loop")
def _while(w, op):
    loop = w.names.fresh("loop")
    body = op.blocks[0]
    extra = len(op.results) - len(op.operands)
    w.emit(f"{loop} = Loop(ctx, [{w.args(op.operands)}]" + (f", {len(op.results)})" if extra > 0 else ")"))
    w.emit(f"for _ in {loop}.repeat():")
    _loop_body(w, loop, body.args, body)
    _loop_results(w, op, loop)


def _loop_body(w: KernelWriter, loop: str, carried: List[Value], body: Block) -> None:
    w.depth += 1
    if carried:
        w.emit(f"{w.unpack(carried)} = {loop}.carried")
    w.loops.append(loop)
    saved = w.branches
    w.branches = []
    w.block(body)
    w.branches = saved
    w.loops.pop()
    w.depth -= 1


def _loop_results(w: KernelWriter, op: Op, loop: str) -> None:
    if op.results:
        w.emit(f"{w.unpack(op.results)} = {loop}.end()")


@renders("continue", "break")
def _loop_exit(w, op):
    w.emit(f"{w.loops[-1]}.{op.name}_({w.args(op.operands)})")


@renders("return")
def _return(w, op):
    w.emit("ctx.return_()")


# ---- the module ------------------------------------------------------------------------------

def _prelude_names() -> set:
    names = set(dir(builtins)) | {"np", "ml_dtypes", "D", "ctx", "launch"}
    for line in prelude_source().splitlines():
        m = re.match(r"(?:def|class)\s+(\w+)|(\w+)\s*=", line)
        if m:
            names.add(m.group(1) or m.group(2))
    return names


def _launch_names(fn: Function) -> List[str]:
    """The launch wrapper's parameter names: the kernel's, renamed where they hide a prelude name."""
    reserved = _prelude_names() | {"grid", "values", "GROUP", fn.name}
    return [p.name + "_" if p.name in reserved else p.name for p in fn.params]


def _param_lines(fn: Function) -> List[str]:
    """The launch wrapper's conversion of each argument to the kernel function's values."""
    out = []
    for p, pname in zip(fn.params, _launch_names(fn)):
        if p.is_constant:
            continue
        if len(p.values) == 1:
            parts = [(pname, p.name, p.values[0])]
        else:
            parts = [(f"{pname}[{i}]", f"{p.name}[{i}]", v) for i, v in enumerate(p.values)]
        for expr, shown, v in parts:
            t = v.type
            if isinstance(t, ArrayType):
                static = tuple(d if s else None for d, s in zip(t.shape, t.static_shape))
                out.append(f"check_array({expr}, {shown!r}, {literal(t.dtype)}, {literal(static)})")
            elif isinstance(t, TileType) and not t.shape:
                out.append(f"scalar_arg({expr}, {literal(t.dtype)})")
            elif isinstance(t, ListType):
                out.append(f"[check_array(a, {shown!r}, {literal(t.item.dtype)}, {literal((None,) * t.item.ndim)}) "
                           f"for a in {expr}]")
            else:
                raise TileUnsupportedFeatureError(
                    f"tilescope transpile does not support kernel parameters of type {t} yet", fn.loc)
    return out


def transpile(compiled, source_name: str = "", args_text: str = "") -> str:
    """The standalone module (source text) for one compiled kernel."""
    from ..launcher import GROUP_BUDGET, needs_sequential
    fn: Function = compiled.final
    writer = KernelWriter(fn, _prelude_names())
    body = writer.function()
    biggest = 1
    for op in fn.walk():
        for r in op.results:
            if isinstance(r.type, TileType) and r.type.shape:
                biggest = max(biggest, math.prod(r.type.shape))
    group = 1 if needs_sequential(fn) else max(1, GROUP_BUDGET // biggest)
    user_params = _launch_names(fn)
    values = _param_lines(fn)
    lines = [f'"""Kernel `{fn.name}` from {source_name or "?"} as plain NumPy, written by `tilescope transpile`.',
             "",
             f"Compiled for arguments: {args_text}" if args_text else "",
             "Run it with `launch(grid, *args)` (arrays are updated in place); it gives the same",
             "results as `tilescope run`, bit for bit, but runs unchecked (no bounds/race reports).",
             '"""', ""]
    lines = [ln for i, ln in enumerate(lines) if ln or i in (1, 6)]
    lines.append(prelude_source().rstrip("\n"))
    lines += ["", "", *body, "", ""]
    lines.append(f"GROUP = {group}   # blocks run together (1: one block at a time, as atomics need here)")
    lines += ["", ""]
    lines.append(f"def launch(grid, {', '.join(user_params)}):" if user_params else "def launch(grid):")
    lines.append(f'    """Run `{fn.name}` over `grid` (1 to 3 ints); arrays are updated in place."""')
    for p, pname in zip(fn.params, user_params):
        if not p.is_constant:
            continue
        lines.append(f"    # {p.name} was {p.constant!r} at transpile time; it is compiled into `{writer.py_name}`.")
        if _plain_constant(p.constant):
            lines.append(f"    check_constant({pname}, {literal(p.constant)}, {p.name!r})")
    lines.append(f"    values = [{', '.join(values)}]")
    lines.append(f"    launch_groups({writer.py_name}, grid, values, GROUP)")
    return "\n".join(lines) + "\n"


def _plain_constant(x) -> bool:
    """Constants a caller passes as plain Python values (checked against the compiled-in one)."""
    if isinstance(x, tuple):
        return all(_plain_constant(v) for v in x)
    return x is None or type(x) in (bool, int, float, str)


def transpile_kernel(kernel, args) -> str:
    """Transpile `kernel` for `args`: a spec string ("f32[64], 16") or the real arguments of a
    launch (then the IR is exactly the one `run_kernel` executes for them)."""
    import inspect

    import tilescope
    from ....compiler import resolve_kernel
    from ..launcher import _param_specs, compile_for
    fn, _ = resolve_kernel(kernel)
    if isinstance(args, str):
        compiled, text = tilescope.compile(kernel, args), args
    else:
        specs, _ = _param_specs(fn, list(args))
        compiled, text = compile_for(fn, specs), ", ".join(repr(s) for s in specs)
    return transpile(compiled, os.path.basename(inspect.getsourcefile(fn) or "?"), text)


# ---- gathers, scatters, atomics, shapes, printing (registered after the core ops) ------------

@renders("gather")
def _gather(w, op):
    _call(w, op, "gather", [w.args(op.operands)],
          _kwargs(op, ["has_mask"], ndim=op.operands[0].type.ndim))


@renders("scatter")
def _scatter(w, op):
    _call(w, op, "scatter", ["ctx", w.args(op.operands)],
          _kwargs(op, ["has_mask"], ndim=op.operands[0].type.ndim))


@renders("atomic")
def _atomic(w, op):
    _call(w, op, "atomic", ["ctx", w.args(op.operands)], _kwargs(op, ["mode"]))


@renders("atomic_cas")
def _atomic_cas(w, op):
    _call(w, op, "atomic_cas", ["ctx", w.args(op.operands)])


@renders("cat")
def _cat(w, op):
    _call(w, op, "cat", [w.args(op.operands)], _kwargs(op, ["axis"]))


@renders("extract")
def _extract(w, op):
    _call(w, op, "extract", [w.args(op.operands)], _kwargs(op, ["shape"]))


@renders("insert")
def _insert(w, op):
    _call(w, op, "insert", [w.args(op.operands)])


@renders("bitcast", "unpack_bytes")
def _retype(w, op):
    _call(w, op, op.name, [w.n(op.operands[0]), literal(op.attrs["dtype"])])


@renders("pack_bytes")
def _pack_bytes(w, op):
    _call(w, op, "pack_bytes", [w.n(op.operands[0]), literal(op.operands[0].type.dtype)])


@renders("print")
def _print(w, op):
    pieces = tuple(p if isinstance(p, str) else tuple(p) for p in op.attrs["pieces"])
    _call(w, op, "print_", ["ctx", w.args(op.operands)],
          _kwargs(op, [], pieces=pieces, dtypes=tuple(v.type.dtype for v in op.operands)))


@renders("assert")
def _assert(w, op):
    line = f"{os.path.basename(op.loc.filename)}:{op.loc.line}" if op.loc else "?"
    where = f"kernel '{w.fn.name}' at {line}"         # worded as the executor's assert report
    _call(w, op, "assert_", ["ctx", w.n(op.operands[0]), literal(op.attrs.get("message") or ""), literal(where)])


# ---- tiled views (of whole arrays), lists, scaled mma ------------------------------------------

def _view_layout(op: Op):
    vt = op.operands[0].type
    shape = tuple(vt.tile_shape) or (1,) * len(vt.order)
    steps = tuple(vt.traversal_steps) if vt.traversal_steps else shape
    return vt, shape, tuple(vt.order), (None if steps == shape else steps)


@renders("tiled_view")
def _tiled_view(w, op):
    t = op.results[0].type
    w.emit(f"{w.define_results(op)}{w.n(op.operands[0])}  # seen as tiles of {tuple(t.tile_shape)}")


@renders("tiled_load")
def _tiled_load(w, op):
    vt, shape, order, steps = _view_layout(op)
    extra = dict(shape=shape, order=order, padding_mode=vt.padding_mode, dtype=vt.dtype)
    if steps is not None:
        extra["traversal_steps"] = steps
    _call(w, op, "load_tile", ["ctx", w.args(op.operands)], _kwargs(op, [], **extra))


@renders("tiled_store")
def _tiled_store(w, op):
    _, shape, order, steps = _view_layout(op)
    extra = dict(shape=shape, order=order)
    if steps is not None:
        extra["traversal_steps"] = steps
    _call(w, op, "store_tile", ["ctx", w.args(op.operands)], _kwargs(op, [], **extra))


@renders("tiled_num_tiles")
def _tiled_num_tiles(w, op):
    _, shape, order, steps = _view_layout(op)
    extra = dict(axis=op.attrs["axis"], shape=shape, order=order)
    if steps is not None:
        extra["traversal_steps"] = steps
    _call(w, op, "num_tiles", [w.n(op.operands[0])], _kwargs(op, [], **extra))


@renders("list_len")
def _list_len(w, op):
    w.emit(f"{w.define_results(op)}np.array([len({w.n(op.operands[0])})], dtype=np.int32)")


@renders("mma_scaled")
def _mma_scaled(w, op):
    _call(w, op, "mma_scaled", [w.args(op.operands)],
          _kwargs(op, [], dtypes=tuple(v.type.dtype for v in op.operands[:4])))
