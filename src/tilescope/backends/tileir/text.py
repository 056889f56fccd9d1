"""TileIR as MLIR text, in the syntax `tileirdisasm` prints."""
from __future__ import annotations

import re
from typing import Dict, List

from .ir import (Bounded, Dense, DivBy, FloatAttr, Hints, IntAttr, Scalar, TBlock, TFunc, TModule, TOp,
                 TValue, Tile)
from .elements import bitwidth, format_float, format_int, is_float, storage_bytes

# Attribute values that print as nothing (the op's default).
DEFAULT_ROUNDING = {"exp": "full", "tanh": "full"}
SIMPLE_UNARY = {"absf", "absi", "ceil", "cos", "cosh", "floor", "log", "log2", "negf", "sin", "sinh", "tan"}
FTZ_UNARY = {"rsqrt", "exp2"}
ROUNDED_UNARY = {"sqrt", "exp", "tanh"}
ROUNDED_BINARY = {"addf", "subf", "mulf", "divf"}
OVERFLOW_BINARY = {"addi", "subi", "muli", "shli"}
PLAIN_BINARY = {"andi", "ori", "xori", "atan2", "remf", "fpowf", "mulhii"}
SIGNED_BINARY = {"remi", "maxi", "mini", "shri"}
CASTS = {"bitcast", "reshape", "broadcast", "int_to_ptr", "ptr_to_int", "ptr_to_ptr", "pack", "unpack"}


def _rounding(op: TOp, key: str = "rounding_mode") -> str:
    default = DEFAULT_ROUNDING.get(op.name, "nearest_even")
    mode = op.attrs.get(key, default)
    if mode == default:
        return ""
    return f"rounding<{mode}>"


def format_hints(h: Hints) -> str:
    parts = []
    for target, items in h.by_target:
        inner = ", ".join(f"{k} = {str(v).lower() if isinstance(v, bool) else v}" for k, v in items)
        parts.append(f"{target} = {{{inner}}}")
    return "<" + ", ".join(parts) + ">"


def format_identity(a) -> str:
    if isinstance(a, FloatAttr):
        return f"{format_float(a.bits, a.elem)} : {a.elem}"
    if a.elem.name == "i1":
        return format_int(a.value, a.elem)          # MLIR prints a bool attribute bare
    return f"{format_int(a.value, a.elem)} : {a.elem}"


def format_dense(d: Dense, ty: Tile) -> str:
    n = storage_bytes(d.elem)

    def elem(i: int) -> str:
        if d.elem.name == "i1" and not d.splat:
            return "true" if (d.data[i // 8] >> (i % 8)) & 1 else "false"
        raw = int.from_bytes(d.data[i * n:(i + 1) * n], "little")
        return format_float(raw, d.elem) if is_float(d.elem) else format_int(raw, d.elem)

    if d.splat:
        return f"<{d.elem}: {elem(0)}>"
    counter = iter(range(10 ** 9))

    def nested(shape) -> str:
        if not shape:
            return elem(next(counter))
        return "[" + ", ".join(nested(shape[1:]) for _ in range(shape[0])) + "]"
    return f"<{d.elem}: {nested(ty.shape)}>"


class TextPrinter:
    def __init__(self):
        self.names: Dict[int, str] = {}
        self.used: Dict[str, int] = {}
        self.lines: List[str] = []
        self.counter = 0

    # -- names ----------------------------------------------------------------
    def define(self, v: TValue, base: str = "") -> str:
        base = base or v.hint
        if not base:
            name = str(self.counter)
            self.counter += 1
        else:
            n = self.used.get(base, -1) + 1
            self.used[base] = n
            name = base if n == 0 else f"{base}_{n}"
        self.names[id(v)] = "%" + name
        return "%" + name

    def n(self, v: TValue) -> str:
        return self.names.get(id(v), "%<undefined>")

    def ns(self, vs) -> str:
        return ", ".join(self.n(v) for v in vs)

    @staticmethod
    def ts(vs) -> str:
        return ", ".join(str(v.type) for v in vs)

    # -- structure --------------------------------------------------------------
    def module(self, m: TModule) -> str:
        for f in m.funcs:
            self.func(f)
        return "\n".join(self.lines) + "\n"

    def func(self, f: TFunc) -> None:
        params = []
        for i, p in enumerate(f.params):
            params.append(f"{self.define(p, f'arg{i}')}: {p.type}")
        head = f"entry @{f.name}({', '.join(params)})"
        if f.hints is not None:
            head += f" optimization_hints={format_hints(f.hints)}"
        self.lines.append(head + " {")
        self.block(f.body, "  ")
        self.lines.append("}")

    def block(self, b: TBlock, indent: str, elide: str = "") -> None:
        for i, op in enumerate(b.ops):
            last = i == len(b.ops) - 1
            if last and op.name == elide and not op.operands:
                continue
            self.op(op, indent)

    def results(self, op: TOp, grouped: bool) -> str:
        if not op.results:
            return ""
        if grouped and len(op.results) > 1:
            base = self.define(op.results[0])
            for i, r in enumerate(op.results):
                self.names[id(r)] = f"{base}#{i}"
            return f"{base}:{len(op.results)} = "
        return ", ".join(self.define(r) for r in op.results) + " = "

    # -- ops ----------------------------------------------------------------------
    def op(self, op: TOp, ind: str) -> None:
        name, a, at = op.name, op.args, op.attrs
        if name in ("for", "loop", "if", "reduce", "scan"):
            return getattr(self, "_" + name)(op, ind)
        lhs = self.results(op, grouped=name in ("get_index_space_shape",))
        n, T = self.n, (str(op.results[0].type) if op.results else "")
        if name in SIMPLE_UNARY or name == "negi":
            text = f"{name} {n(a['source'])} : {T}"
        elif name in FTZ_UNARY:
            text = f"{name} {n(a['source'])}{' flush_to_zero' if at.get('flush_to_zero') else ''} : {T}"
        elif name in ROUNDED_UNARY:
            text = f"{name} {n(a['source'])} {_rounding(op)}{' flush_to_zero' if at.get('flush_to_zero') else ''} : {T}"
        elif name in ROUNDED_BINARY:
            text = (f"{name} {n(a['lhs'])}, {n(a['rhs'])} {_rounding(op)}"
                    f"{' flush_to_zero' if at.get('flush_to_zero') else ''} : {T}")
        elif name == "fma":
            text = (f"fma {n(a['lhs'])}, {n(a['rhs'])}, {n(a['acc'])} {_rounding(op)}"
                    f"{' flush_to_zero' if at.get('flush_to_zero') else ''} : {T}")
        elif name in ("maxf", "minf"):
            flags = "".join(f" {k}" for k in ("flush_to_zero", "propagate_nan") if at.get(k))
            text = f"{name} {n(a['lhs'])}, {n(a['rhs'])}{flags} : {T}"
        elif name in OVERFLOW_BINARY:
            ov = at.get("overflow", "none")
            text = f"{name} {n(a['lhs'])}, {n(a['rhs'])}{'' if ov == 'none' else f' overflow<{ov}>'} : {T}"
        elif name in PLAIN_BINARY:
            text = f"{name} {n(a['lhs'])}, {n(a['rhs'])} : {T}"
        elif name in SIGNED_BINARY:
            text = f"{name} {n(a['lhs'])}, {n(a['rhs'])} {at['signedness']} : {T}"
        elif name == "divi":
            rnd = at.get("rounding", "zero")
            text = (f"divi {n(a['lhs'])}, {n(a['rhs'])} {at['signedness']}"
                    f"{'' if rnd == 'zero' else f' rounding<{rnd}>'} : {T}")
        elif name == "cmpi":
            text = (f"cmpi {at['comparison_predicate']} {n(a['lhs'])}, {n(a['rhs'])}, {at['signedness']} : "
                    f"{a['lhs'].type} -> {T}")
        elif name == "cmpf":
            text = (f"cmpf {at['comparison_predicate']} {at['comparison_ordering']} {n(a['lhs'])}, "
                    f"{n(a['rhs'])} : {a['lhs'].type} -> {T}")
        elif name == "exti":
            text = f"exti {n(a['from'])} {at['signedness']} : {a['from'].type} -> {T}"
        elif name == "trunci":
            ov = at.get("overflow", "none")
            text = f"trunci {n(a['from'])}{'' if ov == 'none' else f' overflow<{ov}>'} : {a['from'].type} -> {T}"
        elif name == "ftof":
            text = f"ftof {n(a['from'])} {_rounding(op)} : {a['from'].type} -> {T}"
        elif name == "itof":
            text = f"itof {n(a['from'])} {at['signedness']} {_rounding(op)} : {a['from'].type} -> {T}"
        elif name == "ftoi":
            rnd = at.get("rounding_mode", "nearest_int_to_zero")
            rtxt = "" if rnd == "nearest_int_to_zero" else f"rounding<{rnd}>"
            text = f"ftoi {n(a['from'])} {at['signedness']} {rtxt} : {a['from'].type} -> {T}"
        elif name in CASTS:
            text = f"{name} {n(a['source'])} : {a['source'].type} -> {T}"
        elif name == "permute":
            text = f"permute {n(a['source'])} [{', '.join(map(str, at['permutation']))}] : {a['source'].type} -> {T}"
        elif name == "select":
            text = f"select {n(a['cond'])}, {n(a['val_if_true'])}, {n(a['val_if_false'])} : {a['cond'].type}, {T}"
        elif name == "cat":
            text = f"cat {n(a['lhs'])}, {n(a['rhs'])} dim = {at['dim']} : {a['lhs'].type}, {a['rhs'].type} -> {T}"
        elif name == "extract":
            text = f"extract {n(a['source'])}[{self.ns(a['indices'])}] : {a['source'].type} -> {T}"
        elif name == "insert":
            text = (f"insert {n(a['source'])}, {n(a['destination'])}[{self.ns(a['indices'])}] : "
                    f"{a['source'].type}, {T}")
        elif name in ("gdc_wait_tko", "gdc_launch_dependents_tko"):
            text = name + (f" token = {n(a['token'])}" if a.get("token") is not None else "") + " -> token"
        elif name == "fpowi":
            text = f"fpowi {n(a['source'])}, {n(a['exponent'])} : {T}, {a['exponent'].type}"
        elif name == "offset":
            text = f"offset {n(a['ptr'])}, {n(a['offset'])} : {a['ptr'].type}, {a['offset'].type} -> {T}"
        elif name in ("iota", "make_token"):
            text = f"{name} : {T}"
        elif name in ("get_tile_block_id", "get_num_tile_blocks"):
            text = f"{name} : {T}"
        elif name == "get_index_space_shape":
            text = f"get_index_space_shape {n(a['src'])} : {a['src'].type} -> {T}"
        elif name == "constant":
            text = f"constant {format_dense(at['value'], op.results[0].type)} : {T}"
        elif name == "assume":
            p = at["predicate"]
            if isinstance(p, Bounded):
                pred = f"bounded<{'?' if p.lb is None else p.lb}, {'?' if p.ub is None else p.ub}>"
            else:
                pred = f"div_by<{p.divisor}>"
            text = f"assume {pred}, {n(a['value'])} : {a['value'].type}"
        elif name == "mmaf":
            text = (f"mmaf {n(a['lhs'])}, {n(a['rhs'])}, {n(a['acc'])}{' fast_acc' if at.get('fast_acc') else ''}"
                    f" : {a['lhs'].type}, {a['rhs'].type}, {a['acc'].type}")
        elif name == "mmai":
            text = (f"mmai {n(a['lhs'])}, {n(a['rhs'])}, {n(a['acc'])} {at['signedness_lhs']} "
                    f"{at['signedness_rhs']} : {a['lhs'].type}, {a['rhs'].type}, {a['acc'].type}")
        elif name == "mmaf_scaled":
            ops_ = [a[k] for k in ("lhs", "rhs", "acc", "lhs_scale", "rhs_scale")]
            text = f"mmaf_scaled {self.ns(ops_)} : {self.ts(ops_)}"
        elif name == "make_tensor_view":
            tv = op.results[0].type
            text = (f"make_tensor_view {n(a['base'])}, shape = [{self._extents(tv.shape, a['dynamicShape'])}], "
                    f"strides = [{self._extents(tv.strides, a['dynamicStrides'])}]")
            dyn = a['dynamicShape'] + a['dynamicStrides']
            text += (f" : {dyn[0].type}" if dyn else "") + f" -> {T}"
        elif name in ("make_partition_view", "make_gather_scatter_view", "make_strided_view"):
            text = f"{name} {n(a['tensor_view'])} : {T}"
        elif name in ("load_view_tko", "store_view_tko"):
            sem = at["memory_ordering_semantics"] + (f" {at['memory_scope']}" if at.get("memory_scope") else "")
            idx = f"{n(a['view'])}[{self.ns(a['index'])}]"
            tok = f" token = {n(a['token'])}" if a.get("token") is not None else ""
            hints = f" optimization_hints = {format_hints(at['optimization_hints'])}" \
                if at.get("optimization_hints") else ""
            itype = "".join(f", {t}" for t in dict.fromkeys(str(i.type) for i in a["index"]))
            inb = at.get("inbounds") or ()
            if any(inb):
                tok += f" inbounds = [{', '.join(str(bool(b)).lower() for b in inb)}]"
            if name == "load_view_tko":
                text = (f"load_view_tko {sem} {idx}{tok}{hints} : {a['view'].type}{itype} -> "
                        f"{self.ts(op.results)}")
            else:
                text = (f"store_view_tko {sem} {n(a['tile'])}, {idx}{tok}{hints} : {a['tile'].type}, "
                        f"{a['view'].type}{itype} -> token")
        elif name in ("load_ptr_tko", "store_ptr_tko", "atomic_rmw_tko", "atomic_cas_tko"):
            text = self._ptr_op(op)
        elif name == "atomic_red_view_tko":
            tok = f" token = {n(a['token'])}" if a.get("token") is not None else ""
            text = (f"atomic_red_view_tko {at['memory_ordering_semantics']} {at['memory_scope']} "
                    f"{n(a['view'])}[{self.ns(a['index'])}], {at['mode']}, {n(a['value'])}{tok} : "
                    f"{a['value'].type}, {a['view'].type}, {a['index'][0].type} -> token")
        elif name == "print_tko":
            args = a["args"]
            tok = f" token={n(a['token'])}" if a.get("token") is not None else ""
            text = f"print_tko {_quote(at['str'])}{', ' + self.ns(args) if args else ''}{tok}"
            text += f" : {self.ts(args)} -> token" if args else " -> token"
        elif name == "assert":
            text = f"assert {n(a['condition'])}, {_quote(at['message'])} : {a['condition'].type}"
        elif name == "join_tokens":
            text = f"join_tokens {self.ns(a['tokens'])} : {T}"
        elif name in ("yield", "continue", "break", "return"):
            vals = a["operands"]
            text = name + (f" {self.ns(vals)} : {self.ts(vals)}" if vals else "")
        else:
            text = f"{name} {self.ns(op.operands)} : {T}  // (no dedicated printer)"
        self.lines.append(ind + lhs + text)

    def _extents(self, static, dynamic) -> str:
        """A tensor view's shape or strides: constants inline, dynamic ones as their operands."""
        dyn = iter(dynamic)
        return ", ".join(self.n(next(dyn)) if d is None else str(d) for d in static)

    def _ptr_op(self, op: TOp) -> str:
        a, at, n = op.args, op.attrs, self.n
        sem = at["memory_ordering_semantics"] + (f" {at['memory_scope']}" if at.get("memory_scope") else "")
        tok = f" token={n(a['token'])}" if a.get("token") is not None else ""
        hints = f" optimization_hints = {format_hints(at['optimization_hints'])}" \
            if at.get("optimization_hints") else ""
        if op.name == "load_ptr_tko":
            vals = [a["source"], a.get("mask"), a.get("paddingValue")]
        elif op.name == "store_ptr_tko":
            vals = [a["destination"], a["value"], a.get("mask")]
        elif op.name == "atomic_rmw_tko":
            vals = [a["pointers"], a["arg"], a.get("mask")]
        else:
            vals = [a["pointers"], a["cmp"], a["val"], a.get("mask")]
        vals = [v for v in vals if v is not None]
        names = [n(v) for v in vals]
        if op.name == "atomic_rmw_tko":
            names.insert(1, at["mode"])
        types = [str(v.type) for v in vals]
        if op.name == "atomic_cas_tko":
            del types[1]          # cmp and val share one type
        return f"{op.name} {sem} {', '.join(names)}{tok}{hints} : {', '.join(types)} -> {self.ts(op.results)}"

    # -- region ops ---------------------------------------------------------------
    def _for(self, op: TOp, ind: str) -> None:
        lhs = self.results(op, grouped=True)
        body = op.regions[0]
        iv = self.define(body.args[0], "loopIdx")
        a = op.args
        text = f"for {iv} in ({self.n(a['lowerBound'])} to {self.n(a['upperBound'])}, step {self.n(a['step'])})" \
               f" : {a['lowerBound'].type}"
        inits = a["initValues"]
        if inits:
            its = [f"{self.define(b, f'iterArg{i}')} = {self.n(v)}" for i, (b, v) in
                   enumerate(zip(body.args[1:], inits))]
            text += f" iter_values({', '.join(its)}) -> ({self.ts(op.results)})"
        self.lines.append(ind + lhs + text + " {")
        self.block(body, ind + "  ", elide="continue")
        self.lines.append(ind + "}")

    def _loop(self, op: TOp, ind: str) -> None:
        lhs = self.results(op, grouped=True)
        body = op.regions[0]
        inits = op.args["initValues"]
        text = "loop"
        if inits:
            its = [f"{self.define(b, 'arg')} = {self.n(v)}" for b, v in zip(body.args, inits)]
            text += f" iter_values({', '.join(its)}) : {self.ts(inits)}"
        if op.results:
            text += f"{'' if inits else ' :'} -> {self.ts(op.results)}"
        self.lines.append(ind + lhs + text + " {")
        self.block(body, ind + "  ", elide="continue")
        self.lines.append(ind + "}")

    def _if(self, op: TOp, ind: str) -> None:
        lhs = self.results(op, grouped=True)
        text = f"if {self.n(op.args['condition'])}"
        if op.results:
            text += f" -> ({self.ts(op.results)})"
        self.lines.append(ind + lhs + text + " {")
        self.block(op.regions[0], ind + "  ", elide="yield")
        then_only = len(op.regions) < 2
        if not then_only:
            self.lines.append(ind + "} else {")
            self.block(op.regions[1], ind + "  ", elide="yield")
        self.lines.append(ind + "}")

    def _reduce(self, op: TOp, ind: str) -> None:
        self._combiner(op, ind, f"dim={op.attrs['dim']}")

    def _scan(self, op: TOp, ind: str) -> None:
        self._combiner(op, ind, f"dim={op.attrs['dim']} reverse={'true' if op.attrs['reverse'] else 'false'}")

    def _combiner(self, op: TOp, ind: str, attrs: str) -> None:
        lhs = self.results(op, grouped=True)
        vals = op.args["operands"]
        idents = ", ".join(format_identity(x) for x in op.attrs["identities"])
        self.lines.append(f"{ind}{lhs}{op.name} {self.ns(vals)} {attrs} identities=[{idents}] : "
                          f"{self.ts(vals)} -> {self.ts(op.results)} ")
        body = op.regions[0]
        args = ", ".join(f"{self.define(b, 'arg')}: {b.type}" for b in body.args)
        self.lines.append(f"{ind}({args}) {{")
        self.block(body, ind + "  ")
        self.lines.append(ind + "}")


def _quote(s: str) -> str:
    out = []
    for ch in s.encode("utf-8"):
        c = chr(ch)
        if c == '"' or c == "\\" or not (32 <= ch < 127):
            out.append("\\%02X" % ch)
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def print_module(m: TModule) -> str:
    return TextPrinter().module(m)


_NAME = re.compile(r"%[A-Za-z0-9_.$-]+")
_LHS = re.compile(r"^\s*((?:%[A-Za-z0-9_.$-]+(?::\d+)?(?:, )?)+) = ")


def normalize_names(text: str) -> str:
    """Rename SSA values to %v<k> in definition order (for comparing printers).

    MLIR reuses a name in a region once an earlier region that used it has closed, so each
    definition gets a fresh name and a use refers to the latest definition of its spelling.
    """
    current: Dict[str, str] = {}
    counter = [0]
    out = []
    for line in text.strip().splitlines():
        defs = set()
        m = _LHS.match(line)
        if m:
            defs.update(x.split(":")[0] for x in m.group(1).split(", "))
        defs.update(re.findall(r"(%[A-Za-z0-9_.$-]+): ", line))
        defs.update(re.findall(r"for (%[A-Za-z0-9_.$-]+) in", line))
        for inner in re.findall(r"iter_values\((.*?)\)", line):
            defs.update(re.findall(r"(%[A-Za-z0-9_.$-]+) = ", inner))
        pieces, pos = [], 0
        for tok in _NAME.finditer(line):
            name = tok.group(0)
            pieces.append(line[pos:tok.start()])
            is_def = name in defs and (line[tok.end():tok.end() + 2] in (": ", " =", ":2", ":3", ":4", ", ")
                                       or line[tok.end():].startswith(" in") or line[tok.end():tok.end() + 1] == ":")
            if is_def and not (line[tok.end():tok.end() + 2] == ", " and not m):
                counter[0] += 1
                current[name] = f"%v{counter[0]}"
                defs.discard(name)
            pieces.append(current.get(name, name))
            pos = tok.end()
        pieces.append(line[pos:])
        out.append("".join(pieces).rstrip())
    return "\n".join(out) + "\n"
