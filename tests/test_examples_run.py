"""The bundled example scripts run unmodified on the CPU (`tilescope run`) and print small errors."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("name", ["vector_add", "softmax", "layernorm", "matmul", "transpose", "attention"])
def test_example_runs_on_cpu(name):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    p = subprocess.run([sys.executable, "-m", "tilescope", "run", os.path.join(ROOT, "examples", f"{name}.py")],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr[-3000:]
    line = p.stdout.strip().splitlines()[-1]
    if line.startswith("max error:"):
        tol = {"matmul": 1e-2, "attention": 1e-2}.get(name, 1e-5)
        assert float(line.split(":")[1]) <= tol, line
    else:
        assert line == "exact: True", line
