"""An `if` one branch of which leaves its block (a `while` test, `if c: continue`, an early
`return`) is written as upstream writes it: that branch alone in the `if`, the rest of the block
after it (tilescope's IR holds the rest in the other branch), whether or not the source spells
the rest as an `else`."""
import re
from pathlib import Path

import numpy as np
import pytest

import tilescope
from tilescope.backends.tileir import find_toolchain
from tilescope.lang.shim import load_file, upstream_available

KERNELS = Path(__file__).with_name("kernels_jumps.py")
MOD = load_file(str(KERNELS))
SPEC = {"while_sum": "i32[1], i32", "while_skips": "f32[64], i32", "early_return": "f32[64], i32",
        "if_else_return": "f32[64], i32", "constant_after_branches": "f32[1]", "store_in_branch": "f32[1]"}
TOOLCHAIN = find_toolchain(required=False)


def _text(name):
    return tilescope.compile(getattr(MOD, name), SPEC[name], tileiras_version="13.4").tileir_text()


def _branches(text):
    """The ops of each `if`'s then- and else-block, by the `if`'s order (nested ones included)."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        if re.match(r"\s*if %", line):
            depth, blocks, cur = 0, [], []
            for body in lines[i + 1:]:
                s = body.strip()
                if s.startswith("}") and depth == 0:
                    blocks.append(cur)
                    if "else" not in s:
                        break
                    cur = []
                    continue
                depth += s.endswith("{") - s.startswith("}")
                cur.append((s.split(" = ", 1)[1] if s.startswith("%") else s).split(" ")[0])
            out.append(blocks)
    return out


def test_while_test_leaves_and_the_body_follows():
    (then, els), = _branches(_text("while_sum"))
    assert then == [] and els == ["break"]


def test_continue_branch_alone():
    ifs = _branches(_text("while_skips"))
    assert ifs[0] == [[], ["break"]]
    assert ifs[1] == [["continue"], []]


def test_early_return_keeps_the_rest_after_the_if():
    (then, els), = _branches(_text("early_return"))
    assert then == ["return"] and els == []


def test_an_else_after_a_return_follows_the_if():
    (then, els), = _branches(_text("if_else_return"))
    assert then == ["return"] and els == []


def test_control_flow_computing_only_unused_values_is_dropped():
    # both branches give the same compile-time constant: the `if` computes nothing used (upstream
    # drops it); one that stores stays
    assert _branches(_text("constant_after_branches")) == []
    assert len(_branches(_text("store_in_branch"))) == 1


def test_cpu_and_structure_agree():
    x = np.zeros(64, np.float32)
    tilescope.launch((1,), MOD.while_skips, (x, 4))
    np.testing.assert_array_equal(x, np.full(64, 3.0, np.float32))


@pytest.mark.skipif(TOOLCHAIN is None or not upstream_available(), reason="needs tileiras and cuda-tile")
def test_same_structure_as_upstream(tmp_path):
    from tests.oracle.upstream_export import tileir_texts

    texts = tileir_texts(TOOLCHAIN, "jumps", MOD, KERNELS, SPEC, "13.4", str(tmp_path))
    for kernel, (ours, theirs) in texts.items():
        assert _branches(ours) == _branches(theirs), kernel
