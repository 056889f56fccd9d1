"""`TILESCOPE_CPU=1 python ...` after a regular and after an editable install: the start-up hook
(`tilescope-cpu.pth`) is installed both ways and turns the device layer on."""
import os
import site
import subprocess
import sys
import sysconfig

import pytest

from tests.devices.helpers import ROOT

PROBE = ("import cuda.tile as ct, tilescope.devices as d; "
         "print(ct.__name__, d.is_active(), ct.launch.__module__)")


def _venv_with_outer_packages(path) -> str:
    """A venv without pip whose interpreter also sees this interpreter's packages (numpy, ...)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    python = os.path.join(str(path), "bin", "python")
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    outer = [p for p in site.getsitepackages() + [sysconfig.get_paths()["purelib"]] if os.path.isdir(p)]
    # Processed before tilescope-cpu.pth (alphabetical order), so the hook finds NumPy.
    with open(os.path.join(purelib, "0_outer_packages.pth"), "w") as f:
        f.write("\n".join(outer) + "\n")
    return python


def _install(python, *args):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TILESCOPE_CPU")}
    proc = subprocess.run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps",
                           *args, ROOT], capture_output=True, text=True, env=env, timeout=300)
    if proc.returncode != 0 and ("Could not find a version that satisfies" in proc.stderr
                                 or "--python" in proc.stderr and "no such option" in proc.stderr):
        pytest.skip(f"pip cannot build tilescope here: {proc.stderr.strip().splitlines()[-1]}")
    assert proc.returncode == 0, proc.stderr


def _probe(python, cpu: bool):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TILESCOPE_CPU")}
    if cpu:
        env["TILESCOPE_CPU"] = "1"
    return subprocess.run([python, "-c", PROBE], capture_output=True, text=True, env=env, cwd="/", timeout=120)


@pytest.mark.parametrize("editable", [False, True], ids=["regular", "editable"])
def test_start_up_hook(tmp_path, editable):
    python = _venv_with_outer_packages(tmp_path / "venv")
    _install(python, *(["-e"] if editable else []))
    on = _probe(python, cpu=True)
    assert on.returncode == 0, on.stderr
    assert on.stdout.split() == ["tilescope.lang", "True", "tilescope.lang.kernel"], on.stdout + on.stderr
    off = _probe(python, cpu=False)
    # Without the variable nothing changes: cuda.tile is whatever is installed (upstream, or nothing).
    assert "tilescope.lang" not in off.stdout
