"""Model version 60: the loads a thread keeps in flight are its loads over the round trips its
straight-line code takes in series, the code walked with each result arriving a round trip after
its load (docs/cost-model.md history 93). Before, every wait on a load's scoreboard counted as a
round trip, so code that waits for its oldest load and then issues the next (a window of loads
outstanding) was charged as if it waited for each load alone."""
import struct

import pytest

from tilescope.costmodel.cubin_facts import _decode, _load_waits, _loads_in_flight

LDG, FADD = 0x981, 0x221


def _op(opcode, write_barrier=7, wait_mask=0):
    return struct.pack("<QQ", opcode, (write_barrier << 46) | (wait_mask << 52))


def _window(loads, boards=4):
    """`boards` loads issued, then for each further load: wait on the oldest one's scoreboard and
    reuse it; finally wait on everything."""
    code = [_op(LDG, b) for b in range(boards)]
    for i in range(boards, loads):
        b = i % boards
        code += [_op(FADD, wait_mask=1 << b), _op(LDG, b)]
    return code + [_op(FADD, wait_mask=(1 << boards) - 1)]


@pytest.mark.parametrize("loads, in_flight", [(4, 4.0), (8, 4.0), (16, 4.0), (12, 4.0)])
def test_a_window_of_loads_keeps_the_window_in_flight(loads, in_flight):
    # 16 loads through a window of 4 take 4 round trips, not 13 (one for the first four and one
    # for each wait after them, as before version 60)
    assert _loads_in_flight(_decode(b"".join(_window(loads)))) == in_flight


def test_loads_waited_for_one_by_one_are_one_in_flight():
    code = [_op(LDG, 0), _op(FADD, wait_mask=1)] * 5
    assert _loads_in_flight(_decode(b"".join(code))) == 1.0


def test_loads_never_waited_for_are_all_in_flight():
    assert _loads_in_flight(_decode(b"".join([_op(LDG, 0), _op(LDG, 1)]))) == 2.0
    assert _loads_in_flight(_decode(b"".join([_op(FADD)] * 3))) is None


def test_the_straight_line_walk_agrees_with_the_loop_walk():
    # a loop body that waits for its oldest load each time: the loop walk (versions 27 and 40)
    # and the straight-line walk charge the same round trips a pass
    body = _decode(b"".join(_window(16)))
    assert _load_waits(body) == pytest.approx(16 / _loads_in_flight(body))
