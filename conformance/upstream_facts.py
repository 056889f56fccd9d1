"""Host-side answers of the *real* upstream package that upstream's tests use as their oracle.

Some value tests ask upstream's private helpers what to expect (e.g. test_atomic asks
`cuda.tile._ir.cast_ops._is_implicit_cast_ok` whether an update dtype may be cast to the
array's dtype, and then expects either a value or a TileTypeError). Those answers are
computed once in a child process that imports the installed upstream cuda-tile, and
served to the tests by name, so the oracle stays upstream's and never tilescope's.
"""
from __future__ import annotations

import json
import os
from typing import Optional

ENV = "TILESCOPE_CONFORMANCE_FACTS"

_COMPUTE = r"""
import json, sys
import cuda.tile._datatype as d
from cuda.tile._ir.cast_ops import _is_implicit_cast_ok
names = [n for n in dir(d) if isinstance(getattr(d, n), d.DType)]
ok = {}
for a in names:
    for b in names:
        try:
            ok[f"{a}->{b}"] = bool(_is_implicit_cast_ok(getattr(d, a), getattr(d, b)))
        except Exception:
            pass
json.dump({"implicit_cast_ok": ok}, open(sys.argv[1], "w"))
"""


def compute(path: str) -> bool:
    """Write the facts file using the installed upstream; False if upstream is not importable."""
    from .common import child_env, run_child
    env = child_env()
    env["PYTHONPATH"] = ""
    proc = run_child(["-c", _COMPUTE, path], timeout=300, env=env, cwd=os.path.dirname(path) or ".")
    return proc.returncode == 0 and os.path.exists(path)


def load() -> Optional[dict]:
    path = os.environ.get(ENV)
    if not path or not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def is_implicit_cast_ok_factory(facts: dict):
    table = facts["implicit_cast_ok"]

    def _is_implicit_cast_ok(from_dtype, to_dtype) -> bool:
        key = f"{from_dtype.name}->{to_dtype.name}"
        if key not in table:
            raise KeyError(f"upstream implicit-cast table has no entry {key}")
        return table[key]
    return _is_implicit_cast_ok
