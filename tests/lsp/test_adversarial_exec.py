"""Opening a file never runs code from it: each attempt below must leave no trace.

Every case writes (or would write) a marker file if any of its code ran; the server
must publish diagnostics for the document, create no marker, and keep answering.
"""
import os
import signal
import sys
import time

import pytest

from tests.lsp.conftest import FAST_LIMITS, uri_of
from tests.lsp.rawclient import RawClient

HEADER = "import cuda.tile as ct\n\n"


def kernel(body_line: str, extra_params: str = "") -> str:
    return (HEADER + "# tilescope: args f32[16]\n@ct.kernel\n"
            f"def k(a{extra_params}):\n    {body_line}\n"
            "    ct.store(a, index=(0,), tile=ct.zeros((16,), dtype=ct.float32))\n")


def touch(marker: str) -> str:
    return f'__import__("os").system("touch {marker}")'


# Each case: a function of the marker path giving the document's text.
ATTEMPTS = {
    "static_eval os.system": lambda m: kernel(f"x = ct.static_eval({touch(m)})"),
    "static_eval subprocess": lambda m: kernel(
        f'x = ct.static_eval(__import__("subprocess").Popen(["touch", "{m}"]))'),
    "static_eval subclasses to Popen": lambda m: kernel(
        "x = ct.static_eval([c for c in ().__class__.__base__.__subclasses__() "
        f'if c.__name__ == "Popen"][0](["touch", "{m}"]))'),
    "static_eval open for writing": lambda m: kernel(f'x = ct.static_eval(open("{m}", "w").write("x"))'),
    "static_eval os.open": lambda m: kernel(
        f'x = ct.static_eval(__import__("os").open("{m}", __import__("os").O_CREAT | __import__("os").O_WRONLY))'),
    "static_eval ctypes libc": lambda m: kernel(
        f'x = ct.static_eval(__import__("ctypes").CDLL(None).system(b"touch {m}"))'),
    "static_eval exec": lambda m: kernel(f'x = ct.static_eval(exec("import os; os.system(\'touch {m}\')"))'),
    "static_eval thread": lambda m: kernel(
        f'x = ct.static_eval(__import__("threading").Thread(target=lambda: {touch(m)}).start())'),
    "static_assert side effect": lambda m: kernel(f"ct.static_assert({touch(m)} == 0)"),
    "static_iter side effect": lambda m: kernel(f"for i in ct.static_iter(range({touch(m)} + 1)):\n        pass"),
    "module level os.system": lambda m: f'import os\nos.system("touch {m}")\n' + kernel("x = ct.bid(0)"),
    "module level __import__": lambda m: f"X = {touch(m)}\n" + kernel("x = ct.bid(0)"),
    "module level exec": lambda m: f'exec("import os; os.system(\'touch {m}\')")\n' + kernel("x = ct.bid(0)"),
    "module level class body": lambda m: f"class C:\n    v = {touch(m)}\n" + kernel("x = ct.bid(0)"),
    "default argument": lambda m: kernel("x = ct.bid(0)", extra_params=f", T: ct.Constant[int] = {touch(m)}"),
    "annotation": lambda m: kernel("x = ct.bid(0)", extra_params=f", T: {touch(m)} = 1"),
    "decorator": lambda m: HEADER + f"@({touch(m)} or ct.kernel)\ndef k(a):\n    x = ct.bid(0)\n",
    "helper default": lambda m: HEADER + f"def h(v=({touch(m)})):\n    return v\n\n" + kernel("x = h()"),
    "sitecustomize-like import": lambda m: f"import evil_module_{os.getpid()}\n" + kernel("x = ct.bid(0)"),
}


@pytest.mark.parametrize("name", sorted(ATTEMPTS))
def test_no_code_runs(server, workdir, name):
    marker = os.path.join(workdir, "ran")
    # A module the document imports, next to it: importing it would create the marker too.
    with open(os.path.join(workdir, f"evil_module_{os.getpid()}.py"), "w") as f:
        f.write(f"import os\nos.system('touch {marker}')\n")
    path = os.path.join(workdir, "attempt.py")
    uri = uri_of(path)
    server.open(uri, ATTEMPTS[name](marker))
    server.wait_diagnostics(uri, version=1, timeout=30)
    time.sleep(0.2)          # a started process would have had the time to create the marker
    assert not os.path.exists(marker), name
    assert server.hover(uri, 0, 0).get("error") is None          # still answering
    server.close(uri)


def test_refused_static_eval_is_a_located_diagnostic(server, workdir):
    marker = os.path.join(workdir, "ran")
    text = ATTEMPTS["static_eval os.system"](marker)
    uri = uri_of(os.path.join(workdir, "located.py"))
    server.open(uri, text)
    diags = server.wait_diagnostics(uri, version=1, timeout=30, predicate=lambda d: len(d) > 0)
    line = text.splitlines().index(next(s for s in text.splitlines() if "static_eval" in s))
    assert any(d["range"]["start"]["line"] == line and d["severity"] == 1 for d in diags), diags
    assert not os.path.exists(marker)


def test_reading_files_is_refused(server, workdir):
    secret = os.path.join(workdir, "secret.txt")
    with open(secret, "w") as f:
        f.write("TOPSECRET")
    text = kernel(f'x = ct.static_eval(len(open("{secret}").read()))')
    uri = uri_of(os.path.join(workdir, "read.py"))
    server.open(uri, text)
    diags = server.wait_diagnostics(uri, version=1, timeout=30, predicate=lambda d: len(d) > 0)
    assert any("static_eval" in d["message"] or "Static" in d["message"] for d in diags), diags
    line = next(i for i, s in enumerate(text.splitlines()) if "static_eval" in s)
    h = server.hover(uri, line, 4)["result"]
    assert h is None or "9" not in h["contents"]["value"]       # the length of the secret never shows


def test_killing_the_server_and_stealing_its_pipes_is_refused(server, workdir):
    texts = [kernel('x = ct.static_eval(__import__("os").kill(__import__("os").getppid(), 9))'),
             kernel("x = ct.static_eval(input())"),
             kernel('x = ct.static_eval(print("x" * 100000))'),
             kernel("x = ct.static_eval(__import__('gc').get_objects())"),
             kernel("x = ct.static_eval(__import__('sys').exit(3))")]
    for i, text in enumerate(texts):
        uri = uri_of(os.path.join(workdir, f"pipes{i}.py"))
        server.open(uri, text)
        server.wait_diagnostics(uri, version=1, timeout=30)
        assert server.proc.poll() is None
        assert server.hover(uri, 0, 0).get("error") is None


def test_a_worker_that_dies_is_replaced(server, workdir):
    uri = uri_of(os.path.join(workdir, "exit.py"))
    server.open(uri, kernel('x = ct.static_eval(__import__("os")._exit(0))'))
    diags = server.wait_diagnostics(uri, version=1, timeout=30, predicate=lambda d: len(d) > 0)
    assert diags and not any("stopped unexpectedly" in d["message"] for d in diags), diags   # refused first
    before = server.state(uri, with_text=False)["workers"]
    for pid in before:                  # a worker dying under the server (OOM killer, a crash)
        os.kill(pid, signal.SIGKILL)
    ok = uri_of(os.path.join(workdir, "fine.py"))
    server.open(ok, kernel("x = ct.bid(0)"))
    server.wait_diagnostics(ok, version=1, timeout=60)
    assert "Tile[int32,()]" in server.hover(ok, 5, 4)["result"]["contents"]["value"]
    after = server.state(ok, with_text=False)["workers"]
    assert after and not set(after) & set(before)


def test_memory_bomb_is_contained(server, workdir):
    uri = uri_of(os.path.join(workdir, "bomb.py"))
    server.open(uri, kernel('x = ct.static_eval(len(" " * (8 * 1024 ** 3)))'))
    server.wait_diagnostics(uri, version=1, timeout=60, predicate=lambda d: len(d) > 0)
    assert server.proc.poll() is None
    assert server.rss_mb() < 1024           # the server process itself never held the allocation


# ---- executeModules: full Python only when asked, and only in the worker -------------------

MODULE = '''import os
import cuda.tile as ct

with open(os.path.join(os.path.dirname(__file__), "ran_in"), "w") as f:
    f.write(str(os.getpid()))
WIDTH = 64 + 0 * len(os.listdir(os.path.dirname(__file__)))

# tilescope: args f32[1024]
@ct.kernel
def k(a):
    t = ct.load(a, index=(0,), shape=(WIDTH,))
    ct.store(a, index=(0,), tile=t)
'''


def test_execute_modules_runs_the_module_in_a_worker_only(server, trusting, workdir):
    path = os.path.join(workdir, "mod.py")
    marker = os.path.join(workdir, "ran_in")
    with open(path, "w") as f:
        f.write(MODULE)
    uri = uri_of(path)
    server.open(uri, MODULE)                  # the default: static reading only
    server.wait_diagnostics(uri, version=1, timeout=30)
    h = server.hover(uri, 10, 4)["result"]
    assert "Tile[float32,(64)]" not in (h or {}).get("contents", {}).get("value", "")
    assert not os.path.exists(marker)
    server.close(uri)
    trusting.open(uri, MODULE)
    trusting.wait_diagnostics(uri, version=1, timeout=30)
    h = trusting.hover(uri, 10, 4)["result"]
    assert "Tile[float32,(64)]" in h["contents"]["value"]
    with open(marker) as f:
        pid = int(f.read())
    assert pid != trusting.proc.pid and pid in trusting.state(uri)["workers"]
    trusting.close(uri)


def test_execute_modules_hang_is_stopped(trusting, workdir):
    uri = uri_of(os.path.join(workdir, "loop.py"))
    trusting.open(uri, "while True:\n    pass\n" + kernel("x = ct.bid(0)"))
    diags = trusting.wait_diagnostics(uri, version=1, timeout=30, predicate=lambda d: len(d) > 0)
    assert any("did not finish" in d["message"] for d in diags), diags
    other = uri_of(os.path.join(workdir, "other.py"))
    trusting.open(other, kernel("x = ct.bid(0)"))
    trusting.wait_diagnostics(other, version=1, timeout=30)
    assert "Tile[int32,()]" in trusting.hover(other, 5, 4)["result"]["contents"]["value"]


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_workers_are_separate_processes(server, workdir):
    uri = uri_of(os.path.join(workdir, "pids.py"))
    server.open(uri, kernel("x = ct.bid(0)"))
    server.wait_diagnostics(uri, version=1, timeout=30)
    workers = server.state(uri)["workers"]
    assert workers and server.proc.pid not in workers
