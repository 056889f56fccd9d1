"""The kernel entry point: a kernel's parameters bound from argument metadata, then its body run."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ...annotations import is_constant_annotation
from ...errors import TileRecursionError, TileTypeError
from ...frontend.source import function_hir, SourceFunction
from ...ir.core import Block, Builder, Function, Param, Site, Value
from ...ir.types import ArrayType, ListType, TileType
from ...meta import ConstantSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec
from ...ops.bridge import translate
from ...pyeval import annotation_value
from ..bound import anchor_sites, bind_all
from ..values import make_dataclass_instance
from .abstract import Frame, _Exit


MAX_INLINE_DEPTH = 1000  # as upstream cuTile


class KernelEntry:
    """(one section of `Inference`; see passes/infer/__init__.py)"""

    # ---- entry point --------------------------------------------------------

    def infer_kernel(self, pyfunc, arg_specs: Sequence[Any], name: Optional[str] = None) -> Function:
        hir_fn = function_hir(pyfunc, is_entry=True)
        self.loc = hir_fn.loc
        body = Block()
        self.builder = Builder(body)
        frame = Frame(hir_fn.name, pyfunc.__globals__, _closure_lookup(pyfunc), hir_fn, is_entry=True)
        self.frame = frame
        params = self._bind_kernel_params(pyfunc, hir_fn, arg_specs, frame, translate)
        import sys
        saved_limit = sys.getrecursionlimit()
        # Inlining nests the interpreter ~40 Python frames per call level; leave room for
        # upstream's inlining depth (MAX_INLINE_DEPTH) before Python's own limit is hit.
        sys.setrecursionlimit(max(saved_limit, 40 * MAX_INLINE_DEPTH))
        try:
            self._exec_body(hir_fn.body)
        except _Exit:
            pass
        except RecursionError:
            raise self.error(TileRecursionError, "maximum recursion depth exceeded while compiling") from None
        finally:
            sys.setrecursionlimit(saved_limit)
        fn = Function(name or hir_fn.name, body, params, hir_fn.loc)
        fn.hir = hir_fn
        anchor_sites(fn)
        return fn

    def _bind_kernel_params(self, pyfunc, hir_fn, arg_specs, frame, translate) -> List[Param]:
        params = [p for p in hir_fn.params]
        if len(arg_specs) != len(params):
            raise self.error(TileTypeError, f"kernel '{hir_fn.name}' takes {len(params)} argument(s) "
                                            f"but {len(arg_specs)} were given", hir_fn.loc)
        hints = _annotations(pyfunc)
        out: List[Param] = []
        body = self.builder.block
        for i, (p, spec) in enumerate(zip(params, arg_specs)):
            # upstream makes a constant parameter's constant at the kernel's `def`, in parameter order
            def site(i=i):
                return Site(hir_fn.loc, body, 0, param=i)
            ann = translate(hints.get(p.name))
            wants_const = is_constant_annotation(ann)
            with self.at(p.loc):
                if isinstance(spec, ConstantSpec) or not _is_spec(spec):
                    value = spec.value if isinstance(spec, ConstantSpec) else spec
                    frame.vars[p.name] = bind_all(translate(value), site)
                    out.append(Param(p.name, [], constant=value, is_constant=True))
                    self.bindings.append((p.loc, p.name, frame.vars[p.name]))
                    continue
                if wants_const and _constant_tuple(spec) is not None:
                    value = _constant_tuple(spec)
                    frame.vars[p.name] = bind_all(value, site)
                    out.append(Param(p.name, [], constant=value, is_constant=True))
                    self.bindings.append((p.loc, p.name, value))
                    continue
                if wants_const:
                    raise self.type_error(f"parameter '{p.name}' is annotated as a compile-time constant "
                                          f"but the argument is a run-time {spec!r}")
                value, leaves = self._param_value(p.name, spec, site)
                frame.vars[p.name] = value
                out.append(Param(p.name, leaves))
                self.bindings.append((p.loc, p.name, value))
        self.builder.block.args.extend(v for prm in out for v in prm.values)
        return out

    def _param_value(self, name: str, spec, site) -> Tuple[Any, List[Value]]:
        if isinstance(spec, ConstantSpec) or not _is_spec(spec):
            # a compile-time item of a tuple argument (e.g. a tuple of ints): no run-time leaf
            return bind_all(translate(spec.value if isinstance(spec, ConstantSpec) else spec), site), []
        if isinstance(spec, MetaTensor):
            v = Value(array_type_of(spec), name=name)
            return v, [v]
        if isinstance(spec, ScalarSpec):
            v = Value(TileType(spec.dtype, ()), name=name)
            return v, [v]
        if isinstance(spec, ListSpec):
            v = Value(ListType(array_type_of(spec.item)), name=name)
            return v, [v]
        if isinstance(spec, TupleSpec):
            items, leaves = [], []
            for i, s in enumerate(spec.items):
                v, ls = self._param_value(f"{name}.{i}", s, site)
                items.append(v)
                leaves.extend(ls)
            cls = getattr(spec, "cls", None)      # a DataclassSpec: fields in declaration order
            if cls is not None:
                names = [f.name for f in dataclasses.fields(cls)]
                return make_dataclass_instance(cls, dict(zip(names, items))), leaves
            return tuple(items), leaves
        raise self.type_error(f"unsupported argument description {spec!r} for parameter '{name}'")


def _closure_lookup(fn) -> Optional[Callable[[str], Tuple[bool, Any]]]:
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    if not code.co_freevars or not fn.__closure__:
        return None
    cells = dict(zip(code.co_freevars, fn.__closure__))

    def lookup(name: str):
        cell = cells.get(name)
        if cell is None:
            return False, None
        try:
            return True, cell.cell_contents
        except ValueError:
            return False, None
    return lookup


def _annotations(fn) -> Dict[str, Any]:
    ann = dict(getattr(fn, "__annotations__", {}) or {})
    if isinstance(fn, SourceFunction):
        return ann
    for k, v in list(ann.items()):
        if isinstance(v, str):    # postponed annotations (from __future__)
            ann[k] = annotation_value(v, fn.__globals__, fn.__code__.co_filename, default=v)
    return ann


def _constant_tuple(spec) -> Any:
    """The Python tuple a TupleSpec of constants stands for, or None."""
    if isinstance(spec, ConstantSpec):
        return spec.value
    if isinstance(spec, TupleSpec):
        items = [_constant_tuple(i) for i in spec.items]
        if all(i is not None or isinstance(s, ConstantSpec) for i, s in zip(items, spec.items)):
            return tuple(items)
    return None


def _is_spec(x: Any) -> bool:
    return isinstance(x, (ConstantSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec))


def array_type_of(mt) -> ArrayType:
    static_shape = tuple(bool(s) for s in getattr(mt, "static_shape_dims", ())) or None
    return ArrayType(mt.dtype, mt.ndim, tuple(mt.shape), tuple(mt.strides or ()),
                     index_dtype=mt.index_dtype,
                     static_shape=_static_flags(mt, "shape"), static_strides=_static_flags(mt, "strides"))


def _static_flags(mt, what: str) -> Tuple[bool, ...]:
    flags = getattr(mt, f"static_{what}", None)
    values = getattr(mt, what) or (None,) * mt.ndim
    if flags is True:
        return tuple(v is not None for v in values)
    if isinstance(flags, (tuple, list)):
        return tuple(bool(f) and v is not None for f, v in zip(flags, values))
    return (False,) * mt.ndim
