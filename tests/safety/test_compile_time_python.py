"""Compile-time Python (static_eval, static_assert, static_iter, module globals, defaults,
annotations, class bodies, decorators, tile code's own Python calls) never runs the user's code:
every escape attempt is a located TileStaticEvalError and leaves no trace; legitimate uses
evaluate as Python would, read from an imported module and from source alike."""
import os
import textwrap

import pytest

import tilescope
from tilescope.errors import StaticException, TileError, TileStaticEvalError
from tilescope.frontend.static_module import UnknownValue, analyze_module
from tilescope.lang.shim import load_file

PRELUDE = '''\
import cuda.tile as ct
import dataclasses, enum, functools, itertools, math


def evil():
    import os
    os.system("touch {mark}")
    return 1


def rec(n):
    return rec(n + 1)


def loop():
    while True:
        pass


def grow():
    xs = [1]
    for x in xs:
        xs.append(x)


class Evil:
    def __eq__(self, other):
        return open("{mark}", "w")
    def __hash__(self):
        return __import__("os").system("touch {mark}")
    def __lt__(self, other):
        return evil()
    def __len__(self):
        return evil()
    def __bool__(self):
        return evil() > 0
    def __add__(self, other):
        return evil()
    def __call__(self, *args):
        return evil()
    def __getitem__(self, i):
        return evil()
    def __iter__(self):
        return iter((evil(),))
    def __str__(self):
        return str(evil())
    def __format__(self, spec):
        return str(evil())
    @property
    def prop(self):
        return evil()


class Sneaky:
    def __getattribute__(self, name):
        return evil()


class Generic:
    def __class_getitem__(cls, item):
        return evil()


class EvilMeta(type):
    def __instancecheck__(cls, obj):
        return evil()


class Checked(metaclass=EvilMeta):
    pass


@functools.lru_cache(maxsize=None)
def cached_evil(n):
    return evil()


EVIL = Evil()
SNEAKY = Sneaky()
'''

# Expressions that would run code, read Python's internals or touch the file system.
ESCAPES = [
    "__import__('os').system('touch {mark}')",
    "[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'Popen'][0](['touch', '{mark}'])",
    "().__class__.__mro__[-1].__subclasses__()",
    "open('{mark}', 'w')",
    "eval(\"__import__('os').system('touch {mark}')\")",
    "exec(\"import os; os.system('touch {mark}')\")",
    "compile('1', '<x>', 'eval')",
    "getattr(__import__('os'), 'system')('touch {mark}')",
    "globals()",
    "vars(ct)",
    "ct.__dict__",
    "ct.__loader__",
    "(lambda: 0).__globals__",
    "(lambda: 0).__code__",
    "getattr((), '__class__')",
    "'{{0.__class__.__mro__}}'.format(())",
    "f'{{().__class__}}'",
    "type('X', (), {{}})",
    "(x for x in ()).gi_frame",
    "dataclasses.sys.modules['os'].system('touch {mark}')",
    "functools.partial(open, '{mark}', 'w')()",
    "setattr(ct, 'load', None)",
    "print('hello')",
    "breakpoint()",
    "input()",
    "exit(3)",
    "ct.launch(None, (1,), None, ())",
    "evil()",
    "EVIL == 1",
    "hash(EVIL)",
    "sorted([EVIL, EVIL])",
    "len(EVIL)",
    "EVIL[0]",
    "EVIL(1)",
    "EVIL + 1",
    "EVIL.prop",
    "str(EVIL)",
    "f'{{EVIL}}'",
    "tuple(EVIL)",
    "not EVIL",
    "isinstance(1, Checked)",
    "Generic[int]",
    "cached_evil(1)",
    "math.__loader__",
    "[].append.__self__",
]

# Expressions that would hang or exhaust memory if evaluated by Python.
HANGS = [
    "sum(range(10 ** 11))", "10 ** 10 ** 10", "'a' * 10 ** 12", "rec(0)", "loop()", "grow()",
    "[0] * 10 ** 9", "list(range(10 ** 9))", "f'{{1:>999999999}}'", "'%999999999d' % 1",
    "'x'.center(10 ** 10)", "len([i for i in range(10 ** 8)])", "max(range(10 ** 12))",
    "sorted(range(10 ** 9))", "tuple(itertools.count())", "2 ** (2 ** 40)", "1 << 10 ** 10",
    "pow(10, 10 ** 10)", "math.factorial(10 ** 7)", "any(x < 0 for x in itertools.count())",
    "'{{:{{}}}}'.format(1, 10 ** 9)", "{{i: i for i in range(10 ** 8)}}",
    "'a'.join('b' for _ in range(10 ** 9))", "set(range(10 ** 9))", "hash(tuple(range(10 ** 7)))",
    "('a' * 1000).replace('', 'x' * 10000)",
]

# Forms through which compile-time Python enters a kernel.
FORMS = {
    "static_eval": "    ct.static_eval({expr})\n",
    "static_assert": "    ct.static_assert({expr})\n",
    "static_assert_message": "    ct.static_assert(False, {expr})\n",
    "static_iter": "    for i in ct.static_iter({expr}):\n        pass\n",
}


def _module(tmp_path, body: str):
    mark = tmp_path / "MARK"
    src = PRELUDE.format(mark=mark) + "\n\n@ct.kernel\ndef k(x):\n" + body.format(mark=mark)
    path = tmp_path / "kernel.py"
    path.write_text(src)
    return path, src, mark


def _compile(mode: str, path, src: str):
    if mode == "import":
        return tilescope.compile(load_file(str(path)).k, "f32[16]")
    sm = analyze_module(src, str(path))
    return tilescope.compile(sm.functions["k"], "f32[16]")


def _assert_refused(e: TileError, path, mark) -> None:
    """A located, one-line TileStaticEvalError (a refusal, or the Python error the expression
    itself raises, e.g. an AttributeError), and nothing ran."""
    assert isinstance(e, TileStaticEvalError), e
    assert e.loc is not None and e.loc.filename == str(path) and e.loc.line > 0, e
    assert "\n" not in e.message
    assert not mark.exists(), "user code ran"


@pytest.mark.parametrize("mode", ["import", "static"])
@pytest.mark.parametrize("expr", ESCAPES)
def test_escape_attempts_are_refused(tmp_path, expr, mode):
    path, src, mark = _module(tmp_path, FORMS["static_eval"].format(expr=expr))
    with pytest.raises(TileError) as info:
        _compile(mode, path, src)
    _assert_refused(info.value, path, mark)


@pytest.mark.parametrize("form", list(FORMS))
def test_every_form_goes_through_the_evaluator(tmp_path, form):
    expr = "__import__('os').system('touch {mark}')"
    path, src, mark = _module(tmp_path, FORMS[form].replace("{expr}", expr))
    with pytest.raises(TileError) as info:
        _compile("import", path, src)
    _assert_refused(info.value, path, mark)


@pytest.mark.parametrize("expr", HANGS)
def test_unbounded_work_is_refused_by_the_budget(tmp_path, expr):
    path, src, mark = _module(tmp_path, FORMS["static_eval"].format(expr=expr))
    with pytest.raises(TileError) as info:
        _compile("import", path, src)
    e = info.value
    assert isinstance(e, TileStaticEvalError) and "budget" in e.message, e
    assert e.loc is not None and e.loc.filename == str(path)


TILE_CODE_ESCAPES = [
    "    if EVIL:\n        pass\n",
    "    y = EVIL.prop\n",
    "    y = EVIL == EVIL\n",
    "    y = sorted((EVIL, EVIL))\n",
    "    y = str(EVIL)\n",
    "    y = evil()\n",
    "    y = cached_evil(2)\n",
]


@pytest.mark.parametrize("body", TILE_CODE_ESCAPES)
def test_tile_code_calls_on_host_objects_are_evaluated(tmp_path, body):
    """Tile code's own Python (calls, attributes, comparisons of captured objects) runs no user code."""
    path, src, mark = _module(tmp_path, body)
    with pytest.raises(TileError):
        _compile("import", path, src)
    assert not mark.exists()


def test_string_annotations_are_evaluated_not_run(tmp_path):
    mark = tmp_path / "MARK"
    path = tmp_path / "ann.py"
    path.write_text(textwrap.dedent(f'''\
        from __future__ import annotations
        import cuda.tile as ct

        @ct.kernel
        def k(x, n: "__import__('os').system('touch {mark}')", m: ct.Constant[int]):
            ct.store(x, index=(0,), tile=ct.full((16,), m, ct.float32))
        '''))
    compiled = tilescope.compile(load_file(str(path)).k, [tilescope.MetaTensor((16,), "f32"), 1, 3])
    assert compiled.final is not None and not mark.exists()
    import numpy as np
    x = np.zeros(16, np.float32)
    tilescope.launch((1,), load_file(str(path)).k, (x, 1, 3))
    assert x[0] == 3 and not mark.exists()


STATIC_MODULE_ESCAPES = [
    "X = __import__('os').system('touch {mark}')",
    "X = open('{mark}', 'w')",
    "def helper(d=open('{mark}', 'w')):\n    return 1\nX = helper()",
    "class C:\n    x = open('{mark}', 'w')\nX = C.x",
    "class C:\n    def __init_subclass__(cls):\n        open('{mark}', 'w')\nclass D(C):\n    pass\nX = D",
    "class C:\n    @property\n    def __class__(self):\n        return open('{mark}', 'w')\nX = isinstance(C(), int)",
    "@__import__('os').system('touch {mark}')\ndef X():\n    pass",
    "import os\nX = os.system('touch {mark}')",
    "from os import system\nX = system('touch {mark}')",
    "X = [c for c in ().__class__.__base__.__subclasses__()]",
    "@dataclasses.dataclass\nclass C:\n    a: int = 0\n    def __post_init__(self):\n        open('{mark}', 'w')\nX = C()",
    "class E(enum.Enum):\n    A = 1\n    def __init__(self, v):\n        open('{mark}', 'w')\nX = E.A",
    "class M(type):\n    pass\nclass C(metaclass=M):\n    pass\nX = C",
]


def test_a_custom_getattribute_is_never_called_from_source(tmp_path):
    # (Read from source only: an imported module's objects are the program's own, see
    # docs/reliability.md.)
    path, src, mark = _module(tmp_path, FORMS["static_eval"].format(expr="SNEAKY.x"))
    with pytest.raises(TileError) as info:
        _compile("static", path, src)
    _assert_refused(info.value, path, mark)


@pytest.mark.parametrize("stmt", STATIC_MODULE_ESCAPES)
def test_reading_a_module_statically_runs_nothing(tmp_path, stmt):
    mark = tmp_path / "MARK"
    src = "import cuda.tile as ct\nimport dataclasses, enum\n" + stmt.format(mark=mark) + \
        "\n\n@ct.kernel\ndef k(x):\n    y = ct.static_eval(X)\n"
    sm = analyze_module(src, str(tmp_path / "m.py"))
    try:
        tilescope.compile(sm.functions["k"], "f32[16]")
    except TileError as e:
        assert isinstance(e, TileStaticEvalError), e
    assert not mark.exists()
    assert "X" in sm.globals


# ---- legitimate compile-time Python: evaluated as Python would --------------------------------

LEGIT_PRELUDE = '''\
import cuda.tile as ct
import dataclasses, enum, functools, itertools, math


def helper(n):
    total = 0
    for i in range(n):
        if i % 2:
            continue
        total += i * i
    return total


@dataclasses.dataclass(frozen=True)
class Cfg:
    n: int
    scale: float = 2.0

    def double(self):
        return self.n * 2

    @property
    def prop(self):
        return self.n * self.scale


class Color(enum.Enum):
    RED = 1
    GREEN = 2


class Plain:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return isinstance(other, Plain) and other.v == self.v


def deco(fn):
    @functools.wraps(fn)
    def wrapper(x):
        return fn(x) + 1
    return wrapper


@deco
def decorated(x):
    return x * 10


TILE = 64
TABLE = {{"a": 1, "b": (2, 3)}}
'''

LEGIT = [
    "sum(i * i for i in range(10)) == 285", "max((3, 1, 2)) == 3", "sorted((3, 1, 2), reverse=True) == [3, 2, 1]",
    "'x'.join(str(i) for i in range(3)) == '0x1x2'", "dict(a=1)['a'] == 1", "{{1: 2}}.get(3, 4) == 4",
    "math.log2(TILE) == 6", "int(math.log2(64)) == 6", "ct.cdiv(100, 64) == 2", "divmod(7, 2) == (3, 1)",
    "abs(-3) == 3", "round(2.5) == 2", "len({{1, 2, 2}}) == 2", "tuple(reversed((1, 2))) == (2, 1)",
    "list(zip((1, 2), (3, 4))) == [(1, 3), (2, 4)]", "tuple(enumerate('ab')) == ((0, 'a'), (1, 'b'))",
    "tuple(map(lambda v: v + 1, (1, 2))) == (2, 3)", "tuple(filter(None, (0, 1, 2))) == (1, 2)",
    "f'{{TILE:04d}}' == '0064'", "'{{}}-{{}}'.format(1, 2) == '1-2'", "'%d' % 5 == '5'",
    "isinstance(TILE, int)", "type(TILE) is int", "callable(len)",
    "functools.reduce(lambda a, b: a * b, (1, 2, 3, 4)) == 24",
    "tuple(itertools.product((1, 2), (3,))) == ((1, 3), (2, 3))", "helper(6) == 20",
    "Cfg(2).double() == 4", "Cfg(3).prop == 6.0", "Cfg(1) == Cfg(1)", "Cfg(1) != Cfg(2)",
    "hash(Cfg(1)) == hash(Cfg(1))", "repr(Cfg(1)) == 'Cfg(n=1, scale=2.0)'",
    "dataclasses.replace(Cfg(1), n=2) == Cfg(2)", "Color.RED.value == 1", "Color(1) is Color.RED",
    "Color['GREEN'] is Color.GREEN", "str(Color.RED) == 'Color.RED'", "Plain(3) == Plain(3)",
    "Plain(3).v == 3", "[v for v in range(5) if v % 2] == [1, 3]", "{{v: v * v for v in range(3)}}[2] == 4",
    "(lambda *a, **kw: (a, kw))(1, b=2) == ((1,), {{'b': 2}})", "any(v > 2 for v in (1, 3))", "all(())",
    "min((2, 1), key=lambda v: -v) == 2", "hex(255) == '0xff'", "chr(65) == 'A'", "ord('A') == 65",
    "int('12') + float('1.5') == 13.5", "next(iter((5, 6))) == 5", "TABLE['b'][1] == 3",
    "decorated(2) == 21", "t.shape == (16,)", "t.dtype == ct.float32", "x.ndim == 1",
    "(1, 2) + (3,) == (1, 2, 3)", "'ab' * 2 == 'abab'", "2 ** 100 > 10 ** 30", "-7 // 2 == -4",
    "[1, 2, 3][::-1] == [3, 2, 1]", "'abc'.upper().startswith('AB')", "(3).bit_length() == 2",
    "math.prod((2, 3, 4)) == 24", "sum((0.5, 0.25)) == 0.75",
]


def _legit_source() -> str:
    lines = [LEGIT_PRELUDE.format()]
    for i, expr in enumerate(LEGIT):
        lines.append(f"\n@ct.kernel\ndef legit_{i}(x):\n    t = ct.load(x, index=(0,), shape=(16,))\n"
                     f"    ct.static_assert({expr.format()})\n")
    return "".join(lines)


@pytest.fixture(scope="module")
def legit_modules(tmp_path_factory):
    src = _legit_source()
    path = tmp_path_factory.mktemp("legit") / "legit.py"
    path.write_text(src)
    return {"import": load_file(str(path)), "static": analyze_module(src, str(path)).globals}


@pytest.mark.parametrize("mode", ["import", "static"])
@pytest.mark.parametrize("i", range(len(LEGIT)), ids=[e.format()[:40] for e in LEGIT])
def test_legitimate_uses_evaluate_as_python(legit_modules, i, mode):
    module = legit_modules[mode]
    kernel = getattr(module, f"legit_{i}") if mode == "import" else module[f"legit_{i}"]
    tilescope.compile(kernel, "f32[16]")      # static_assert(...) holds


def test_static_module_builds_dataclasses_enums_and_classes():
    sm = analyze_module(LEGIT_PRELUDE.format(), "m.py")
    cfg, color, plain = sm.globals["Cfg"], sm.globals["Color"], sm.globals["Plain"]
    assert dataclasses_fields(cfg) == ["n", "scale"] and color.RED.value == 1 and isinstance(plain, type)
    assert not isinstance(sm.globals["decorated"], UnknownValue)
    assert sm.globals["TABLE"] == {"a": 1, "b": (2, 3)}


def dataclasses_fields(cls):
    import dataclasses
    return [f.name for f in dataclasses.fields(cls)]


def test_refusals_name_the_reason_and_the_helper_line(tmp_path):
    path, src, mark = _module(tmp_path, FORMS["static_eval"].format(expr="evil()"))
    with pytest.raises(TileStaticEvalError) as info:
        _compile("import", path, src)
    lines = src.splitlines()
    assert info.value.loc.line == lines.index("    import os") + 1      # located inside evil()
    assert "importing 'os' is not allowed" in info.value.message


def test_python_errors_of_the_expression_keep_upstream_wording(tmp_path):
    path, src, mark = _module(tmp_path, FORMS["static_eval"].format(expr="1 // 0"))
    with pytest.raises(StaticException, match=r"Exception was raised inside static_eval\(\) "
                                              r"\(ZeroDivisionError: integer division or modulo by zero\)"):
        _compile("import", path, src)


def test_trusted_compilation_runs_python(tmp_path):
    """With the explicit opt-in, compile-time Python is Python (the CLI isolates it)."""
    path, src, mark = _module(tmp_path, FORMS["static_eval"].format(expr="evil()"))
    tilescope.compile(load_file(str(path)).k, "f32[16]", trust=True)
    assert mark.exists()
    os.unlink(mark)


@pytest.mark.parametrize("body", [
    "def g():\n        return d\n    r = g()\n    d = 1",          # a nested function: free variable
    "r = [d for _ in (1,)]\n    d = 1",                            # a comprehension (a function before 3.12)
    "r = d\n    d = 1",                                             # the function's own local
])
def test_unassigned_names_raise_what_python_raises(tmp_path, body):
    """Found by the statement fuzzer (tests/fuzz/pyfunc.py): an enclosing function's unassigned
    local read from a nested function is a NameError in Python, not an UnboundLocalError."""
    import ast
    from tilescope.pyeval import Evaluator
    path = tmp_path / "free.py"
    path.write_text(f"def h():\n    {body}\n    return r\n")
    module = load_file(str(path))
    with pytest.raises(NameError) as python:
        module.h()
    with pytest.raises(NameError) as evaluated:
        Evaluator(filename=str(path)).evaluate(ast.parse("h()", mode="eval").body, None, vars(module), str(path))
    assert type(evaluated.value) is type(python.value)
    assert str(evaluated.value) == str(python.value)


def _evaluate_both(tmp_path, body: str, module_code: str = ""):
    """(Python's, the evaluator's) outcome of calling h() defined by `body`: ("value", v) or
    ("error", exception class) or ("refused", None)."""
    import ast
    from tilescope.pyeval import Evaluator, Refused
    path = tmp_path / "aug.py"
    path.write_text(f"xs = [4, 5, 6]\nd = {{'k': 1}}\n{module_code}\n\ndef h():\n    " + body.replace("\n", "\n    ") + "\n")
    module = load_file(str(path))
    outcomes = []
    for run in (lambda: load_file(str(path)).h(),
                lambda: Evaluator(filename=str(path)).evaluate(ast.parse("h()", mode="eval").body, None,
                                                             vars(module), str(path))):
        try:
            outcomes.append(("value", run()))
        except Refused:
            outcomes.append(("refused", None))
        except Exception as e:
            outcomes.append(("error", type(e)))
    return outcomes


@pytest.mark.parametrize("body", [
    "acc = [1]\nacc += 'ab'\nreturn acc",                       # list += any iterable extends it
    "acc = [1]\nalias = acc\nacc += (2, 3)\nreturn alias",        # ... in place: the alias sees it
    "acc = [1]\nalias = acc\nacc *= 2\nreturn alias",
    "acc = {1}\nalias = acc\nacc |= {2}\nacc -= {1}\nreturn alias",
    "acc = {'a': 1}\nalias = acc\nacc |= {'b': 2}\nreturn alias",
    "acc = [1]\nacc += 5\nreturn acc",                          # TypeError: not iterable
    "acc = {1}\nacc |= [2]\nreturn acc",                        # TypeError: set |= list
    "acc = (1,)\nalias = acc\nacc += (2,)\nreturn alias",       # a tuple is rebound, not changed
    "c = C()\nalias = c\nc += 3\nreturn (alias.n, c is alias)",  # a class's own __iadd__
])
def test_augmented_assignment_is_in_place_as_in_python(tmp_path, body):
    """Found by the statement fuzzer (tests/fuzz/pyfunc.py, seed 0 example 69301): `acc += 'tile'`
    on a list extends it in Python; the evaluator computed `acc + 'tile'` (a TypeError)."""
    python, evaluated = _evaluate_both(tmp_path, body, _COUNTER)
    assert evaluated == python


_COUNTER = """
class C:
    def __init__(self):
        self.n = 0

    def __iadd__(self, k):
        self.n += k
        return self
"""


def test_augmented_assignment_never_changes_the_programs_objects(tmp_path):
    python, evaluated = _evaluate_both(tmp_path, "acc = xs\nacc += 'ab'\nreturn acc")
    assert python == ("value", [4, 5, 6, "a", "b"]) and evaluated == ("refused", None)


def test_zip_checks_every_argument_is_iterable_at_once(tmp_path):
    """Found by the expression fuzzer (tests/fuzz/pyexpr.py, seed 0 example 19504): `zip('', 2)`
    raises TypeError in Python; the evaluator stopped at the empty string and never saw the 2."""
    python, evaluated = _evaluate_both(tmp_path, "return tuple(zip('', 2))")
    assert python == evaluated == ("error", TypeError)


@pytest.mark.parametrize("body", ["return 'tile' is 'tile'", "return 'a b' is not 'a b'", "s = 'tile'\nreturn s is 'tile'"])
def test_equal_string_literals_are_one_object_as_in_cpython(tmp_path, body):
    """Found by the expression fuzzer (seed 0 example 93004): `'tile' is not 'tile'` is False in
    CPython (its constants are interned or shared); the evaluator made two strings."""
    python, evaluated = _evaluate_both(tmp_path, body)
    assert evaluated == python
