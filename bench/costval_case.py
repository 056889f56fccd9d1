"""A validation case of bench/cost_validate.py: its kernel, arguments and grid (`Case`, `Arg` and the
shorthands `A`, `S`, `K` that the case lists use), its JSON form in a prepared folder's cases.json,
the `--only` selection, and how a case names a file in a checkout (`tilebench_impl`)."""
from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field, replace
from typing import Any, Callable, List, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))

TILEBENCH_PREFIX = "tilebench:"
CUTILEGPT_PREFIX = "cutilegpt:"


@dataclass
class Arg:
    kind: str                    # "array", "scalar" or "const"
    value: Any = None            # scalar/const value
    shape: tuple = ()
    dtype: str = "float32"
    init: str = "normal"         # normal, rand, zeros, bytes, index:N, chase:S, ramp:S (i*S), fill:V,
                                 # bf16bits (uint16 holding bfloat16), moe:... (costval_moe.py)
    step: int = 1                # a 1-D array that is every step-th element of a buffer step times as long
                                 # (its stride, in elements, stated in the spec: `f32[N]:[step]`)

    def backing(self) -> "Arg":
        """The array a strided argument views (the whole buffer, contiguous)."""
        return self if self.step == 1 else replace(self, shape=(self.shape[0] * self.step,), step=1)


def A(shape, dtype="float32", init="normal", step=1):
    assert step == 1 or len(shape) == 1, "strided arguments are 1-D"
    return Arg("array", shape=tuple(shape), dtype=dtype, init=init, step=step)


def S(value, dtype="float32"):
    return Arg("scalar", value=value, dtype=dtype)


def K(value):
    return Arg("const", value=value)


@dataclass
class Case:
    name: str
    group: str                   # micro, validate, validate-tma
    file: str
    kernel: str
    args: List[Arg]
    grid: tuple
    note: str = ""
    aligned: bool = False        # built as upstream's launch builds aligned arrays (TMA)
    facts: dict = field(default_factory=dict)     # filled by prepare: block, registers, shared memory
    launch: bool = False         # built as tilescope's launch builds contiguous GPU arrays (set G)
    read_values: dict = field(default_factory=dict)   # values of data the kernel reads, as a user states
                                 # them (`--values n_routed=2`: each token goes to 2 experts; version 76)

    def spec(self, concrete: bool) -> str:
        """The argument spec: dynamic shapes (what a launch compiles for) or the real ones."""
        parts = []
        for a in self.args:
            if a.kind == "array":
                from tilescope.dtypes import as_dtype
                dims = ",".join(str(d) if concrete else "?" for d in a.shape)
                parts.append(f"{as_dtype(a.dtype).name}[{dims}]" + (f":[{a.step}]" if a.step != 1 else ""))
            elif a.kind == "scalar":
                parts.append({"float32": "f32", "int32": "i32", "bool": "bool"}[a.dtype])
            else:
                parts.append(repr(a.value))
        return ", ".join(parts)

    def args_for(self, concrete: bool):
        """The argument descriptions a compile takes: the spec text; for a `launch` case the
        MetaTensors tilescope's launch derives from contiguous, 256-byte aligned device arrays
        (concrete sizes, or only what its kernel signature keeps); for an `aligned` case what
        upstream's launch states of aligned contiguous arrays (16-byte aligned base, unit last
        stride as a constant, nothing else; with `concrete`, the sizes as values a dynamic build
        does not depend on, for the model)."""
        if not (self.launch or self.aligned):
            return self.spec(concrete)
        from tilescope.arraylike import c_strides, launch_facts
        from tilescope.dtypes import as_dtype
        from tilescope.meta import MetaTensor, parse_args
        out = []
        for a, s in zip(self.args, parse_args(self.spec(concrete=True))):
            if a.kind == "array" and self.launch:
                dt = as_dtype(a.dtype)
                strides = (a.step,) if a.step != 1 else None
                s = MetaTensor(a.shape, dt, strides, **launch_facts(1 << 20, a.shape, strides, dt))
                s = s if concrete else s.signature()
            elif a.kind == "array":
                nd = len(a.shape)
                shape = tuple(a.shape) if concrete else (None,) * nd
                strides = c_strides(tuple(a.shape)) if concrete else (None,) * (nd - 1) + (1,)
                s = MetaTensor(shape, as_dtype(a.dtype), strides, static_strides=(False,) * (nd - 1) + (True,),
                               base_addr_divisible_by=16)
            out.append(s)
        return out

    def launched(self, group: str) -> "Case":
        """The same case built as tilescope's launch builds it (`launch`), named `<name>_launch`."""
        return Case(self.name + "_launch", group, self.file, self.kernel, self.args, self.grid, self.note,
                    launch=True, read_values=self.read_values)

    def values_for(self, kernel) -> Optional[dict]:
        """The values the case passes to runtime scalar parameters, by name: what its launch knows
        beyond metadata, given to the model as `tilescope cost --values` gives them (the build keeps
        them runtime arguments), and its `read_values`; None for a kernel without either."""
        from tilescope.compiler import parameter_names, resolve_kernel
        names = parameter_names(resolve_kernel(kernel)[0]) or []
        given = {n: a.value for n, a in zip(names, self.args) if a.kind == "scalar"}
        return {**given, **self.read_values} or None


KernelOf = Callable[[Case], Any]     # a case's kernel object (cost_validate.kernel_of)


def cdiv(a: int, b: int) -> int:
    """Blocks of `b` that cover `a` (a grid's extent)."""
    return -(-a // b)


def tilebench_impl(op_author: str) -> str:
    """A case's `file` for TileBench's `impls/<op>/<author>/impl_cutile.py` (read from --tilebench)."""
    return TILEBENCH_PREFIX + op_author + "/impl_cutile.py"


ONLY_HELP = ("comma-separated parts of case names: a set's prefix such as M_ or L_ picks the names "
             "starting with it, any other part the names containing it")


def picked(c: Case, only: Optional[str]) -> bool:
    """--only: a part that is a set's prefix (a capital letter and `_`) matches at the start of a
    name only, so M_ leaves out vector_add_f32_1M_launch; any other part anywhere in it."""
    return not only or any(c.name.startswith(part) if re.fullmatch(r"[A-Z]_", part) else part in c.name
                           for part in only.split(","))


def case_json(c: Case) -> dict:
    return {"name": c.name, "group": c.group, "file": c.file, "kernel": c.kernel, "grid": list(c.grid),
            "note": c.note, "aligned": c.aligned, "facts": c.facts, "launch": c.launch, "read_values": c.read_values,
            "args": [{"kind": a.kind, "value": a.value, "shape": list(a.shape), "dtype": a.dtype, "init": a.init,
                      "step": a.step} for a in c.args]}


def case_from_json(j: dict) -> Case:
    args = [Arg(a["kind"], a["value"], tuple(a["shape"]), a["dtype"], a["init"], a.get("step", 1)) for a in j["args"]]
    return Case(j["name"], j["group"], j["file"], j["kernel"], args, tuple(j["grid"]), j["note"], j["aligned"],
                j["facts"], j.get("launch", False), j.get("read_values", {}))
