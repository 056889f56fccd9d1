"""Run in a fresh process by test_concurrency.py: first launches of several kernels from
several threads at once (nothing compiled or registered beforehand). Prints OK or the errors."""
import sys
import threading

import numpy as np

import tilescope
import tilescope.lang as ct


@ct.kernel
def add(a, b, c, T: ct.Constant[int]):
    bid = ct.bid(0)
    ct.store(c, index=(bid,), tile=ct.load(a, index=(bid,), shape=(T,)) + ct.load(b, index=(bid,), shape=(T,)))


@ct.kernel
def scale(a, c, T: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(T,))
    ct.store(c, index=(bid,), tile=ct.static_eval(t * 2.0))      # compile-time Python on a tile


@ct.kernel
def total(a, c, T: ct.Constant[int]):
    t = ct.load(a, index=(0,), shape=(T,))
    ct.store(c, index=(0,), tile=ct.reshape(ct.sum(t), (1,)))


@ct.kernel
def matmul(a, b, c, T: ct.Constant[int]):
    x = ct.load(a, index=(0, 0), shape=(T, T))
    y = ct.load(b, index=(0, 0), shape=(T, T))
    ct.store(c, index=(0, 0), tile=ct.matmul(x, y))


def work(i, barrier, errors):
    try:
        barrier.wait()
        kind = i % 4
        if kind == 0:
            a, c = np.ones(64, np.float32), np.zeros(64, np.float32)
            tilescope.launch((4,), add, (a, a, c, 16))
            ok = (c == 2).all()
        elif kind == 1:
            a, c = np.ones(64, np.float32), np.zeros(64, np.float32)
            tilescope.launch((4,), scale, (a, c, 16))
            ok = (c == 2).all()
        elif kind == 2:
            a, c = np.ones(16, np.float32), np.zeros(1, np.float32)
            tilescope.launch((1,), total, (a, c, 16))
            ok = c[0] == 16
        else:
            a, c = np.ones((8, 8), np.float32), np.zeros((8, 8), np.float32)
            tilescope.launch((1,), matmul, (a, a, c, 8))
            ok = (c == 8).all()
        if not ok:
            errors.append(f"thread {i}: wrong result")
    except BaseException as e:      # report every failure, whatever it is
        errors.append(f"thread {i}: {type(e).__name__}: {e}")


def main(threads: int) -> None:
    errors = []
    barrier = threading.Barrier(threads)
    pool = [threading.Thread(target=work, args=(i, barrier, errors)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    print("OK" if not errors else "\n".join(errors))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 8)
