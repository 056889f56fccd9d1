"""Driving a real headless Chromium for the trace pages (Debian's /usr/bin/chromium through
Playwright, never a browser Playwright downloads). `available()` says why not, when not."""
from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from typing import Optional

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]


def chromium_path() -> Optional[str]:
    for p in (os.environ.get("TILESCOPE_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if p and os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


def available() -> Optional[str]:
    """None when a browser can be driven here, else the reason it cannot."""
    try:
        import playwright.sync_api  # noqa: F401  (optional: the browser tests' driver)
    except ImportError:
        return "playwright is not installed"
    if chromium_path() is None:
        return "no Chromium at /usr/bin/chromium (apt-get install chromium)"
    return None


@contextmanager
def browser_page(width: int = 1280, height: int = 900):
    """A page of a fresh Chromium profile; `page.errors` collects console errors and exceptions."""
    from playwright.sync_api import sync_playwright
    profile = tempfile.mkdtemp(prefix="tilescope-chromium-")
    try:
        with sync_playwright() as p:
            ctx = p.chromium.launch_persistent_context(profile, executable_path=chromium_path(), headless=True,
                                                       args=FLAGS, viewport={"width": width, "height": height})
            try:
                page = ctx.new_page()
                page.errors = []
                page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda e: page.errors.append(str(e)))
                yield page
            finally:
                ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


CANVAS_STATS = """() => Array.from(document.querySelectorAll('canvas.cells')).map(c => {
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let ink = 0, sum = 0;
  for (let i = 0; i < d.length; i += 4) { const v = d[i] + d[i + 1] + d[i + 2]; sum += v; if (v < 740) ink++; }
  return {w: c.width, h: c.height, ink: ink, sum: sum, array: c.dataset.array};
})"""
