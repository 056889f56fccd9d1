"""Validation set J: nine TileBench kernels (Deep-Learning-Profiling-Tools/Tilebench,
`impls/<op>/<author>/impl_cutile.py`) from the implementations no earlier set used — two row
argmax kernels of one file (a float16 key packed with its index, and float32 without ties), a
chunked cross entropy with a gathered target logit, a whole-row cross entropy over two rows per
block, the interior stripes of a 2-D Jacobi stencil, two ×2 kernels, a float32 sigmoid and an
exp2-based SwiGLU — chosen and fixed before any prediction of model version 11 for them was
looked at; predictions committed before the device run (bench/results/cost_setj_predictions.json).

Each kernel is built dynamically shaped (`validate-j`) and as tilescope's launch builds it
(`validate-j-launch`), as sets G-I. Read from a checkout given by `--tilebench DIR` (never copied
here). Tile sizes are those of each file's launch code; occupancy hints in the `@ct.kernel(...)`
decorator are kept, those a launch adds with `.with_hints(...)` are not part of the kernel object
and are left out. Dtypes and sizes differ from the earlier sets' versions of the same operations
where the code allows (the SwiGLU in float32: its `exp2(..., flush_to_zero=True)` rejects bfloat16,
found when it was first built); all fill the GPU.
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K, tilebench_impl


def setj_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    f = tilebench_impl
    j = "validate-j"
    m = 8192 // d
    add(Case("J_argmax_key_f16_8192x16384", j, f("argmax/gpt"), "_argmax_rows_fp16_key_kernel",
             [A((m, 16384), "float16"), A((m,), "int64", "zeros"), K(16384), K(4096)], (m,)))
    add(Case("J_argmax_notie_f32_16384x4096", j, f("argmax/gpt"), "_argmax_rows_notie_kernel",
             [A((2 * m, 4096)), A((2 * m,), "int64", "zeros"), K(4096), K(4096)], (2 * m,)))
    add(Case("J_cross_entropy_chunks_f32_16384x8192", j, f("cross_entropy/gpt"), "_cross_entropy_kernel",
             [A((2 * m, 8192)), A((2 * m,), "int64", "zeros"), A((2 * m,), init="zeros"), K(256), K(4), K(32)],
             (2 * m // 4,)))
    r = 131072 // d
    add(Case("J_cross_entropy_rows_f16_131072x512", j, f("cross_entropy/gpt_i7"), "_cross_entropy_kernel",
             [A((r, 512), "float16"), A((r,), "int64", "zeros"), A((r,), init="zeros"), K(512), K(2)], (r // 2,)))
    g = 8192 // d
    add(Case("J_jacobi_stripes_f32_8194", j, f("jacobi_stencil_2d/gpt"), "_jacobi_full_stripe_kernel",
             [A((g + 2, g + 2)), A((g + 2, g + 2), init="zeros"), K(g + 2), K(g + 2), K(g + 1), K(8), K(1024)],
             (g // 8, g // 1024)))
    e = (1 << 27) // d // d
    add(Case("J_mul2_add_bf16_128M", j, f("mul2/gpt"), "_mul2_kernel",
             [A((e,), "bfloat16"), A((e,), "bfloat16", "zeros"), K(4096)], (e // 4096,)))
    h = (1 << 26) // d // d
    add(Case("J_mul2_f32_64M", j, f("mul2/hand"), "mul2_kernel",
             [A((h,)), A((h,), init="zeros"), K(1024)], (h // 1024,)))
    add(Case("J_sigmoid_f32_64M", j, f("sigmoid/gpt_i1"), "_sigmoid_kernel",
             [A((h,)), A((h,), init="zeros"), K(2048)], (h // 2048,)))
    s = (1 << 25) // d // d
    add(Case("J_swiglu_exp2_f32_32M", j, f("swiglu/gpt"), "_swiglu_kernel",
             [A((s,)), A((s,)), A((s,), init="zeros"), K(1024)], (s // 1024,)))
    for x in list(out):
        add(x.launched("validate-j-launch"))
    return out
