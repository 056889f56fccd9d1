"""Compile-time diagnostics: source locations and the Tile*Error classes.

The public names match `cuda.tile`'s (`ct.TileTypeError`...), and so do the class
names Python prints in tracebacks (`TypeCheckingError`...), so code and doctests
written against upstream behave the same under tilescope.
"""
from __future__ import annotations

import linecache
from dataclasses import dataclass, field, replace
from typing import Optional


@dataclass(frozen=True)
class InlinedScope:
    """One inlining of a helper function: the function's name ("<lambda>" for a lambda), file and
    first line and column, and a number unique per inlining ("s0", "s1"... in inlining order), as
    upstream's debug info names each inlined helper."""
    name: str
    filename: str
    line: int
    col: int
    specialization: str


@dataclass(frozen=True)
class Loc:
    """A source range. Lines and columns are 1-based; `end_col` is exclusive."""
    filename: str
    line: int
    col: int
    end_line: Optional[int] = None
    end_col: Optional[int] = None
    # Where an inlined helper was called from, for "called from" notes.
    call_site: Optional["Loc"] = None
    # The inlined helper the location is inside (debug info only; not part of equality).
    scope: Optional[InlinedScope] = field(default=None, compare=False, repr=False)
    # Where debug info places the op instead, when that is not the user's code: inside a Tile
    # method cuTile writes in Python (passes/infer/method_scopes.py). Debug info only.
    debug: Optional["Loc"] = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}:{self.col}"

    def with_call_site(self, call_site: Optional["Loc"]) -> "Loc":
        return replace(self, call_site=call_site) if call_site is not None else self

    def source_line(self) -> str:
        return linecache.getline(self.filename, self.line).rstrip("\n")


UNKNOWN_LOC = Loc("<unknown>", 0, 0)


class TileError(Exception):
    """Base of every error tilescope reports about user code."""

    def __init_subclass__(cls, public: Optional[str] = None, **kwargs):
        super().__init_subclass__(**kwargs)
        if public is not None:
            cls.public_name = public       # the `cuda.tile` name (`kind`); aliased at the end

    def __init__(self, message: str, loc: Optional[Loc] = None):
        super().__init__(message)
        self.message = message
        self.loc = loc

    def __str__(self) -> str:
        return self.message if self.loc is None else f"{self.loc}: {self.message}"

    @property
    def kind(self) -> str:
        """The public `cuda.tile` name of the error class (`TileTypeError`...)."""
        cls = type(self)
        return cls.__dict__.get("public_name", cls.__name__)

    def format(self, *, context: bool = True) -> str:
        """`file:line:col: error: Kind: message` plus the source line and a caret."""
        loc = self.loc or UNKNOWN_LOC
        lines = [f"{loc}: error: {self.kind}: {self.message}"]
        if context and loc.line > 0:
            src = loc.source_line()
            if src:
                width = 1
                if loc.end_col is not None and (loc.end_line in (None, loc.line)):
                    width = max(1, loc.end_col - loc.col)
                lines.append("    " + src)
                lines.append("    " + " " * (loc.col - 1) + "^" + "~" * (width - 1))
        site = loc.call_site
        while site is not None:
            lines.append(f"{site}: note: called from here")
            site = site.call_site
        return "\n".join(lines)

    def to_json(self) -> dict:
        loc = self.loc or UNKNOWN_LOC
        return {"kind": self.kind, "message": self.message, "file": loc.filename,
                "line": loc.line, "col": loc.col, "end_line": loc.end_line, "end_col": loc.end_col}


class UnsupportedSyntaxError(TileError, public="TileSyntaxError"):
    """Python syntax that cuTile does not support."""


class TypeCheckingError(TileError, public="TileTypeError"):
    """A value of the wrong type, dtype or shape."""


class InvalidValueError(TileError, public="TileValueError"):
    """A value that is invalid for the operation (e.g. a non-power-of-two shape)."""


class UnsupportedFeatureError(TileError, public="TileUnsupportedFeatureError"):
    """A feature the compiler or target does not support."""


class RecursionLimitError(TileError, public="TileRecursionError"):
    """Inlining recursed too deeply."""


class StaticEvalError(TileError, public="TileStaticEvalError"):
    """An error raised while evaluating `static_eval` or other compile-time Python."""


class StaticAssertionError(TileError, public="TileStaticAssertionError"):
    """`static_assert` found its condition false."""


class InternalError(TileError, public="TileInternalError"):
    """A bug in tilescope itself, never the user's fault."""


class CompilerExecutionError(InternalError, public="TileCompilerExecutionError"):
    """An external compiler (tileiras) failed."""


class CompilerTimeoutError(InternalError, public="TileCompilerTimeoutError"):
    """An external compiler (tileiras) ran out of time."""


class StaticException(StaticEvalError):
    """Raised by `ct.static_exception` or by compile-time Python code."""


# The names cuda.tile exports (ct.TileTypeError...).
TileSyntaxError = UnsupportedSyntaxError
TileTypeError = TypeCheckingError
TileValueError = InvalidValueError
TileUnsupportedFeatureError = UnsupportedFeatureError
TileRecursionError = RecursionLimitError
TileStaticEvalError = StaticEvalError
TileStaticAssertionError = StaticAssertionError
TileInternalError = InternalError
TileCompilerExecutionError = CompilerExecutionError
TileCompilerTimeoutError = CompilerTimeoutError
