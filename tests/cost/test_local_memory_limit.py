"""A cubin that spills past the 512 KiB of local memory a thread may have does not launch (set BM's
one-block finalisation of three (512, 1024) float32 tiles built dynamically: 535,048 bytes a thread,
CUDA_ERROR_INVALID_VALUE on an H100); the cost report says so, at the kernel's line."""
import os

import tilescope
from tilescope.costmodel import model
from tilescope.costmodel.advice import LOCAL_BYTES_PER_THREAD, advise
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SUMS = load_file(os.path.join(ROOT, "bench", "cost_kernels_chain.py"))
H100 = gpu_named("h100")


def _said(local_bytes):
    counts = tilescope.cost(SUMS.column_sum, "f32[65536, 1024], f32[1024], 512, 1024, 128", (1,), "h100",
                            cubin=False).counts
    facts = CubinFacts("column_sum", threads=128, registers=255, shared_bytes=0, local_bytes=local_bytes,
                       instructions=400000)
    return counts, [a for a in advise(counts, model.predict(counts, H100, facts=facts))
                    if a.code == "local-memory-limit"]


def test_spilling_past_a_thread_s_local_memory_is_said_not_to_launch():
    counts, said = _said(535048)
    assert len(said) == 1 and "535,048 bytes" in said[0].message and "launch fails" in said[0].message
    assert said[0].line == counts.fn.loc.line


def test_spills_within_the_limit_say_nothing_of_it():
    assert _said(LOCAL_BYTES_PER_THREAD)[1] == []
    assert _said(0)[1] == []
