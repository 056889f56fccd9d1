"""One entry per cuTile operation, grouped by family.

`load_all()` imports every family, which registers their surface functions,
typing rules and backend rules. It is called by the compiler, the executor and
`tilescope.lang` on first use; importing the registry alone stays cheap and free
of import cycles.
"""
import importlib

FAMILIES = ("memory", "elementwise", "math", "creation", "reduce", "matmul", "shape", "atomics",
            "gather", "views", "debug", "static_ops", "static_forms", "control")

_loaded = False


def load_all() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in FAMILIES:
        importlib.import_module(f"{__name__}.{name}")
