"""Values the editor cannot know without running the user's module."""
from __future__ import annotations

import math
from typing import Optional

from ..dtypes import ALL_DTYPES, dtype_from_name
from ..errors import Loc, TileStaticEvalError


class UnknownValue:
    """A module-level value that cannot be known without running the module."""

    def __init__(self, reason: str, loc: Optional[Loc] = None):
        self.reason = reason
        self.loc = loc

    def __repr__(self) -> str:
        return f"<unknown: {self.reason}>"


class ForeignDtypes(UnknownValue):
    """A module the editor does not import (numpy, torch, cupy) of which only its dtype names are
    known: kernels write `ct.arange(n, dtype=torch.int32)` (upstream's own samples do). Its other
    attributes are unknown, as the whole module used to be."""

    def __init__(self, module: str, reason: str, loc: Optional[Loc] = None):
        super().__init__(reason, loc)
        self.module = module

    def attribute(self, host, name: str):
        alias = _TORCH_ALIASES.get(name, name) if self.module == "torch" else "bool_" if name == "bool" else name
        if alias in {d.name for d in ALL_DTYPES}:
            return dtype_from_name(alias)
        if name in _CONSTANTS:            # `-np.inf` as a running maximum's start
            return _CONSTANTS[name]
        return host.unknown(f"{self.module}.{name}", UnknownValue(self.reason, self.loc))


_CONSTANTS = {"inf": math.inf, "nan": math.nan, "pi": math.pi, "e": math.e}
_TORCH_ALIASES = {"half": "float16", "float": "float32", "double": "float64", "short": "int16", "int": "int32",
                  "long": "int64", "bool": "bool_"}
FOREIGN_DTYPE_MODULES = ("numpy", "torch", "cupy")


def unknown_value_error(ctx, name: str, value: UnknownValue) -> TileStaticEvalError:
    """The located error the interpreter raises when kernel code uses an unknown global."""
    where = f" (defined at line {value.loc.line})" if value.loc is not None else ""
    err = ctx.error(TileStaticEvalError,
                    f"the value of '{name}' is unknown without running the module{where}: {value.reason}")
    err.unknown = True
    return err


def is_unknown_error(err: BaseException) -> bool:
    return bool(getattr(err, "unknown", False))
