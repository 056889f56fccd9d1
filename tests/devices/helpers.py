"""Running scripts in child processes (the device layer patches the process it runs in)."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scripts")


def run_child(args, env_extra=None, timeout=240, cwd=ROOT):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    env.pop("TILESCOPE_CPU", None)
    env.update(env_extra or {})
    return subprocess.run([sys.executable] + args, capture_output=True, text=True, env=env, timeout=timeout,
                          cwd=cwd)


def checks_of(proc):
    """The {check: value} lines a script printed (it must have succeeded)."""
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return {d["check"]: d["value"] for d in (json.loads(line) for line in proc.stdout.splitlines()
                                             if line.startswith("{"))}
