"""Random compile-time Python for differential fuzzing of the restricted evaluator.

`generate(draw)` builds a pure Python expression (numbers, strings, tuples, lists, dicts,
comprehensions, lambdas, slicing, f-strings, pure built-ins and math functions) and, now and
then, one that tries to escape (dunder attributes, imports, forbidden calls) or to run away
(huge powers, repetitions, ranges). `check(draw)` evaluates it with tilescope.pyeval and, when
that succeeds, with Python itself: the two must agree (same value, or the same exception
class); escapes must be refused; nothing else may come out of the evaluator.
"""
from __future__ import annotations

import ast
import math
import warnings
from tests.fuzz.gen import Draw

_NAMES = ["a", "b", "s", "t", "xs", "d"]
ENV = {"a": 7, "b": -3, "s": "tile", "t": (1, 2, 3), "xs": [4, 5, 6], "d": {"k": 1, "j": 2}, "math": math}
_BINOPS = ["+", "-", "*", "//", "%", "**", "<<", ">>", "&", "|", "^", "/"]
_COMPARE = ["==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not"]
_CALLS = ["len({})", "abs({})", "min({}, {})", "max({}, {})", "sum({})", "sorted({})", "tuple({})", "list({})",
          "str({})", "repr({})", "bool({})", "int({})", "float({})", "round({})", "divmod({}, {})", "any({})",
          "all({})", "tuple(reversed({}))", "tuple(enumerate({}))", "tuple(zip({}, {}))", "hash({})",
          "math.gcd({}, {})", "math.floor({})", "math.sqrt({})", "'{{}}-{{}}'.format({}, {})", "isinstance({}, int)",
          "{}.count(1)", "{}.index(2)", "chr(65 + {} % 26)", "pow({}, {}, 7)", "hex({})", "str({}).upper()"]
ESCAPES = ["().__class__", "(1).__class__.__bases__", "__import__('os')", "open('x')", "eval('1')",
           "exec('x = 1')", "globals()", "vars()", "getattr(a, '__class__')", "(lambda: 1).__code__",
           "type('X', (), {})", "compile('1', 'x', 'eval')", "print(a)", "input()", "math.__loader__",
           "'{0.__class__}'.format(a)", "setattr(math, 'pi', 3)", "breakpoint()"]
RUNAWAYS = ["10 ** 10 ** 10", "'a' * 10 ** 12", "sum(range(10 ** 12))", "[0] * 10 ** 10", "2 ** 2 ** 40",
            "len(list(range(10 ** 9)))", "max(range(10 ** 13))", "1 << 10 ** 10", "f'{1:>999999999}'",
            "tuple(range(10 ** 8))", "{i: i for i in range(10 ** 9)}"]


def _atom(draw: Draw, names=_NAMES) -> str:
    kind = draw.int(0, 9)
    if kind <= 3:
        return str(draw.choice([0, 1, 2, 3, -1, 7, 16, 255, 1 << 20, 10 ** 12]))
    if kind == 4:
        return draw.choice(["0.5", "-2.25", "1e10", "float('nan')", "float('inf')", "3.0"])
    if kind == 5:
        return repr(draw.choice(["", "x", "tile", "a b", "é"]))
    if kind == 6:
        return draw.choice(["True", "False", "None"])
    return draw.choice(names)


def expr(draw: Draw, depth: int = 0, names=_NAMES) -> str:
    """A random expression over `names` (and literals)."""
    if depth > 3 or draw.chance(0.25):
        return _atom(draw, names)
    kind = draw.int(0, 12)
    sub = lambda: expr(draw, depth + 1, names)  # noqa: E731
    if kind <= 2:
        return f"({sub()} {draw.choice(_BINOPS)} {sub()})"
    if kind == 3:
        return f"({sub()} {draw.choice(_COMPARE)} {sub()})"
    if kind == 4:
        return f"({draw.choice(['-', '+', '~', 'not '])}{sub()})"
    if kind == 5:
        return f"({sub()} if {sub()} else {sub()})"
    if kind == 6:
        template = draw.choice(_CALLS)
        return template.format(*[sub() for _ in range(template.count("{}"))])
    if kind == 7:
        items = [sub() for _ in range(draw.int(0, 3))]
        return f"({', '.join(items)},)" if items else "()"
    if kind == 8:
        return f"[{', '.join(sub() for _ in range(draw.int(0, 3)))}]"
    if kind == 9:
        return f"{sub()}[{sub()}]" if draw.chance(0.5) else f"{sub()}[{sub()}:{sub()}]"
    if kind == 10:
        body = draw.choice(["v", "v * 2", "v + 1", "str(v)", "(v, v)"])
        cond = draw.choice(["", " if v", " if v % 2"])
        return draw.choice([f"[{body} for v in {sub()}{cond}]", f"tuple({body} for v in {sub()}{cond})",
                            f"{{v: {body} for v in {sub()}{cond}}}"])
    if kind == 11:
        return f"(lambda v, w=2: {draw.choice(['v + w', 'v * w', '(v, w)', 'w'])})({sub()})"
    return f'f"{{{sub()}}}-{{{sub()}!r}}"'     # (the atoms quote with ')


def generate(draw: Draw) -> tuple:
    """(kind, expression): kind is "pure", "escape" or "runaway"."""
    roll = draw.int(0, 19)
    if roll == 0:
        return "escape", draw.choice(ESCAPES)
    if roll == 1:
        return "runaway", draw.choice(RUNAWAYS)
    return "pure", expr(draw)


def _same(x, y, depth: int = 0) -> bool:
    if type(x) is not type(y):
        return False
    if depth > 40:                 # a list holding itself, say: Python's reprs mark the cycles
        return repr(x) == repr(y)
    if isinstance(x, float) and math.isnan(x):
        return math.isnan(y)
    if isinstance(x, (tuple, list)):
        return len(x) == len(y) and all(_same(a, b, depth + 1) for a, b in zip(x, y))
    if isinstance(x, dict):           # (in order, both built alike: NaN keys are never equal)
        return len(x) == len(y) and all(_same(a, b, depth + 1) and _same(x[a], y[b], depth + 1)
                                        for a, b in zip(x, y))
    if isinstance(x, (set, frozenset)):
        nan = lambda v: isinstance(v, float) and math.isnan(v)  # noqa: E731
        return {v for v in x if not nan(v)} == {v for v in y if not nan(v)} and \
            sum(map(nan, x)) == sum(map(nan, y))
    if isinstance(x, str) and x.startswith("<"):          # reprs of objects with addresses
        return True
    return x == y


def evaluate(node: ast.expr, env: dict, filename: str) -> tuple:
    """(what, value): the evaluator's value, or how it stopped ("budget", "refused", "control",
    "recursion") or the Python error the evaluated code raised ("error")."""
    from tilescope.pyeval import EvalControl, Evaluator, OverBudget, Refused
    try:
        return "value", Evaluator(filename=filename).evaluate(node, None, env, filename)
    except OverBudget as e:
        return "budget", e
    except Refused as e:
        return "refused", e
    except EvalControl as e:
        return "control", e
    except RecursionError as e:
        return "recursion", e
    except Exception as e:       # the code's own Python error
        return "error", e


def agreement(label: str, text: str, outcome: tuple, python) -> "Outcome":
    """Compare a finished evaluation with Python's (`python()` runs the same code as Python)."""
    from tests.fuzz.driver import Outcome
    if outcome[0] == "recursion":
        return Outcome("FAIL", f"[{label}] RecursionError escaped the evaluator: {text}")
    if outcome[0] in ("budget", "refused", "control"):
        return Outcome(f"{label}:{outcome[0]}", upstream=f"{text}: {outcome[1]}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = ("value", python())
    except Exception as e:
        expected = ("error", e)
    if outcome[0] != expected[0]:
        return Outcome("FAIL", f"[{label}] {text}: evaluator {outcome}, Python {expected}")
    if outcome[0] == "error":
        if type(outcome[1]) is not type(expected[1]):
            return Outcome("FAIL", f"[{label}] {text}: evaluator raised {outcome[1]!r}, Python {expected[1]!r}")
        return Outcome(f"{label}:python-error")
    if "hash(" in text and "nan" in text:
        return Outcome(f"{label}:same")        # a NaN's hash is its identity's (Python 3.10+): two NaNs differ
    if not _same(outcome[1], expected[1]):
        return Outcome("FAIL", f"[{label}] {text}: evaluator {outcome[1]!r}, Python {expected[1]!r}")
    return Outcome(f"{label}:same")


def _fresh_env() -> dict:
    return {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v) for k, v in ENV.items()}


def check(draw: Draw):
    """An Outcome (see driver.py) for one generated expression."""
    from tests.fuzz.driver import Outcome
    kind, text = generate(draw)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")          # ("'int' object is not subscriptable"...)
            node = ast.parse(text, "<fuzz>", mode="eval").body
    except SyntaxError:          # (an f-string nesting its own quotes, say)
        return Outcome("pyeval:unparsable")
    outcome = evaluate(node, _fresh_env(), "<fuzz>")
    if kind == "escape":
        if outcome[0] in ("refused", "error"):
            return Outcome(f"pyeval:escape:{outcome[0]}")
        return Outcome("FAIL", f"[pyeval] escape not refused: {text} -> {outcome}")
    if kind == "runaway":
        if outcome[0] == "budget":
            return Outcome("pyeval:runaway:budget")
        return Outcome("FAIL", f"[pyeval] runaway not stopped: {text} -> {outcome[0]}")
    env = _fresh_env()
    return agreement("pyeval", text, outcome,
                     lambda: eval(compile(text, "<fuzz>", "eval"), {"__builtins__": __builtins__}, env))
