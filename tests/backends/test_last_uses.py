"""Values leave the executor's environment after their last use (executor.last_uses), so
memory is reused while a group runs; a value read inside a loop lives until the loop ends."""
import numpy as np

import cuda.tile as ct
from tilescope.backends.numpy import executor
from tilescope.backends.numpy.launcher import run_kernel
from tilescope.compiler import compile as compile_kernel
from tilescope.meta import MetaTensor


@ct.kernel
def scaled_sum(x, y, n):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(1, 8))
    acc = ct.zeros((1, 8), dtype=ct.float32)
    for i in range(n):
        acc = acc + t * 2.0                # `t` is read in every iteration, and after the loop
    ct.store(y, index=(ct.bid(0), 0), tile=acc + t)


def test_last_reader_in_the_defining_block():
    f32 = MetaTensor((4, 8), "float32")
    fn = compile_kernel(scaled_sum, [f32, f32, 3]).final
    drops = executor.last_uses(fn)
    dropped_by = {vid: op for op in fn.walk() for vid in drops.get(id(op), ())}
    loop = next(op for op in fn.body.ops if op.name == "for")
    t = next(op.results[0] for op in fn.body.ops if op.results and op.results[0].name == "t")
    assert dropped_by[t.id].name == "binary"          # read in the loop and after it: kept past the loop
    assert loop.operands[1].id in drops[id(loop)]     # n: last read by the loop itself
    carried = loop.blocks[0].args[1]
    assert dropped_by[carried.id] in loop.blocks[0].ops      # a loop-carried value: within the body


def test_results_with_dropping():
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    y = np.zeros_like(x)
    run_kernel((4,), scaled_sum, (x, y, 3))
    assert np.array_equal(y, x * 2 * 3 + x)
