"""Values the editor cannot know without running the user's module."""
from __future__ import annotations

from typing import Optional

from ..errors import Loc, TileStaticEvalError


class UnknownValue:
    """A module-level value that cannot be known without running the module."""

    def __init__(self, reason: str, loc: Optional[Loc] = None):
        self.reason = reason
        self.loc = loc

    def __repr__(self) -> str:
        return f"<unknown: {self.reason}>"


def unknown_value_error(ctx, name: str, value: UnknownValue) -> TileStaticEvalError:
    """The located error the interpreter raises when kernel code uses an unknown global."""
    where = f" (defined at line {value.loc.line})" if value.loc is not None else ""
    err = ctx.error(TileStaticEvalError,
                    f"the value of '{name}' is unknown without running the module{where}: {value.reason}")
    err.unknown = True
    return err


def is_unknown_error(err: BaseException) -> bool:
    return bool(getattr(err, "unknown", False))
