"""Races through arguments that share memory, and plain stores against other blocks'
atomics: found exactly (both blocks, the element), and no false alarm on legal code."""
import io
import contextlib

import numpy as np
import pytest

import tilescope.lang as ct
from tilescope.backends.numpy.launcher import run_kernel
from tilescope.backends.numpy.races import alias_groups


@ct.kernel
def shift(x, y, T: ct.Constant[int]):
    bid = ct.bid(0)
    ct.store(y, index=(bid,), tile=ct.load(x, index=(bid,), shape=(T,)) + 1)


@ct.kernel
def store_or_add(y, T: ct.Constant[int]):
    bid = ct.bid(0)
    if bid == 0:
        ct.store(y, index=(0,), tile=ct.zeros((T,), ct.int32))
    else:
        ct.atomic_add(y, ct.arange(T, dtype=ct.int32), 1)


@ct.kernel
def add_everywhere(y, T: ct.Constant[int]):
    ct.atomic_add(y, ct.arange(T, dtype=ct.int32), 1)


@ct.kernel
def store_own_then_add_own(y, T: ct.Constant[int]):
    bid = ct.bid(0)
    ct.store(y, index=(bid,), tile=ct.zeros((T,), ct.int32))
    ct.atomic_add(y, bid * T + ct.arange(T, dtype=ct.int32), 1)


def _races(kernel, grid, args):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        checks = run_kernel(grid, kernel, args)
    return [r for r in checks.reports if "race" in str(r)], err.getvalue()


def _strided(n, stride_elems):
    base = np.zeros(1, np.float32)
    return np.lib.stride_tricks.as_strided(base, (n,), (stride_elems * 4,), writeable=True)


def test_output_view_overlapping_an_input():
    base = np.arange(40, dtype=np.float32)
    races, err = _races(shift, (4,), (base[:32], base[8:40], 8))
    assert len(races) == 1
    assert "array 'y' element (0,) (memory it shares with 'x')" in err
    assert "blocks (1, 0, 0) and (0, 0, 0) access it, one reading what the other writes" in err


def test_zero_stride_output_written_by_every_block():
    a = np.arange(32, dtype=np.float32)
    races, err = _races(shift, (4,), (a, _strided(32, 0), 8))
    assert len(races) == 1 and "both write it" in err and "array 'y'" in err


def test_same_buffer_passed_twice_in_different_shapes():
    buf = np.arange(64, dtype=np.float32)
    races, err = _races(shift, (4,), (buf[:32], buf[:32].reshape(32)[::-1], 8))
    assert len(races) == 1 and "one reading what the other writes" in err


def test_plain_store_against_other_blocks_atomics():
    races, err = _races(store_or_add, (4,), (np.zeros(16, np.int32), 16))
    assert len(races) == 1
    assert "blocks (0, 0, 0) and (1, 0, 0) access it, one storing plainly and the other atomically" in err


@pytest.mark.parametrize("case", ["in_place", "disjoint_views", "interleaved_views", "broadcast_input",
                                  "atomics_only", "own_store_then_own_atomic"])
def test_no_false_alarm_on_legal_code(case):
    if case == "in_place":
        a = np.arange(32, dtype=np.float32)
        races, err = _races(shift, (4,), (a, a, 8))
        assert (a == np.arange(32) + 1).all()
    elif case == "disjoint_views":
        buf = np.arange(64, dtype=np.float32)
        races, err = _races(shift, (4,), (buf[:32], buf[32:], 8))
    elif case == "interleaved_views":
        buf = np.arange(64, dtype=np.float32)
        races, err = _races(shift, (4,), (buf[0::2], buf[1::2], 8))
    elif case == "broadcast_input":
        x = np.broadcast_to(np.float32(3), (32,))
        races, err = _races(shift, (4,), (x, np.zeros(32, np.float32), 8))
    elif case == "atomics_only":
        y = np.zeros(16, np.int32)
        races, err = _races(add_everywhere, (8,), (y, 16))
        assert (y == 8).all()
    else:
        races, err = _races(store_own_then_add_own, (4,), (np.zeros(64, np.int32), 16))
    assert races == [] and "race" not in err


def test_race_records_are_structured():
    from tilescope.backends.numpy import races as R
    base = np.arange(40, dtype=np.float32)
    seen = []
    real = R.RaceTracker._report

    def keep(self, *args, **kwargs):
        real(self, *args, **kwargs)
        seen.extend(self.races)
    R.RaceTracker._report = keep
    try:
        _races(shift, (4,), (base[:32], base[8:40], 8))
    finally:
        R.RaceTracker._report = real
    race = seen[0]
    assert race.kind == "read-write" and race.array == "y" and race.element == (0,)
    assert set(race.blocks) == {(0, 0, 0), (1, 0, 0)} and race.shared_with == ("x",)


def test_alias_groups():
    buf = np.arange(100, dtype=np.float32)
    groups = alias_groups([("a", buf[:50]), ("b", buf[50:]), ("c", buf[40:60]), ("d", np.zeros(3))])
    assert [sorted(n for n, _ in g) for g in groups] == [["a", "b", "c"]]
    assert alias_groups([("a", buf), ("a2", buf[:])]) == []          # one layout: one array
    assert [n for n, _ in alias_groups([("z", _strided(5, 0))])[0]] == ["z"]
