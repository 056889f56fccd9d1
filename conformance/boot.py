"""Process set-up shared by every harness child: `cuda.tile` is tilescope and CUDA is the CPU."""
from __future__ import annotations

import os
import sys

_done = False


def _ensure_tilescope_importable() -> None:
    try:
        import tilescope  # noqa: F401
    except ImportError:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        sys.path.insert(0, os.path.join(root, "src"))


def install() -> None:
    global _done
    if _done:
        return
    _ensure_tilescope_importable()
    from tilescope import devices
    devices.activate()                   # cuda.tile is tilescope, CUDA is the CPU (before any test imports)
    from . import upstream_compat
    upstream_compat.install()
    _done = True


def assert_tilescope() -> None:
    """Guard: the harness must never exercise upstream's own compiler."""
    mod = sys.modules.get("cuda.tile")
    if mod is None or not getattr(mod, "__tilescope__", False):
        raise RuntimeError("conformance harness: cuda.tile is not tilescope in this process")
