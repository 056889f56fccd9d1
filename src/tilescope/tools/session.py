"""Reading a user's kernel file and compiling its kernels for the CLI.

By default a file is read the way the language server reads it (frontend/static_module.py):
nothing of it is imported or executed; kernels, `# tilescope: args` directives, recorded
signatures and literal launch sites come from the source. `import_module=True` (`--import`)
imports it instead, for kernels that only exist once the module has run.
"""
from __future__ import annotations

import ast
import os
import traceback
from dataclasses import dataclass, field
from typing import Any, List, Optional, Tuple

from ..directives import KernelSite, find_kernels
from ..errors import Loc, TileError, TileSyntaxError


class UsageError(Exception):
    """Bad command-line input (exit code 2)."""


class LocatedUsageError(UsageError):
    """Bad input that names its own place (`FILE:LINE:COL: error: ...`), printed as it is."""


MAX_SOURCE_BYTES = 64 << 20     # a kernel file larger than this is not a kernel file


def check_source_path(path: str, what: str) -> None:
    """A regular file of sensible size (not a directory, a device such as /dev/zero, a pipe)."""
    if not os.path.exists(path):
        raise UsageError(f"{path}: no such file")
    if os.path.isdir(path):
        raise UsageError(f"{path}: is a directory, expected {what}")
    if not os.path.isfile(path):
        raise UsageError(f"{path}: is not a regular file, expected {what}")
    if os.path.getsize(path) > MAX_SOURCE_BYTES:
        raise UsageError(f"{path}: larger than {MAX_SOURCE_BYTES >> 20} MiB, expected {what}")


@dataclass
class Diagnostic:
    severity: str             # error, warning, note
    kind: str                 # error class or "info"
    message: str
    loc: Loc
    kernel: Optional[str] = None
    args: Optional[str] = None
    error: Optional[TileError] = None
    notes: List[Tuple[Loc, str]] = field(default_factory=list)

    def format(self, *, context: bool = True, display_path: Optional[str] = None) -> str:
        if self.error is not None and self.severity == "error":
            text = self.error.format(context=context)
        else:
            text = f"{self.loc}: {self.severity}: {self.kind + ': ' if self.kind not in ('info', 'unknown') else ''}" \
                   f"{self.message}"
            source = self.loc.source_line() if context and self.loc.line > 0 else ""
            if source.strip():
                text += f"\n    {source}\n    {' ' * (self.loc.col - 1)}^"
        for loc, note in self.notes:
            text += f"\n{loc}: note: {note}"
        if display_path and self.loc.filename != display_path:
            text = text.replace(self.loc.filename + ":", display_path + ":")
        return text

    def to_json(self, display_path: Optional[str] = None) -> dict:
        same = display_path and os.path.abspath(self.loc.filename) == os.path.abspath(display_path)
        d = {"severity": self.severity, "kind": self.kind, "message": self.message,
             "file": display_path if same else self.loc.filename,
             "line": self.loc.line, "col": self.loc.col, "end_line": self.loc.end_line,
             "end_col": self.loc.end_col, "kernel": self.kernel, "args": self.args}
        if self.notes:
            d["notes"] = [{"file": loc.filename, "line": loc.line, "message": text} for loc, text in self.notes]
        return d


@dataclass
class Signature:
    """Argument metadata for one compilation: a spec text, or specs read from a launch site."""
    specs: Any
    text: str
    source: str = "given"       # given (--args), directive, recorded, launch
    line: Optional[int] = None  # of the directive


@dataclass
class SourceFile:
    path: str
    text: str
    tree: Optional[ast.Module]
    kernels: List[KernelSite] = field(default_factory=list)
    module: Any = None          # the imported module (import_module=True)
    static: Any = None          # the module read from source (the default)
    syntax_error: Optional[TileSyntaxError] = None

    @classmethod
    def read(cls, path: str) -> "SourceFile":
        check_source_path(path, "a Python file")
        try:
            with open(path, "rb") as f:
                raw = f.read(MAX_SOURCE_BYTES + 1)
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise UsageError(f"{path}: not a UTF-8 text file") from None
        except OSError as e:
            raise UsageError(f"{path}: {e.strerror}") from None
        if "\x00" in text:
            raise UsageError(f"{path}: not a Python source file (it contains NUL bytes)")
        source = text[1:] if text.startswith("\ufeff") else text       # a UTF-8 byte order mark
        try:
            tree = ast.parse(source, path)
        except SyntaxError as e:
            return cls(path, text, None, syntax_error=TileSyntaxError(e.msg, Loc(path, e.lineno or 1, e.offset or 1)))
        except (ValueError, RecursionError, MemoryError) as e:
            return cls(path, text, None, syntax_error=TileSyntaxError(f"cannot parse the file: {e}", Loc(path, 1, 1)))
        return cls(path, text, tree, find_kernels(tree, source))

    @property
    def imported(self) -> bool:
        return self.module is not None

    def load(self, *, import_module: bool = False) -> None:
        """Read the module from its source (default) or import it; raises what importing raised."""
        if self.module is not None or self.static is not None:
            return
        if not import_module:
            from ..frontend.static_module import analyze_module  # start-up time: the CLI imports this module
            self.static = analyze_module(self.text.lstrip("\ufeff"), self.path)
            return
        from ..lang.shim import load_file  # start-up time: the CLI imports this module
        self.module = load_file(self.path)
        self._add_kernels_made_at_import()

    def _add_kernels_made_at_import(self) -> None:
        """Module-level kernels the source does not decorate (made by a factory, say)."""
        from ..lang.kernel import unwrap_tile_function, kernel as Kernel  # start-up time: the CLI imports this module
        known = {s.name for s in self.kernels}
        for name, value in list(vars(self.module).items()):
            if name in known or not isinstance(value, Kernel):
                continue
            fn = unwrap_tile_function(value)
            code = getattr(fn, "__code__", None)
            if code is not None and os.path.abspath(code.co_filename) == os.path.abspath(self.path):
                self.kernels.append(KernelSite(name, code.co_firstlineno, 1, code.co_firstlineno))

    def kernel(self, name: str, line: Optional[int] = None) -> Any:
        """The kernel object to compile (a live kernel, or its SourceFunction), or None; `line`: the
        `def` line of the definition meant, where the file defines the name more than once (read
        from the source; an imported module keeps only the name's last binding)."""
        if self.module is not None:
            return getattr(self.module, name, None)
        if self.static is None:
            return None
        return self.static.defined_at.get(line) or self.static.functions.get(name)

    def signatures(self, site: KernelSite) -> List[Signature]:
        """Directives, else signatures recorded by `run --record`, else evident launch sites."""
        if site.signatures:
            lines = site.directive_lines or [None] * len(site.signatures)
            return [Signature(s, s, "directive", line) for s, line in zip(site.signatures, lines)]
        from ..signatures import recorded  # start-up time: the CLI imports this module
        texts = recorded(self.path, site.name)
        if texts:
            return [Signature(t, t, "recorded") for t in texts]
        if self.static is not None:
            from .lsp.metadata import kernel_signatures  # start-up time: the CLI imports this module
            try:
                found = kernel_signatures(self.tree, self.text, self.path, self.static).get(site.name, [])
            except Exception:      # launch-site reading is best effort, as in the editor
                found = []
            return [Signature(s.specs, s.text, "launch") for s in found if s.source == "launch"]
        return []


def import_failure(path: str, exc: BaseException) -> Diagnostic:
    """A located diagnostic for an exception raised while importing the user's file: the
    exception, the user's line that raised it, and every exception of its chain."""
    chain: List[BaseException] = []
    e: Optional[BaseException] = exc
    while e is not None and all(e is not c for c in chain) and len(chain) < 16:
        chain.append(e)
        e = e.__cause__ if e.__cause__ is not None else (None if e.__suppress_context__ else e.__context__)
    head = chain[0]
    loc = _user_line(path, head) or Loc(path, 1, 1)
    what = "called sys.exit" if isinstance(head, SystemExit) else "failed"
    d = Diagnostic("error", "ImportError", f"importing the file {what}: {_text(head)}", loc)
    for i, cause in enumerate(chain[1:]):
        linked = "the direct cause of" if chain[i].__cause__ is cause else "raised while handling"
        where = _user_line(path, cause) or loc
        d.notes.append((where, f"{_text(cause)} ({'which was ' + linked + ' the above'})"))
    return d


def _text(e: BaseException) -> str:
    s = str(e)
    return f"{type(e).__name__}: {s}" if s else type(e).__name__


def _user_line(path: str, exc: BaseException) -> Optional[Loc]:
    """The last frame of `exc`'s traceback in the user's file (or, failing that, in any file
    outside tilescope and the Python installation)."""
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if os.path.abspath(f.filename) == os.path.abspath(path)]
    if not mine:
        from ..pyeval.kinds import is_user_code  # start-up time: the CLI imports this module
        mine = [f for f in frames if is_user_code(os.path.abspath(f.filename)) and "<frozen" not in f.filename]
    if not mine:
        return None
    f = mine[-1]
    col = (getattr(f, "colno", None) or 0) + 1
    return Loc(f.filename, f.lineno or 1, col)


def compile_site(sf: SourceFile, site: KernelSite, sig: Signature, *, trust: bool = False,
                 tileiras_version: Optional[str] = None):
    """Compile one kernel for one signature (features gated on `tileiras_version`, default the
    newest known); returns (Compiled or None, [Diagnostic])."""
    import tilescope
    from ..meta import parse_args  # start-up time: the CLI imports this module
    specs = sig.specs
    if isinstance(specs, str):
        try:
            specs = parse_args(specs)
        except (ValueError, RecursionError) as e:
            where = Loc(sf.path, sig.line, 1) if sig.line else Loc(sf.path, site.line, site.col)
            return None, [Diagnostic("error", "ArgsError", f"bad argument metadata '{sig.text}': {e}",
                                     where, site.name, sig.text)]
    kernel = sf.kernel(site.name, site.line)
    if kernel is None:
        return None, [Diagnostic("error", "ImportError", f"kernel '{site.name}' is defined inside a function: "
                                 f"tilescope reads kernels defined at module level",
                                 Loc(sf.path, site.line, site.col), site.name, sig.text)]
    try:
        compiled = tilescope.compile(kernel, specs, trust=trust, tileiras_version=tileiras_version)
    except TileError as e:
        loc = e.loc or Loc(sf.path, site.line, site.col)
        from ..frontend.unknown import is_unknown_error  # start-up time: the CLI imports this module
        if is_unknown_error(e):
            # Not the user's mistake: reading from source cannot know this value.
            return None, [Diagnostic("note", "unknown", f"kernel '{site.name}' was not checked: {e.message} "
                                     f"(--import checks it by importing the module)", loc, site.name, sig.text)]
        return None, [Diagnostic("error", e.kind, e.message, loc, site.name, sig.text, e)]
    return compiled, []
