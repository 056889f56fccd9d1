"""Run by test_interrupts.py in a child process that receives a real SIGINT mid-launch."""
import os
import signal
import sys
import traceback

import numpy as np

import tilescope.lang as ct
from tilescope.backends.numpy import progress
from tilescope.backends.numpy.launcher import run_kernel


@ct.kernel
def slow(x, y, T: ct.Constant[int], N: ct.Constant[int]):
    bid = ct.bid(0)
    acc = ct.load(x, index=(bid,), shape=(T,))
    for i in range(N):
        acc = acc * 0.5 + 1.0
    ct.store(y, index=(bid,), tile=acc)


started = []
original = progress.Progress.update


def update(self, start):
    started.append(start)
    if len(started) == 2:
        print("running", flush=True)     # the first group has written its part of y
    return original(self, start)


progress.Progress.update = update
# Python leaves Ctrl-C ignored when it starts with SIGINT ignored (a shell's background job): this
# child is about the launch's behaviour on a KeyboardInterrupt, so it asks for one.
signal.signal(signal.SIGINT, signal.default_int_handler)
T, blocks = 1024, 1024
x = np.ones(T * blocks, np.float32)
y = np.full(T * blocks, -7.0, np.float32)
before = y.copy()
try:
    run_kernel((blocks,), slow, (x, y, T, 400), group=4)
    print("finished before the interrupt")
except KeyboardInterrupt as e:
    frames = traceback.extract_tb(e.__traceback__)
    numpy_frames = [f for f in frames if os.sep + "numpy" + os.sep in f.filename and "tilescope" not in f.filename]
    print(f"interrupted after {len(started)} groups; restored={np.array_equal(y, before)}; "
          f"frames={len(frames)}; numpy_frames={len(numpy_frames)}; message={e}")
    sys.exit(0)
