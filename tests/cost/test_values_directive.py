"""`# tilescope: values` beside a kernel's `args` directives: what `tilescope cost` and the editor's
cost hover take for runtime scalars and values read from memory when `--values` is not given."""
import os
import subprocess
import sys

import pytest

from tilescope.costmodel import kernel_hover
from tilescope.directives import find_kernels
from tilescope.lang.shim import load_file

# kernels_read_values.py with its directives: the args, and the count each row reads from memory
with open(os.path.join(os.path.dirname(__file__), "kernels_read_values.py")) as _f:
    KERNEL = _f.read().replace("@ct.kernel\n",
                               "# tilescope: args f16[65536,1024], i32[65536], f16[524288,1024], 8, 1024\n"
                               "# tilescope: values n_used=2\n@ct.kernel\n")
VALUES_LINE = KERNEL.splitlines().index("# tilescope: values n_used=2") + 1


def _cost(path, *extra):
    return subprocess.run([sys.executable, "-m", "tilescope", "cost", str(path), "--grid", "65536", *extra],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture()
def kernel_file(tmp_path):
    path = tmp_path / "routed.py"
    path.write_text(KERNEL)
    return path


def test_the_directive_is_found_beside_the_args(kernel_file):
    import ast
    (site,) = find_kernels(ast.parse(KERNEL), KERNEL)
    assert site.values == "n_used=2" and site.values_line == VALUES_LINE


def test_cost_takes_the_directive_s_values_unless_told_otherwise(kernel_file):
    r = _cost(kernel_file)
    assert r.returncode == 0, r.stderr
    assert "values the kernel reads from memory taken as given" in r.stdout and "n_used=2" in r.stdout
    told = _cost(kernel_file, "--values", "n_used=8")
    assert "n_used=8" in told.stdout
    other = _cost(kernel_file, "--args", "f16[65536,1024], i32[65536], f16[524288,1024], 8, 1024")
    assert "both branches counted" in other.stdout        # the directive goes with the directive's args


def test_a_bad_directive_is_a_located_usage_error(kernel_file):
    kernel_file.write_text(KERNEL.replace("n_used=2", "n_used=two"))
    r = _cost(kernel_file)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert (f"bad `# tilescope: values` directive (line {VALUES_LINE}) 'n_used=two': n_used=two is not a number"
            in r.stderr)


def test_the_hover_takes_it_and_says_when_it_cannot(kernel_file):
    k = load_file(str(kernel_file)).routed_rows
    spec = "f16[65536,1024], i32[65536], f16[524288,1024], 8, 1024"
    plain, given = kernel_hover(k, spec), kernel_hover(k, spec, values="n_used=2")
    assert plain != given and "not used" not in given
    refused = kernel_hover(k, spec, values="n_routed=2")
    assert "`# tilescope: values` not used" in refused and "n_routed" in refused
