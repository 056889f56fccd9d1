"""A tileiras that stops without a message (a crash, a bare status) still gets a message that says
what happened, not an empty one."""
import os
import stat

import pytest

from tilescope.backends.tileir.toolchain import AssemblerError, Toolchain


def _fake_tileiras(tmp_path, body):
    path = tmp_path / "tileiras"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return Toolchain(str(tmp_path))


@pytest.mark.skipif(os.name != "posix", reason="a shell script stands in for tileiras")
def test_a_crashed_tileiras_is_named_with_its_signal(tmp_path):
    tc = _fake_tileiras(tmp_path, "kill -SEGV $$")
    with pytest.raises(AssemblerError) as e:
        tc.assemble(b"\x7fTileIR\x00", where="k.py:3")
    assert "SIGSEGV" in str(e.value) and "k.py:3" in str(e.value)


@pytest.mark.skipif(os.name != "posix", reason="a shell script stands in for tileiras")
def test_a_silent_status_is_reported(tmp_path):
    tc = _fake_tileiras(tmp_path, "exit 3")
    with pytest.raises(AssemblerError) as e:
        tc.assemble(b"\x7fTileIR\x00")
    assert "status 3" in str(e.value)
