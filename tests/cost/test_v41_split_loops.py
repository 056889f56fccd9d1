"""Model version 41: where tileiras splits an `mma` loop into a loop of loads and a loop of mma
(upstream's 128x128 attention, built for aligned arrays: 128 element loads a pass, each waited
alone, then the mma), the round trips the loading loop waits in series are the mma loop's waits."""
from tilescope.costmodel.cubin_facts import _decode, _mma_loop_load_waits

from .test_mma_waits import ADD, HGMMA, _branch
from .test_v27_load_waits import _ldg, _wait


def _loops(*bodies):
    """Each body closed by a branch back to its first instruction, one after another."""
    code, at = b"", 16
    for body in bodies:
        code += b"".join(body) + _branch(at + 16 * len(body), at)
        at += 16 * (len(body) + 1)
    return _decode(ADD + code)


def test_the_loading_loop_s_waits_stand_for_an_mma_loop_that_loads_nothing():
    loads = [_ldg(0), _wait(0b1), _ldg(1), _wait(0b10), _ldg(2), _wait(0b100), ADD]
    products = [HGMMA, ADD, HGMMA, ADD]
    assert _mma_loop_load_waits(_loops(loads, products)) == 3.0
    assert _mma_loop_load_waits(_loops(products, loads)) == 3.0


def test_an_mma_loop_with_its_own_loads_keeps_its_own_waits():
    own = [_ldg(0), _ldg(1), _wait(0b11), HGMMA, ADD]
    loads = [_ldg(0), _wait(0b1), _ldg(1), _wait(0b10), _ldg(2), _wait(0b100), ADD]
    assert _mma_loop_load_waits(_loops(loads, own)) == 1.0
    # no mma loop at all: none
    assert _mma_loop_load_waits(_loops(loads)) is None
