"""The primitive table: one row per IR op name, holding everything that gives the op meaning.

A `Primitive` declares, side by side: its schema (operands, result count, nested blocks,
attributes with their kinds and defaults, traits) and one rule per column: `typing` (the
result types its operands and attributes give, checked by the verifier), `fold` (the Python
value of the op on constants), `numpy` (the CPU executor), `transpile` (the NumPy
transpiler), `tileir` (the TileIR lowering) and `compiled` (the compiled CPU backend). A
column holds a rule, an `Unsupported(reason)`, or nothing (a gap the coverage test reports).

The op families (`tilescope.ops`) fill the rows; backends read them only through `rule()`.
The verifier (`ir/verify.py`) and the parser (`ir/parse.py`) are generated from the schemas.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, Mapping, Optional

COLUMNS = ("typing", "fold", "numpy", "transpile", "tileir", "compiled")

# Traits: what passes and backends may assume about an op without knowing it.
TRAITS = frozenset({
    "side_effects",   # matters even when its results are unused (writes, prints, control flow)
    "terminator",     # ends a nested block and transfers control
    "structured",     # has nested blocks run by the backend's walker (its rules bind results themselves)
    "elementwise",    # every result element depends only on the same element of each operand
})

REQUIRED = object()     # an attribute without a default


class AttrKind:
    """What values an attribute takes: a name for messages, a membership test, and how the
    parser turns the printed form's bare words (enum members, dtype names) back into values."""

    def __init__(self, name: str, accepts: Callable[[Any], bool], word: Optional[Callable[[str], Any]] = None):
        self.name = name
        self.accepts = accepts
        self.word = word

    def __repr__(self) -> str:
        return self.name


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_literal(x) -> bool:
    if isinstance(x, tuple):
        return all(_is_literal(v) for v in x)
    return x is None or isinstance(x, (bool, int, float, str))


INT = AttrKind("int", _is_int)
BOOL = AttrKind("bool", lambda x: isinstance(x, bool))
STR = AttrKind("str", lambda x: isinstance(x, str))
NUMBER = AttrKind("number", lambda x: isinstance(x, (bool, int, float)))
INTS = AttrKind("ints", lambda x: isinstance(x, tuple) and all(_is_int(v) for v in x))
LITERALS = AttrKind("literals", lambda x: isinstance(x, tuple) and _is_literal(x))
ANY = AttrKind("any", lambda x: True)


def one_of(*choices) -> AttrKind:
    """A string attribute with a set of values (an atomic's `mode`); given one mapping (a function
    table), the values are its keys at the time of checking (rows may be added later)."""
    if len(choices) == 1 and isinstance(choices[0], Mapping):
        table = choices[0]
        return AttrKind("key of its function table", lambda x: isinstance(x, str) and x in table)
    allowed = frozenset(choices)
    return AttrKind("one of " + "|".join(sorted(allowed)), lambda x: isinstance(x, str) and x in allowed)


def enum_kind(cls) -> AttrKind:
    """Members of enum `cls`, printed by member name."""
    return AttrKind(cls.__name__, lambda x: isinstance(x, cls), lambda w: cls[w])


class Attr:
    """One attribute: its kind and default (`REQUIRED` when it has none; a default of None
    means "absent" and is never printed)."""
    __slots__ = ("kind", "default", "doc")

    def __init__(self, kind: AttrKind, default: Any = REQUIRED, doc: str = ""):
        self.kind = kind
        self.default = default
        self.doc = doc

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def accepts(self, value: Any) -> bool:
        return (value is None and self.default is None) or self.kind.accepts(value)


class TypingError(Exception):
    """Raised by a `typing` rule: the op's operands or attributes do not fit its schema."""


class Unsupported:
    """A column deliberately left without a rule, and why (shown by `tilescope ops`)."""
    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason

    def __repr__(self) -> str:
        return f"Unsupported({self.reason!r})"


class Operands:
    """Operand names in order. One group may be variadic (`*index`: zero or more); an operand
    `mask?has_mask` is there exactly when the bool attribute `has_mask` is true."""

    def __init__(self, names: Iterable[str]):
        self.names = tuple(names)
        variadic = [i for i, n in enumerate(self.names) if n.startswith("*")]
        if len(variadic) > 1:
            raise ValueError(f"at most one variadic operand group, got {self.names}")
        self.variadic = variadic[0] if variadic else None
        self.conditional = {n.split("?")[1] for n in self.names if "?" in n}

    def expected(self, attrs) -> int:
        """How many operands there are besides the variadic group's, given the op's attributes."""
        return sum(1 for i, n in enumerate(self.names)
                   if i != self.variadic and ("?" not in n or attrs[n.split("?")[1]]))

    def count_ok(self, n: int, attrs) -> bool:
        want = self.expected(attrs)
        return n >= want if self.variadic is not None else n == want

    def describe(self) -> str:
        return ", ".join(self.names) or "none"


def _column(column: str, doc: str):
    """A decorator method that puts its function in the primitive's `column` (and returns it)."""
    def set_rule(self, rule):
        self.rules[column] = rule
        return rule
    set_rule.__name__, set_rule.__doc__ = column, doc
    return set_rule


class Primitive:
    """One IR op: its schema and its rules (see the module docstring)."""

    def __init__(self, name: str, doc: str = "", *, operands: Iterable[str] = (), results: Any = 1,
                 blocks: Any = 0, attrs: Optional[Dict[str, Attr]] = None, traits: Iterable[str] = ()):
        unknown = set(traits) - TRAITS
        if unknown:
            raise ValueError(f"unknown traits {sorted(unknown)} for primitive {name!r}")
        self.name = name
        self.doc = doc
        self.operands = Operands(operands)
        self.results = results          # a count, or "*" (any number)
        self.blocks = blocks if isinstance(blocks, tuple) else (blocks,)   # allowed block counts
        self.attrs: Dict[str, Attr] = dict(attrs or {})
        self.traits = frozenset(traits)
        self.rules: Dict[str, Any] = dict.fromkeys(COLUMNS)
        self.rules["compiled"] = Unsupported("no compiled CPU backend yet")

    def __repr__(self) -> str:
        return f"<primitive {self.name}>"

    # ---- declaring rules (decorators) ---------------------------------------------------

    # One decorator per column, e.g. `@P.numpy def _(ex, op, *inputs): ...` (see _column).
    typing = _column("typing", "`rule(op) -> [result types]`, from the operands' types and the attributes.")
    fold = _column("fold", "`rule(attrs, *constants) -> value`: the op on compile-time Python values.")
    numpy = _column("numpy", "`rule(ex, op, *inputs) -> result(s)`: the CPU executor (inputs carry a block axis).")
    transpile = _column("transpile", "`rule(w, op)`: writes the op's statements into a transpiled module.")
    tileir = _column("tileir", "`rule(lowering, op)`: emits the op's TileIR.")
    compiled = _column("compiled", "The compiled CPU backend's rule.")

    def unsupported(self, column: str, reason: str) -> None:
        if column not in COLUMNS:
            raise ValueError(f"unknown rule column {column!r}")
        self.rules[column] = Unsupported(reason)

    # ---- reading rules -------------------------------------------------------------------

    def rule(self, column: str) -> Optional[Callable]:
        """The op's rule for `column`, or None when it has none (see `status`)."""
        r = self.rules[column]
        return None if isinstance(r, Unsupported) else r

    def status(self, column: str) -> Optional[str]:
        """None when the column has a rule; else the stated reason, or "missing"."""
        r = self.rules[column]
        if isinstance(r, Unsupported):
            return r.reason
        return "missing" if r is None else None

    def has(self, trait: str) -> bool:
        return trait in self.traits

    def default(self, attr: str) -> Any:
        a = self.attrs[attr]
        if a.required:
            raise KeyError(f"attribute {attr!r} of {self.name} has no default")
        return a.default


PRIMITIVES: Dict[str, Primitive] = {}


def declare(name: str, doc: str = "", **schema) -> Primitive:
    """Declare primitive `name` (once) and return it, for its rules to be attached."""
    if name in PRIMITIVES:
        raise ValueError(f"primitive {name!r} is declared twice")
    p = PRIMITIVES[name] = Primitive(name, doc, **schema)
    return p


def lookup(name: str) -> Optional[Primitive]:
    return PRIMITIVES.get(name)


class Attrs(dict):
    """An op's attributes as given; reading a missing one gives its primitive's default (so no
    reader restates a default). Only the attributes given are printed and copied."""
    __slots__ = ("op_name",)

    def __init__(self, op_name: str, items=()):
        super().__init__(items)
        self.op_name = op_name

    def __missing__(self, key: str) -> Any:
        prim = PRIMITIVES.get(self.op_name)
        attr = prim.attrs.get(key) if prim is not None else None
        if attr is None or attr.required:
            raise KeyError(f"op '{self.op_name}' has no attribute {key!r}")
        return attr.default

    def __reduce__(self):
        return (Attrs, (self.op_name, dict(self)))
