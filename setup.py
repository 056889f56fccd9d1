"""Adds `tilescope-cpu.pth` to the installation, regular and editable alike: with TILESCOPE_CPU=1
set, an ordinary `python script.py` gets tilescope's CPU device layer (`import cuda.tile` is
tilescope, CUDA tensors and CuPy run on the CPU; see docs/devices.md)."""
import base64
import glob
import hashlib
import os
import zipfile

from setuptools import setup
from setuptools.command.build_py import build_py

PTH = "tilescope-cpu.pth"
HOOK = ("import os; os.environ.get('TILESCOPE_CPU', '') not in ('', '0') "
        "and __import__('tilescope.devices', fromlist=['activate']).activate()\n")


class build_py_with_pth(build_py):
    def run(self):
        super().run()
        with open(os.path.join(self.build_lib, PTH), "w") as f:
            f.write(HOOK)

    def get_outputs(self, include_bytecode=True):
        return super().get_outputs(include_bytecode) + [os.path.join(self.build_lib, PTH)]


def _add_to_wheel(wheel_path: str, name: str, data: bytes) -> None:
    """Append a file at the wheel's root and list it in the wheel's RECORD."""
    with zipfile.ZipFile(wheel_path) as z:
        if name in z.namelist():
            return
        record = next(n for n in z.namelist() if n.endswith(".dist-info/RECORD"))
        entries = {n: z.read(n) for n in z.namelist()}
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    entries[record] = entries[record].rstrip(b"\n") + f"\n{name},sha256={digest},{len(data)}\n".encode()
    entries[name] = data
    with zipfile.ZipFile(wheel_path, "w", zipfile.ZIP_DEFLATED) as z:
        for n, content in entries.items():
            z.writestr(n, content)


commands = {"build_py": build_py_with_pth}
try:
    from setuptools.command.editable_wheel import editable_wheel
except ImportError:                       # setuptools < 64: no PEP 660 editable installs
    editable_wheel = None

if editable_wheel is not None:
    class editable_wheel_with_pth(editable_wheel):
        """An editable install builds no build_py outputs into its wheel: add the hook there too."""

        def run(self):
            super().run()
            for wheel in glob.glob(os.path.join(self.dist_dir, "*.whl")):
                _add_to_wheel(wheel, PTH, HOOK.encode())

    commands["editable_wheel"] = editable_wheel_with_pth

setup(cmdclass=commands)
