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


def test_the_worker_sends_the_diagnostics_ahead_of_the_summary():
    """An editor waits for diagnostics after a pause; hovers and hints read the summary, which
    takes longer to build: the diagnostics go out first, the same as the summary's."""
    import subprocess
    from tilescope.tools.lsp.pool import _worker_command
    from tilescope.tools.lsp.wire import read_frame, write_frame
    cmd, env, cwd = _worker_command()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=cwd)
    try:
        write_frame(proc.stdin, ("config", {"execute_modules": False, "memory_mb": 2048}))
        text = ("import cuda.tile as ct\n\n# tilescope: args f32[64], 16\n@ct.kernel\n"
                "def k(a, T: ct.Constant[int]):\n    t = ct.load(a, index=(0,), shape=(T,))\n"
                "    ct.store(a, index=(0,), tile=t + undefined_name)\n")
        write_frame(proc.stdin, ("analyze", 1, {"text": text, "filename": "k.py", "version": 7}))
        seen = []
        while not seen or seen[-1][0] != "done":
            msg = read_frame(proc.stdout)
            assert msg is not None, seen
            seen.append(msg)
        kinds = [m[0] for m in seen if m[0] in ("diagnostics", "done")]
        assert kinds == ["diagnostics", "done"]
        early, summary = seen[-2][2], seen[-1][2]
        assert early == summary.diagnostics and any("undefined_name" in d.message for d in early)
    finally:
        proc.kill()
        proc.wait()
