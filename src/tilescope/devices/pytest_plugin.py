"""pytest plugin (entry point `tilescope`): with TILESCOPE_CPU=1, the CPU device layer is on
before any test module is imported, so a GPU project's suite runs unmodified on the CPU
(`TILESCOPE_CPU=1 pytest`, or `tilescope run -m pytest`). Without it, the plugin does nothing."""
from __future__ import annotations

from . import activate, is_active, requested
from .target import current

if requested():
    activate()


def pytest_report_header(config):
    if is_active():
        t = current()
        return f"tilescope: CPU device layer on (cuda.tile on the CPU executor; emulated GPU {t.name}, {t.sm_arch})"
    return None
