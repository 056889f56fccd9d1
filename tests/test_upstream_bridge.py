"""Kernels decorated with upstream's real `ct.kernel` (cuda-tile installed) compile in tilescope too."""
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _upstream_importable() -> bool:
    p = subprocess.run([sys.executable, "-c", "import cuda.tile, cuda.tile.compilation"], capture_output=True)
    return p.returncode == 0


@pytest.mark.skipif(not _upstream_importable(), reason="upstream cuda-tile is not installed")
def test_upstream_kernel_objects_are_accepted(tmp_path):
    kernel_file = tmp_path / "up_kernel.py"
    kernel_file.write_text(textwrap.dedent("""
        import cuda.tile as ct

        def twice(t):
            return t * 2

        @ct.kernel
        def k(a, b, T: ct.Constant[int]):
            x = ct.load(a, index=(ct.bid(0),), shape=(T,), padding_mode=ct.PaddingMode.ZERO)
            ct.store(b, index=(ct.bid(0),), tile=twice(x).astype(ct.float16))
    """))
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {os.path.join(ROOT, 'src')!r}); sys.path.insert(0, {str(tmp_path)!r})
        import cuda.tile as upstream
        import up_kernel
        assert type(up_kernel.k).__module__.startswith("cuda.tile"), type(up_kernel.k)
        import tilescope
        c = tilescope.compile(up_kernel.k, "f32[?], f16[?], 64")
        print(c.stored_types())
    """)
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "['Tile[float16,(64)]']"
