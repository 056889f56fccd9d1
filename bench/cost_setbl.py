"""Validation set BL: 32 launches of 23 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to BK were, from
the files none of them nor sets W and Y used, after set BK was drawn, while model version 98 was the
latest; version 98's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py BL BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 761 of sets W, Y and AG to BK,
`random.Random(67).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Three files were passed over: two with a launch the cases cannot hold (pointwise_ee22f47c826d,
sum_b50b2847e16a), one that launched nothing at its first shape point (sum_sum_sum_92943d6eae4c).
So the sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-bl`) and as tilescope's launch builds it
(`validate-bl-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setbl_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-bl"
    add(Case("BL_masked_softmax_dropout_d46ce8", g, BB + "amax_sum_d46ce8f9ec36/oracle.py",
             "_masked_softmax_dropout_kernel",
             [A((98304, 512), "bfloat16"), A((98304, 512), "bool"), A((1,), "bfloat16"), A((98304, 512), "float32"),
              A((98304, 512), "bfloat16"), A((98304,), "float32"), A((98304,), "float32"), A((98304, 512), "bool"),
              A((98304, 512), "bfloat16"), K(24), K(512), K(512), K(512)], (98304, 1, 1)))
    add(Case("BL_cat_bn_relu_mean_0c02b9", g, BB + "mean_0c02b9c9a1c9/oracle.py", "_cat_bn_relu_mean_kernel",
             [A((128, 184, 16), "bfloat16"), A((184,), "bfloat16"), A((184,), "bfloat16"), A((184,), "bfloat16"),
              A((184,), "bfloat16"), A((128, 184), "bfloat16"), K(16)], (128, 184, 1)))
    add(Case("BL_partial_stats_4b4d06", g, BB + "var_mean_4b4d0668d167/oracle.py", "_partial_stats_kernel",
             [A((64, 200704), "bfloat16"), A((49, 64), "float32"), A((49, 64), "float32"), K(200704), K(4096)],
             (64, 49, 1)))
    add(Case("BL_finalize_stats_4b4d06", g, BB + "var_mean_4b4d0668d167/oracle.py", "_finalize_stats_kernel",
             [A((49, 64), "float32"), A((49, 64), "float32"), A((64,), "float32"), A((64,), "float32"), K(200704),
              K(49), K(64)], (64, 1, 1)))
    add(Case("BL_bn_relu_4b4d06", g, BB + "var_mean_4b4d0668d167/oracle.py", "_bn_relu_kernel",
             [A((12544, 1024), "bfloat16"), A((12544, 1024), "float32"), A((12544, 1024), "float32"),
              A((12544, 1024), "float32"), A((12544, 1024), "float32"), A((12544, 1024), "bfloat16"), K(1024)],
             (12544, 1, 1)))
    add(Case("BL_gelu_bwd_partial_851ae8", g, BB + "sum_851ae8199532/oracle.py", "_gelu_bwd_partial_kernel",
             [A((128, 16384), "bfloat16"), A((128, 16384), "bfloat16"), A((128, 16384), "bfloat16"),
              A((1, 16384), "float32"), K(16384), K(128), K(16)], (1, 1024, 1)))
    add(Case("BL_finalize_851ae8", g, BB + "sum_851ae8199532/oracle.py", "_finalize_kernel",
             [A((1, 16384), "float32"), A((16384,), "float32"), K(1), K(16)], (1024, 1, 1)))
    add(Case("BL_scaled_key_layout_f2a03d", g, BB + "pointwise_f2a03dbd04dd/oracle.py", "_scaled_key_layout_kernel",
             [A((16777216,), "bfloat16"), A((16777216,), "bfloat16"), K(512), K(4096), K(32768), K(64), K(64)],
             (8, 512, 1)))
    add(Case("BL_silu_mul1_48a1ad", g, BB + "pointwise_48a1ad6d548e/oracle.py", "_silu_mul1_kernel",
             [A((84934656,), "bfloat16"), A((84934656,), "bfloat16"), K(1024)], (82944, 1, 1)))
    add(Case("BL_bn_backward_e889c9", g, BB + "sum_sum_e889c9d3e84e/oracle.py", "_bn_backward_kernel",
             [A((128, 136, 16), "bfloat16"), A((128, 120, 16), "bfloat16"), A((1,), "bfloat16"),
              A((128, 120, 16), "bfloat16"), A((128, 120, 16), "bfloat16"), A((120,), "float32"),
              A((120,), "float32"), A((120,), "float32"), A((120,), "float32"), A((120,), "float32"),
              A((128, 120, 16), "bfloat16"), K(128), K(16), K(2048)], (120, 1, 1)))
    add(Case("BL_row_fma_mask_bf16_0ae418", g, BB + "sum_0ae41860bdcf/oracle.py", "_row_fma_mask_bf16_kernel",
             [A((65536, 128), "bfloat16"), A((65536, 128), "float32"), A((128, 128), "bool"), A((1,), "bfloat16"),
              A((65536, 128), "bfloat16"), K(32), K(128), K(128)], (2048, 1, 1)))
    add(Case("BL_init_full_zero_0ae418", g, BB + "sum_0ae41860bdcf/oracle.py", "_init_full_zero",
             [A((1,), "bfloat16")], (1, 1, 1)))
    add(Case("BL_row_scatter_200f6e", g, BB + "sum_sum_sum_200f6e0136dd/oracle.py", "_row_scatter_kernel",
             [A((2048, 768), "bfloat16"), A((2048, 768), "bfloat16"), A((2048, 768), "bfloat16"),
              A((768,), "float32"), A((2048, 768), "float32"), A((2048,), "float32"), A((2048, 768), "float32"),
              A((1,), "float32"), A((2048, 768), "bool"), A((2048,), "int64", "index:100"),
              A((2048,), "int64", "index:100"), A((3, 768), "float32"), A((20005, 768), "float32"),
              A((786432,), "float32"), K(4), K(1), K(1024), K(768), K(3), K(20005), K(512)], (512, 1, 1)))
    add(Case("BL_finalize_partials_200f6e", g, BB + "sum_sum_sum_200f6e0136dd/oracle.py", "_finalize_partials_kernel",
             [A((786432,), "float32"), A((768,), "float32"), A((768,), "float32"), K(512), K(768), K(512), K(64)],
             (12, 1, 1)))
    add(Case("BL_bn_residual_relu_avgpool_52818a", g, BB + "pointwise_52818a8e5cdd/oracle.py",
             "_bn_residual_relu_avgpool_kernel",
             [A((512,), "bfloat16"), A((49152, 16), "bfloat16"), A((512,), "bfloat16"), A((512,), "bfloat16"),
              A((512,), "bfloat16"), A((49152, 16), "bfloat16"), A((49152,), "bfloat16"), K(512), K(16), K(16),
              K(16)], (3072, 1, 1)))
    add(Case("BL_partial_stats_6a2d0c", g, BB + "var_mean_mean_6a2d0c92a5ed/oracle.py", "_partial_stats_kernel",
             [A((491520, 49), "bfloat16"), A((512, 960), "float32"), A((512, 960), "float32"), K(960), K(49), K(64)],
             (512, 960, 1)))
    add(Case("BL_finalize_stats_6a2d0c", g, BB + "var_mean_mean_6a2d0c92a5ed/oracle.py", "_finalize_stats_kernel",
             [A((512, 960), "float32"), A((512, 960), "float32"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((960,), "float32"), K(960), K(512), K(512), K(25088)], (960, 1, 1)))
    add(Case("BL_hardswish_spatial_mean_6a2d0c", g, BB + "var_mean_mean_6a2d0c92a5ed/oracle.py",
             "_hardswish_spatial_mean_kernel",
             [A((491520, 49), "bfloat16"), A((960,), "float32"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((491520, 49), "bfloat16"), A((491520,), "bfloat16"), K(960), K(49), K(64)],
             (491520, 1, 1)))
    add(Case("BL_channel_ln_eb0583", g, BB + "var_mean_eb058371f885/oracle.py", "_channel_ln_kernel",
             [A((10368, 640), "bfloat16"), A((640,), "bfloat16"), A((640,), "bfloat16"), A((10368, 640), "bfloat16"),
              K(640), K(1024), K(640.0)], (10368, 1, 1)))
    add(Case("BL_head_layout_transpose_clone_0aaf58", g, BB + "pointwise_0aaf589f7fad/oracle.py",
             "_head_layout_transpose_clone_kernel",
             [A((16, 128, 12, 64), "bfloat16"), A((16, 12, 64, 128), "bfloat16"), K(128), K(64)], (16, 12, 1)))
    add(Case("BL_row_partials_5fbbe8", g, BB + "sum_sum_sum_5fbbe8587abc/oracle.py", "_row_partials_kernel",
             [A((32768, 128), "bfloat16"), A((256, 128, 128), "float32"), A((256, 128, 128), "float32"),
              A((128,), "float32"), A((256, 128, 128), "float32"), A((32768, 128), "bfloat16"),
              A((256, 128), "float32"), A((256, 128), "float32"), A((256, 128), "float32"), K(128), K(128)],
             (256, 1, 1)))
    add(Case("BL_finalize_5fbbe8", g, BB + "sum_sum_sum_5fbbe8587abc/oracle.py", "_finalize_kernel",
             [A((256, 128), "float32"), A((256, 128), "float32"), A((256, 128), "float32"), A((128,), "float32"),
              A((128,), "float32"), A((128,), "float32"), K(256), K(128)], (1, 1, 1)))
    add(Case("BL_softmax_row_79b08b", g, BB + "amax_sum_79b08bfeb860/oracle.py", "_softmax_row_kernel",
             [A((98304, 513), "float32"), A((98304, 513), "bool"), A((1,), "float32"), A((98304, 513), "bfloat16"),
              A((98304,), "float32"), A((98304,), "float32"), K(513), K(1024)], (98304, 1, 1)))
    add(Case("BL_dual_dropout_layernorm_a56d64", g, BB + "mean_var_a56d64a00ced/oracle.py",
             "_dual_dropout_layernorm_kernel",
             [A((2048, 768), "bfloat16"), A((2048, 768), "float32"), A((2048, 768), "float32"),
              A((2048, 768), "float32"), A((768,), "float32"), A((768,), "float32"), A((2048, 1024), "bool"),
              A((2048, 1024), "bool"), A((2048, 1024), "float32"), A((2048,), "float32"), A((2048, 1024), "float32"),
              A((2048, 1024), "bfloat16"), K(768), K(1024)], (2048, 1, 1)))
    add(Case("BL_bf16_residual_affine_5f698a", g, BB + "pointwise_5f698ae9321b/oracle.py",
             "_bf16_residual_affine_kernel",
             [A((32768, 128), "bfloat16"), A((32768, 128), "bfloat16"), A((128,), "bfloat16"), A((128,), "bfloat16"),
              A((32768, 128), "bfloat16"), K(128), K(8), K(128)], (4096, 1, 1)))
    add(Case("BL_masked_softmax_dropout_67baf8", g, BB + "amax_sum_67baf84aae9a/oracle.py",
             "_masked_softmax_dropout_kernel",
             [A((98304, 512), "bfloat16"), A((98304, 512), "bool"), A((1,), "bfloat16"), A((98304, 512), "float32"),
              A((98304, 512), "bfloat16"), A((98304,), "float32"), A((98304,), "float32"), A((98304, 512), "bool"),
              A((98304, 512), "bfloat16"), K(512)], (98304, 1, 1)))
    add(Case("BL_dropout_residual_rmsnorm_ece69d", g, BB + "mean_ece69d14f132/oracle.py",
             "_dropout_residual_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"), A((512,), "float32"),
              A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"), A((4096, 512), "bfloat16"),
              K(512), K(512)], (4096, 1, 1)))
    add(Case("BL_row_sum_fma_2f173e", g, BB + "sum_2f173ee403d1/oracle.py", "_row_sum_fma_kernel",
             [A((65536, 128), "bfloat16"), A((65536, 128), "bfloat16"), A((65536, 128), "bfloat16"), K(4), K(128)],
             (16384, 1, 1)))
    add(Case("BL_dropout_layernorm_scope_d0e540", g, BB + "mean_var_d0e54075d3fd/oracle.py",
             "_dropout_layernorm_scope_kernel",
             [A((2048, 768), "bfloat16"), A((2048, 768), "float32"), A((2048, 768), "float32"), A((768,), "float32"),
              A((768,), "float32"), A((1572864,), "bool"), A((1572864,), "float32"), A((2048,), "float32"),
              A((1572864,), "float32"), A((1572864,), "bfloat16"), K(768), K(1024), K(1)], (2048, 1, 1)))
    add(Case("BL_bn_affine_spatial_mean_384058", g, BB + "mean_3840584eef9a/oracle.py",
             "_bn_affine_spatial_mean_kernel",
             [A((672,), "bfloat16"), A((344064, 49), "bfloat16"), A((672,), "bfloat16"), A((672,), "bfloat16"),
              A((672,), "bfloat16"), A((344064, 49), "bfloat16"), A((344064,), "bfloat16"), K(49), K(64), K(49.0),
              K(672)], (344064, 1, 1)))
    add(Case("BL_row_group_d0cb44", g, BB + "sum_sum_sum_d0cb44a92f6d/oracle.py", "_row_group_kernel",
             [A((4096, 1536), "bfloat16"), A((1536,), "float32"), A((4096, 1536), "float32"), A((4096,), "float32"),
              A((4096, 1536), "bool"), A((4096, 1536), "float32"), A((4096, 1536), "bfloat16"),
              A((512, 1536), "float32"), A((512, 1536), "float32"), A((512, 1536), "float32"), K(4096), K(1536),
              K(1536), K(1.1111111111111112), K(8), K(1), K(2048)], (512, 1, 1)))
    add(Case("BL_finalize_d0cb44", g, BB + "sum_sum_sum_d0cb44a92f6d/oracle.py", "_finalize_kernel",
             [A((512, 1536), "float32"), A((512, 1536), "float32"), A((512, 1536), "float32"), A((1536,), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), K(512), K(1536), K(512), K(16)], (96, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-bl-launch"))]
