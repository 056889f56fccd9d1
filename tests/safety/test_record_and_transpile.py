"""`run --record` never loses entries; transpiled modules refuse grids and constants they
cannot run with."""
import importlib.util
import json
import threading

import numpy as np
import pytest

from tilescope import signatures
from tilescope.backends.numpy.transpile import transpile_kernel
import tilescope.lang as ct


def _source(tmp_path):
    src = tmp_path / "kernels.py"
    src.write_text("# kernels\n")
    return str(src)


@pytest.mark.parametrize("broken", ['{"kernels.py::k": ["f32[4]"],', "[1, 2, 3]", '{"kernels.py::k": "f32[4]"}'])
def test_a_broken_signature_file_is_kept_aside(tmp_path, capsys, broken):
    src = _source(tmp_path)
    path = signatures.store_path(src)
    (tmp_path / ".tilescope").mkdir()
    with open(path, "w") as f:
        f.write(broken)
    signatures.record(src, "k2", "f32[8]")
    assert open(path + ".bak").read() == broken
    assert signatures.recorded(src, "k2") == ["f32[8]"]
    err = capsys.readouterr().err
    assert "warning" in err and "signatures.json.bak" in err and len(err.strip().splitlines()) == 1


def test_an_existing_backup_is_not_overwritten(tmp_path, capsys):
    src = _source(tmp_path)
    path = signatures.store_path(src)
    (tmp_path / ".tilescope").mkdir()
    for text in ("broken once", "broken twice"):
        with open(path, "w") as f:
            f.write(text)
        signatures.record(src, "k", "f32[4]")
    assert open(path + ".bak").read() == "broken once" and open(path + ".bak2").read() == "broken twice"


def test_concurrent_recorders_lose_nothing(tmp_path):
    src = _source(tmp_path)
    threads = [threading.Thread(target=signatures.record, args=(src, f"k{i}", f"f32[{i + 1}]")) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    data = json.load(open(signatures.store_path(src)))
    assert sorted(data) == sorted(f"kernels.py::k{i}" for i in range(16))


@ct.kernel
def _scale(x, y, T: ct.Constant[int], ALPHA: ct.Constant[float]):
    bid = ct.bid(0)
    ct.store(y, index=(bid,), tile=ct.load(x, index=(bid,), shape=(T,)) * ALPHA)


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    x = np.ones(64, np.float32)
    path = tmp_path_factory.mktemp("t") / "scaled.py"
    path.write_text(transpile_kernel(_scale, (x, np.zeros_like(x), 16, 2.0)))
    spec = importlib.util.spec_from_file_location("scaled", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("grid", [(0,), 0, (-2,), (4, 0), (1.5,), ("4",), (True,), (1, 1, 1, 1), None])
def test_transpiled_module_rejects_bad_grids(module, grid):
    x, y = np.ones(64, np.float32), np.zeros(64, np.float32)
    with pytest.raises(ValueError, match="grid must be 1 to 3 positive ints"):
        module.launch(grid, x, y, 16, 2.0)
    assert (y == 0).all()


@pytest.mark.parametrize("t,alpha", [(8, 2.0), (16, 3.0), (16, "2.0"), (True, 2.0)])
def test_transpiled_module_rejects_other_constants(module, t, alpha):
    x, y = np.ones(64, np.float32), np.zeros(64, np.float32)
    with pytest.raises(ValueError, match="this module was transpiled for"):
        module.launch((4,), x, y, t, alpha)


def test_transpiled_module_runs_with_its_own_constants(module):
    x, y = np.ones(64, np.float32), np.zeros(64, np.float32)
    module.launch(4, x, y, np.int64(16), 2)
    assert (y == 2).all()
    module.launch((), np.ones(64, np.float32), y, 16, 2.0)       # missing grid dims are 1
