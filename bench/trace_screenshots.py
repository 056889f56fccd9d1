"""Screenshots of each example's trace page for docs/ (headless Chromium through Playwright).

    python bench/trace_screenshots.py [--out docs/trace]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.trace.browser import available, browser_page  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "trace"))
    a = p.parse_args(argv)
    why = available()
    if why:
        print(f"cannot take screenshots: {why}", file=sys.stderr)
        return 1
    os.makedirs(a.out, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    for name in sorted(f[:-3] for f in os.listdir(os.path.join(ROOT, "examples")) if f.endswith(".py")):
        folder = tempfile.mkdtemp(prefix=f"trace-{name}-")
        subprocess.run([sys.executable, "-m", "tilescope", "run", "--trace", folder,
                        os.path.join(ROOT, "examples", f"{name}.py")], check=True, env=env, capture_output=True)
        launch = sorted(d for d in os.listdir(folder) if os.path.isdir(os.path.join(folder, d)))[0]
        with browser_page(1400, 1000) as page:
            page.goto("file://" + os.path.join(folder, launch, "index.html"))
            canvases = page.locator("canvas.cells")
            last = canvases.nth(canvases.count() - 1)
            last.scroll_into_view_if_needed()
            box = last.bounding_box()
            last.click(position={"x": min(box["width"] - 2, 6), "y": min(box["height"] - 2, 6)})
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(200)
            path = os.path.join(a.out, f"{name}.png")
            page.screenshot(path=path)
            print(path, "console errors:", page.errors or "none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
