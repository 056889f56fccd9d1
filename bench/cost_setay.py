"""Validation set AY: 32 launches of 17 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AX were, from
the files none of them nor sets W and Y used, after set AX was drawn, while model version 89 was the
latest; version 89's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py AY BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 455 of sets W, Y and AG to AX,
`random.Random(54).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
No file was passed over. So the sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-ay`) and as tilescope's launch builds it
(`validate-ay-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setay_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-ay"
    add(Case("AY_zero_i64_0c4549", g, BB + "pointwise_0c4549e63f48/oracle.py", "_zero_i64_kernel",
             [A((1,), "int64", "index:755535342091304961")], (1, 1, 1)))
    add(Case("AY_col_partials_86e661", g, BB + "sum_sum_sum_86e661f4be59/oracle.py", "_col_partials_kernel",
             [A((100352, 112), "float32"), A((100352, 112), "float32"), A((100352, 112), "float32"),
              A((100352, 112), "float32"), K(112), K(8)], (100352, 14, 1)))
    add(Case("AY_finalize_col_86e661", g, BB + "sum_sum_sum_86e661f4be59/oracle.py", "_finalize_col_kernel",
             [A((100352, 112), "float32"), A((100352, 112), "float32"), A((112,), "float32"), A((112,), "float32"),
              K(100352), K(8)], (14, 1, 1)))
    add(Case("AY_bn_backward_epilogue_86e661", g, BB + "sum_sum_sum_86e661f4be59/oracle.py",
             "_bn_backward_epilogue_kernel",
             [A((11239424,), "float32"), A((11239424,), "float32"), A((112,), "float32"), A((112,), "float32"),
              A((112,), "float32"), A((11239424,), "int32", "index:112"), A((11239424,), "bfloat16"),
              K(1024)], (10976, 1, 1)))
    add(Case("AY_col_partials_86e661_2", g, BB + "sum_sum_sum_86e661f4be59/oracle.py", "_col_partials_kernel",
             [A((100352, 56), "float32"), A((100352, 56), "float32"), A((100352, 56), "float32"),
              A((100352, 56), "float32"), K(56), K(8)], (100352, 7, 1)))
    add(Case("AY_finalize_col_86e661_2", g, BB + "sum_sum_sum_86e661f4be59/oracle.py", "_finalize_col_kernel",
             [A((100352, 56), "float32"), A((100352, 56), "float32"), A((56,), "float32"), A((56,), "float32"),
              K(100352), K(8)], (7, 1, 1)))
    add(Case("AY_bn_backward_epilogue_86e661_2", g, BB + "sum_sum_sum_86e661f4be59/oracle.py",
             "_bn_backward_epilogue_kernel",
             [A((5619712,), "float32"), A((5619712,), "float32"), A((56,), "float32"), A((56,), "float32"),
              A((56,), "float32"), A((5619712,), "int32", "index:56"), A((5619712,), "bfloat16"),
              K(1024)], (5488, 1, 1)))
    add(Case("AY_partial_stats_b49510", g, BB + "var_mean_b49510ed25fe/oracle.py", "_partial_stats_kernel",
             [A((4874240,), "bfloat16"), A((512, 2), "float32"), A((512, 2), "float32"), K(9520), K(2), K(8192),
              K(8192)], (512, 2, 1)))
    add(Case("AY_finalize_stats_b49510", g, BB + "var_mean_b49510ed25fe/oracle.py", "_finalize_stats_kernel",
             [A((512, 2), "float32"), A((512, 2), "float32"), A((512,), "float32"), A((512,), "float32"),
              A((512,), "float32"), A((512,), "float32"), K(9520), K(2), K(2)], (512, 1, 1)))
    add(Case("AY_affine_relu_b49510", g, BB + "var_mean_b49510ed25fe/oracle.py", "_affine_relu_kernel",
             [A((4874240,), "bfloat16"), A((512,), "float32"), A((512,), "float32"), A((512,), "float32"),
              A((512,), "float32"), A((4874240,), "bfloat16"), K(9520), K(512), K(4874240),
              K(1024)], (4760, 1, 1)))
    add(Case("AY_maxpool2x2_b49510", g, BB + "var_mean_b49510ed25fe/oracle.py", "_maxpool2x2_kernel",
             [A((512, 80, 119), "bfloat16"), A((512, 40, 59), "bfloat16"), A((512, 40, 59), "int8", "index:1"),
              K(40), K(59), K(40), K(59)], (512, 40, 59)))
    add(Case("AY_masked_materialize_sum_4c8f58", g, BB + "sum_4c8f58e00cf6/oracle.py",
             "_masked_materialize_sum_kernel",
             [A((512, 1280), "bfloat16"), A((512, 1280), "bool"), A((512, 1280), "bfloat16"),
              A((1280,), "float32"), K(16), K(512)], (80, 1, 1)))
    add(Case("AY_scalar_bf16_zero_4c8f58", g, BB + "sum_4c8f58e00cf6/oracle.py", "_scalar_bf16_zero_kernel",
             [A((1,), "bfloat16")], (1, 1, 1)))
    add(Case("AY_dropout_residual_ln_31d568", g, BB + "var_mean_31d568179350/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((16384, 1024), "bfloat16"), A((16384, 1024), "float32"), A((16384, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((16384, 1024), "bool"), A((16384, 1024), "float32"),
              A((16384, 1024), "bfloat16"), A((16384,), "float32"), K(768), K(1024)], (16384, 1, 1)))
    add(Case("AY_bias_dropout_ln_378513", g, BB + "var_mean_378513bb3108/oracle.py", "_bias_dropout_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((1024,), "bfloat16"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"),
              A((8192, 1024), "float32"), A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"),
              A((8192,), "float32"), K(768), K(1024)], (8192, 1, 1)))
    add(Case("AY_partial_reduce_ab9fc4", g, BB + "sum_sum_ab9fc4091e40/oracle.py", "_partial_reduce_kernel",
             [A((4, 96, 3136), "bfloat16"), A((1,), "bfloat16"), A((4, 96, 3136), "bfloat16"),
              A((4, 96, 3136), "bfloat16"), A((96,), "float32"), A((2, 96), "float32"), A((2, 96), "float32"),
              K(96), K(3136), K(12544), K(8192)], (96, 2, 1)))
    add(Case("AY_finalize_ab9fc4", g, BB + "sum_sum_ab9fc4091e40/oracle.py", "_finalize_kernel",
             [A((2, 96), "float32"), A((2, 96), "float32"), A((96,), "float32"), A((96,), "float32"),
              A((96,), "float32"), A((96,), "float32"), A((96,), "float32"), A((96,), "float32"),
              A((96,), "float32"), K(96), K(2), K(8), K(2), K(7.971938775510203e-05)], (12, 1, 1)))
    add(Case("AY_epilogue_ab9fc4", g, BB + "sum_sum_ab9fc4091e40/oracle.py", "_epilogue_kernel",
             [A((4, 256, 3136), "bfloat16"), A((4, 224, 3136), "bfloat16"), A((4, 192, 3136), "bfloat16"),
              A((4, 160, 3136), "bfloat16"), A((4, 128, 3136), "bfloat16"), A((4, 96, 3136), "bfloat16"),
              A((1,), "bfloat16"), A((4, 96, 3136), "bfloat16"), A((4, 96, 3136), "bfloat16"), A((96,), "float32"),
              A((96,), "float32"), A((96,), "float32"), A((96,), "float32"), A((4, 96, 3136), "bfloat16"),
              A((4, 32, 3136), "bfloat16"), K(96), K(3136), K(12544), K(64), K(32), K(8192)], (96, 2, 1)))
    add(Case("AY_scale_95ed2e", g, BB + "pointwise_95ed2ef35da9/oracle.py", "_scale_kernel",
             [A((6291456,), "bfloat16"), A((6291456,), "bfloat16"), K(1024)], (6144, 1, 1)))
    add(Case("AY_pool_add_stages_bb0661", g, BB + "sum_sum_sum_bb06617cadbd/oracle.py", "_pool_add_stages_kernel",
             [A((36992, 1024), "bfloat16"), A((36992, 1024), "bfloat16"), A((36992, 1024), "bfloat16"),
              A((36992, 1024), "bfloat16"), A((36992, 1024), "bfloat16"), K(17), K(17), K(768),
              K(1024)], (128, 17, 17)))
    add(Case("AY_branch_grad_bb0661", g, BB + "sum_sum_sum_bb06617cadbd/oracle.py", "_branch_grad_kernel",
             [A((36992, 128), "bfloat16"), A((36992, 128), "bfloat16"), A((128,), "float32"), A((128,), "float32"),
              A((128,), "float32"), A((128,), "float32"), A((36992, 128), "bfloat16"), K(0.88671875),
              K(128)], (36992, 1, 1)))
    add(Case("AY_branch_grad_bb0661_2", g, BB + "sum_sum_sum_bb06617cadbd/oracle.py", "_branch_grad_kernel",
             [A((36992, 512), "bfloat16"), A((36992, 512), "bfloat16"), A((512,), "float32"), A((512,), "float32"),
              A((512,), "float32"), A((512,), "float32"), A((36992, 512), "bfloat16"), K(0.88671875),
              K(512)], (36992, 1, 1)))
    add(Case("AY_one_hot_exp_bf16_f78ec7", g, BB + "sum_f78ec7cb2b81/oracle.py", "_one_hot_exp_bf16_kernel",
             [A((1,), "float32"), A((1,), "float32"), A((2048,), "int64", "index:100"), A((2048, 8192), "float32"),
              A((2048,), "float32"), A((2048,), "float32"), A((2048, 8192), "float32"),
              A((2048, 8192), "bfloat16"), K(8008), K(1024)], (2048, 8, 1)))
    add(Case("AY_dropout_residual_layernorm_d8a04d", g, BB + "var_mean_d8a04dcc69ee/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("AY_partial_reduce_b00464", g, BB + "sum_sum_b00464d36daa/oracle.py", "_partial_reduce_kernel",
             [A((4, 256, 3136), "bfloat16"), A((1,), "bfloat16"), A((4, 256, 3136), "bfloat16"),
              A((4, 256, 3136), "bfloat16"), A((256,), "float32"), A((2, 256), "float32"), A((2, 256), "float32"),
              K(256), K(3136), K(12544), K(8192)], (256, 2, 1)))
    add(Case("AY_finalize_b00464", g, BB + "sum_sum_b00464d36daa/oracle.py", "_finalize_kernel",
             [A((2, 256), "float32"), A((2, 256), "float32"), A((256,), "float32"), A((256,), "float32"),
              A((256,), "float32"), A((256,), "float32"), A((256,), "float32"), A((256,), "float32"),
              A((256,), "float32"), K(256), K(2), K(8), K(2), K(7.971938775510203e-05)], (32, 1, 1)))
    add(Case("AY_epilogue_b00464", g, BB + "sum_sum_b00464d36daa/oracle.py", "_epilogue_kernel",
             [A((4, 256, 3136), "bfloat16"), A((1,), "bfloat16"), A((4, 256, 3136), "bfloat16"),
              A((4, 256, 3136), "bfloat16"), A((256,), "float32"), A((256,), "float32"), A((256,), "float32"),
              A((256,), "float32"), A((4, 256, 3136), "bfloat16"), K(3136), K(12544), K(8192)], (256, 2, 1)))
    add(Case("AY_bn_relu_cat_808b2a", g, BB + "pointwise_808b2a6357bd/oracle.py", "_bn_relu_cat_kernel",
             [A((480,), "bfloat16"), A((12042240,), "bfloat16"), A((480,), "bfloat16"), A((480,), "bfloat16"),
              A((480,), "bfloat16"), A((12042240,), "bfloat16"), A((24084480,), "bfloat16"),
              A((24084480,), "int32", "index:480"), A((24084480,), "int32", "index:12042240"),
              A((24084480,), "uint8", "index:2"), K(256)], (94080, 1, 1)))
    add(Case("AY_bn_relu_flat_7308e0", g, BB + "pointwise_7308e0024674/oracle.py", "_bn_relu_flat_kernel",
             [A((58,), "bfloat16"), A((2910208,), "bfloat16"), A((58,), "bfloat16"), A((58,), "bfloat16"),
              A((58,), "bfloat16"), A((2910208,), "bfloat16"), K(58), K(784), K(1024)], (2842, 1, 1)))
    add(Case("AY_masked_softmax_dropout_dde0a4", g, BB + "amax_sum_dde0a4d3980e/oracle.py",
             "_masked_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "bool"), A((1,), "bfloat16"),
              A((24576, 128), "float32"), A((24576, 128), "bfloat16"), A((24576,), "float32"),
              A((24576,), "float32"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"),
              K(128)], (24576, 1, 1)))
    add(Case("AY_dropout_residual_ln_4073a7", g, BB + "var_mean_4073a74b3f1a/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 1536), "bool"), A((4096, 1536), "float32"),
              A((4096, 1536), "float32"), A((4096, 1536), "bfloat16"), A((4096,), "float32"), K(1536), K(2048),
              K(1536.0)], (4096, 1, 1)))
    add(Case("AY_dropout_residual_ln_a27167", g, BB + "var_mean_a2716750e22b/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-ay-launch"))]
