"""Validation set R: DOCSTRING PENDING."""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K, S

AL = "along:cutile-examples/"
COMMITS = {"along": "Along-whu/cutile@2eeee48"}

# Files that launch a demo when imported (their kernels come first): only their definitions run.
DEMO_AT_IMPORT = {"along": tuple("cutile-examples/" + f for f in (
    "_01_sum.py", "_02_norm.py", "_03_quant.py", "_04_softmax.py", "_06_matmul.py", "_07_flash_attn.py",
    "_08_rmsnorm.py", "_09_reduce.py", "_10_layernorm..py", "_12_silu&mul.py", "_13_mse_loss.py",
    "_14_AdamW.py"))}


def setr_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    k = "validate-r"
    f16, bf16, i32 = "float16", "bfloat16", "int32"

    # ct_sum (grid (numel / 256,)): every block adds its tile's sum to one float32 by atomic_add
    n = (1 << 28) // d // d
    add(Case("R_along_sum_atomic_f32_2p28_t256", k, AL + "_01_sum.py", "ct_sum",
             [A((n,)), A((1,), init="zeros"), K(256)], (n // 256,)))

    # ct_norm (grid (M,), one 1,024-wide row a block; mean and rsqrt of the variance in a @ct.function)
    rows = 262144 // d // d
    add(Case("R_along_norm_f32_262144x1024", k, AL + "_02_norm.py", "ct_norm",
             [A((rows, 1024)), A((rows, 1024), init="zeros"), K(1024)], (rows,)))

    # ct_quant (grid (M,)): a row scaled by its max / 128 to int8, stored back into the float16
    # input (the source's `y` is not written); one float32 scale per row
    qrows = 524288 // d // d
    add(Case("R_along_quant_int8_f16_524288x1024", k, AL + "_03_quant.py", "ct_quant",
             [A((qrows, 1024), f16), A((qrows, 1024), f16, "zeros"), A((qrows,), init="zeros"), K(1024)], (qrows,)))

    # ct_softmax (grid (M,), one 256-wide row a block, exp2)
    srows = 2097152 // d // d
    add(Case("R_along_softmax_f16_2097152x256", k, AL + "_04_softmax.py", "ct_softmax",
             [A((srows, 256), f16), A((srows, 256), f16, "zeros"), K(256)], (srows,)))

    # matmul (the source's own launch: 4,096 cubed, float16, 128x64x32 tiles, float32 accumulator;
    # grid (M / 128, N / 64))
    mm = 4096 // d
    add(Case("R_along_matmul_f16_4096_128x64x32", k, AL + "_06_matmul.py", "matmul",
             [A((mm, mm), f16), A((mm, mm), f16), A((mm, mm), f16, "zeros"), K(128), K(64), K(32), K(False),
              K(False)], (mm // 128, mm // 64)))

    # flash_attn (grid (B, H, S / 32); [B, S, H, D] float32, 32x32 tiles, no mask, exp2)
    fb, fs, fh, fd = 2, 8192 // d, 16 // d, 32
    add(Case("R_along_flash_attn_f32_2x8192x16h_d32", k, AL + "_07_flash_attn.py", "flash_attn",
             [A((fb, fs, fh, fd)), A((fb, fs, fh, fd)), A((fb, fs, fh, fd)), A((fb, fs, fh, fd), init="zeros"),
              K(32), K(fd)], (fb, fh, fs // 32)))

    # rms_norm (grid (M,), tile 1,024, bfloat16 arithmetic, eps 1e-7)
    rr = 524288 // d // d
    add(Case("R_along_rmsnorm_bf16_524288x1024", k, AL + "_08_rmsnorm.py", "rms_norm",
             [A((rr, 1024), bf16), A((1024,), bf16), A((rr, 1024), bf16, "zeros"), K(1024), S(1e-7), S(1024, i32)],
             (rr,)))

    # sum_v2 (grid (M, N / 32)): a row sum in 32-wide pieces, each added by atomic_add; the
    # source's N of 16,000 (its M of 1,048,576 would be 67 GB: 32,768 rows here)
    vm, vn = 32768 // d, 16000 // d
    add(Case("R_along_row_sum_atomic_f32_32768x16000_t32", k, AL + "_09_reduce.py", "sum_v2",
             [A((vm, vn)), A((vm,), init="zeros"), K(32)], (vm, vn // 32)))

    # layernorm (grid (M,), tile 1,024 = N, float32 statistics, bfloat16 in and out, eps 1e-7)
    lr_ = 262144 // d // d
    add(Case("R_along_layernorm_bf16_262144x1024", k, AL + "_10_layernorm..py", "layernorm",
             [A((lr_, 1024), bf16), A((lr_, 1024), bf16, "zeros"), A((1024,), bf16), A((1024,), bf16), S(1e-7),
              K(1024)], (lr_,)))

    # silu_fuse_mul (grid (numel / 1,024,), flattened)
    sn = (1 << 28) // d // d
    add(Case("R_along_silu_mul_bf16_2p28", k, AL + "_12_silu&mul.py", "silu_fuse_mul",
             [A((sn,), bf16), A((sn,), bf16), A((sn,), bf16, "zeros"), K(1024)], (sn // 1024,)))

    # mse_loss (grid (N / 256, M): rows on the second axis, at most 65,535; each block stores its
    # gradient tile and adds its share of the loss to one float32 by atomic_add)
    em, en = 32768 // d, 4096 // d
    add(Case("R_along_mse_loss_bf16_32768x4096_t256", k, AL + "_13_mse_loss.py", "mse_loss",
             [A((em, en), bf16), A((em, en), bf16), A((1,), init="zeros"), A((em, en), bf16, "zeros"), K(256),
              K(True)], (en // 256, em)))

    # ct_fused_adamw (grid (numel / 1,024,), bfloat16 weights, gradients and moments updated in
    # place; the source's lr, step 1, betas, eps, weight decay and allow_tma=True)
    an = (1 << 28) // d // d
    add(Case("R_along_adamw_bf16_2p28", k, AL + "_14_AdamW.py", "ct_fused_adamw",
             [A((an,), bf16), A((an,), bf16), A((an,), bf16, "zeros"), A((an,), bf16, "zeros"), S(0.001), S(1, i32),
              S(0.9), S(0.999), S(1e-8), S(0.001), K(1024), K(True)], (an // 1024,)))

    for x in list(out):
        add(Case(x.name + "_launch", "validate-r-launch", x.file, x.kernel, x.args, x.grid, x.note, launch=True))
    return out
