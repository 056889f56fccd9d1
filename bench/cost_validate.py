"""Validate `tilescope cost` on a GPU: predicted vs measured kernel times.

    python bench/cost_validate.py prepare [--out .costval]      # here (tileiras, cuda-tile): cubins + cases.json
    python bench/cost_validate.py run .costval --json OUT.json  # on the GPU machine (CuPy, CUDA events)
    python bench/cost_validate.py run .costval --mock           # here: the CPU executor, small sizes (plumbing)
    python bench/cost_validate.py report OUT.json [--write docs/cost-model.md]

Cases come in three groups. `micro`: microbenchmarks (bench/cost_kernels.py) that measure the
few constants the model takes from a measurement (cost/calibration.py). `validate`: the
validation kernels, through tilescope's own cubins. `validate-tma`: a few of them built as
upstream cuTile's launch builds them for aligned contiguous arrays (16-byte aligned base, unit
last stride as a constant), which lets tileiras use TMA loads; upstream's bytecode, the same
tileiras. The micro group is measured in the same run, so the calibration comes from the same
machine and clocks; the validation cases never feed the model.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any, List, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))

ARCH = "sm_90"
BYTECODE = "13.3"
NEWER_BYTECODE = "13.4"
REALISTIC = "tests/corpus/realistic/kernels.py"
KERNELS = "bench/cost_kernels.py"
SMS = 132


@dataclass
class Arg:
    kind: str                    # "array", "scalar" or "const"
    value: Any = None            # scalar/const value
    shape: tuple = ()
    dtype: str = "float32"
    init: str = "normal"         # normal, rand, zeros, bytes, index:N


def A(shape, dtype="float32", init="normal"):
    return Arg("array", shape=tuple(shape), dtype=dtype, init=init)


def S(value, dtype="float32"):
    return Arg("scalar", value=value, dtype=dtype)


def K(value):
    return Arg("const", value=value)


@dataclass
class Case:
    name: str
    group: str                   # micro, validate, validate-tma
    file: str
    kernel: str
    args: List[Arg]
    grid: tuple
    note: str = ""
    aligned: bool = False        # built as upstream's launch builds aligned arrays (TMA)
    facts: dict = field(default_factory=dict)     # filled by prepare: block, registers, shared memory
    launch: bool = False         # built as tilescope's launch builds contiguous GPU arrays (set G)

    def spec(self, concrete: bool) -> str:
        """The argument spec: dynamic shapes (what a launch compiles for) or the real ones."""
        parts = []
        for a in self.args:
            if a.kind == "array":
                from tilescope.dtypes import as_dtype
                dims = ",".join(str(d) if concrete else "?" for d in a.shape)
                parts.append(f"{as_dtype(a.dtype).name}[{dims}]")
            elif a.kind == "scalar":
                parts.append({"float32": "f32", "int32": "i32", "bool": "bool"}[a.dtype])
            else:
                parts.append(repr(a.value))
        return ", ".join(parts)

    def args_for(self, concrete: bool):
        """The argument descriptions a compile takes: the spec text, or for a `launch` case the
        MetaTensors tilescope's launch derives from contiguous, 256-byte aligned device arrays
        (concrete sizes, or only what its kernel signature keeps)."""
        if not self.launch:
            return self.spec(concrete)
        from tilescope.arraylike import launch_facts
        from tilescope.dtypes import as_dtype
        from tilescope.meta import MetaTensor, parse_args
        out = []
        for a, s in zip(self.args, parse_args(self.spec(concrete=True))):
            if a.kind == "array":
                dt = as_dtype(a.dtype)
                s = MetaTensor(a.shape, dt, None, **launch_facts(1 << 20, a.shape, None, dt))
                s = s if concrete else s.signature()
            out.append(s)
        return out


# Tile shapes of the load → mma microbenchmark: none of them is a validation kernel's shape.
STREAM_SHAPES = [("float16", 64, 64, 16), ("float16", 128, 64, 32), ("float16", 64, 256, 32),
                 ("float16", 128, 128, 16), ("float16", 32, 64, 64), ("bfloat16", 128, 64, 16),
                 ("float32", 64, 64, 16), ("float32", 32, 64, 32)]


# Shapes of the operand-layout microbenchmarks (model version 3): none is a validation kernel's.
ORIENTATION_SHAPES = [("float16", 64, 64, 16), ("float16", 128, 64, 32), ("float16", 64, 256, 32),
                      ("float16", 32, 64, 64), ("float16", 64, 32, 64), ("bfloat16", 128, 64, 16)]


# Microbenchmarks also built as tilescope's launch builds them (vector loads, TMA copies)
LAUNCH_MICRO = ("copy_f32_t1024", "copy_f32_t4096", "copy_f16_t1024", "copy_f16_t4096", "copy_2d_f32_64x64",
                "copy_2d_f32_32x128", "load_chain_t1024_g132", "load_chain_t4096_g132", "load_chain_t1024_g1056",
                "gather_copy_f16_t1024", "gather_copy_f16_t4096", "reduce_loop_t1024_g132",
                "copy_loop_f16_t1024_k1", "copy_loop_f16_t1024_k4", "copy_loop_f16_t1024_k16",
                "copy_loop_f32_t1024_k1", "copy_loop_f32_t1024_k4", "copy_loop_f32_t1024_k16",
                "mma_stream_float16_64x64x16", "mma_stream_float16_128x64x32", "mma_stream_float16_64x256x32",
                "mma_stream_float16_128x128x16", "mma_stream_bfloat16_128x64x16", "mma_stream_float32_64x64x16",
                "mma_float16_64x64x32_g132", "mma_float16_128x128x32_g2112", "row_scale_by_sum_f32_t1024",
                "row_scale_by_sum_f32_t4096", "chunk_sum_loop_f32_t256_n16", "chunk_sum_loop_f32_t512_n32")


def cdiv(a, b):
    return -(-a // b)


def cases(small: bool = False, with_upstream: bool = False) -> List[Case]:
    """Every case; `small` shrinks sizes for a CPU plumbing run (tile shapes unchanged)."""
    d = 8 if small else 1            # divides the big dimensions
    out: List[Case] = []
    add = out.append

    # -- micro: launch overhead, bandwidth, latency per load iteration, compute rates
    add(Case("empty_1", "micro", KERNELS, "empty", [A((1,), init="zeros")], (1,)))
    nb = (1 << 20) // d
    add(Case("empty_many", "micro", KERNELS, "empty", [A((nb,), init="zeros")], (nb,)))
    n = (1 << 26) // d // d
    for t in (256, 1024, 4096):
        add(Case(f"copy_f32_t{t}", "micro", KERNELS, "copy_1d", [A((n,)), A((n,), init="zeros"), K(t)], (n // t,)))
    for grid, t in ((SMS, 256), (SMS, 1024), (SMS, 4096), (SMS * 8, 1024)):
        iters = 256 // d
        chain = [A((grid * iters * t,)), A((grid * t,), init="zeros"), K(iters), K(t)]
        add(Case(f"load_chain_t{t}_g{grid}", "micro", KERNELS, "load_chain", chain, (grid,)))
        if grid == SMS and t != 256:
            add(Case(f"load_chain_t{t}_g{grid}_tma", "micro", KERNELS, "load_chain", chain, (grid,), aligned=True))
    add(Case("copy_f32_t1024_tma", "micro", KERNELS, "copy_1d", [A((n,)), A((n,), init="zeros"), K(1024)],
             (n // 1024,), aligned=True))
    mma_shapes = [("float16", 64, 64, 32), ("float16", 64, 64, 64), ("float16", 128, 128, 32),
                  ("float16", 64, 256, 64), ("bfloat16", 128, 64, 32), ("float32", 64, 64, 32),
                  ("float32", 32, 32, 32)]
    for dt, tm, tn, tk in mma_shapes:
        for grid in (SMS, SMS * 16):
            iters = 1024 // d
            add(Case(f"mma_{dt}_{tm}x{tn}x{tk}_g{grid}", "micro", KERNELS, "mma_loop",
                     [A((tm, tk), dt), A((tk, tn), dt), A((grid * tm, tn), init="zeros"), K(iters), K(tm), K(tn), K(tk)],
                     (grid,)))
    for dt, tm, tn, tk in STREAM_SHAPES:
        for aligned in (False, True):
            iters = 256 // d
            grid = 2 * SMS
            add(Case(f"mma_stream_{dt}_{tm}x{tn}x{tk}" + ("_tma" if aligned else ""), "micro", KERNELS, "mma_stream",
                     [A((grid * tm, iters * tk), dt), A((iters * tk, tn), dt), A((grid * tm, tn), init="zeros"),
                      K(iters), K(tm), K(tn), K(tk)], (grid,), aligned=aligned))
    # which operand streams, and in which layout: B contiguous along the contraction axis
    # (`order=`), B transposed in registers, B alone (A resident), B alone through `order=`
    for dt, tm, tn, tk in ORIENTATION_SHAPES:
        iters, grid = 256 // d, 2 * SMS
        a = A((grid * tm, iters * tk), dt)
        bt = A((tn, iters * tk), dt)
        for kern, b in (("mma_stream", A((iters * tk, tn), dt)), ("mma_stream_b_kmajor", bt),
                        ("mma_stream_b_permuted", bt), ("mma_stream_b_only", A((iters * tk, tn), dt)),
                        ("mma_stream_b_only_kmajor", bt)):
            add(Case(f"{kern}_{dt}_{tm}x{tn}x{tk}_v3", "micro", KERNELS, kern,
                     [a, b, A((grid * tm, tn), init="zeros"), K(iters), K(tm), K(tn), K(tk)], (grid,)))
    add(Case(f"exp2_loop_g{SMS * 16}", "micro", KERNELS, "exp2_loop",
             [A((64, 64)), A((SMS * 16 * 64, 64), init="zeros"), K(1024 // d), K(64), K(64)], (SMS * 16,)))
    t2 = 8192 // d
    for tm, tn in ((64, 64), (32, 128)):
        add(Case(f"copy_2d_f32_{tm}x{tn}", "micro", KERNELS, "copy_2d", [A((t2, t2)), A((t2, t2), init="zeros"),
                 K(tm), K(tn)], (t2 // tm, t2 // tn)))
    add(Case("copy_f32_t2048", "micro", KERNELS, "copy_1d", [A((n,)), A((n,), init="zeros"), K(2048)], (n // 2048,)))
    for t in (1024, 4096):
        add(Case(f"copy_f16_t{t}", "micro", KERNELS, "copy_1d", [A((n,), "float16"), A((n,), "float16", "zeros"),
                 K(t)], (n // t,)))
    for dt, t in (("float32", 1024), ("float16", 1024), ("float16", 4096)):
        for kern in ("gather_copy_1d", "gather_copy_1d_unchecked"):
            add(Case(f"gather_copy{kern[14:]}_{dt[0]}{dt[-2:]}_t{t}", "micro", KERNELS, kern,
                     [A((n,), dt), A((n,), dt, "zeros"), K(t)], (n // t,)))
    na = (1 << 24) // d
    for spread in (1, 64, 1024):
        add(Case(f"atomic_spread{spread}", "micro", KERNELS, "atomic_ones", [A((1024,), "int32", "zeros"),
                 K(1024), K(spread)], (na // 1024,)))
    for bins in (1024, 16384):
        add(Case(f"atomic_random_{bins}", "micro", KERNELS, "atomic_random",
                 [A((na,), "uint16", "bytes"), A((bins,), "int32", "zeros"), K(1024), K(bins)], (na // 1024,)))
    for tn, grid in ((1024, SMS), (256, SMS), (1024, SMS * 8)):
        add(Case(f"reduce_loop_t{tn}_g{grid}", "micro", KERNELS, "reduce_loop",
                 [A((grid, tn)), A((grid, tn), init="zeros"), K(256 // d), K(tn)], (grid,)))
    for kern in ("fma_loop", "exp_loop"):
        iters = 1024 // d
        add(Case(f"{kern}_g{SMS * 16}", "micro", KERNELS, kern,
                 [A((64, 64)), A((SMS * 16 * 64, 64), init="zeros"), K(iters), K(64), K(64)], (SMS * 16,)))

    # streaming rate against resident warps (version 6): persistent copies over 132·k blocks
    for dt, t in (("float32", 1024), ("float16", 1024), ("float16", 4096)):
        for k in (1, 2, 4, 8, 16):
            grid = SMS * k
            iters = max(1, (1 << 26) // d // d // t // grid)
            add(Case(f"copy_loop_{dt[0]}{dt[-2:]}_t{t}_k{k}", "micro", KERNELS, "copy_loop",
                     [A((grid * iters * t,), dt), A((grid * iters * t,), dt, "zeros"), K(iters), K(t)], (grid,)))
            if dt == "float16":
                for kern in ("gather_copy_loop", "gather_copy_loop_unchecked"):
                    add(Case(f"{kern}_f16_t{t}_k{k}", "micro", KERNELS, kern,
                             [A((grid * iters * t,), dt), A((grid * iters * t,), dt, "zeros"), K(iters), K(t)],
                             (grid,)))

    # one-row blocks ending in a reduction and a store; loops of reduced tiles (version 13: cost_micro13_h200.json)
    r13 = 16384 // d
    for tn in (1024, 4096):
        add(Case(f"row_scale_by_sum_f32_t{tn}", "micro", KERNELS, "row_scale_by_sum",
                 [A((r13, tn)), A((r13, tn), init="zeros"), K(tn)], (r13,)))
    for tn, iters in ((256, 16), (512, 32)):
        add(Case(f"chunk_sum_loop_f32_t{tn}_n{iters}", "micro", KERNELS, "chunk_sum_loop",
                 [A((r13, tn * iters)), A((r13, 1), init="zeros"), K(iters), K(tn)], (r13,)))

    # pointer chases through arrays in L1, L2 and DRAM; loop bodies past the instruction cache (version 16)
    for name, size, step, iters in (("l1", 1 << 11, 32 * 33, 4096), ("l2", 1 << 22, 32 * 129, 4096),
                                    ("dram", 1 << 28, 32 * 4097, 4096)):
        add(Case(f"chase_{name}_g{SMS}", "micro", KERNELS, "chase_loop",
                 [A((size // d,), "int32", f"chase:{step}"), A((SMS * 32,), "int32", "zeros"), K(iters // d), K(32)],
                 (SMS,)))
    for u, k in ((128, 16), (512, 16), (1024, 16), (128, 1), (1024, 1)):   # bodies of 4,100 to 32,800 instructions
        add(Case(f"long_body_u{u}_g{SMS * k}", "micro", KERNELS, "long_body_loop",
                 [A((SMS * k * 4096,)), A((SMS * k * 4096,), init="zeros"), K(max(1, 8192 // u // d)), K(u),
                  K(4096)], (SMS * k,)))

    # fenced scalar atomics: one address shared by every block, or one per block (version 17)
    for kern, tag in (("atomic_scalar_loop", ""), ("atomic_scalar_loop_relaxed", "_relaxed")):
        for k in (1, 8):
            for spread, name in ((1, "same"), (SMS * k, "own")):
                add(Case(f"atomic_scalar_{name}{tag}_g{SMS * k}", "micro", KERNELS, kern,
                         [A((SMS * 8,), init="zeros"), K(256 // d), K(spread)], (SMS * k,)))

    # -- validation: tilescope's cubins
    n = (1 << 26) // d // d
    add(Case("vector_add_f32", "validate", "examples/vector_add.py", "vector_add",
             [A((n,)), A((n,)), A((n,), init="zeros"), K(1024)], (cdiv(n, 1024),)))
    add(Case("vector_add_f16", "validate", REALISTIC, "vector_add",
             [A((n,), "float16"), A((n,), "float16"), A((n,), "float16", "zeros"), K(256)], (cdiv(n, 256),)))
    small_n = (1 << 20) // d
    add(Case("vector_add_f32_1M", "validate", "examples/vector_add.py", "vector_add",
             [A((small_n,)), A((small_n,)), A((small_n,), init="zeros"), K(1024)], (cdiv(small_n, 1024),),
             "1,024 blocks: fewer than the GPU holds at once"))
    add(Case("scale_f16", "validate", KERNELS, "scale",
             [A((n,), "float16"), A((n,), "float16", "zeros"), S(0.5), K(2048)], (cdiv(n, 2048),)))
    rows = 65536 // d
    add(Case("softmax_f32", "validate", "examples/softmax.py", "softmax",
             [A((rows, 1024)), A((rows, 1024), init="zeros"), K(1024)], (rows,)))
    add(Case("row_softmax_f16", "validate", REALISTIC, "row_softmax",
             [A((2 * rows, 512), "float16"), A((2 * rows, 512), "float16", "zeros"), K(512)], (2 * rows,)))
    lr = 16384 // d
    add(Case("layernorm_f32", "validate", "examples/layernorm.py", "layernorm",
             [A((lr, 4096)), A((4096,)), A((4096,)), A((lr, 4096), init="zeros"), S(1e-5), K(256)], (lr,)))
    add(Case("layernorm_fwd_f32", "validate", REALISTIC, "layernorm_fwd",
             [A((lr, 2048)), A((2048,)), A((2048,)), A((lr, 2048), init="zeros"), A((lr,), init="zeros"),
              A((lr,), init="zeros"), S(1e-5), K(512)], (lr,)))
    add(Case("rmsnorm_bf16", "validate", REALISTIC, "rmsnorm",
             [A((rows, 1024), "bfloat16"), A((1024,), "bfloat16"), A((rows, 1024), "bfloat16", "zeros"), S(1e-6),
              K(1024)], (rows,)))
    add(Case("row_sum_f32", "validate", KERNELS, "row_sum", [A((lr, 4096)), A((lr,), init="zeros"), K(512)], (lr,)))
    t = 8192 // d
    add(Case("transpose_f32", "validate", "examples/transpose.py", "transpose",
             [A((t, t)), A((t, t), init="zeros"), K(64), K(64)], (t // 64, t // 64)))
    add(Case("transpose_tiles_f32", "validate", REALISTIC, "transpose_tiles",
             [A((t, t)), A((t, t), init="zeros"), K(32), K(64)], (t // 32, t // 64)))
    add(Case("histogram_atomic", "validate", REALISTIC, "histogram_atomic",
             [A((n,), "uint8", "bytes"), A((256,), "int32", "zeros"), K(1024)], (cdiv(n, 1024),)))
    m = 4096 // d
    for tm, tn, tk in ((64, 64, 32), (128, 128, 32), (128, 128, 64), (64, 128, 64)):
        add(Case(f"matmul_f16_{tm}x{tn}x{tk}", "validate", "examples/matmul.py", "matmul",
                 [A((m, m), "float16"), A((m, m), "float16"), A((m, m), init="zeros"), K(tm), K(tn), K(tk)],
                 (m // tm, m // tn)))
    add(Case("matmul_f16_64x64x32_512", "validate", "examples/matmul.py", "matmul",
             [A((512, 512), "float16"), A((512, 512), "float16"), A((512, 512), init="zeros"), K(64), K(64), K(32)],
             (8, 8), "64 blocks: fewer than the GPU's 132 SMs"))
    m2 = 2048 // d
    add(Case("matmul_f32_64x64x32", "validate", "examples/matmul.py", "matmul",
             [A((m2, m2)), A((m2, m2)), A((m2, m2), init="zeros"), K(64), K(64), K(32)], (m2 // 64, m2 // 64)))
    add(Case("matmul_swizzled_f16", "validate", REALISTIC, "matmul_swizzled",
             [A((m, m), "float16"), A((m, m), "float16"), A((m, m), "float16", "zeros"), K(128), K(128), K(32), K(8)],
             ((m // 128) ** 2,)))
    add(Case("matmul_swizzled_bf16", "validate", REALISTIC, "matmul_swizzled",
             [A((m, m), "bfloat16"), A((m, m), "bfloat16"), A((m, m), init="zeros"), K(64), K(64), K(64), K(4)],
             ((m // 64) ** 2,)))
    bt = 32 // d
    add(Case("batch_matmul_f16", "validate", "examples/matmul.py", "batch_matmul",
             [A((bt, 1024, 1024), "float16"), A((bt, 1024, 1024), "float16"), A((bt, 1024, 1024), init="zeros"),
              K(64), K(64), K(32)], (16, 16, bt)))
    add(Case("matmul_persistent_f16", "validate", REALISTIC, "matmul_persistent",
             [A((m, m), "float16"), A((m, m), "float16"), A((m, m), "float16", "zeros"), K(128), K(128), K(64)],
             (SMS,), "one block per SM, looping over output tiles"))
    bh, s = 32 // d, 4096 // d
    for tq, tkv in ((64, 64), (128, 64), (128, 128)):
        add(Case(f"attention_f16_{tq}x{tkv}", "validate", "examples/attention.py", "attention",
                 [A((bh, s, 64), "float16"), A((bh, s, 64), "float16"), A((bh, s, 64), "float16"),
                  A((bh, s, 64), "float16", "zeros"), S(0.125), K(tq), K(tkv), K(64)], (s // tq, bh)))
    add(Case("attention_4d_f16", "validate", REALISTIC, "attention_online_softmax",
             [A((4, 8, s, 64), "float16"), A((4, 8, s, 64), "float16"), A((4, 8, s, 64), "float16"),
              A((4, 8, s, 64), "float16", "zeros"), S(0.125), K(64), K(64), K(64)], (s // 64, 32 // d)))

    out.extend(held_out(d))
    if UPSTREAM or with_upstream:
        from cost_setc import setc_cases      # bench/cost_setc.py: set C, upstream's kernels
        out.extend(setc_cases(d))
    if TILEGYM or with_upstream:
        from cost_setd import setd_cases      # bench/cost_setd.py: set D, TileGym's kernels
        out.extend(setd_cases(d))
        from cost_sete import sete_cases      # bench/cost_sete.py: set E, TileGym's streaming kernels
        out.extend(sete_cases(d))
    if TILEBENCH or with_upstream:
        from cost_setf import setf_cases      # bench/cost_setf.py: set F, TileBench's kernels
        out.extend(setf_cases(d))
        from cost_setg import setg_cases      # bench/cost_setg.py: set G, more TileBench kernels
        out.extend(setg_cases(d))
        from cost_seth import seth_cases      # bench/cost_seth.py: set H, other authors' TileBench kernels
        out.extend(seth_cases(d))
        from cost_seti import seti_cases      # bench/cost_seti.py: set I, TileBench kernels of other authors
        out.extend(seti_cases(d))
        from cost_setj import setj_cases      # bench/cost_setj.py: set J, TileBench files no set used
        out.extend(setj_cases(d))
    if (UPSTREAM and TILEGYM and TILEBENCH and CUTILEGPT) or with_upstream:
        from cost_setk import setk_cases      # bench/cost_setk.py: set K, four repositories' kernels
        out.extend(setk_cases(d))
    if (TILEGYM and CUTILEGPT) or with_upstream:
        from cost_setl import setl_cases      # bench/cost_setl.py: set L, TileGym's and cutileGPT's kernels
        out.extend(setl_cases(d))
    if any(name in REPOS for name in SETM_REPOS) or with_upstream:
        from cost_setm import setm_cases      # bench/cost_setm.py: set M, three repositories no set used
        out.extend(setm_cases(d))

    # -- what a launch builds (version 7): tilescope's own bytecode for contiguous device arrays
    # (aligned, unit last stride, divisible extents), for the microbenchmarks and sets A-F
    for c in list(out):
        if c.group in ("validate", "validate-b", "validate-c", "validate-d", "validate-e", "validate-f") or (
                c.group == "micro" and c.name in LAUNCH_MICRO):
            add(Case(c.name + "_launch", "micro-launch" if c.group == "micro" else "validate-launch", c.file,
                     c.kernel, c.args, c.grid, c.note, launch=True))

    # -- validation, upstream launch-like cubins (aligned, unit last stride: TMA)
    for c in list(out):
        if c.name in ("vector_add_f32", "softmax_f32", "layernorm_f32", "matmul_f16_64x64x32",
                      "matmul_f16_128x128x64", "attention_f16_64x64", "attention_f16_128x128", "transpose_f32"):
            add(Case(c.name + "_tma", "validate-tma", c.file, c.kernel, c.args, c.grid, c.note, aligned=True))
    return out


def held_out(d: int) -> List[Case]:
    """Validation set B: other sizes and tile shapes, measured after the model's second version
    was fixed (docs/cost-model.md)."""
    out: List[Case] = []
    add = out.append
    n = (1 << 25) // d // d
    add(Case("B_vector_add_f16_t1024", "validate-b", REALISTIC, "vector_add",
             [A((n,), "float16"), A((n,), "float16"), A((n,), "float16", "zeros"), K(1024)], (n // 1024,)))
    add(Case("B_scale_f32_t1024", "validate-b", KERNELS, "scale",
             [A((2 * n,)), A((2 * n,), init="zeros"), S(0.5), K(1024)], (2 * n // 1024,)))
    r = 32768 // d
    add(Case("B_rmsnorm_bf16_2048", "validate-b", REALISTIC, "rmsnorm",
             [A((r, 2048), "bfloat16"), A((2048,), "bfloat16"), A((r, 2048), "bfloat16", "zeros"), S(1e-6),
              K(2048)], (r,)))
    add(Case("B_row_softmax_f16_1024", "validate-b", REALISTIC, "row_softmax",
             [A((2 * r, 1024), "float16"), A((2 * r, 1024), "float16", "zeros"), K(1024)], (2 * r,)))
    add(Case("B_softmax_f32_2048", "validate-b", "examples/softmax.py", "softmax",
             [A((r, 2048)), A((r, 2048), init="zeros"), K(2048)], (r,)))
    q = 8192 // d
    add(Case("B_layernorm_f32_8192_t512", "validate-b", "examples/layernorm.py", "layernorm",
             [A((q, 8192)), A((8192,)), A((8192,)), A((q, 8192), init="zeros"), S(1e-5), K(512)], (q,)))
    add(Case("B_row_sum_f32_t1024", "validate-b", KERNELS, "row_sum", [A((q, 8192)), A((q,), init="zeros"), K(1024)],
             (q,)))
    add(Case("B_transpose_f32_16384x4096", "validate-b", "examples/transpose.py", "transpose",
             [A((2 * q, q // 2)), A((q // 2, 2 * q), init="zeros"), K(64), K(64)], (2 * q // 64, q // 128)))
    add(Case("B_transpose_tiles_32x32", "validate-b", REALISTIC, "transpose_tiles",
             [A((q, q)), A((q, q), init="zeros"), K(32), K(32)], (q // 32, q // 32)))
    add(Case("B_histogram_t4096", "validate-b", REALISTIC, "histogram_atomic",
             [A((n // 2,), "uint8", "bytes"), A((256,), "int32", "zeros"), K(4096)], (n // 2 // 4096,)))
    m = 2048 // d
    add(Case("B_matmul_f16_2048_64x64x64", "validate-b", "examples/matmul.py", "matmul",
             [A((m, m), "float16"), A((m, m), "float16"), A((m, m), init="zeros"), K(64), K(64), K(64)],
             (m // 64, m // 64)))
    mb, kb = 8192 // d, 2048 // d
    add(Case("B_matmul_f16_8192x8192x2048_128x128x32", "validate-b", "examples/matmul.py", "matmul",
             [A((mb, kb), "float16"), A((kb, mb), "float16"), A((mb, mb), init="zeros"), K(128), K(128), K(32)],
             (mb // 128, mb // 128)))
    m4 = 4096 // d
    add(Case("B_matmul_bf16_4096_64x128x32", "validate-b", "examples/matmul.py", "matmul",
             [A((m4, m4), "bfloat16"), A((m4, m4), "bfloat16"), A((m4, m4), init="zeros"), K(64), K(128), K(32)],
             (m4 // 64, m4 // 128)))
    add(Case("B_matmul_f32_1024_32x32x32", "validate-b", "examples/matmul.py", "matmul",
             [A((1024 // d, 1024 // d)), A((1024 // d, 1024 // d)), A((1024 // d, 1024 // d), init="zeros"),
              K(32), K(32), K(32)], (32 // d, 32 // d)))
    add(Case("B_matmul_f16_256_64x64x32", "validate-b", "examples/matmul.py", "matmul",
             [A((256, 1024), "float16"), A((1024, 256), "float16"), A((256, 256), init="zeros"), K(64), K(64), K(32)],
             (4, 4), "16 blocks"))
    add(Case("B_batch_matmul_f16_16x2048x512x2048", "validate-b", "examples/matmul.py", "batch_matmul",
             [A((16 // d, 2048, 512), "float16"), A((16 // d, 512, 2048), "float16"),
              A((16 // d, 2048, 2048), init="zeros"), K(64), K(64), K(32)], (32, 32, 16 // d)))
    add(Case("B_matmul_swizzled_f16_8192_128x128x64", "validate-b", REALISTIC, "matmul_swizzled",
             [A((mb, kb), "float16"), A((kb, mb), "float16"), A((mb, mb), "float16", "zeros"), K(128), K(128), K(64),
              K(8)], ((mb // 128) ** 2,)))
    add(Case("B_matmul_persistent_f16_2048", "validate-b", REALISTIC, "matmul_persistent",
             [A((m, m), "float16"), A((m, m), "float16"), A((m, m), "float16", "zeros"), K(128), K(128), K(64)],
             (SMS,)))
    bh, s2 = 64 // d, 2048 // d
    add(Case("B_attention_f16_S2048_64x128", "validate-b", "examples/attention.py", "attention",
             [A((bh, s2, 64), "float16"), A((bh, s2, 64), "float16"), A((bh, s2, 64), "float16"),
              A((bh, s2, 64), "float16", "zeros"), S(0.125), K(64), K(128), K(64)], (s2 // 64, bh)))
    add(Case("B_attention_4d_f16_S8192", "validate-b", REALISTIC, "attention_online_softmax",
             [A((2, 8, 4 * s2, 64), "float16"), A((2, 8, 4 * s2, 64), "float16"), A((2, 8, 4 * s2, 64), "float16"),
              A((2, 8, 4 * s2, 64), "float16", "zeros"), S(0.125), K(128), K(64), K(64)], (4 * s2 // 128, 16)))
    return out


# ---- prepare (here) ------------------------------------------------------------------------

def aligned_specs(case: Case):
    """Argument specs as upstream's launch describes aligned contiguous arrays."""
    from tilescope.meta import MetaTensor, parse_args
    specs = parse_args(case.spec(concrete=False))
    out = []
    for a, s in zip(case.args, specs):
        if a.kind == "array":
            nd = len(a.shape)
            s = MetaTensor((None,) * nd, s.dtype, (None,) * (nd - 1) + (1,),
                           static_strides=(False,) * (nd - 1) + (True,), base_addr_divisible_by=16)
        out.append(s)
    return out


def load_module(path: str, name: str):
    import importlib.util
    mod = sys.modules.get(name)
    if mod is None:
        spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, path))
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return mod


UPSTREAM = os.environ.get("COSTVAL_UPSTREAM", "")    # a checkout of NVIDIA/cutile-python (set C)
TILEGYM = os.environ.get("COSTVAL_TILEGYM", "")      # a checkout of NVIDIA/TileGym (set D)
TILEBENCH = os.environ.get("COSTVAL_TILEBENCH", "")  # a checkout of Deep-Learning-Profiling-Tools/Tilebench (set F)
TILEBENCH_PREFIX = "tilebench:"
CUTILEGPT = os.environ.get("COSTVAL_CUTILEGPT", "")  # a checkout of falcons-eyes/cutileGPT (set K)
CUTILEGPT_PREFIX = "cutilegpt:"
REPOS: dict = {}                 # --repo NAME=DIR: checkouts a case's file names as NAME:path/in/repo.py
SETM_REPOS = ("transformers", "turboquant", "kernels")      # set M's checkouts (bench/cost_setm.py)


def tilebench_impl(op_author: str) -> str:
    """A case's `file` for TileBench's `impls/<op>/<author>/impl_cutile.py` (read from --tilebench)."""
    return TILEBENCH_PREFIX + op_author + "/impl_cutile.py"


def kernel_of(case: Case):
    """The case's kernel object. Set C's upstream files are imported with a stand-in `torch`
    when torch is not installed (they use it only for dtypes such as torch.int32)."""
    from tilescope.lang.shim import load_file
    repo, sep, rel = case.file.partition(":")
    if sep and repo not in ("tilebench", "cutilegpt", "tilegym", "upstream"):
        from cost_setm import load_checkout   # bench/cost_setm.py: a checkout's module, host imports stood in
        if repo not in REPOS:
            raise SystemExit(f"{case.name} needs --repo {repo}=DIR (a checkout with {rel})")
        return getattr(load_checkout(repo, REPOS[repo], rel), case.kernel)
    if case.file.startswith(TILEBENCH_PREFIX):
        from cost_setf import load        # bench/cost_setf.py: TileBench's modules, host helpers stood in
        if not TILEBENCH:
            raise SystemExit("set F needs --tilebench DIR (a checkout of Deep-Learning-Profiling-Tools/Tilebench)")
        return getattr(load(TILEBENCH, case.file[len(TILEBENCH_PREFIX):]), case.kernel)
    if case.file.startswith(CUTILEGPT_PREFIX):
        from cost_setk import load_cutilegpt   # bench/cost_setk.py: cutileGPT's modules, CuPy stood in
        if not CUTILEGPT:
            raise SystemExit("set K needs --cutilegpt DIR (a checkout of falcons-eyes/cutileGPT)")
        return getattr(load_cutilegpt(CUTILEGPT, case.file[len(CUTILEGPT_PREFIX):]), case.kernel)
    if case.file.startswith("tilegym:"):
        from cost_setd import load        # bench/cost_setd.py: TileGym's modules, host helpers stood in
        if not TILEGYM:
            raise SystemExit("set D needs --tilegym DIR (a checkout of NVIDIA/TileGym)")
        return getattr(load(TILEGYM, case.file[len("tilegym:"):]), case.kernel)
    if not case.file.startswith("upstream:"):
        return getattr(load_file(os.path.join(ROOT, case.file)), case.kernel)
    if not UPSTREAM:
        raise SystemExit("set C needs --upstream DIR (a checkout of NVIDIA/cutile-python)")
    from cost_setd import install_torch   # upstream's files use torch for dtypes only
    install_torch()
    if os.path.join(UPSTREAM, "test") not in sys.path:
        sys.path.insert(0, os.path.join(UPSTREAM, "test"))       # fused_moe.py imports kernels.matmul
    return getattr(load_file(os.path.join(UPSTREAM, case.file[len("upstream:"):])), case.kernel)


def build_artifact(case: Case):
    import tilescope
    from tilescope.gpu.abi import layout_of
    from tilescope.gpu.artifact import Artifact, build
    from tilescope.gpu import cubin as cb
    from tilescope.lang.shim import load_file
    from tilescope.meta import parse_args
    if not case.aligned:
        try:
            return build(kernel_of(case), case.args_for(concrete=False), ARCH, BYTECODE)
        except Exception as e:       # an op newer than BYTECODE (e.g. fpowi): the newer format tileiras reads
            if "needs bytecode" not in str(e):
                raise
            return build(kernel_of(case), case.args_for(concrete=False), ARCH, NEWER_BYTECODE)
    module = load_file(os.path.join(ROOT, case.file))
    import io
    import cuda.tile  # noqa: F401  (the real package: upstream's bytecode)
    from cuda.tile.compilation import CallingConvention, KernelSignature, export_kernel
    from tilescope.backends.tileir.toolchain import find_toolchain
    up = load_module(case.file, "costval_upstream_" + os.path.basename(case.file)[:-3])
    sig = KernelSignature([s.to_upstream() for s in aligned_specs(case)],
                          calling_convention=CallingConvention.cutile_python_v1())
    buf = io.BytesIO()
    export_kernel(getattr(up, case.kernel), [sig], buf, output_format="tileir_bytecode", bytecode_version=BYTECODE)
    cubin = find_toolchain().assemble(buf.getvalue(), ARCH, where=case.name)
    layout = layout_of(tilescope.compile(getattr(module, case.kernel), parse_args(case.spec(concrete=False))).final)
    return Artifact.from_cubin(cubin, layout, kernel=case.kernel, signature=case.spec(False), arch=ARCH,
                               symbol=cb.kernel_names(cubin)[0], origin="upstream")


def cubin_facts(cubin: bytes, block) -> dict:
    """Block, registers per thread and static shared memory, for the listing (the model reads
    the cubin itself: costmodel/cubin_facts.py)."""
    from tilescope.costmodel.cubin_facts import read_cubin_facts
    facts = read_cubin_facts(cubin)
    return {"block": list(block), "registers": facts.registers, "shared": facts.shared_bytes}


def prepare(out: str, only: Optional[str], keep: bool = False) -> None:
    os.makedirs(out, exist_ok=True)
    made = []
    for c in cases():
        if not _picked(c, only):
            continue
        t = time.time()
        if keep and os.path.exists(os.path.join(out, c.name + ".cubin")):
            from tilescope.gpu.artifact import Artifact
            art = Artifact.load(os.path.join(out, c.name))
        else:
            try:
                art = build_artifact(c)
            except Exception as e:       # one case that does not build must not lose the others
                print(f"{c.name:34s} not built: {type(e).__name__}: {str(e).splitlines()[0][:200]}", flush=True)
                continue
            art.save(out, c.name)
        c.facts = cubin_facts(art.cubin, art.block)
        made.append(c)
        print(f"{c.name:34s} {time.time() - t:5.1f}s  {c.facts}", flush=True)
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump([_case_json(c) for c in made], f, indent=1)


def _picked(c: Case, only: Optional[str]) -> bool:
    """--only: comma-separated parts of case names."""
    return not only or any(part in c.name for part in only.split(","))


def _case_json(c: Case) -> dict:
    return {"name": c.name, "group": c.group, "file": c.file, "kernel": c.kernel, "grid": list(c.grid),
            "note": c.note, "aligned": c.aligned, "facts": c.facts, "launch": c.launch,
            "args": [{"kind": a.kind, "value": a.value, "shape": list(a.shape), "dtype": a.dtype, "init": a.init}
                     for a in c.args]}


def _case_from_json(j: dict) -> Case:
    args = [Arg(a["kind"], a["value"], tuple(a["shape"]), a["dtype"], a["init"]) for a in j["args"]]
    return Case(j["name"], j["group"], j["file"], j["kernel"], args, tuple(j["grid"]), j["note"], j["aligned"],
                j["facts"], j.get("launch", False))


# ---- run (GPU, or the CPU executor with --mock) -----------------------------------------------

def _device_array(cp, a: Arg):
    from tilescope.gpu.device import DeviceArray
    storage = {"bfloat16": "uint16"}.get(a.dtype, a.dtype)
    if a.init == "zeros":
        x = cp.zeros(a.shape, dtype=storage)
    elif a.init == "bytes":
        x = cp.random.randint(0, 1 << (8 * cp.dtype(storage).itemsize), size=a.shape).astype(storage)
    elif a.init.startswith("index:"):       # indices spread uniformly over [0, N): token ids, bins, experts
        x = cp.random.randint(0, int(a.init[6:]), size=a.shape).astype(storage)
    elif a.init.startswith("chase:"):       # x[i] = (i + step) mod n: a pointer chase's next index
        x = ((cp.arange(a.shape[0], dtype=cp.int64) + int(a.init[6:])) % a.shape[0]).astype(storage)
    elif a.dtype == "bfloat16":
        x = ((cp.random.standard_normal(a.shape, dtype=cp.float32) * 0.25).view(cp.uint32) >> 16).astype(cp.uint16)
    else:
        x = (cp.random.standard_normal(a.shape, dtype=cp.float32) * 0.25).astype(storage)
    return DeviceArray(x, dtype="bfloat16") if a.dtype == "bfloat16" else x


def time_gpu(cp, launch) -> dict:
    """Median time per launch (µs) over rounds of back-to-back launches between CUDA events,
    replayed from a CUDA graph when CuPy can capture one (no host gaps between launches)."""
    launch()
    cp.cuda.Device().synchronize()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    launch()
    end.record()
    end.synchronize()
    once = cp.cuda.get_elapsed_time(start, end) * 1e3
    per_round = max(1, min(200, int(2000 / max(once, 1.0))))
    stream = cp.cuda.Stream(non_blocking=True)
    graph = None
    try:
        with stream:
            stream.begin_capture()
            for _ in range(per_round):
                launch(stream)
            graph = stream.end_capture()
    except Exception:
        graph = None
    times = []
    for _ in range(7):
        with stream:
            start.record(stream)
            if graph is not None:
                graph.launch(stream)
            else:
                for _ in range(per_round):
                    launch(stream)
            end.record(stream)
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) * 1e3 / per_round)
    return {"us": statistics.median(times), "min_us": min(times), "per_round": per_round, "graph": graph is not None}


def run(folder: str, json_out: Optional[str], mock: bool, only: Optional[str]) -> None:
    with open(os.path.join(folder, "cases.json")) as f:
        stored = [_case_from_json(j) for j in json.load(f)]
    if mock:
        small = {c.name: c for c in cases(small=True)}
        stored = [small[c.name] for c in stored if c.name in small]
    results = {"cases": {}, "when": time.strftime("%Y-%m-%dT%H:%M:%S")}
    if not mock:
        import cupy as cp
        props = cp.cuda.runtime.getDeviceProperties(0)
        results["device"] = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in props.items()
                             if k in ("name", "multiProcessorCount", "clockRate", "l2CacheSize", "memoryClockRate",
                                      "memoryBusWidth", "sharedMemPerMultiprocessor", "regsPerMultiprocessor")}
        results["device"].update(driver=cp.cuda.runtime.driverGetVersion(), cupy=cp.__version__)
    if not mock:
        _warm_up_clocks()
    for c in stored:
        if not _picked(c, only):
            continue
        try:
            r = _mock_one(c) if mock else _gpu_one(folder, c)
        except Exception as e:        # one broken case must not lose the others' numbers
            r = {"error": f"{type(e).__name__}: {e}"}
        results["cases"][c.name] = dict(r, group=c.group)
        print(f"{c.name:34s} {r}", flush=True)
        if json_out:
            with open(json_out, "w") as f:
                json.dump(results, f, indent=1)


def _warm_up_clocks(seconds: float = 1.0) -> None:
    """Matrix products for a second, so the first cases run at the clocks the later ones see."""
    import cupy as cp
    x = cp.ones((4096, 4096), cp.float16)
    t = time.time()
    while time.time() - t < seconds:
        for _ in range(20):
            x @ x
        cp.cuda.Device().synchronize()


def _gpu_one(folder: str, c: Case) -> dict:
    import cupy as cp
    from tilescope.gpu.artifact import Artifact
    from tilescope.gpu.device import describe
    from tilescope.gpu.abi import pack
    from tilescope.gpu.launcher import load_function
    art = Artifact.load(os.path.join(folder, c.name))
    cp.random.seed(0)
    args = [_device_array(cp, a) if a.kind == "array" else a.value for a in c.args]
    fn = load_function(art)
    params = tuple(pack(art.layout, args, describe))
    grid = tuple(c.grid) + (1,) * (3 - len(c.grid))

    def launch(stream=None):
        fn(grid, art.block, params, shared_mem=0, stream=stream)
    r = time_gpu(cp, launch)
    del args
    cp.get_default_memory_pool().free_all_blocks()
    return r


def _mock_one(c: Case) -> dict:
    import numpy as np
    from tilescope.backends.numpy.launcher import run_kernel
    from tilescope.lang.shim import load_file
    import ml_dtypes
    rng = np.random.default_rng(0)
    args = []
    for a in c.args:
        if a.kind != "array":
            args.append(a.value)
            continue
        np_dt = ml_dtypes.bfloat16 if a.dtype == "bfloat16" else np.dtype(a.dtype)
        if a.init == "zeros":
            args.append(np.zeros(a.shape, np_dt))
        elif a.init == "bytes":
            args.append(rng.integers(0, np.iinfo(np_dt).max, a.shape, dtype=np_dt))
        elif a.init.startswith("index:"):
            args.append(rng.integers(0, int(a.init[6:]), a.shape).astype(np_dt))
        elif a.init.startswith("chase:"):
            args.append(((np.arange(a.shape[0]) + int(a.init[6:])) % a.shape[0]).astype(np_dt))
        else:
            args.append((rng.standard_normal(a.shape) * 0.25).astype(np_dt))
    kernel = kernel_of(c)
    t = time.perf_counter()
    chk = run_kernel(c.grid, kernel, tuple(args), checks={"bounds": True, "races": False})
    return {"us": (time.perf_counter() - t) * 1e6, "reports": len(chk.reports), "mock": True}


# ---- report (here) -------------------------------------------------------------------------

def report(paths: List[str], write: Optional[str], cubins: List[str]) -> None:
    from costval_report import render      # bench/costval_report.py: the comparison table
    text = render(paths, cases(), kernel_of, cubins)
    print(text)
    if write:
        _splice(write, text)


def _splice(doc: str, text: str) -> None:
    begin, end = "<!-- cost-validate:begin -->", "<!-- cost-validate:end -->"
    with open(doc) as f:
        body = f.read()
    if begin not in body:
        raise SystemExit(f"{doc} has no {begin} marker")
    head, rest = body.split(begin, 1)
    tail = rest.split(end, 1)[1]
    with open(doc, "w") as f:
        f.write(head + begin + "\n" + text + "\n" + end + tail)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="bench/cost_validate.py")
    sub = p.add_subparsers(dest="cmd", required=True)
    pr = sub.add_parser("prepare")
    pr.add_argument("--out", default=os.path.join(ROOT, ".costval"))
    pr.add_argument("--only")
    pr.add_argument("--keep", action="store_true", help="reuse cubins already in --out")
    ru = sub.add_parser("run")
    ru.add_argument("folder")
    ru.add_argument("--json")
    ru.add_argument("--mock", action="store_true")
    ru.add_argument("--only")
    pp = sub.add_parser("predict")
    pp.add_argument("folder")
    pp.add_argument("--json", required=True)
    pp.add_argument("--only")
    rp = sub.add_parser("report")
    rp.add_argument("results", nargs="*", default=[os.path.join(ROOT, "bench", "results", name) for name in (
        "cost_validation_h200.json", "cost_run_e_h200.json", "cost_run_f_h200.json", "cost_run_l_h200.json",
        "cost_run_g_h200.json", "cost_run_h_h200.json", "cost_run_i_h200.json", "cost_run_j_h200.json",
        "cost_run_k_h200.json", "cost_run_setl_h200.json")])
    rp.add_argument("--write")
    rp.add_argument("--cubins", nargs="*", default=[],
                    help="folders of prepared cubins (prepare --out): predictions with the cubin's schedule")
    for sp in (pr, ru, pp, rp):
        sp.add_argument("--upstream", help="a checkout of NVIDIA/cutile-python (validation set C)")
        sp.add_argument("--tilegym", help="a checkout of NVIDIA/TileGym (validation set D)")
        sp.add_argument("--tilebench", help="a checkout of Deep-Learning-Profiling-Tools/Tilebench (validation set F)")
        sp.add_argument("--cutilegpt", help="a checkout of falcons-eyes/cutileGPT (validation sets K and L)")
        sp.add_argument("--repo", action="append", default=[], metavar="NAME=DIR",
                        help="a checkout whose files cases name as NAME:path (repeatable; set M: "
                             + ", ".join(SETM_REPOS) + ")")
    a = p.parse_args(argv)
    global UPSTREAM, TILEGYM, TILEBENCH, CUTILEGPT
    if a.cutilegpt:
        CUTILEGPT = os.path.abspath(a.cutilegpt)
    if a.tilebench:
        TILEBENCH = os.path.abspath(a.tilebench)
    if a.upstream:
        UPSTREAM = os.path.abspath(a.upstream)
    if a.tilegym:
        TILEGYM = os.path.abspath(a.tilegym)
    for item in a.repo:
        name, sep, folder = item.partition("=")
        if not sep or not name or not os.path.isdir(folder):
            p.error(f"--repo {item}: expected NAME=DIR with an existing directory")
        REPOS[name] = os.path.abspath(folder)
    if a.cmd == "prepare":
        prepare(a.out, a.only, a.keep)
    elif a.cmd == "run":
        run(a.folder, a.json, a.mock, a.only)
    elif a.cmd == "predict":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from costval_report import predict_folder     # bench/costval_report.py
        with open(os.path.join(a.folder, "cases.json")) as f:
            stored = [c for c in map(_case_from_json, json.load(f)) if _picked(c, a.only)]
        predict_folder(a.folder, a.json, stored, kernel_of)
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        report(a.results, a.write, a.cubins)
    return 0


if __name__ == "__main__":
    sys.exit(main())
