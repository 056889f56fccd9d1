"""The trace pages in a real headless Chromium: they load without console errors, their
canvases are drawn, clicking a cell picks its block and highlights its tiles."""
import os
import subprocess
import sys

import numpy as np
import pytest

import tilescope
from tilescope.lang.shim import load_file

from .browser import CANVAS_STATS, available, browser_page

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = sorted(f[:-3] for f in os.listdir(os.path.join(ROOT, "examples")) if f.endswith(".py"))

pytestmark = pytest.mark.skipif(available() is not None, reason=str(available()))


def traced_example(name, folder):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    p = subprocess.run([sys.executable, "-m", "tilescope", "run", "--trace", str(folder),
                        os.path.join(ROOT, "examples", f"{name}.py")], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    pages = sorted(str(folder / d / "index.html") for d in os.listdir(folder) if os.path.isdir(folder / d))
    assert pages
    return pages


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_pages_draw_and_clicking_picks_a_block(name, tmp_path):
    for page_path in traced_example(name, tmp_path):
        with browser_page() as page:
            page.goto("file://" + page_path)
            page.wait_for_function("document.body.dataset.footprintCells !== undefined")
            before = page.evaluate(CANVAS_STATS)
            assert before and all(c["w"] > 0 and c["h"] > 0 and c["ink"] > 0 for c in before), before
            written = [i for i, c in enumerate(before) if c["array"] == before[-1]["array"]][0]
            page.locator("canvas.cells").nth(written).click(position={"x": 2, "y": 2})
            page.wait_for_function("document.body.dataset.selectedBlock !== ''")
            after = page.evaluate(CANVAS_STATS)
            assert int(page.evaluate("document.body.dataset.footprintCells")) > 0
            # other blocks' cells fade: the pictures change, the picked block's stay
            assert any(a["sum"] != b["sum"] for a, b in zip(after, before))
            assert page.locator("#steps li").count() > 0
            assert page.errors == []


def test_a_race_report_click_marks_its_blocks(tmp_path):
    k = load_file(os.path.join(ROOT, "tests", "trace", "kernels_trace.py"))
    x = np.arange(1024, dtype=np.float32)
    y = np.zeros(256, np.float32)
    tilescope.launch((4,), k.shared_tile, (x, y, 256), trace=str(tmp_path))
    with browser_page() as page:
        page.goto("file://" + str(tmp_path / "01-shared_tile" / "index.html"))
        page.locator("#reports li.report").first.click()
        page.wait_for_function("document.body.dataset.selectedBlock !== ''")
        assert page.evaluate("document.body.dataset.selectedBlock") == "0"
        assert "race" in page.locator("#reports li.report").first.inner_text()
        # the race's cells are magenta (230, 0, 200) where block 0's footprint is
        magenta = page.evaluate("""() => { const c = document.querySelector('canvas[data-array="y"]');
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
            for (let i = 0; i < d.length; i += 4) if (d[i] > 200 && d[i + 1] < 40 && d[i + 2] > 170) n++; return n; }""")
        assert magenta > 0
        assert page.errors == []


def test_stepping_through_iterations(tmp_path):
    k = load_file(os.path.join(ROOT, "tests", "trace", "kernels_trace.py"))
    x = np.ones((2, 1024), np.float32)
    out = np.zeros(2, np.float32)
    tilescope.launch((2,), k.row_sums, (x, out, 256), trace=str(tmp_path))
    with browser_page() as page:
        page.goto("file://" + str(tmp_path / "01-row_sums" / "index.html"))
        page.fill("#bx", "1")
        page.click("#pick")
        counts = []
        for step in (1, 2, 4):
            page.locator("#step").fill(str(step))
            page.wait_for_function(f"document.getElementById('step-label').textContent.startsWith('iteration {step - 1}')")
            counts.append(int(page.evaluate("document.body.dataset.footprintCells")))
        assert counts[0] < counts[1] < counts[2]           # the footprint grows iteration by iteration
        assert "line 27" in page.locator("#steps").inner_text()
        assert page.errors == []


CELL_CENTRES = """([name, rows, cols]) => {
  const c = document.querySelector(`canvas.cells[data-array="${name}"]`), k = c.width / cols;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, out = [];
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) {
    const i = 4 * ((y * k + Math.floor(k / 2)) * c.width + x * k + Math.floor(k / 2));
    out.push(d[i], d[i + 1], d[i + 2]);
  }
  return out;
}"""


@pytest.mark.parametrize("name", ["layernorm", "matmul"])
def test_the_canvases_show_what_the_pngs_show_cell_for_cell(name, tmp_path):
    """The page decodes its maps (runs of equal cells, tile indices sent once for several passes)
    into the colours the PNGs were drawn in from the maps themselves."""
    from tilescope.trace.png import decode, scale_for
    from .test_trace import page_data
    page_path = traced_example(name, tmp_path)[0]
    data = page_data(page_path)
    with browser_page() as page:
        page.goto("file://" + page_path)
        page.wait_for_function("document.body.dataset.footprintCells !== undefined")
        for a in data["arrays"]:
            rows, cols = a["rows"], a["cols"]
            shown = np.array(page.evaluate(CELL_CENTRES, [a["name"], rows, cols]), np.uint8).reshape(rows, cols, 3)
            with open(os.path.join(os.path.dirname(page_path), f"{a['name']}.png"), "rb") as f:
                px = decode(f.read())
            k = scale_for(rows, cols)
            drawn = px[k // 2::k, k // 2::k][:rows, :cols]
            # (the page outlines the array's edge where tiles reached past it: those cells aside)
            iy, ix = -(-a["inside"][0] // a["step"][0]), -(-a["inside"][1] // a["step"][1])
            edge = np.zeros((rows, cols), bool)
            edge[max(iy - 1, 0):iy + 1, :] = edge[:, max(ix - 1, 0):ix + 1] = True
            edge[:1, :] = edge[:, :1] = True
            same = (shown == drawn).all(axis=2) | edge
            assert same.all(), (a["name"], np.argwhere(~same)[:5])
        assert page.errors == []


def test_a_block_steps_through_every_pass_over_tiles_sent_once(tmp_path):
    """The layernorm reads each row three times: the second and third passes' tile indices go as
    references to the first's, and a block's accesses still list all three loads."""
    from .test_trace import page_data, tile_index
    page_path = traced_example("layernorm", tmp_path)[0]
    x = page_data(page_path)["arrays"][0]
    assert [t["index"] for t in x["tiles"][1:]] == [[[0, 0], [0, 1]]] * 2
    assert all(np.array_equal(tile_index(x, r, 1), tile_index(x, 0, 1)) for r in (1, 2))
    with browser_page() as page:
        page.goto("file://" + page_path)
        page.fill("#bx", "3")
        page.click("#pick")
        page.wait_for_function("document.body.dataset.selectedBlock === '3'")
        steps = page.locator("#steps").inner_text()
        assert all(f"line {n}" in steps for n in (15, 19, 25)), steps
        assert page.errors == []
