"""`import cuda.tile` spelled in full (`cuda.tile.load(...)`) in a file tilescope loads keeps working
after loading, also when the `cuda` package was imported before (CuPy, cuda-python and torch
import it), which takes `cuda.tile` back off the package once the file is loaded."""
import importlib
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent('''
    import importlib, sys
    import numpy as np
    importlib.import_module("cuda")            # as CuPy or cuda-python would
    import tilescope
    from tilescope.lang.shim import load_file
    m = load_file(sys.argv[1])
    x = np.zeros(16, np.float32)
    tilescope.lang.launch(None, (1,), m.k, (x,))
    print(x[:4].tolist())
''')

KERNEL = textwrap.dedent('''
    import cuda.tile


    @cuda.tile.kernel
    def k(x):
        t = cuda.tile.load(x, index=(0,), shape=(16,))
        cuda.tile.static_assert(t.shape[0] == 16)
        cuda.tile.store(x, index=(0,), tile=t + 1)
''')


def test_full_spelling_after_cuda_was_imported(tmp_path):
    if importlib.util.find_spec("cuda") is None:
        import pytest
        pytest.skip("no `cuda` namespace package installed")
    path = tmp_path / "fullmod.py"
    path.write_text(KERNEL)
    r = subprocess.run([sys.executable, "-c", SCRIPT, str(path)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "[1.0, 1.0, 1.0, 1.0]"
