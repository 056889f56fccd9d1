"""Feature gates follow the target: `compile --bytecode-version`, the installed tileiras, `check`."""
import os
import subprocess
import sys
import textwrap

import pytest

from tilescope.backends.tileir import find_toolchain, installed_version
from tilescope.backends.tileir.versions import KNOWN, text

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INSERT = textwrap.dedent("""\
    import cuda.tile as ct

    # tilescope: args f32[4,4]
    @ct.kernel
    def k(x):
        t = ct.load(x, index=(0, 0), shape=(4, 4))
        ct.store(x, index=(0, 0), tile=t.insert((1, 2), ct.full((), 3.0, dtype=ct.float32)))
    """)
needs_toolchain = pytest.mark.skipif(find_toolchain(required=False) is None, reason="tileiras not found")


def cli(*args):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    env.pop("TILESCOPE_TILEIRAS_VERSION", None)
    p = subprocess.run([sys.executable, "-m", "tilescope", *args], capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


@pytest.fixture
def insert_file(tmp_path):
    path = tmp_path / "ins.py"
    path.write_text(INSERT)
    return str(path)


def test_check_targets_the_newest_version(insert_file):
    rc, out, err = cli("check", insert_file)
    assert rc == 0, out + err


def test_compile_refuses_what_an_older_target_lacks(insert_file):
    rc, out, err = cli("compile", insert_file, "--bytecode-version", "13.3")
    assert rc == 1
    assert "ins.py:7:36: error: TileUnsupportedFeatureError: insert requires tileiras 13.4 or later. " \
           "Current version is 13.3." in err
    rc, out, err = cli("compile", insert_file, "--bytecode-version", "13.4")
    assert rc == 0, err
    assert " insert " in out


def test_compile_rejects_an_unknown_version(insert_file):
    rc, out, err = cli("compile", insert_file, "--bytecode-version", "14.0")
    assert rc == 2 and "--bytecode-version must be one of 13.1, 13.2, 13.3, 13.4" in err


@needs_toolchain
def test_installed_version_is_the_newest_tileiras_reads(insert_file, tmp_path):
    v = installed_version()
    assert v in [text(k) for k in KNOWN]
    # tileiras 13.4 reads 13.4 bytecode, so the default target allows insert
    if v == "13.4":
        rc, out, err = cli("compile", insert_file, "--emit", "cubin", "-o", str(tmp_path / "k.cubin"))
        assert rc == 0, err
        assert (tmp_path / "k.cubin").read_bytes()[:4] == b"\x7fELF"
