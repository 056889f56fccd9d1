"""Features computed in the analysis worker reach the editor through the summary."""
import os
import time

import pytest

from tests.lsp.conftest import uri_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_kernel_cost_hover_over_the_protocol(server):
    pytest.importorskip("pygls")
    path = os.path.join(ROOT, "examples", "matmul.py")
    with open(path) as f:
        text = f.read()
    uri = uri_of(path)
    server.open(uri, text)
    server.wait_diagnostics(uri, version=1, timeout=60)
    line = text.splitlines().index(next(s for s in text.splitlines() if s.startswith("def matmul(")))
    # the cost is computed after the diagnostics went out (a second, complete compile)
    deadline = time.monotonic() + 60
    while True:
        h = server.hover(uri, line, 6)["result"]
        if "cost on H200" in h["contents"]["value"] or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert "cost on H200" in h["contents"]["value"] and h["range"]["start"] == {"line": line, "character": 4}
    server.close(uri)
