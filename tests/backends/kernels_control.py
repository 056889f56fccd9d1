"""Kernels exercising control flow on the CPU executor (divergent per block)."""
import tilescope.lang as ct


@ct.kernel
def divergent_if(x, y, T: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(T,))
    if b % 2 == 0:
        t = t * 2
    else:
        t = t - 1
    ct.store(y, index=(b,), tile=t)


@ct.kernel
def loop_per_block_trip(x, y, T: ct.Constant[int]):
    b = ct.bid(0)
    acc = ct.load(x, index=(b,), shape=(T,))
    for i in range(b):           # block b runs b iterations
        acc = acc + i
    ct.store(y, index=(b,), tile=acc)


@ct.kernel
def loop_break_continue(x, y, T: ct.Constant[int]):
    b = ct.bid(0)
    acc = ct.load(x, index=(b,), shape=(T,))
    for i in range(10):
        if i == b:
            break
        if i % 3 == 1:
            continue
        acc = acc + 1
    ct.store(y, index=(b,), tile=acc)


@ct.kernel
def while_collatz(n_in, steps_out):
    b = ct.bid(0)
    n = ct.load(n_in, index=(b,), shape=(1,))
    n = n.item() if False else n
    count = 0
    v = b + 1
    while v != 1:
        if v % 2 == 0:
            v = v // 2
        else:
            v = 3 * v + 1
        count += 1
    ct.store(steps_out, index=(b,), tile=count)


@ct.kernel
def early_return(x, y, T: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(T,))
    if b >= 2:
        return
    ct.store(y, index=(b,), tile=t + 100)


@ct.kernel
def return_in_loop(y, T: ct.Constant[int]):
    b = ct.bid(0)
    for i in range(8):
        if i == b:
            ct.store(y, index=(b,), tile=i * 10)
            return
    ct.store(y, index=(b,), tile=-1)


@ct.kernel
def value_made_at_break(x, y, T: ct.Constant[int]):
    b = ct.bid(0)
    i = 0
    while True:
        if i > b:
            t = ct.load(x, index=(b,), shape=(T,)) + i
            pair = (t, t * 2)
            break
        i += 1
    ct.store(y, index=(b,), tile=pair[1])
