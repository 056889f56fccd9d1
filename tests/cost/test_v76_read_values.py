"""Model version 76: `values` may name a one-element value the kernel reads from memory; the loops
and branches it decides are then counted at that value (a token's count of experts), and an
access under a branch costs a loop iteration in the share of the iterations that take it
(docs/cost-model.md history 118: set AF's permutation, 2.44x with every expert charged)."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel.model import predict
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_read_values.py"))
ROWS, SLOTS, TILE = 65536, 8, 1024
SPEC = f"f16[{ROWS},{TILE}], i32[{ROWS}], f16[{ROWS * SLOTS},{TILE}], {SLOTS}, {TILE}"


def _cost(values=None):
    return tilescope.cost(KERNELS.routed_rows, SPEC, (ROWS,), "h200", values=values)


def _store(report):
    (store,) = [a for a in report.counts.accesses if a.kind == "store"]
    return store


def test_unknown_the_branch_is_counted_both_ways_and_named():
    r = _cost()
    assert _store(r).weight == 1.0
    assert any("both branches counted (it reads 'n_used' from memory: --values n_used=V" in a
               for a in r.counts.assumptions)


@pytest.mark.parametrize("used", [1, 2, 8])
def test_given_it_counts_the_share_of_the_slots(used):
    r = _cost({"n_used": used})
    assert _store(r).weight == pytest.approx(used / SLOTS)
    assert _store(r).bytes * _store(r).executions == pytest.approx(ROWS * used * TILE * 2)
    assert any("values the kernel reads from memory taken as given" in a and f"n_used={used}" in a
               for a in r.counts.assumptions)
    assert not any("both branches" in a for a in r.counts.assumptions)


def test_the_time_follows_the_share():
    two, all_slots = _cost({"n_used": 2}).predicted_us, _cost({"n_used": SLOTS}).predicted_us
    assert all_slots == pytest.approx(_cost().predicted_us)     # every slot taken: both ways, as unknown
    assert two < 0.5 * all_slots


def test_a_branch_s_code_and_waits_count_in_its_share():
    # a cubin loop of 400 instructions a pass: issued only in the passes that take the branch
    r = _cost({"n_used": 2})
    facts = dataclasses.replace(r.prediction.cubin or r.prediction.estimate, loop_instructions=400, loop_shared_ops=0,
                                loop_loads=0, loop_load_waits=None)
    taken = predict(r.counts, r.prediction.gpu, tma=r.prediction.tma, facts=facts).terms["latency"]
    every = predict(_cost({"n_used": SLOTS}).counts, r.prediction.gpu, tma=r.prediction.tma,
                    facts=facts).terms["latency"]
    assert taken < 0.5 * every


def test_a_name_that_is_neither_is_refused_naming_both_kinds():
    with pytest.raises(ValueError, match=r"no runtime scalar parameter 'n_routed' \(its runtime scalars: none; "
                                         r"the values it reads from memory: 'n_used'"):
        _cost({"n_routed": 2})
