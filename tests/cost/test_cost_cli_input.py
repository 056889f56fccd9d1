"""`tilescope cost` on input a new user gets wrong: one clear line and exit code 2 (bad usage) or a
located diagnostic and exit code 1 (the kernel's own error), never a traceback."""
import os

import pytest

from tilescope.tools.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VADD = os.path.join(ROOT, "examples", "vector_add.py")


def _cost(capsys, *argv):
    rc = main(["cost", *argv, "--no-cubin"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err + out
    return rc, out, err


@pytest.mark.parametrize("args, message", [
    (["--grid", "99999999999999999"], "exceeds 24-bit limit"),    # past what a launch accepts
    (["--grid", "1,70000"], "Grid[1] is too big"),
    (["--grid", ""], "bad --grid ''"),
    (["--grid", "4,x"], "bad --grid '4,x'"),                       # an axis left out, not dropped
    (["--grid", "4,,4"], "bad --grid '4,,4'"),
    (["--args", "f32[0], f32[0], f32[0], 1024"], "is 0,1,1 (an array the kernel tiles is empty)"),
])
def test_grids_no_launch_accepts_are_usage_errors(capsys, args, message):
    rc, _, err = _cost(capsys, VADD, *args)
    assert rc == 2 and message in err and len(err.strip().splitlines()) == 1


def test_a_syntax_error_is_one_located_line(capsys, tmp_path):
    bad = tmp_path / "broken.py"
    bad.write_text("import cuda.tile as ct\n@ct.kernel\ndef k(a):\n    x = ct.load(a, index=(0,), shape=(16,)\n")
    rc, _, err = _cost(capsys, str(bad))
    assert rc == 2 and err.startswith(f"{bad}:4:") and ": error: TileSyntaxError:" in err
    assert "tilescope cost: error:" not in err and len(err.strip().splitlines()) == 1


HELPER = '''import cuda.tile as ct

@ct.function
def twice(t):
    return t * 2

def host_helper(n):
    return n

@ct.kernel
def k(a, TILE: ct.Constant[int]):
    ct.store(a, index=(ct.bid(0),), tile=twice(ct.load(a, index=(ct.bid(0),), shape=(TILE,))))
'''


@pytest.mark.parametrize("name, line", [("twice", 4), ("host_helper", 7)])
def test_a_function_that_is_not_a_kernel_is_named_as_such(capsys, tmp_path, name, line):
    f = tmp_path / "m.py"
    f.write_text(HELPER)
    for command in ("cost", "check"):
        rc = main([command, str(f), "--kernel", name, "--args", "f32[1024], 256"])
        err = capsys.readouterr().err
        assert rc == 2 and f"{f}:{line}: '{name}' is not a @ct.kernel function" in err and "(kernels: k)" in err


def test_import_of_a_module_written_for_a_gpu_reads_its_kernels(tmp_path):
    """--import imports the module with the CPU device layer, as `tilescope run` does: a CuPy import
    and device tensors at module level do not stop it (CuPy is not installed here)."""
    import subprocess
    import sys
    f = tmp_path / "gpu_module.py"
    f.write_text("import cupy as cp\nimport cuda.tile as ct\nSCALE = cp.ones(4).sum().item()\n\n"
                 "@ct.kernel\ndef k(a, TILE: ct.Constant[int]):\n"
                 "    ct.store(a, index=(ct.bid(0),), tile=ct.load(a, index=(ct.bid(0),), shape=(TILE,)) * SCALE)\n")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    p = subprocess.run([sys.executable, "-m", "tilescope", "cost", str(f), "--import", "--no-cubin", "--args",
                        "f32[4096], 1024", "--format", "json"], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert '"predicted_us"' in p.stdout and '"grid": [\n    4,' in p.stdout


@pytest.mark.parametrize("text, grid", [("64,64", (64, 64)), ("64x64", (64, 64)), ("(4096,)", (4096,)),
                                        ("8 x 8 x 2", (8, 8, 2)), ("(2, 3)", (2, 3)), ("4,", (4,))])
def test_grids_are_written_as_tuples_or_with_x(text, grid):
    from tilescope.tools.cost_cmd import parse_grid
    assert parse_grid(text) == grid
