"""The CLI reads files statically by default (nothing of them runs), isolates --import/--trust
in a limited process, and answers every bad path, value or file with exit 2 (usage) or 1
(diagnostics) and one clear line -- never a traceback."""
import os
import subprocess
import sys
import textwrap

import pytest

from tilescope.tools.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples", "vector_add.py")

KERNEL = textwrap.dedent('''\
    import cuda.tile as ct

    # tilescope: args f32[64], f32[64], 16
    @ct.kernel
    def scale(x, y, TILE: ct.Constant[int]):
        t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
        ct.store(y, index=(ct.bid(0),), tile=t * 2)
    ''')

# Module-level code that must neither run nor matter when a file is only read.
HAZARDS = {
    "cupy": "import cupy as cp\nX = cp.zeros(4)\n",
    "matplotlib": "import matplotlib.pyplot as plt\nplt.figure()\n",
    "cuda_call": "import torch\ntorch.cuda.synchronize()\nN = torch.cuda.get_device_properties(0).multi_processor_count\n",
    "autotuner": "from cuda.tile import tune\nREGISTRY = tune.register('scale', configs=[dict(TILE=16)])\n",
    "os_system": "import os\nos.system('touch {mark}')\n",
    "open_write": "open('{mark}', 'w').write('x')\n",
    "infinite_loop": "while True:\n    pass\n",
    "sys_exit": "import sys\nsys.exit(3)\n",
}
COMMANDS = {
    "check": ["check"],
    "ir": ["ir", "--stage", "final"],
    "transpile": ["transpile"],
    "compile": ["compile", "--emit", "tileir"],
}


def _file(tmp_path, hazard: str):
    mark = tmp_path / "MARK"
    path = tmp_path / "kernels.py"
    path.write_text(KERNEL + "\n" + HAZARDS[hazard].format(mark=mark))
    return path, mark


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("hazard", list(HAZARDS))
def test_module_level_code_neither_runs_nor_matters(tmp_path, capsys, hazard, command):
    path, mark = _file(tmp_path, hazard)
    rc = main(COMMANDS[command] + [str(path)])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert not mark.exists()
    if command == "check":
        assert "ok (1 kernel signature checked)" in out
    elif command == "transpile":
        assert "def launch(" in out
    else:
        assert out.strip()


def cli(*args, timeout=180):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    p = subprocess.run([sys.executable, "-m", "tilescope", *args], capture_output=True, text=True,
                       cwd=ROOT, env=env, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def test_import_runs_in_a_limited_process_and_reports_a_hang(tmp_path):
    path, mark = _file(tmp_path, "infinite_loop")
    rc, out, err = cli("check", "--import", "--time-limit", "3", str(path))
    assert rc == 1 and "took longer than 3 s" in err and "Traceback" not in out + err
    assert len(err.strip().splitlines()) == 1


def test_import_reports_sys_exit_and_os_exit(tmp_path):
    path, _ = _file(tmp_path, "sys_exit")
    rc, out, err = cli("check", "--import", str(path))
    assert rc == 1 and "sys.exit" in out and "SystemExit: 3" in out and "Traceback" not in out + err
    path.write_text(KERNEL + "import os\nos._exit(7)\n")
    rc, out, err = cli("ir", "--import", str(path))
    assert rc == 1 and "ended the process with exit code 7" in err


def test_import_out_of_memory_is_one_diagnostic(tmp_path):
    path = tmp_path / "hog.py"
    path.write_text(KERNEL + "HOG = bytearray(8 * 1024 ** 3)\n")
    rc, out, err = cli("check", "--import", "--memory-limit", "1024", str(path))
    assert rc == 1 and "MemoryError" in out + err and "Traceback" not in out + err


def test_import_failure_shows_the_whole_chain_and_the_users_line(tmp_path):
    path = tmp_path / "chained.py"
    path.write_text(KERNEL + textwrap.dedent('''\
        try:
            import not_a_real_gpu_library
        except ImportError as e:
            raise RuntimeError("no GPU backend available") from e
        '''))
    rc, out, err = cli("check", "--import", str(path))
    lines = KERNEL.splitlines()
    assert rc == 1, err
    assert f"{path}:{len(lines) + 4}:" in out and "RuntimeError: no GPU backend available" in out
    assert f"{path}:{len(lines) + 2}:" in out and "ModuleNotFoundError" in out and "direct cause" in out
    assert "Traceback" not in out + err


def test_import_finds_kernels_made_at_run_time(tmp_path):
    path = tmp_path / "factory.py"
    path.write_text(textwrap.dedent('''\
        import cuda.tile as ct

        def make():
            def body(x):
                ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(16,)))
            return ct.kernel(body)

        made = make()
        '''))
    rc, out, err = cli("check", str(path), "--kernel", "made", "--args", "f32[16]")
    assert rc == 2 and "--import" in err
    rc, out, err = cli("check", "--import", str(path), "--kernel", "made", "--args", "f32[16]")
    assert rc == 0 and "ok (1 kernel signature checked)" in out, err


def test_trust_runs_compile_time_python_in_the_isolated_process(tmp_path):
    mark = tmp_path / "MARK"
    path = tmp_path / "trusted.py"
    path.write_text(textwrap.dedent(f'''\
        import cuda.tile as ct, os

        def touch():
            open("{mark}", "w").close()
            return 1

        # tilescope: args f32[16]
        @ct.kernel
        def k(x):
            n = ct.static_eval(touch())
        '''))
    rc, out, err = cli("check", str(path))
    assert rc == 1 and "TileStaticEvalError" in out and not mark.exists()
    rc, out, err = cli("check", "--trust", str(path))
    assert rc == 0 and mark.exists(), out + err


def test_launch_sites_give_metadata_when_reading_statically(tmp_path, capsys):
    path = tmp_path / "script.py"
    path.write_text(KERNEL.replace("# tilescope: args f32[64], f32[64], 16\n", "") + textwrap.dedent('''\
        import numpy as np
        x = np.zeros(64, dtype=np.float32)
        y = np.zeros(64, dtype=np.float32)
        ct.launch(None, (4,), scale, (x, y, 16))
        '''))
    assert main(["check", str(path)]) == 0
    assert "ok (1 kernel signature checked)" in capsys.readouterr().out


def _files(tmp_path):
    (tmp_path / "binary.py").write_bytes(b"\x00\x01\x02\xff")
    (tmp_path / "latin1.py").write_bytes(b"x = '\xe9'\n")
    (tmp_path / "syntax.py").write_text("def broken(:\n")
    (tmp_path / "plain.txt").write_text("x = 1\n")
    (tmp_path / "a_dir").mkdir()
    return tmp_path


NESTED = "(" * 5000 + ")" * 5000
# (arguments with {tmp} for the temporary folder, expected exit code)
BAD_INPUT = [
    (["check", "{tmp}/missing.py"], 2),
    (["check", "{tmp}/a_dir"], 2),
    (["check", "{tmp}/binary.py"], 2),
    (["check", "{tmp}/latin1.py"], 2),
    (["check", "{tmp}/syntax.py"], 1),
    (["check", "/dev/zero"], 2),
    (["check", EXAMPLE, "--args", NESTED], 2),
    (["check", EXAMPLE, "--args", "f99[3]"], 2),
    (["check", EXAMPLE, "--kernel", "nope"], 2),
    (["check", EXAMPLE, "--format", "xml"], 2),
    (["check", EXAMPLE, "--time-limit", "-1"], 2),
    (["check", EXAMPLE, "--memory-limit", "lots"], 2),
    (["ir", EXAMPLE, "-o", "{tmp}/missing_dir/out.txt"], 2),
    (["ir", EXAMPLE, "-o", "{tmp}/a_dir"], 2),
    (["ir", EXAMPLE, "--stage", "all", "-o", "{tmp}/plain.txt"], 2),
    (["ir", EXAMPLE, "--stage", "all"], 2),
    (["ir", EXAMPLE, "--stage", "nonsense"], 2),
    (["ir", "{tmp}/plain.txt"], 2),
    (["ir", "{tmp}/syntax.py"], 2),
    (["ir", EXAMPLE, "-o", "/proc/version"], 2),
    (["transpile", EXAMPLE, "-o", "{tmp}/a_dir"], 2),
    (["transpile", EXAMPLE, "-o", "{tmp}/missing_dir/k.py"], 2),
    (["transpile", "{tmp}/binary.py"], 2),
    (["compile", EXAMPLE, "--bytecode-version", "abc", "--emit", "bytecode", "-o", "{tmp}/k.bc"], 2),
    (["compile", EXAMPLE, "--emit", "bytecode"], 2),
    (["compile", EXAMPLE, "--emit", "bytecode", "-o", "{tmp}/missing_dir/k.bc"], 2),
    (["compile", EXAMPLE, "--emit", "cubin", "-o", "{tmp}/a_dir"], 2),
    (["compile", EXAMPLE, "--emit", "wasm", "-o", "{tmp}/k"], 2),
    (["run", "{tmp}/a_dir"], 2),
    (["run", "{tmp}/binary.py"], 2),
    (["run", "{tmp}/syntax.py"], 2),
    (["run", "{tmp}/missing.py"], 2),
    (["run", "/dev/zero"], 2),
    (["run", "--check", "bogus", EXAMPLE], 2),
    (["run", "--block", "abc", EXAMPLE], 2),
    (["run", "--bundle", "{tmp}/a_dir", EXAMPLE], 2),
    (["run", "--numerics", "sloppy", EXAMPLE], 2),
    (["frobnicate"], 2),
    ([], 2),
]


@pytest.mark.parametrize("argv,expected", BAD_INPUT, ids=[" ".join(a)[:60] for a, _ in BAD_INPUT])
def test_bad_input_gets_one_clear_line(tmp_path, capsys, argv, expected):
    tmp = _files(tmp_path)
    argv = [a.replace("{tmp}", str(tmp)) for a in argv]
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == expected, out + err
    assert "Traceback" not in out + err
    if expected == 2:
        problem = [line for line in err.splitlines() if "error:" in line]
        assert len(problem) == 1, err


def test_run_device_gpu_without_cupy(capsys):
    import importlib.util
    if importlib.util.find_spec("cupy") is not None:
        pytest.skip("CuPy is installed")
    assert main(["run", "--device", "gpu", EXAMPLE]) == 2
    assert "needs CuPy" in capsys.readouterr().err


def test_script_error_shows_only_the_scripts_traceback(tmp_path):
    path = tmp_path / "raises.py"
    path.write_text("def f():\n    raise ValueError('boom')\nf()\n")
    rc, out, err = cli("run", str(path))
    assert rc == 1 and err.strip().endswith("ValueError: boom")
    assert "tilescope" not in err.replace(str(path), "")


def test_values_only_known_by_running_are_a_note_not_an_error(tmp_path, capsys):
    path = tmp_path / "uses_lib.py"
    path.write_text(KERNEL.replace("t * 2", "t * SCALE").replace("import cuda.tile as ct\n",
                                                                 "import cuda.tile as ct\nfrom mylib import SCALE\n"))
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "note: kernel 'scale' was not checked" in out and "--import" in out and "1 need --import" in out
    assert main(["ir", str(path)]) == 1
    assert "--import" in capsys.readouterr().err
