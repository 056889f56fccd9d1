"""`executeModules`: run the document's module, only when the user opted in.

Runs inside the analysis worker (a separate process with a memory limit, killed by the
server when it runs past its time), never in the server. The module runs as an
imported module would (its `if __name__ == "__main__":` block does not), with
`cuda.tile` resolving to tilescope. Its globals then fill in the values the static
reader could not know.
"""
from __future__ import annotations

import os
import sys
import traceback
from typing import Any, Dict

from ...lang import shim

MODULE_NAME = "__tilescope_lsp_module__"
ERROR_KEY = "__tilescope_error__"      # (line, message) when running the module raised


def execute_module(text: str, filename: str) -> Dict[str, Any]:
    """The module's globals after running it; what it raised is reported, not propagated."""
    shim.install()
    namespace: Dict[str, Any] = {"__name__": MODULE_NAME, "__file__": filename, "__builtins__": __builtins__}
    folder = os.path.dirname(os.path.abspath(filename))
    added = folder not in sys.path
    if added:
        sys.path.insert(0, folder)     # its sibling modules, as when it is run
    try:
        code = compile(text, filename, "exec")
        exec(code, namespace)
    except BaseException as e:   # noqa: B902 - whatever the module does, the worker goes on
        if isinstance(e, (KeyboardInterrupt, MemoryError)):
            raise
        lines = [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == filename]
        namespace[ERROR_KEY] = (lines[-1] if lines else 1, f"{type(e).__name__}: {e}")
    finally:
        if added:
            try:
                sys.path.remove(folder)
            except ValueError:
                pass
    return namespace
