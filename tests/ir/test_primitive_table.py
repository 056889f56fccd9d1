"""The primitive table: every op has every rule column filled, or a stated reason why not."""
import json
import os
import subprocess
import sys

import pytest

from tilescope.ir.core import Op
from tilescope.ir.primitive import COLUMNS, PRIMITIVES, Attr, Primitive, Unsupported
from tilescope.tools import ops_table


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _tilescope(*args) -> str:
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    return subprocess.run([sys.executable, "-m", "tilescope", *args], capture_output=True, text=True, check=True,
                          env=env).stdout


@pytest.fixture(scope="module")
def table():
    return ops_table.rows()


def test_no_rule_is_missing_without_a_reason(table):
    gaps = [(r["op"], c) for r in table for c in COLUMNS if r[c] == "missing"]
    assert not gaps, f"rules missing without a stated reason: {gaps}"


def test_every_primitive_belongs_to_a_family(table):
    assert all(r["family"] != "?" for r in table), [r["op"] for r in table if r["family"] == "?"]
    assert all(r["doc"] for r in table), [r["op"] for r in table if not r["doc"]]


def test_the_ops_command_prints_the_table():
    out = _tilescope("ops")
    lines = out.splitlines()
    assert lines[0].split() == ["op", "family", *COLUMNS]
    row = next(ln.split() for ln in lines if ln.startswith("binary "))
    assert row == ["binary", "elementwise", "yes", "yes", "yes", "yes", "yes", row[-1]]
    # every "no[n]" refers to a numbered reason under the table
    notes = {ln.split("]")[0] + "]" for ln in lines if ln.startswith("[")}
    cited = {cell[2:] for ln in lines for cell in ln.split() if cell.startswith("no[")}
    assert cited and cited <= notes
    assert "MISSING" not in out


def test_the_ops_command_in_json():
    out = _tilescope("ops", "--format", "json")
    rows = {r["op"]: r for r in json.loads(out)}
    assert rows["load_tile"]["numpy"] is None and rows["load_tile"]["family"] == "memory"
    assert rows["array_slice"]["transpile"]          # a stated reason


def test_a_gap_shows_up():
    p = Primitive("test_gap_op", "A test op.")
    assert p.status("numpy") == "missing" and p.rule("numpy") is None
    p.unsupported("numpy", "a test reason")
    assert p.status("numpy") == "a test reason" and p.rule("numpy") is None
    p.numpy(lambda ex, op: None)
    assert p.status("numpy") is None and p.rule("numpy") is not None
    assert isinstance(p.rules["compiled"], Unsupported)
    with pytest.raises(ValueError):
        p.unsupported("no_such_column", "x")


def test_attributes_read_their_defaults():
    op = Op("load_tile", attrs={"order": (0,), "shape": (4,), "padding_mode": None})
    assert op.attrs["check_bounds"] is True              # not given: the schema's default
    assert op.attrs["traversal_steps"] is None
    assert "check_bounds" not in op.attrs and dict(op.attrs) == {"order": (0,), "shape": (4,), "padding_mode": None}
    with pytest.raises(KeyError, match="no attribute 'no_such_attr'"):
        op.attrs["no_such_attr"]
    with pytest.raises(KeyError):
        op.attrs["order_typo"]


def test_required_attributes_have_no_default():
    p = PRIMITIVES["binary"]
    assert p.attrs["fn"].required and not p.attrs["flush_to_zero"].required
    assert p.default("flush_to_zero") is False
    with pytest.raises(KeyError):
        p.default("fn")


def test_declaring_twice_is_an_error():
    from tilescope.ir.primitive import declare
    with pytest.raises(ValueError, match="declared twice"):
        declare("binary")


def test_unknown_traits_are_refused():
    with pytest.raises(ValueError, match="unknown traits"):
        Primitive("test_traits_op", traits=("side_efects",))


def test_attr_kinds_accept_their_values():
    from tilescope.ir.primitive import INTS, one_of
    assert Attr(INTS).accepts((1, 2)) and not Attr(INTS).accepts((1, True)) and not Attr(INTS).accepts([1])
    assert Attr(INTS, None).accepts(None) and not Attr(INTS).accepts(None)
    fn = one_of("add", "sub")
    assert Attr(fn).accepts("add") and not Attr(fn).accepts("mul")
