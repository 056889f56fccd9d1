"""Validation set R: twelve kernels of Along-whu/cutile that no earlier set (A-Q) used, chosen
for variety (a GEMM, flash attention, reductions by atomics, three normalisations, a softmax, an
int8 quantiser, a fused elementwise kernel, a loss with its gradient, an AdamW step) and fixed
before any prediction for them was looked at (the model frozen first, the predictions committed
before the device run).

- Along-whu/cutile (cutile-examples/ at 2eeee48, `--repo along=DIR`, the checkout of set P, which
  read only `_05`, `_11`, `_15`, `_16` and `_17`): the numbered exercises set P left out because
  they launch a demo when imported. Their kernels come first in each file; only the file's
  statements through its last definition run (`DEMO_AT_IMPORT`; `cost_setm.load_checkout`,
  `definitions_only`), so the constants above a kernel (`INV_LOG_2`) are defined and the demo
  is not run. Sizes from each file's own demo where it fills the H200 (the GEMM), otherwise
  scaled up with the file's tiles and grid rule to about 0.25-2 GB an array:
  - `_01_sum.py` `ct_sum`: 256-element tiles of 2^28 float32 summed, every block adding its sum
    to one float32 by `atomic_add` (grid (numel / 256,));
  - `_02_norm.py` `ct_norm`: a row normalised to zero mean and unit variance by a `@ct.function`,
    float32, 262,144 rows of 1,024 (one row a block);
  - `_03_quant.py` `ct_quant`: a row divided by its max / 128 (max, not absolute max, as the
    source) and truncated to int8, the codes stored back into the float16 input (the source's
    `y` is passed but not written), one float32 scale a row; 524,288 rows of 1,024;
  - `_04_softmax.py` `ct_softmax`: a 256-wide float16 row by `exp2` (the source scales by
    ln 2 where it names the constant 1 / ln 2: the case keeps it), 2,097,152 rows;
  - `_06_matmul.py` `matmul`: the source's own launch, float16 4,096 cubed, 128x64x32 tiles,
    float32 `mma` accumulator (grid (32, 64));
  - `_07_flash_attn.py` `flash_attn`: non-causal attention over [B, S, H, D] float32 (32x32
    tiles, `exp2`, float32 `matmul` and `mma`), 2 x 8,192 tokens x 16 heads of 32 (grid
    (B, H, S / 32));
  - `_08_rmsnorm.py` `rms_norm`: bfloat16 arithmetic throughout, 524,288 rows of 1,024, eps 1e-7;
  - `_09_reduce.py` `sum_v2`: row sums in 32-wide pieces, each added by `atomic_add`, the source's
    16,000 columns over 32,768 rows (its 1,048,576 rows would be 67 GB; grid (M, N / 32)).
    `sum_v1` and `sum_v3` read only the first tile of each row and `sum_v4` overwrites its
    result per block: not taken;
  - `_10_layernorm..py` `layernorm`: float32 statistics, bfloat16 in and out with weight and
    bias, 262,144 rows of 1,024;
  - `_12_silu&mul.py` `silu_fuse_mul`: x * sigmoid(gate) over 2^28 bfloat16 (1,024 a block);
  - `_13_mse_loss.py` `mse_loss`: the gradient tile stored and the block's share of the mean
    squared error added to one float32 by `atomic_add`, bfloat16 32,768 x 4,096, 256-wide tiles
    (grid (N / 256, M): the rows on the second axis, which CUDA caps at 65,535);
  - `_14_AdamW.py` `ct_fused_adamw`: an AdamW step over 2^28 bfloat16 parameters, moments and
    weights updated in place, the source's hyperparameters, step 1 and `allow_tma=True`.

Each kernel is built dynamically shaped (`validate-r`) and as tilescope's launch builds it
(`validate-r-launch`), as sets M-Q. Nothing is copied here: the files are read from the checkout.

Every case built (tileiras 13.4, sm_90; each in 2.5 s or less) and ran on the CPU executor at
the small sizes with no bounds report, and all twelve agreed there with a NumPy reference:
relative error 9e-7 or less in float32 (sum, norm, flash attention, row sums, the loss), 3e-4
(float16 GEMM), 1.2e-3 (float16 softmax), 5e-3 or less in bfloat16 (RMSNorm, layer norm,
SiLU-mul, the loss gradient, AdamW's weights and moments); int8 codes and scales bit for bit
where the quotient is in range (99.8% of them: the source divides by the max, so rows whose
minimum is below minus the maximum fall out of int8's range, where conversion is not defined).
None was replaced.

Considered and left out: `_18_mHC.py`'s four kernels (manifold hyper-connections; the file
loads the same way, its `torch.nn.Module` base and allocator calls above the kernels stood in,
but the twelve above were fixed before that was tried and the set stays at twelve), `_19_mla.py` and `_20_fla.py` (set P's
reasons: an out-of-bounds cache index and a branch on a tile; unfinished launchers). Twelve
usable kernels came from this checkout, so none was taken from TileGym.
"""
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
    vm, vn = 32768 // d, 16000 // d // 32 * 32
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
        add(x.launched("validate-r-launch"))
    return out
