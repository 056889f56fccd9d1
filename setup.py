"""Adds `tilescope-cpu.pth` to the installation: with TILESCOPE_CPU=1 set, an ordinary
`python script.py` resolves `import cuda.tile` to tilescope and runs kernels on the CPU."""
import os

from setuptools import setup
from setuptools.command.build_py import build_py

PTH = "tilescope-cpu.pth"
HOOK = ("import os; os.environ.get('TILESCOPE_CPU', '') not in ('', '0') "
        "and __import__('tilescope.lang.shim', fromlist=['install']).install()\n")


class build_py_with_pth(build_py):
    def run(self):
        super().run()
        with open(os.path.join(self.build_lib, PTH), "w") as f:
            f.write(HOOK)

    def get_outputs(self, include_bytecode=True):
        return super().get_outputs(include_bytecode) + [os.path.join(self.build_lib, PTH)]


setup(cmdclass={"build_py": build_py_with_pth})
