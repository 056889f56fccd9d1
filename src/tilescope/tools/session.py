"""Loading a user's kernel file and compiling its kernels for the CLI and the editor."""
from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from typing import Any, List, Optional

from ..directives import KernelSite, find_kernels
from ..errors import Loc, TileError, TileSyntaxError


class UsageError(Exception):
    """Bad command-line input (exit code 2)."""


@dataclass
class Diagnostic:
    severity: str             # error, warning, note
    kind: str                 # error class or "info"
    message: str
    loc: Loc
    kernel: Optional[str] = None
    args: Optional[str] = None
    error: Optional[TileError] = None

    def format(self, *, context: bool = True, display_path: Optional[str] = None) -> str:
        if self.error is not None and self.severity == "error":
            text = self.error.format(context=context)
        else:
            text = f"{self.loc}: {self.severity}: {self.message}"
        if display_path and self.loc.filename != display_path:
            text = text.replace(self.loc.filename + ":", display_path + ":")
        return text

    def to_json(self, display_path: Optional[str] = None) -> dict:
        same = display_path and os.path.abspath(self.loc.filename) == os.path.abspath(display_path)
        d = {"severity": self.severity, "kind": self.kind, "message": self.message,
             "file": display_path if same else self.loc.filename,
             "line": self.loc.line, "col": self.loc.col, "end_line": self.loc.end_line,
             "end_col": self.loc.end_col, "kernel": self.kernel, "args": self.args}
        return d


@dataclass
class SourceFile:
    path: str
    text: str
    tree: Optional[ast.Module]
    kernels: List[KernelSite] = field(default_factory=list)
    module: Any = None

    @classmethod
    def read(cls, path: str) -> "SourceFile":
        if not os.path.exists(path):
            raise UsageError(f"{path}: no such file")
        if os.path.isdir(path):
            raise UsageError(f"{path}: is a directory, expected a Python file")
        try:
            with open(path, "rb") as f:
                raw = f.read()
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise UsageError(f"{path}: not a UTF-8 text file") from None
        except OSError as e:
            raise UsageError(f"{path}: {e.strerror}") from None
        try:
            tree = ast.parse(text, path)
        except SyntaxError as e:
            err = TileSyntaxError(e.msg, Loc(path, e.lineno or 1, e.offset or 1))
            sf = cls(path, text, None)
            sf.syntax_error = err
            return sf
        sf = cls(path, text, tree, find_kernels(tree, text))
        sf.syntax_error = None
        return sf

    def load(self):
        """Import the file with `cuda.tile` resolving to tilescope (its main block does not run)."""
        if self.module is None:
            from ..lang.shim import load_file
            self.module = load_file(self.path)
        return self.module


def import_failure(path: str, exc: BaseException) -> Diagnostic:
    """A located diagnostic for an exception raised while importing the user's file."""
    import traceback
    tb = traceback.extract_tb(exc.__traceback__)
    frames = [f for f in tb if os.path.abspath(f.filename) == os.path.abspath(path)]
    line = frames[-1].lineno if frames else 1
    msg = f"importing the file failed: {type(exc).__name__}: {exc}"
    return Diagnostic("error", "ImportError", msg, Loc(path, line or 1, 1))


def compile_site(sf: SourceFile, site: KernelSite, args_text: str, tileiras_version: Optional[str] = None):
    """Compile one kernel for one signature (features gated on `tileiras_version`, default the
    newest known); returns (Compiled or None, [Diagnostic])."""
    import tilescope
    from ..meta import parse_args
    try:
        specs = parse_args(args_text)
    except ValueError as e:
        return None, [Diagnostic("error", "ArgsError", f"bad argument metadata '{args_text}': {e}",
                                 Loc(sf.path, site.line, site.col), site.name, args_text)]
    kernel = getattr(sf.module, site.name, None)
    if kernel is None:
        return None, [Diagnostic("error", "ImportError", f"kernel '{site.name}' is not a module-level name",
                                 Loc(sf.path, site.line, site.col), site.name, args_text)]
    try:
        compiled = tilescope.compile(kernel, specs, tileiras_version=tileiras_version)
    except TileError as e:
        loc = e.loc or Loc(sf.path, site.line, site.col)
        return None, [Diagnostic("error", e.kind, e.message, loc, site.name, args_text, e)]
    return compiled, []
