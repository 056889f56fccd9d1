"""Features computed in the analysis worker reach the editor through the summary."""
import os
import time

import pytest

from tests.lsp.conftest import uri_of
from tests.lsp.rawclient import RawClient

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


def test_an_undone_edit_gets_its_diagnostics_without_the_debounce(workdir):
    """A text the server analysed a moment ago needs no analysis: its diagnostics go out at
    once, while a new text still waits out the (here very long) debounce."""
    pytest.importorskip("pygls")
    client = RawClient({"debounceMs": 10_000})
    try:
        uri = uri_of(os.path.join(workdir, "undo.py"))
        text = "import cuda.tile as ct\n\n@ct.kernel\ndef k(a):\n    ct.bid(0)\n"
        client.open(uri, text)
        first = client.wait_diagnostics(uri, version=1, timeout=60)
        edit = {"range": {"start": {"line": 4, "character": 4}, "end": {"line": 4, "character": 4}}, "text": "x"}
        undo = {"range": {"start": {"line": 4, "character": 4}, "end": {"line": 4, "character": 5}}, "text": ""}
        client.change(uri, 2, [edit])
        client.change(uri, 3, [undo])
        assert client.wait_diagnostics(uri, version=3, timeout=5) == first     # 5 s: half the debounce
        client.change(uri, 4, [edit])
        with pytest.raises(TimeoutError):
            client.wait_diagnostics(uri, version=4, timeout=2)
    finally:
        client.shutdown()
