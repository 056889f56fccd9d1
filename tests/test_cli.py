"""The `tilescope` command line: check, ir, exit codes, JSON output."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "vector_add.py")


def cli(*args, cwd=ROOT):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    p = subprocess.run([sys.executable, "-m", "tilescope", *args], capture_output=True, text=True, cwd=cwd, env=env)
    return p.returncode, p.stdout, p.stderr


def test_check_clean_example():
    rc, out, err = cli("check", "examples/vector_add.py")
    assert rc == 0, err
    assert "ok (1 kernel signature checked)" in out


def test_check_reports_type_error_with_location():
    rc, out, _ = cli("check", "examples/vector_add.py", "--args", "f32[1024], f32[1024], f16[1024], 256")
    assert rc == 1
    first = out.splitlines()[0]
    assert first.startswith("examples/vector_add.py:11:5: error: TileTypeError:")
    assert "^" in out


REDEFINED = """import cuda.tile as ct

@ct.kernel
def k(a, out, ts: ct.Constant[int]):
    ct.store(out, (0,), ct.load(a, (0,), (ts,)) {first})

@ct.kernel
def k(a, out, ts: ct.Constant[int]):
    ct.store(out, (0,), ct.load(a, (0,), (ts,)) {second})
"""


@pytest.mark.parametrize("first, second, line", [('+ "oops"', "", 5), ("", '+ "oops"', 9)])
def test_check_reads_each_definition_of_a_kernel_name_defined_twice(tmp_path, first, second, line):
    f = tmp_path / "twice.py"
    f.write_text(REDEFINED.format(first=first, second=second))
    rc, out, _ = cli("check", str(f), "--args", "f32[64], f32[64], 64")
    assert rc == 1
    errors = [x for x in out.splitlines() if ": error: " in x]
    assert len(errors) == 1 and errors[0].startswith(f"{f}:{line}:")


def test_check_json():
    rc, out, _ = cli("check", "examples/vector_add.py", "--args", "f32[1024], f32[1024], i8[1024], 256",
                     "--format", "json")
    data = json.loads(out)
    assert rc == 1 and data["diagnostics"][0]["kind"] == "TileTypeError"
    assert data["diagnostics"][0]["line"] == 11


@pytest.mark.parametrize("args", [
    ("check", "does_not_exist.py"),
    ("check", "examples/vector_add.py", "--args", "f99[3]"),
    ("check", "examples/vector_add.py", "--kernel", "nope"),
    ("ir", "examples/vector_add.py", "--stage", "nonsense"),
    ("frobnicate",),
])
def test_bad_usage_exits_2_without_traceback(args):
    rc, out, err = cli(*args)
    assert rc == 2
    assert "Traceback" not in err


def test_check_non_python_file(tmp_path):
    f = tmp_path / "notpython.py"
    f.write_bytes(b"\x00\x01 this is not python {{{")
    rc, out, err = cli("check", str(f))
    assert rc in (1, 2) and "Traceback" not in err + out


def test_check_syntax_error_is_located(tmp_path):
    f = tmp_path / "broken.py"
    f.write_text("import cuda.tile as ct\n\n@ct.kernel\ndef k(a):\n    x = (\n")
    rc, out, err = cli("check", str(f))
    assert rc == 1 and f"{f}:5" in out and "TileSyntaxError" in out


def test_check_without_metadata_says_types_are_unknown(tmp_path):
    f = tmp_path / "k.py"
    f.write_text("import cuda.tile as ct\n\n@ct.kernel\ndef k(a):\n    ct.store(a, index=(0,), tile=ct.load(a, index=(0,), shape=(4,)))\n")
    rc, out, _ = cli("check", str(f))
    assert rc == 0 and "types are unknown" in out


def test_check_without_metadata_still_rejects_unsupported_syntax(tmp_path):
    f = tmp_path / "k.py"
    f.write_text("import cuda.tile as ct\n\n@ct.kernel\ndef k(a):\n    x = [1, 2]\n")
    rc, out, _ = cli("check", str(f))
    assert rc == 1 and "TileSyntaxError" in out and ":5:" in out


def test_check_of_a_kernel_a_factory_makes_says_it_was_not_checked(tmp_path):
    """TileGym's nvfp4 quantizer defines its kernel inside a function (a traceback before)."""
    f = tmp_path / "k.py"
    f.write_text("import cuda.tile as ct\n\ndef make(tile):\n    @ct.kernel\n    def k(a):\n"
                 "        ct.store(a, index=(0,), tile=ct.load(a, index=(0,), shape=(tile,)))\n    return k\n")
    for fmt in ("text", "json"):
        rc, out, err = cli("check", str(f), "--format", fmt)
        assert rc == 0 and "Traceback" not in out + err
        assert "kernel 'k' is defined inside a function" in out
        assert f"{f}:5:5: note:" in out if fmt == "text" else json.loads(out)["diagnostics"][0]["line"] == 5
    rc, out, err = cli("check", str(f), "--args", "f32[64]")
    assert rc == 1 and f"{f}:5:5: error: ImportError: kernel 'k' is defined inside a function" in out


def test_import_failure_is_a_located_error(tmp_path):
    f = tmp_path / "k.py"
    f.write_text("import cuda.tile as ct\nimport not_a_real_module_xyz\n\n@ct.kernel\ndef k(a):\n    pass\n")
    rc, out, err = cli("check", str(f))           # read from source: the import does not run
    assert rc == 0 and "Traceback" not in out + err
    rc, out, err = cli("check", "--import", str(f))
    assert rc == 1 and ":2:" in out and "Traceback" not in out + err


@pytest.mark.parametrize("stage", ["ast", "hir", "ir", "passes", "final"])
def test_ir_stages(stage):
    rc, out, err = cli("ir", "examples/vector_add.py", "--stage", stage)
    assert rc == 0, err
    assert out.strip()


def test_ir_all_writes_one_file_per_stage(tmp_path):
    rc, out, err = cli("ir", "examples/vector_add.py", "--stage", "all", "-o", str(tmp_path))
    assert rc == 0, err
    names = sorted(os.listdir(tmp_path))
    stages = [n.split("-", 1)[1] for n in names]
    assert stages[0] == "ast.txt" and "final.txt" in stages and len(names) >= 5


def test_ir_passes_diff():
    rc, out, err = cli("ir", "examples/vector_add.py", "--stage", "passes", "--diff")
    assert rc == 0, err
    assert "// ---- dce ----" in out


def test_run_example_script():
    rc, out, err = cli("run", "examples/vector_add.py")
    assert rc == 0, err
    assert "max error: 0.0" in out


def test_run_preserves_exit_code(tmp_path):
    f = tmp_path / "s.py"
    f.write_text("import sys\nprint('hi')\nsys.exit(3)\n")
    rc, out, _ = cli("run", str(f))
    assert rc == 3 and out.strip() == "hi"


def _cpu_hook_installed() -> bool:
    import site
    dirs = site.getsitepackages() + [site.getusersitepackages()]
    return any(os.path.exists(os.path.join(d, "tilescope-cpu.pth")) for d in dirs)


@pytest.mark.skipif(not _cpu_hook_installed(), reason="tilescope is not pip-installed (non-editable) here, "
                                                      "so its TILESCOPE_CPU start-up hook is absent")
def test_env_var_runs_plain_python_script_on_cpu(tmp_path):
    env = dict(os.environ, TILESCOPE_CPU="1", PYTHONPATH=os.path.join(ROOT, "src"))
    p = subprocess.run([sys.executable, EXAMPLE], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert "max error: 0.0" in p.stdout
