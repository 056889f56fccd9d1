"""What stops compile-time Python: refusals and the budget (steps, sizes, depth, time)."""
from __future__ import annotations

import re
import time
from typing import Any, Optional

# One evaluation may take this many steps (an expression node, a loop iteration, an item a
# built-in consumes): legitimate compile-time Python needs a few hundred.
MAX_STEPS = 200_000
# Any one string, tuple, list, dict or set it builds holds at most this many items...
MAX_ITEMS = 1_000_000
# ... all of them together at most this many, and an integer at most this many bits.
MAX_TOTAL_ITEMS = 4_000_000
MAX_INT_BITS = 1 << 16
# Nested calls of interpreted functions, and nesting of expressions.
MAX_CALL_DEPTH = 48
MAX_NESTING = 200
# Field width and precision in format specifications (`f"{x:>100000000}"` allocates).
MAX_FORMAT_WIDTH = 10_000
# Wall-clock limit, checked every few hundred steps: a backstop for native work between steps.
MAX_SECONDS = 2.0


class EvalControl(Exception):
    """Base of the evaluator's own signals: never caught by `try` in evaluated code."""

    def __init__(self, reason: str, node: Any = None, filename: Optional[str] = None):
        super().__init__(reason)
        self.reason = reason
        self.node = node
        self.filename = filename

    def locate(self, node: Any, filename: Optional[str]) -> "EvalControl":
        """Remember the innermost node that was being evaluated (first one wins)."""
        if self.node is None and getattr(node, "lineno", None) is not None:
            self.node, self.filename = node, filename
        return self


class Refused(EvalControl):
    """The expression does something compile-time Python may not do (an import, a call of an
    arbitrary function, a dunder attribute...)."""


class OverBudget(Refused):
    """The evaluation ran past a step, size, depth or time limit."""


class ForbiddenCall(EvalControl):
    """A tile-code function (or a `cuda.tile` op not allowed there) was called at compile time:
    upstream's `... cannot be called inside static_eval()`."""

    def __init__(self, desc: str, verb: str = "called"):
        super().__init__(desc)
        self.desc, self.verb = desc, verb


class Budget:
    """Steps, sizes and time of one evaluation (shared by nested calls)."""

    def __init__(self, max_steps: int = MAX_STEPS, max_seconds: float = MAX_SECONDS):
        self.steps = 0
        self.max_steps = max_steps
        self.items = 0
        self.deadline = time.monotonic() + max_seconds
        self.max_seconds = max_seconds

    def charge(self, n: int = 1) -> None:
        self.steps += n
        if self.steps > self.max_steps:
            raise OverBudget(f"it needs more than {self.max_steps:,} evaluation steps")
        if self.steps & 255 == 0 or n > 255:
            if time.monotonic() > self.deadline:
                raise OverBudget(f"it ran for more than {self.max_seconds:g} s")

    def allocate(self, n: int) -> None:
        """A new container or string of `n` items (characters)."""
        if n > MAX_ITEMS:
            raise OverBudget(f"it builds a value of {n:,} items (at most {MAX_ITEMS:,})")
        self.items += n
        if self.items > MAX_TOTAL_ITEMS:
            raise OverBudget(f"its values hold more than {MAX_TOTAL_ITEMS:,} items in all")


def check_int(x: int) -> int:
    if x.bit_length() > MAX_INT_BITS:
        raise OverBudget(f"it builds an integer of {x.bit_length():,} bits (at most {MAX_INT_BITS:,})")
    return x


def check_power(a: Any, b: Any) -> None:
    """`a ** b` (and `pow(a, b)`) on integers: refuse results beyond MAX_INT_BITS before computing."""
    if isinstance(a, int) and isinstance(b, int) and b > 0 and abs(a) > 1:
        if (abs(a).bit_length() - 1) * b > MAX_INT_BITS:
            raise OverBudget(f"{_short(a)} ** {_short(b)} has more than {MAX_INT_BITS:,} bits")


def check_shift(a: Any, b: Any) -> None:
    if isinstance(a, int) and isinstance(b, int) and a and b > 0 and a.bit_length() + b > MAX_INT_BITS:
        raise OverBudget(f"{_short(a)} << {_short(b)} has more than {MAX_INT_BITS:,} bits")


def check_repeat(seq: Any, n: Any) -> None:
    """`seq * n` for a string/tuple/list."""
    if isinstance(n, int) and n > 0 and len(seq) * n > MAX_ITEMS:
        raise OverBudget(f"repeating {len(seq):,} items {_short(n)} times builds more than "
                         f"{MAX_ITEMS:,} items")


_SPEC_NUMBERS = re.compile(r"(\d+)")


def check_format_spec(spec: str) -> None:
    """Widths and precisions in a format specification (`>100000000`, `.999999999f`)."""
    for m in _SPEC_NUMBERS.finditer(spec):
        if len(m.group(1)) > 5 or int(m.group(1)) > MAX_FORMAT_WIDTH:
            raise OverBudget(f"the format specification '{spec[:40]}' asks for a width or precision "
                             f"above {MAX_FORMAT_WIDTH:,}")


_PRINTF_FIELD = re.compile(r"%(?:\([^)]*\))?[-+ #0]*(\*|\d*)(?:\.(\*|\d*))?[hlL]?[a-zA-Z%]")


def check_printf(template: str) -> None:
    """`"%10000000d" % x`: the same limits for printf-style formatting."""
    for m in _PRINTF_FIELD.finditer(template):
        for part in m.groups():
            if part == "*":
                raise Refused("'*' widths in %-formatting are not evaluated at compile time")
            if part and (len(part) > 5 or int(part) > MAX_FORMAT_WIDTH):
                raise OverBudget(f"the %-format '{m.group(0)[:40]}' asks for a width or precision "
                                 f"above {MAX_FORMAT_WIDTH:,}")


def _short(x: Any) -> str:
    text = repr(x) if not isinstance(x, int) or x.bit_length() < 64 else f"<{x.bit_length()}-bit int>"
    return text if len(text) <= 24 else text[:21] + "..."
