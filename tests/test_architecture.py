"""The shape of the code, measured from its source: module and class sizes, the import graph.

Targets (docs/architecture.md): no module over 700 lines, no class over 400; no import cycle
among tilescope's modules (imports inside functions counted); at most 40 imports inside
functions, each commented. Where the code is not there yet, the numbers below are today's and
may only go down: a change that adds a long module, a cycle or a function-level import fails.
"""
import ast
import pathlib

import tilescope

SRC = pathlib.Path(tilescope.__file__).parent
MAX_MODULE, MAX_CLASS = 700, 400

# Over the limits (none today; an entry would hold a module's size, which may only shrink).
LONG_MODULES: dict = {}
LONG_CLASSES: dict = {}
# Modules in import cycles and imports inside functions (targets met: none, and at most 40).
MAX_IN_CYCLES = 0
MAX_FUNCTION_IMPORTS = 39


def _modules():
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        name = "tilescope." + rel[:-3].replace("/", ".")
        yield (name[: -len(".__init__")] if name.endswith(".__init__") else name), rel, path


def test_module_and_class_sizes():
    too_long = []
    for _, rel, path in _modules():
        text = path.read_text()
        lines = text.count("\n")
        if lines > LONG_MODULES.get(rel, MAX_MODULE):
            too_long.append(f"{rel}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                size = node.end_lineno - node.lineno + 1
                if size > LONG_CLASSES.get((rel, node.name), MAX_CLASS):
                    too_long.append(f"{rel}: class {node.name} {size} lines")
    assert not too_long


def import_graph():
    """(edges, imports inside functions): an edge from a module to every tilescope module it
    imports, and to that module's packages (their __init__ runs first), except its own."""
    names = {name for name, _, _ in _modules()}
    edges, in_functions = {}, []
    for name, rel, path in _modules():
        package = name if rel.endswith("__init__.py") else name.rpartition(".")[0]
        own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
        tree = ast.parse(path.read_text())
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = package.split(".")
                base = ".".join(base[:len(base) - node.level + 1]) if node.level else ""
                module = ".".join(p for p in (base, node.module or "") if p)
                targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in names else module for a in node.names]
            deps = set()
            for t in targets:
                if t in names:
                    deps |= {t} | {".".join(t.split(".")[:i]) for i in range(1, t.count(".") + 1)}
            deps = (deps & names) - own - {name}
            if not deps:
                continue
            edges.setdefault(name, set()).update(deps)
            scope = parents.get(node)
            while scope is not None and not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
                scope = parents.get(scope)
            if scope is not None:
                in_functions.append(f"{rel}:{node.lineno}")
    return edges, in_functions


def cycles(edges):
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_the_cycle_finder_finds_cycles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_import_cycles_and_function_level_imports_do_not_grow():
    edges, in_functions = import_graph()
    in_cycles = sorted(m for comp in cycles(edges) for m in comp)
    assert len(in_cycles) <= MAX_IN_CYCLES, in_cycles
    assert len(in_functions) <= MAX_FUNCTION_IMPORTS


def test_every_function_level_import_says_why():
    """A comment on the import's line or the line above: start-up time or an optional dependency."""
    _, in_functions = import_graph()
    silent = []
    for where in in_functions:
        rel, line = where.rsplit(":", 1)
        lines = (SRC / rel).read_text().splitlines()
        here, above = lines[int(line) - 1], lines[int(line) - 2].strip()
        if "#" not in here and not above.startswith("#"):
            silent.append(where)
    assert not silent


def test_ops_reach_the_numpy_backend_only_through_its_rule_facing_modules():
    """Op families use the semantics library; of the NumPy backend only the helpers their rules
    need (today: tiles, grid, partial, copying, fusion, widened; target: none)."""
    edges, _ = import_graph()
    allowed = {f"tilescope.backends.numpy.{m}" for m in ("tiles", "grid", "partial", "copying", "fusion", "widened")}
    used = {dep for name, deps in edges.items() if name.startswith("tilescope.ops.") for dep in deps
            if dep.startswith("tilescope.backends.") and dep not in ("tilescope.backends", "tilescope.backends.numpy")}
    assert used <= allowed, used - allowed


# The layers of docs/architecture.md, bottom up: a module imports only from its own layer and
# those below, but for the exceptions the page lists (importer prefix, imported prefix).
LAYERS = [("errors", "dtypes", "enums", "annotations", "signatures", "devices", "launch_args",
           "backends", "targets", "kernel_hints", "arraylike", "spec_syntax"),
          ("semantics",), ("ir",), ("frontend", "meta", "directives"), ("ops",), ("pyeval",), ("passes",), ("compiler",),
          ("costmodel",), ("trace",), ("backends.numpy", "backends.compiled", "run"), ("backends.tileir", "gpu"), ("lang",),
          ("tools", "__main__", "")]
LAYER_EXCEPTIONS = {
    ("frontend.static_module", "pyeval"), ("frontend.static_module", "lang"),       # reads a user's file
    ("frontend.static_classes", "pyeval"),                                          # without running it
    ("compiler", "backends.tileir"),                                                # Compiled.tileir_*()
    ("gpu", "lang"),                                                                # ct.launch on the GPU
    *(("ops", f"backends.numpy.{m}") for m in ("tiles", "grid", "partial", "copying", "fusion", "widened")),
    ("ops", "backends.numpy"),
    ("trace", "backends.compiled.toolchain"),      # the trace's C helpers are built and cached as kernels are
}


def _layer(module: str):
    """The layer of the longest prefix that names the module (None: no layer names it)."""
    rest = module[len("tilescope."):] if module.startswith("tilescope.") else ""
    best = None
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if (rest == p or (p and rest.startswith(p + "."))) and (best is None or len(p) > best[1]):
                best = (i, len(p))
    return None if best is None else best[0]


def _excepted(importer: str, imported: str) -> bool:
    a, b = importer[len("tilescope."):], imported[len("tilescope."):]
    # (an excepted module's packages come with it: their __init__ runs first)
    return any((a == x or a.startswith(x + ".")) and (b == y or b.startswith(y + ".") or y.startswith(b + "."))
               for x, y in LAYER_EXCEPTIONS)


def test_every_module_has_a_layer_and_imports_only_downwards():
    edges, _ = import_graph()
    names = {name for name, _, _ in _modules()}
    assert not [n for n in names if _layer(n) is None]
    upward = sorted(f"{a} -> {b}" for a, deps in edges.items() for b in deps
                    if _layer(b) > _layer(a) and not _excepted(a, b))
    assert not upward
