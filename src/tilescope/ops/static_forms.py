"""`static_eval`, `static_assert`, `static_iter`, `static_exception`: compile-time Python forms.

They are recognised by name where they are written (see `tilescope.passes.infer.static`):
their argument is Python source evaluated at compile time, not a value. Reaching
one of these rules means the function was called indirectly, which is an error.
"""
from __future__ import annotations

from .registry import surface


@surface("static")
def static_eval(expr, /):
    """Evaluate `expr` as ordinary Python at compile time; run-time tiles appear as
    proxies exposing only `shape`, `dtype` and `ndim`."""


@surface("static")
def static_assert(condition, message=None, /):
    """Fail compilation with TileStaticAssertionError when the compile-time `condition` is false."""


@surface("static")
def static_iter(iterable):
    """Unroll `for x in ct.static_iter(iterable)` at compile time (at most 1000 items)."""


@surface("static")
def static_exception(exc, /):
    """`raise ct.static_exception(SomeError(...))` aborts compilation with StaticException."""


def _indirect(name):
    def rule(ctx, *args, **kwargs):
        raise ctx.syntax_error(f"{name}() must be used directly by name, e.g. ct.{name}(...)")
    return rule


for _fn in (static_eval, static_assert, static_iter, static_exception):
    _fn.raw_args = True
    _fn.rule(_indirect(_fn.name))
