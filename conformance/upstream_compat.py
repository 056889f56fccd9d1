"""Stand-ins for the few private `cuda.tile._*` modules that upstream's tests import for host-side helpers.

Upstream's tests reach into private modules for things that are not kernel semantics:
exception classes, dtype objects, the bytecode version (to skip tests on old drivers), the
GPU architecture. Under the harness these names resolve to tilescope's equivalents, so the
value tests can run. Everything else private (`_bytecode` encoders, `_ir` internals,
`compile_tile`, calling conventions) stays missing on purpose: a test that needs it tests
upstream's implementation, not cuTile semantics, and is reported as not applicable.
"""
from __future__ import annotations

import sys
import types

from tilescope.devices.cuda_tile import ALIASES   # boot.py has made tilescope importable


def _module(name: str, **attrs) -> types.ModuleType:
    mod = types.ModuleType(name)
    mod.__dict__.update(attrs)
    mod.__tilescope_conformance_alias__ = True
    return mod


def install() -> None:
    """Register the harness-only stand-ins (after tilescope's device layer, whose `cuda.tile`
    aliases already cover `_datatype`, `_exception`, `_cext`, `_compile`, `_bytecode`...)."""
    from tilescope import dtypes
    mods = {
        "cuda.tile._ir": _module("cuda.tile._ir"),
        "cuda.tile._ir.typing_support": _module("cuda.tile._ir.typing_support", to_dtype=dtypes.as_dtype),
    }
    from . import upstream_facts
    facts = upstream_facts.load()
    if facts is not None:          # upstream's own answers, computed by the real package in another process
        mods["cuda.tile._ir.cast_ops"] = _module(
            "cuda.tile._ir.cast_ops", _is_implicit_cast_ok=upstream_facts.is_implicit_cast_ok_factory(facts))
    mods["cuda.tile._ir"].__path__ = []          # a package: its other submodules are placeholders
    mods["cuda.tile._ir"].typing_support = mods["cuda.tile._ir.typing_support"]
    sys.modules.update(mods)
    import importlib
    tile = importlib.import_module("cuda.tile")
    for name, mod in mods.items():
        short = name[len("cuda.tile."):]
        if "." not in short:
            setattr(tile, short, mod)
    install_internal_placeholders()
    _fill_compilation_module()


def _fill_compilation_module() -> None:
    """`cuda.tile.compilation` names tilescope lacks (DataclassConstraint, PointerConstraint, ...)
    become placeholders: the module imports, and a test that uses them is reported as not applicable."""
    import importlib
    mod = importlib.import_module("cuda.tile.compilation")
    if hasattr(mod, "__getattr__"):
        return
    mod.__path__ = []                            # cuda.tile.compilation._signature etc.: placeholders

    def __getattr__(name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return Internal(f"cuda.tile.compilation.{name} (ahead-of-time compilation API)")
    mod.__getattr__ = __getattr__


# ---------------------------------------------------------------------------------------
# Every other private module: importable, but using anything from it skips the test.
# ---------------------------------------------------------------------------------------

NOT_APPLICABLE = "not applicable: uses upstream internal"


class UpstreamInternalUsed(RuntimeError):
    """Raised outside pytest when code touches an upstream-internal name."""


def _skip(what: str):
    msg = f"{NOT_APPLICABLE} {what}"
    try:
        import pytest
    except ImportError:
        raise UpstreamInternalUsed(msg) from None
    raise pytest.skip.Exception(msg, allow_module_level=True)


def _at_module_level() -> bool:
    return sys._getframe(2).f_code.co_name == "<module>"


class Internal:
    """Placeholder for a private upstream object: any use skips the test that uses it."""

    def __init__(self, qualname: str):
        object.__setattr__(self, "_qualname", qualname)

    # Used while a module is imported (a default argument, a module constant), a placeholder
    # stays lazy, so only the tests that really use it are skipped.

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__") and not _at_module_level():
            raise AttributeError(name)
        return Internal(f"{self._qualname}.{name}")

    def __call__(self, *args, **kwargs):
        if _at_module_level():
            return Internal(f"{self._qualname}()")
        _skip(self._qualname)

    def __getitem__(self, key):
        if _at_module_level():
            return Internal(f"{self._qualname}[...]")
        _skip(self._qualname)

    def __iter__(self):
        _skip(self._qualname)

    def __mro_entries__(self, bases):
        _skip(self._qualname)

    def __repr__(self):
        return f"<upstream internal {self._qualname}>"


class _InternalModule(type(sys)):
    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return Internal(f"{self.__name__}.{name}")


class _InternalFinder:
    """Meta-path finder for `cuda.tile._*` (and `cutile_cache*`) names the stand-ins above do not cover."""

    @staticmethod
    def _wanted(fullname: str) -> bool:
        if fullname in ALIASES:
            return False                 # the product's own alias
        return (fullname.startswith(("cuda.tile._", "cuda.tile.compilation.", "cuda.tile.tune.", "cuda.tile.jax."))
                or fullname.split(".")[0] == "cutile_cache")

    def find_spec(self, fullname, path=None, target=None):
        if not self._wanted(fullname) or fullname in sys.modules:
            return None
        import importlib.machinery
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        mod = _InternalModule(spec.name)
        mod.__path__ = []
        return mod

    def exec_module(self, module):
        pass


def install_internal_placeholders() -> None:
    for module in list(sys.modules.values()):
        if getattr(module, "__tilescope_conformance_alias__", False) and not isinstance(module, _InternalModule):
            module.__class__ = _InternalModule         # stand-ins: unknown names become placeholders too
    if not any(isinstance(f, _InternalFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _InternalFinder())
