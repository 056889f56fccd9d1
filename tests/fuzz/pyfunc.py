"""Random helper functions for differential fuzzing of the restricted evaluator's statements.

`generate(draw)` writes a module with module-level values and one function `h` whose body is
random statements (assignments, augmented assignments, if/for/while with break and continue,
try/except/else/finally, raise, assert, del, a nested function with a default and `nonlocal`,
tuple unpacking, list building), every loop bounded. `check(draw)` imports the module (it only
defines values and functions), evaluates a call of `h` with tilescope.pyeval -- which interprets
`h` from its source -- and, when that finishes, calls `h` in Python: same value or the same
exception class.
"""
from __future__ import annotations

import ast
import warnings
from typing import List

from tests.fuzz import harness as H
from tests.fuzz.gen import Draw
from tests.fuzz.pyexpr import ENV, agreement, evaluate, expr

_LOCALS = ["x", "y", "acc", "out", "n", "m", "a", "s", "t", "xs"]
_AUG = ["+", "-", "*", "//", "%", "^", "|", "&"]
_ITERABLES = ["range({})", "t", "xs", "out[:]", "s", "tuple(enumerate(t))", "zip(t, xs)", "reversed(xs)",
              "m", "m.items()", "range({}, 0, -1)", "sorted(out, key=str)"]
_ERRORS = ["ZeroDivisionError", "TypeError", "(IndexError, KeyError)", "ValueError", "ArithmeticError",
           "Exception", "AssertionError", "LookupError"]
_CALLS = ["h(a)", "h(b)", "h(x=3)", "h(0, y=b)", "h(a, b)", "h(1, y=-2)", "h(a, y=s)", "h(t, xs)", "h(s)"]


_INT_ATOMS = ["0", "1", "2", "3", "7", "-1", "10", "x", "y", "acc", "n", "a", "b", "len(out)", "len(s)", "t[-1]",
              "m['k']", "xs[n % 3]"]
_INT_FORMS = ["({0} + {1})", "({0} - {1})", "({0} * {1})", "({0} // {1})", "({0} % {1})", "({0} & {1})",
              "({0} | {1})", "({0} ^ {1})", "({0} << 3)", "({0} >> 1)", "abs({0})", "min({0}, {1})", "max({0}, {1})",
              "(-{0})", "round({0} / 3)", "math.gcd({0}, {1})", "pow({0}, 2, 7)", "len(str({0}))", "sum(out)",
              "m.get('z', {0})", "sum(v for v in range({0} % 5))", "({0} if {c} else {1})", "int({0} ** 2)",
              "sorted(out + [{0}])[0]", "(t + (n,))[{0} % 4]", "ord(s[{0} % 4])", "divmod({0}, 3)[1]"]
_CONDITIONS = ["({0} < {1})", "({0} == {1})", "({0} in out)", "(not {0})", "({0} and {1})", "({0} or {1})",
               "isinstance(acc, int)", "({0} % 2)", "s.startswith('t')", "(a < {0} <= 10)", "any(out)", "all(out)",
               "({0} != {1} != 3)", "(len(out) > {0})"]
_VALUES = ["str({0})", "s[:{0} % 5]", "(s * 2)", "f'{{{0}}}-{{s!r}}'", "'-'.join(str(q) for q in out)",
           "({0}, {1})", "[{0}, *t]", "{{{0}: {1}}}", "s.upper()", "({0} / 4)", "float({0})", "tuple(out)",
           "{{q for q in t}}", "(x, y)"]


def _int(draw: Draw, depth: int = 0) -> str:
    if depth > 2 or draw.chance(0.35):
        return draw.choice(_INT_ATOMS)
    form = draw.choice(_INT_FORMS)
    return form.format(_int(draw, depth + 1), _int(draw, depth + 1), c=_cond(draw, depth + 1))


def _cond(draw: Draw, depth: int = 0) -> str:
    return draw.choice(_CONDITIONS).format(_int(draw, depth + 1), _int(draw, depth + 1))


def _e(draw: Draw) -> str:
    """Mostly well-typed expressions (so that most functions run to the end), sometimes anything."""
    roll = draw.int(0, 9)
    if roll <= 4:
        return _int(draw)
    if roll <= 6:
        return _cond(draw)
    if roll <= 8:
        return draw.choice(_VALUES).format(_int(draw, 1), _int(draw, 1))
    return expr(draw, 2, _LOCALS)


def _block(draw: Draw, depth: int, loop: bool) -> List[str]:
    return [line for _ in range(draw.int(1, 3)) for line in _stmt(draw, depth + 1, loop)]


def _indent(lines: List[str]) -> List[str]:
    return ["    " + line for line in lines]


def _stmt(draw: Draw, depth: int, loop: bool) -> List[str]:
    kind = draw.int(0, 15) if depth < 3 else draw.int(0, 4)
    if kind == 0:
        return [f"acc = {_e(draw)}"]
    if kind == 1:
        return [f"acc {draw.choice(_AUG)}= {_int(draw)}"]
    if kind == 2:
        return [f"out.append({_e(draw)})"]
    if kind == 3:
        return [f"x, y = y, {_e(draw)}"]
    if kind == 4:
        return [draw.choice(["break", "continue"]) if loop else "pass"]
    if kind == 5:
        lines = [f"if {_cond(draw) if draw.chance(0.8) else _e(draw)}:", *_indent(_block(draw, depth, loop))]
        if draw.chance(0.5):
            lines += [f"elif {_cond(draw)}:", *_indent(_block(draw, depth, loop))]
        if draw.chance(0.5):
            lines += ["else:", *_indent(_block(draw, depth, loop))]
        return lines
    if kind == 6:
        it = draw.choice(_ITERABLES).format(draw.int(0, 6))
        target = "i, v" if it in ("tuple(enumerate(t))", "zip(t, xs)", "m.items()") else "v"
        lines = [f"for {target} in {it}:", *_indent(_block(draw, depth, True))]
        return lines + (["else:", *_indent(_block(draw, depth, loop))] if draw.chance(0.3) else [])
    if kind == 7:
        return [f"while n < {draw.int(1, 8)}:", "    n += 1", *_indent(_block(draw, depth, True))]
    if kind == 8:
        lines = ["try:", *_indent(_block(draw, depth, loop)),
                 f"except {draw.choice(_ERRORS)}{' as e' if draw.chance(0.5) else ''}:",
                 *_indent(_block(draw, depth, loop))]
        if draw.chance(0.3):
            lines += ["else:", *_indent(_block(draw, depth, loop))]
        if draw.chance(0.3):
            lines += ["finally:", "    n += 1"]
        return lines
    if kind == 9:
        return [f"raise {draw.choice(['ValueError', 'KeyError', 'TypeError'])}({_e(draw)})"]
    if kind == 10:
        return [f"assert {_cond(draw)}, 'checked'"]
    if kind == 11:
        return ["if out:", f"    del out[{draw.choice(['0', '-1', ':1', 'n % len(out)'])}]"]
    if kind == 12:
        return [f"def g(z, w={_e(draw)}):", f"    return {_int(draw)} + z - w",
                f"acc = g({_e(draw)})"]
    if kind == 13:
        return ["def bump(k):", "    nonlocal acc", f"    acc = {draw.choice(['acc + k', 'k', '(acc, k)'])}",
                f"bump({_e(draw)})"]
    if kind == 14:
        return [f"acc = {_e(draw)} if {_cond(draw)} else {_e(draw)}"]
    return [f"m = {{**m, {_e(draw)}: {_e(draw)}}}"]


def generate(draw: Draw) -> tuple:
    """(module source, call text)."""
    body = ["acc = 0", "out = []", "n = 0", "m = dict(d)", *[line for _ in range(draw.int(1, 5)) for line in _stmt(draw, 0, False)],
            f"return {draw.choice(['acc', '(acc, out, n)', 'out', '(x, y, m)'])}"]
    values = [f"{k} = {v!r}" for k, v in ENV.items() if k != "math"]
    source = "\n".join(["import math", *values, "", "", "def h(x, y=2):", *_indent(body), ""])
    return source, draw.choice(_CALLS)


def check(draw: Draw):
    """An Outcome (see driver.py) for one generated function called once."""
    from tests.fuzz.driver import Outcome
    source, call = generate(draw)
    path = H.write_kernel(source)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")          # ('int' object is not subscriptable...)
            module = H.load(path)
    except SyntaxError:          # (a `nonlocal` of a name the nested function also binds, say)
        return Outcome("pyfunc:unparsable")
    text = f"{call}\n--- {path} ---\n{source}"
    outcome = evaluate(ast.parse(call, mode="eval").body, dict(vars(module)), path)
    return agreement("pyfunc", text, outcome, lambda: eval(call, vars(H.load(path))))
