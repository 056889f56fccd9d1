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
from typing import Dict, List, Optional

from ....compiler import resolve_kernel
from ....dtypes import DType
from ....errors import TileUnsupportedFeatureError
from ....ir.core import Block, Function, Op, Value
from ....ir.primitive import PRIMITIVES
from ....ir.types import ArrayType, ListType, TileType
from .. import fusion
from ..launcher import GROUP_BUDGET, _param_specs, compile_for, needs_sequential
from ..nans import canonical_sites
from .library import concatenate

PRELUDE_PATH = os.path.join(os.path.dirname(__file__), "prelude.py")
DTYPE_TABLE_PATH = os.path.join(os.path.dirname(__file__), "dtype_table.py")
SEMANTICS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "semantics")
# The semantics library's modules a transpiled module carries whole, each after those it uses.
LIBRARY = ("functions", "tilegeom", "numerics", "arithmetic", "shapes", "reductions", "products", "atomics",
           "memory", "printing", "frames")

# dtypes whose NumPy storage arithmetic is exactly the executor's rule (no emulation needed).
_NATIVE = ("float32", "float64", "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
           "uint64")
_NP_NAME = {"bool_": "np.bool_"}


def prelude_source() -> str:
    """The runtime of a transpiled module: its dtype table, the semantics library's modules and
    the prelude, each whole (one copy of that code in the repository; see library.py)."""
    sources = [("tilescope transpile dtype table", DTYPE_TABLE_PATH)]
    sources += [(f"tilescope.semantics.{name}", os.path.join(SEMANTICS, name + ".py")) for name in LIBRARY]
    sources.append(("tilescope transpile prelude", PRELUDE_PATH))
    texts = []
    for title, path in sources:
        with open(path) as f:
            texts.append((title, f.read()))
    return concatenate(texts)


class Code(str):
    """Python source text to be written as it is (where `literal` would quote a value)."""


def literal(x) -> str:
    """A Python expression for an attribute value (the prelude takes enums by member name)."""
    if isinstance(x, Code):
        return x
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
        prim = PRIMITIVES.get(op.name)
        render = prim.rule("transpile") if prim is not None else None
        if render is None:
            why = prim.status("transpile") if prim is not None else "missing"
            raise TileUnsupportedFeatureError(
                f"tilescope transpile does not support op '{op.name}' yet" + ("" if why == "missing" else f" ({why})"),
                op.loc)
        if op.name not in ("yield",):
            self.comment_for(op)
        render(self, op)
        # (a joined mma passes its accumulator through; MmaChunks rewrites NaNs when it flushes)
        if id(op) in canonical_sites(self.fn) and id(op) not in self.chunked and \
                any(_is_float(r.type) for r in op.results):
            for r in op.results:
                self.emit(f"{self.n(r)} = canonical_nans({self.n(r)})")

    # ---- the rule-facing API: what transpile rules (in the op families) call ---------------

    literal = staticmethod(literal)
    code = Code

    def name(self, v: Value) -> str:
        """The Python name of a value defined earlier."""
        return self.names[v]

    def assign(self, op: Op, expr: str) -> None:
        """`results = expr` (the results' names are defined here)."""
        self.emit(f"{self.define_results(op)}{expr}")

    def call(self, op: Op, fn: str, /, *positional: str, **kwargs) -> None:
        """`results = fn(positional..., key=literal(value)...)`; empty positional parts are dropped."""
        parts = [p for p in positional if p] + [f"{k}={literal(v)}" for k, v in kwargs.items()]
        self.assign(op, f"{fn}({', '.join(parts)})")

    @staticmethod
    def attrs(op: Op, /, *keys: str) -> Dict[str, object]:
        """The op's attributes among `keys` that were given and are not None, in `keys` order."""
        return {k: op.attrs[k] for k in keys if k in op.attrs and op.attrs[k] is not None}

    @staticmethod
    def unsupported(op: Op, message: str) -> TileUnsupportedFeatureError:
        """The located error a rule raises for what it cannot write."""
        return TileUnsupportedFeatureError(f"tilescope transpile does not support {message}", op.loc)

    @staticmethod
    def is_native(dt: DType) -> bool:
        """Whether NumPy's own arithmetic on the dtype's storage is exactly the executor's rule."""
        return dt.name in _NATIVE

    @staticmethod
    def np_dtype(dt: DType) -> str:
        return _NP_NAME.get(dt.name, f"np.{dt.name}")

    # ---- structured control flow (the writer's own; the control family's rules call these) ----

    def if_(self, op: Op) -> None:
        br = self.names.fresh("branch")
        self.emit(f"{br} = Branch(ctx, {self.n(op.operands[0])})")
        for method, block in (("then", op.blocks[0]), ("orelse", op.blocks[1])):
            if all(o.name == "yield" and not o.operands for o in block.ops):
                continue                         # nothing to run on this side
            self.emit(f"if {br}.{method}():")
            self.depth += 1
            self.branches.append(br)
            self.block(block)
            self.branches.pop()
            self.depth -= 1
        if op.results:
            self.emit(f"{self.unpack(op.results)} = {br}.join()")
        else:
            self.emit(f"{br}.join()")

    def yield_(self, op: Op) -> None:
        if self.branches and op.operands:
            self.emit(f"{self.branches[-1]}.yield_({self.args(op.operands)})")

    def for_(self, op: Op) -> None:
        loop = self.names.fresh("loop")
        body = op.blocks[0]
        start, stop, step = (self.n(v) for v in op.operands[:3])
        self.emit(f"{loop} = Loop(ctx, [{self.args(op.operands[3:])}])")
        chain = fusion.fused_mmas(self.fn, op) or []
        for mma, acc in zip(chain, op.operands[3:]):
            name = self.chunked[id(mma)] = self.names.fresh("products")
            dts = ", ".join(literal(v.type.dtype) for v in mma.operands[:2])
            self.emit(f"{name} = MmaChunks(ctx, {start}, {stop}, {step}, {fusion.chunk_iterations(mma)}, "
                      f"{self.n(acc)}, {dts})")
        iv = self.names.define(body.args[0])
        self.emit(f"for {iv} in {loop}.range({start}, {stop}, {step}, {literal(body.args[0].type.dtype)}):")
        self._loop_body(loop, body.args[1:], body)
        self._loop_results(op, loop)
        for mma, r in zip(chain, op.results):
            self.emit(f"{self.n(r)} = {self.chunked[id(mma)]}.end({self.n(r)})")

    def while_(self, op: Op) -> None:
        loop = self.names.fresh("loop")
        body = op.blocks[0]
        extra = len(op.results) - len(op.operands)
        self.emit(f"{loop} = Loop(ctx, [{self.args(op.operands)}]" + (f", {len(op.results)})" if extra > 0 else ")"))
        self.emit(f"for _ in {loop}.repeat():")
        self._loop_body(loop, body.args, body)
        self._loop_results(op, loop)

    def _loop_body(self, loop: str, carried: List[Value], body: Block) -> None:
        self.depth += 1
        if carried:
            self.emit(f"{self.unpack(carried)} = {loop}.carried")
        self.loops.append(loop)
        saved = self.branches
        self.branches = []
        self.block(body)
        self.branches = saved
        self.loops.pop()
        self.depth -= 1

    def _loop_results(self, op: Op, loop: str) -> None:
        if op.results:
            self.emit(f"{self.unpack(op.results)} = {loop}.end()")

    def loop_exit(self, op: Op) -> None:
        self.emit(f"{self.loops[-1]}.{op.name}_({self.args(op.operands)})")

    def return_(self, op: Op) -> None:
        self.emit("ctx.return_()")

    def combiner(self, op: Op) -> str:
        """A nested function for a custom reduce/scan combiner region; returns its name."""
        block = op.blocks[0]
        name = self.names.fresh("combine")
        params = [self.names.define(a) for a in block.args]
        self.emit(f"def {name}({', '.join(params)}):")
        self.depth += 1
        saved = self.last_line
        for inner in block.ops:
            if inner.name == "yield":
                self.emit(f"return [{self.args(inner.operands)}]")
            else:
                self.op(inner)
        self.depth -= 1
        self.last_line = saved
        return name

    def chunked_mma(self, op: Op) -> Optional[str]:
        """The MmaChunks object name of an mma whose loop joins its products (None otherwise)."""
        return self.chunked.get(id(op))


def _is_float(t) -> bool:
    dtype = getattr(t, "dtype", None)
    return dtype is not None and dtype.is_float


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
    fn, _ = resolve_kernel(kernel)
    if isinstance(args, str):
        compiled, text = tilescope.compile(kernel, args), args
    else:
        specs, _ = _param_specs(fn, list(args))
        compiled, text = compile_for(fn, specs), ", ".join(repr(s) for s in specs)
    return transpile(compiled, os.path.basename(inspect.getsourcefile(fn) or "?"), text)
