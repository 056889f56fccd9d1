"""Compile-time helpers: ensure_constant, assume_divisible_by, grid dependency control.

`static_eval`, `static_assert`, `static_iter` and `static_exception` evaluate
Python source and live in `tilescope.passes.infer.static`.
"""
from __future__ import annotations

from ..errors import TileStaticAssertionError
from ..ir.primitive import INT, one_of
from .common import describe, is_number, is_tile, no_results, same_as_operand
from .registry import Attr, generated_surface, no_rule, primitive, surface
from .shape import require_version, type_name

ASSUME = primitive("assume", "Identity on an integer scalar, carrying the fact that it is a multiple of `divisor`.",
                   operands=("x",), attrs={"divisor": Attr(INT)})
GRID_CONTROL = primitive("grid_control", "Programmatic dependent launch: `what` is 'wait' or 'launch_dependents'.",
                         results=0, traits=("side_effects",), attrs={"what": Attr(one_of("wait", "launch_dependents"))})


@surface("static_ops")
def ensure_constant(value, /):
    """Return `value`, failing to compile unless it is a compile-time constant."""


@ensure_constant.rule
def _(ctx, value):
    if not ctx.is_constant(value):
        raise ctx.error(TileStaticAssertionError, "Static assertion failed: Argument of ensure_constant() "
                                                  "is not a compile-time constant")
    return value


@surface("static_ops")
def assume_divisible_by(x, divisor):
    """Promise that the integer scalar `x` is a multiple of `divisor`; returns `x` unchanged."""


@assume_divisible_by.rule
def _(ctx, x, divisor):
    integral = (isinstance(x, int) and not isinstance(x, bool)) or (
        is_tile(x) and not x.type.shape and x.type.dtype.is_int)
    if not integral:
        shown = x.type if is_tile(x) else type_name(x)
        raise ctx.type_error(f"`assume_divisible_by` requires an integer scalar, got {shown}")
    d = ctx.require_constant(divisor, "divisor")
    if isinstance(d, bool) or not isinstance(d, int):
        raise ctx.type_error(f"Invalid argument \"divisor\" of assume_divisible_by(): Expected an integer "
                             f"constant, but given value has type {describe(d)}")
    if d < 1:
        raise ctx.type_error(f"`assume_divisible_by` requires a positive divisor, got {d}")
    known = x if is_number(x) else x.const
    if known is not None:
        if known % d:
            raise ctx.type_error(f"Value {known} is not divisible by {d}: `assume_divisible_by` contradicts "
                                 f"a known constant")
        return x
    if d == 1:
        return x
    return ctx.emit1("assume", [x], x.type, divisor=d)


def _grid_control(what: str, doc: str):
    """`ct.grid_dependency_control_<what>()`: one `grid_control` op (tileiras 13.4+)."""
    def stub():
        pass
    name = f"grid_dependency_control_{what}"
    sf = generated_surface("static_ops", name, stub, doc)

    @sf.rule
    def _(ctx):
        require_version(ctx, name, (13, 4))
        ctx.emit("grid_control", [], [], what=what)
    return sf


grid_dependency_control_wait = _grid_control(
    "wait", "Wait until the preceding kernel of a programmatic dependent launch has finished (tileiras 13.4+).")
grid_dependency_control_launch_dependents = _grid_control(
    "launch_dependents", "Let a programmatically dependent successor kernel start scheduling (tileiras 13.4+).")


# ---- CPU executor rules ------------------------------------------------------

import numpy as _np


@ASSUME.numpy
def _(ex, op, x):
    """Identity. With bounds checks on, a value that breaks the promise is reported (the GPU would
    silently compute with a wrong assumption)."""
    if ex.checks.bounds:
        d = op.attrs["divisor"]
        bad = _np.broadcast_to(x.reshape(-1).astype(_np.int64) % d != 0, (ex.nb,)) & ex.active_mask()
        if bad.any():
            b = int(_np.argmax(bad))
            value = int(_np.broadcast_to(x.reshape(-1), (ex.nb,))[b])
            ex.report(f"assume_divisible_by: value {value} is not a multiple of {d}",
                      block=tuple(int(v) for v in ex.block_ids[b]))
    return x


@GRID_CONTROL.numpy
def _(ex, op):
    """Programmatic dependent launch is a no-op here: a launch runs only after the previous one finished."""
    return None


@ASSUME.transpile
def _(w, op):
    w.assign(op, f"{w.name(op.operands[0])}  # assume divisible by {op.attrs['divisor']}")


@GRID_CONTROL.transpile
def _(w, op):
    w.emit(f"pass  # {op.name}: nothing to do on the CPU")


# ---- typing (the verifier's rules) and folding -------------------------------------------

ASSUME.typing(same_as_operand)
GRID_CONTROL.typing(no_results)
ASSUME.unsupported("fold", "a run-time fact")
GRID_CONTROL.unsupported("fold", "a side effect")
no_rule("tileir", "not lowered to TileIR yet", GRID_CONTROL)
