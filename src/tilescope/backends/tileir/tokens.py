"""Memory-ordering tokens for the TileIR lowering.

TileIR orders memory operations only through tokens: an op waits for its input token and
produces a result token. The scheme follows the cuTile memory model:

- every array parameter (and list-of-arrays parameter) is its own alias set (a bit); views
  derived from an array (slices, tiled views, raw memory, list items) share their root's set;
  `print` and grid-dependency control touch every set (UNIVERSE);
- per alias set we track the token of the last operation (load or store) and of the last
  store; a load waits for the last store of overlapping sets, a store or atomic waits for the
  last operation of overlapping sets;
- a release (release/acq_rel) waits for the last operation of *every* set, and everything after
  an acquire waits for the acquire;
- loops carry the tokens of the sets their body touches as extra iteration values (and `if`s
  return them as extra results), so ordering crosses iterations and branches.

`analyze(fn)` computes alias sets and per-block memory effects before lowering; `TokenMap` is
the lowering's current token of each key.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple

from ...ir.core import Block, Function, Op
from ...ir.types import ArrayType, ListType
from .ir import TOKEN

LOAD, STORE = 1, 2
UNIVERSE = -1                       # overlaps every alias set
ACQUIRE = "acquire"                 # key of the token of the last acquire

# op name -> (kind, index of the memory operand); kind: load, store or atomic
MEMORY_OPS = {
    "load_tile": ("load", 0), "gather": ("load", 0), "tiled_load": ("load", 0), "raw_load": ("load", 0),
    "load_advanced": ("load", 0),
    "store_tile": ("store", 0), "scatter": ("store", 0), "tiled_store": ("store", 0), "raw_store": ("store", 0),
    "store_advanced": ("store", 0),
    "atomic": ("atomic", 0), "atomic_cas": ("atomic", 0), "tiled_atomic": ("atomic", 0),
    "raw_atomic": ("atomic", 0), "raw_atomic_cas": ("atomic", 0),
}
# ops with a memory order that can acquire (pointer loads/stores have none upstream)
ORDERED = {"load_tile", "store_tile", "tiled_load", "tiled_store", "atomic", "atomic_cas", "tiled_atomic",
           "raw_atomic", "raw_atomic_cas"}
# ops whose result is a view of operand 0's memory
VIEWS = {"array_slice", "tiled_view", "raw_memory", "list_item"}


def order_name(op: Op) -> Optional[str]:
    """The op's memory order ('WEAK', 'ACQUIRE', ...) or None for ops that have none."""
    if op.name not in ORDERED:
        return None
    default = "ACQ_REL" if op.name in ("atomic", "atomic_cas", "tiled_atomic", "raw_atomic",
                                       "raw_atomic_cas") else "WEAK"
    mo = op.attrs.get("memory_order", default)
    return getattr(mo, "name", str(mo))


def has_acquire(order: Optional[str]) -> bool:
    return order in ("ACQUIRE", "ACQ_REL")


def has_release(order: Optional[str]) -> bool:
    return order in ("RELEASE", "ACQ_REL")


@dataclass
class Effects:
    """Per alias set: LOAD or STORE (the stronger wins), in first-touch order; and whether an
    acquire happens."""
    sets: Dict[int, int] = field(default_factory=dict)
    acquire: bool = False

    def add(self, alias: int, effect: int, acquire: bool = False) -> None:
        self.sets[alias] = max(self.sets.get(alias, 0), effect)
        self.acquire |= acquire

    def merge(self, other: "Effects") -> "Effects":
        out = Effects(dict(self.sets), self.acquire)
        for a, e in other.sets.items():
            out.add(a, e)
        out.acquire |= other.acquire
        return out

    def keys(self) -> List:
        """The token keys a construct with these effects carries, in a fixed order."""
        keys: List = []
        for alias, effect in self.sets.items():
            keys.append(("op", alias))
            if effect == STORE:
                keys.append(("store", alias))
        if self.acquire:
            keys.append(ACQUIRE)
        return keys


class Analysis:
    """Alias sets of array values and memory effects of every block of a function."""

    def __init__(self, fn: Function):
        self.alias: Dict[int, int] = {}
        self.effects: Dict[int, Effects] = {}
        bit = 0
        for p in fn.params:
            for v in p.values:
                if isinstance(v.type, (ArrayType, ListType)):
                    self.alias[v.id] = 1 << bit
                    bit += 1
        self.block(fn.body)

    def alias_of(self, v) -> int:
        return self.alias.get(v.id, UNIVERSE)

    def access(self, op: Op) -> Optional[Tuple[int, int, bool]]:
        """(alias set, effect, acquires) of one op, or None when it touches no memory."""
        if op.name in MEMORY_OPS:
            kind, i = MEMORY_OPS[op.name]
            effect = LOAD if kind == "load" else STORE
            return self.alias_of(op.operands[i]), effect, has_acquire(order_name(op))
        if op.name == "print":
            return UNIVERSE, STORE, False
        if op.name == "grid_control":
            return UNIVERSE, STORE, op.attrs.get("what") == "wait"
        return None

    def block(self, b: Block) -> Effects:
        fx = Effects()
        for op in b.ops:
            if op.name in VIEWS and op.operands:
                for r in op.results:
                    self.alias[r.id] = self.alias_of(op.operands[0])
            acc = self.access(op)
            if acc is not None:
                fx.add(*acc)
            for inner in op.blocks:
                fx = fx.merge(self.block(inner))
            if op.name == "if":
                self._join_aliases(op)
        self.effects[id(b)] = fx
        return fx

    def _join_aliases(self, op: Op) -> None:
        """An array an `if` returns may be any branch's: it belongs to the union of their sets."""
        for k, r in enumerate(op.results):
            if not isinstance(r.type, (ArrayType, ListType)):
                continue
            alias = 0
            for b in op.blocks:
                y = b.ops[-1] if b.ops else None
                if y is None or y.name != "yield" or k >= len(y.operands):
                    alias = UNIVERSE
                    break
                alias |= self.alias_of(y.operands[k])
            self.alias[r.id] = alias

    def of(self, b: Block) -> Effects:
        return self.effects.get(id(b), Effects())


class TokenMap:
    """The current token of each key (("op"|"store", alias) or ACQUIRE); a key read before it is
    set starts at the root token (and is remembered, so join order is stable)."""

    def __init__(self, root, items: Optional[Dict] = None):
        self.root = root
        self.items: Dict = dict(items or {})

    def copy(self) -> "TokenMap":
        return TokenMap(self.root, self.items)

    def get(self, key):
        if key not in self.items:
            self.items[key] = self.root
        return self.items[key]

    def set(self, key, tok) -> None:
        self.items[key] = tok

    def to_join(self, key, order: Optional[str]) -> List:
        """Tokens an op keyed `key` must wait for: its own chain, overlapping chains of the same
        role, every last-op chain for a release, and the last acquire."""
        toks = [self.get(key)]
        role, alias = key
        for other, tok in self.items.items():
            if other == ACQUIRE:
                join = True
            else:
                join = (has_release(order) and other[0] == "op") or (other[0] == role and other[1] & alias)
            if join and not any(tok is t for t in toks):
                toks.append(tok)
        return toks

    def values(self, keys: Iterable) -> List:
        return [self.get(k) for k in keys]


# ---- dropping tokens nothing waits for ---------------------------------------------------------

def _exits(region, names=("continue", "break")):
    """The continue/break ops of the loop whose body is `region` (not of nested loops)."""
    for o in region.ops:
        if o.name in names:
            yield o
        elif o.name == "if":
            for r in o.regions:
                yield from _exits(r, names)


def _walk(block):
    for o in block.ops:
        yield o
        for r in o.regions:
            yield from _walk(r)


def _slots(op):
    """For a TileIR for/loop: (inits, iter args, index offset of results vs. iter slots)."""
    inits = op.args["initValues"]
    args = op.regions[0].args[1:] if op.name == "for" else op.regions[0].args
    return inits, args, len(inits) - len(op.results)


def prune_tokens(body) -> None:
    """Dead-token elimination on a lowered body: `join_tokens` nobody waits for, and token
    iteration values / `if` results whose value is never used, the way upstream's dead-code
    elimination leaves them (e.g. a loop that only loads carries no token)."""
    ops = list(_walk(body))
    live = set()
    changed = True

    def mark(v):
        nonlocal changed
        if id(v) not in live:
            live.add(id(v))
            changed = True

    def slot_live(op, j):
        inits, args, d = _slots(op)
        if inits[j].type != TOKEN:
            return True
        return id(args[j]) in live or (j - d >= 0 and id(op.results[j - d]) in live)

    while changed:
        changed = False
        for o in ops:
            if o.name == "join_tokens":
                if id(o.result) in live:
                    for v in o.operands:
                        mark(v)
            elif o.name in ("continue", "break", "yield"):
                continue
            elif o.name in ("for", "loop"):
                inits, args, d = _slots(o)
                for k, v in o.args.items():
                    if k != "initValues":
                        for x in (v if isinstance(v, list) else [v]):
                            mark(x)
                exits = list(_exits(o.regions[0]))
                for j in range(len(inits)):
                    if slot_live(o, j):
                        mark(inits[j])
                        for e in exits:
                            vals = e.args["operands"]
                            i = j if e.name == "continue" else j - d
                            if 0 <= i < len(vals):
                                mark(vals[i])
            elif o.name == "if":
                mark(o.args["condition"])
                for k, r in enumerate(o.results):
                    if r.type != TOKEN or id(r) in live:
                        for e in _if_yields(o):
                            mark(e.args["operands"][k])
            else:
                for v in o.operands:
                    mark(v)
    _remove_dead(body, live)


def _if_yields(o):
    return [r.ops[-1] for r in o.regions if r.ops and r.ops[-1].name == "yield"]


def _remove_dead(block, live) -> None:
    kept = []
    for o in block.ops:
        if o.name == "join_tokens" and id(o.result) not in live:
            continue
        kept.append(o)
        if o.name in ("for", "loop"):
            inits, args, d = _slots(o)
            dead = [j for j in range(len(inits)) if inits[j].type == TOKEN and not (
                id(args[j]) in live or (j - d >= 0 and id(o.results[j - d]) in live))]
            if dead:
                exits = list(_exits(o.regions[0]))
                off = 1 if o.name == "for" else 0
                for j in reversed(dead):
                    del inits[j]
                    del o.regions[0].args[off + j]
                    if j - d >= 0:
                        del o.results[j - d]
                    for e in exits:
                        i = j if e.name == "continue" else j - d
                        if 0 <= i < len(e.args["operands"]):
                            del e.args["operands"][i]
        elif o.name == "if":
            dead = [k for k, r in enumerate(o.results) if r.type == TOKEN and id(r) not in live]
            for k in reversed(dead):
                del o.results[k]
                for e in _if_yields(o):
                    del e.args["operands"][k]
        for r in o.regions:
            _remove_dead(r, live)
    block.ops = kept


# ops whose only effect is their results: dropped when nothing uses them (as upstream's DCE does)
_PURE_SUFFIXES = ("_tko",)
_NOT_PURE = {"assert", "return", "yield", "continue", "break", "if", "for", "loop", "make_token"}


def is_pure(op) -> bool:
    """Whether an op's only effect is its results (no memory access, jump, or region)."""
    return op.name not in _NOT_PURE and not op.name.endswith(_PURE_SUFFIXES) and not op.regions


_REGION_OPS = ("if", "for", "loop")


def _effect_free(op) -> bool:
    """Whether an `if`/`for`/`loop` only computes its results: nothing inside it writes, prints or
    leaves it (a `break`/`continue` of a loop inside it, or of the loop itself, stays inside)."""
    def block_ok(block, loops: int) -> bool:
        for o in block.ops:
            if o.name in ("continue", "break"):
                if not loops:
                    return False
            elif o.regions:
                inner = loops + (o.name in ("for", "loop"))
                if o.name not in _REGION_OPS + ("reduce", "scan") or not all(block_ok(r, inner) for r in o.regions):
                    return False
            elif o.name != "yield" and not is_pure(o):
                return False
        return True
    return all(block_ok(r, int(op.name != "if")) for r in op.regions)


def drop_unused(body, kept=frozenset()) -> None:
    """Remove ops without side effects whose results nothing uses, repeatedly (extents no view
    reads, constants a fold replaced, ...), but the constants in `kept` (ids): upstream keeps a
    static stride's constant unused, and tileiras writes the TileIR text into the cubin's debug
    sections."""
    changed = True
    while changed:
        used = set()
        for o in _walk(body):
            used.update(id(v) for v in o.operands)
        changed = _drop(body, used, kept)


def _drop(block, used, kept) -> bool:
    changed = False
    stay = []
    for o in block.ops:
        for r in o.regions:
            changed |= _drop(r, used, kept)
        unused = not any(id(r) in used for r in o.results)
        dead = (is_pure(o) and o.results and unused) or (o.name in _REGION_OPS and unused and _effect_free(o))
        if dead and (not o.results or id(o.results[0]) not in kept):
            changed = True
            continue
        stay.append(o)
    block.ops = stay
    return changed
