"""One entry per cuTile operation, grouped by family.

`load_all()` imports every family, which registers their surface functions,
typing rules and backend rules. It is called by the compiler, the executor and
`tilescope.lang` on first use; importing the registry alone stays cheap and free
of import cycles.
"""
import importlib
import threading

FAMILIES = ("memory", "elementwise", "math", "creation", "reduce", "matmul", "shape", "atomics",
            "gather", "views", "debug", "static_ops", "static_forms", "control")

_loaded = False
_lock = threading.RLock()
_loading_thread = None


def load_all() -> None:
    """Register every family. Other threads wait until registration is complete (a first
    launch from several threads at once must not see half the ops); the loading thread itself
    may come back here while a family imports (tilescope.lang's lazy names) and returns at once."""
    global _loaded, _loading_thread
    if _loaded:
        return
    with _lock:
        if _loaded or _loading_thread is threading.current_thread():
            return
        _loading_thread = threading.current_thread()
        try:
            for name in FAMILIES:
                importlib.import_module(f"{__name__}.{name}")
            _loaded = True
        finally:
            _loading_thread = None
