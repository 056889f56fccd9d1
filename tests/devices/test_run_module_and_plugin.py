"""`tilescope run -m MODULE` and the pytest plugin: a GPU project's test suite, unmodified."""
import textwrap

import pytest

from tests.devices.helpers import run_child

PROJECT_TEST = textwrap.dedent('''
    import cupy as cp
    import numpy as np
    import cuda.tile as ct

    @ct.kernel
    def double(x, y, TILE: ct.Constant[int]):
        i = ct.bid(0)
        ct.store(y, index=(i,), tile=ct.load(x, index=(i,), shape=(TILE,)) * 2)

    def test_double_on_the_gpu():
        assert cp.cuda.runtime.getDeviceCount() == 1
        x = cp.arange(256, dtype=cp.float32)
        y = cp.zeros_like(x)
        ct.launch(cp.cuda.get_current_stream(), (2,), double, (x, y, 128))
        np.testing.assert_array_equal(cp.asnumpy(y), np.arange(256) * 2)
''')


def _plugin_args():
    # By module name whether or not an installed tilescope also registers it (entry point "tilescope").
    return ["-p", "no:tilescope", "-p", "tilescope.devices.pytest_plugin"]


@pytest.fixture
def project(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_kernels.py").write_text(PROJECT_TEST)
    return tmp_path


def test_run_m_pytest(project):
    proc = run_child(["-m", "tilescope", "run", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
                     cwd=str(project))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed" in proc.stdout


def test_pytest_plugin_with_the_environment_variable(project):
    proc = run_child(["-m", "pytest", "-q", "-p", "no:cacheprovider"] + _plugin_args() + ["tests"],
                     {"TILESCOPE_CPU": "1"}, cwd=str(project))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed" in proc.stdout


def test_pytest_plugin_does_nothing_without_it(project):
    proc = run_child(["-m", "pytest", "-q", "-p", "no:cacheprovider"] + _plugin_args() + ["tests"],
                     cwd=str(project))
    assert proc.returncode != 0            # no layer: cupy (or cuda.tile) cannot run here
    assert "1 passed" not in proc.stdout


def test_run_m_passes_arguments_and_exit_codes(tmp_path):
    (tmp_path / "echo_args.py").write_text("import sys\nprint(sys.argv[1:])\nsys.exit(3)\n")
    proc = run_child(["-m", "tilescope", "run", "-m", "echo_args", "-x", "--flag", "value"], cwd=str(tmp_path))
    assert proc.returncode == 3, proc.stderr
    assert proc.stdout.strip() == "['-x', '--flag', 'value']"


def test_run_m_unknown_module_is_one_clear_line(tmp_path):
    proc = run_child(["-m", "tilescope", "run", "-m", "no_such_module_here"], cwd=str(tmp_path))
    assert proc.returncode == 2
    assert proc.stderr.strip() == "tilescope run: error: No module named no_such_module_here"


def test_a_script_s_own_dash_m_is_the_script_s(tmp_path):
    (tmp_path / "s.py").write_text("import sys\nprint(sys.argv[1:])\n")
    proc = run_child(["-m", "tilescope", "run", "s.py", "-m", "x"], cwd=str(tmp_path))
    assert proc.returncode == 0 and proc.stdout.strip() == "['-m', 'x']", proc.stderr
