"""Validation set BN: 32 launches of 22 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to BM were, from
the files none of them nor sets W and Y used, after set BM was drawn, while model version 101 was the
latest; version 101's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py BN BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 806 of sets W, Y and AG to BM,
`random.Random(69).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Three files were passed over, each with a launch the cases cannot hold (sum_b7a98f3c6228,
sum_6d68a671ec4a, pointwise_a77badc5e988). So the sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-bn`) and as tilescope's launch builds it
(`validate-bn-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setbn_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-bn"
    add(Case("BN_dropout_ln_168aa7", g, BB + "var_mean_168aa7e4d819/oracle.py", "_dropout_ln_kernel",
             [A((8192, 768), "float32"), A((8192, 768), "float32"), A((768,), "float32"), A((768,), "float32"),
              A((8192, 768), "bool"), A((8192, 768), "float32"), A((8192,), "float32"), A((8192,), "float32"),
              A((8192, 768), "bfloat16"), K(768), K(1024)], (8192, 1, 1)))
    add(Case("BN_softmax_dropout_784330", g, BB + "amax_sum_78433096579d/oracle.py", "_softmax_dropout_kernel",
             [A((65536, 1024), "bfloat16"), A((65536, 1024), "float32"), A((65536,), "float32"),
              A((65536,), "float32"), A((65536, 1024), "bool"), A((65536, 1024), "bfloat16"), K(1024)], (65536, 1, 1)))
    add(Case("BN_biased_xent_row_82f04e", g, BB + "amax_sum_sum_82f04ea7b737/oracle.py", "_biased_xent_row_kernel",
             [A((2048, 8008), "bfloat16"), A((8008,), "float32"), A((2048, 8008), "float32"), A((2048,), "float32"),
              A((2048,), "float32"), K(8008), K(8192)], (2048, 1, 1)))
    add(Case("BN_dropout_ln_b193af", g, BB + "var_mean_b193afd50ebd/oracle.py", "_dropout_ln_kernel",
             [A((4096, 2048), "bfloat16"), A((4096, 2048), "float32"), A((4096, 2048), "float32"),
              A((2048,), "float32"), A((2048,), "float32"), A((4096, 2048), "bool"), A((4096, 2048), "float32"),
              A((4096, 2048), "float32"), A((4096, 2048), "bfloat16"), A((4096,), "float32"), K(1536), K(1e-07),
              K(2048)], (4096, 1, 1)))
    add(Case("BN_dual_dropout_layernorm_88dbd7", g, BB + "mean_var_88dbd7034b72/oracle.py",
             "_dual_dropout_layernorm_kernel",
             [A((2048, 768), "bfloat16"), A((2048, 768), "float32"), A((2048, 768), "float32"),
              A((2048, 768), "float32"), A((768,), "float32"), A((768,), "float32"), A((2048, 1024), "bool"),
              A((2048, 1024), "bool"), A((2048, 1024), "float32"), A((2048,), "float32"), A((2048, 1024), "float32"),
              A((2048, 1024), "bfloat16"), K(768), K(1024)], (2048, 1, 1)))
    add(Case("BN_softmax_dropout_b11b5e", g, BB + "amax_sum_b11b5e30ca7a/oracle.py", "_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "float32"), A((24576, 128), "float32"),
              A((24576, 128), "bfloat16"), A((24576,), "float32"), A((24576,), "float32"), A((24576, 128), "bool"),
              A((24576, 128), "bfloat16"), K(128)], (24576, 1, 1)))
    add(Case("BN_producer_branch_456d63", g, BB + "sum_sum_sum_456d637a9bc7/oracle.py", "_producer_branch_kernel",
             [A((11640832,), "bfloat16"), A((5820416,), "bfloat16"), A((5820416,), "bfloat16"), A((1,), "bfloat16"),
              A((58,), "float32"), A((58,), "float32"), A((58,), "float32"), A((58,), "float32"),
              A((5820416,), "bfloat16"), K(58), K(116), K(784), K(1), K(1024)], (5684, 1, 1)))
    add(Case("BN_epilogue_branch_456d63", g, BB + "sum_sum_sum_456d637a9bc7/oracle.py", "_epilogue_branch_kernel",
             [A((5820416,), "bfloat16"), A((5820416,), "bfloat16"), A((58,), "float32"), A((58,), "float32"),
              A((58,), "float32"), A((58,), "float32"), A((58,), "float32"), A((5820416,), "bfloat16"), K(58),
              K(9.964923469387754e-06), K(1024)], (5684, 1, 1)))
    add(Case("BN_producer_branch_456d63_2", g, BB + "sum_sum_sum_456d637a9bc7/oracle.py", "_producer_branch_kernel",
             [A((11640832,), "bfloat16"), A((5820416,), "bfloat16"), A((5820416,), "bfloat16"), A((1,), "bfloat16"),
              A((58,), "float32"), A((58,), "float32"), A((58,), "float32"), A((58,), "float32"),
              A((5820416,), "bfloat16"), K(58), K(116), K(784), K(0), K(1024)], (5684, 1, 1)))
    add(Case("BN_hardsigmoid_broadcast_mul_ba870b", g, BB + "pointwise_ba870b00a0b3/oracle.py",
             "_hardsigmoid_broadcast_mul_kernel",
             [A((30720,), "bfloat16"), A((30720, 49), "bfloat16"), A((30720, 49), "bfloat16"), K(64)], (30720, 1, 1)))
    add(Case("BN_invstd_ada23c", g, BB + "pointwise_ada23cf7aec6/oracle.py", "_invstd_kernel",
             [A((512,), "bfloat16"), A((512,), "float32"), K(512), K(512)], (1, 1, 1)))
    add(Case("BN_bn_relu_contiguous_ada23c", g, BB + "pointwise_ada23cf7aec6/oracle.py", "_bn_relu_contiguous_kernel",
             [A((1605632,), "bfloat16"), A((512,), "bfloat16"), A((512,), "float32"), A((512,), "bfloat16"),
              A((512,), "bfloat16"), A((1605632,), "bfloat16"), K(1605632), K(512), K(49), K(1024)], (1568, 1, 1)))
    add(Case("BN_bn_stats_1f7174", g, BB + "var_mean_mean_1f7174490c38/oracle.py", "_bn_stats_kernel",
             [A((6272, 1280), "bfloat16"), A((1280,), "float32"), A((1280,), "float32"), A((1280,), "float32"),
              A((1280,), "float32"), K(6272), K(8192), K(16), K(0.00015943877551020407), K(1e-05),
              K(1.0001594642002871)], (80, 1, 1)))
    add(Case("BN_relu6_spatial_mean_1f7174", g, BB + "var_mean_mean_1f7174490c38/oracle.py",
             "_relu6_spatial_mean_kernel",
             [A((8192, 1280), "bfloat16"), A((1280,), "float32"), A((1280,), "float32"), A((1280,), "float32"),
              A((1280,), "float32"), A((128, 1280), "bfloat16"), K(49), K(0.02040816326530612), K(64), K(64)],
             (128, 20, 1)))
    add(Case("BN_dropout_residual_ln_a0fe76", g, BB + "var_mean_a0fe76af4db4/oracle.py", "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(768), K(1024)],
             (8192, 1, 1)))
    add(Case("BN_bn_channel_a716d6", g, BB + "var_mean_a716d6413817/oracle.py", "_bn_channel_kernel",
             [A((704, 196), "bfloat16"), A((704,), "float32"), A((704,), "float32"), A((704,), "float32"),
              A((704,), "float32"), A((704,), "float32"), A((704, 196), "bfloat16"), K(196), K(256), K(1e-05)],
             (704, 1, 1)))
    add(Case("BN_dropout_residual_ln_fdbe15", g, BB + "var_mean_fdbe15b24063/oracle.py", "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024)],
             (8192, 1, 1)))
    add(Case("BN_channel_reduce_b1d846", g, BB + "sum_sum_b1d8468e9c69/oracle.py", "_channel_reduce_kernel",
             [A((992, 784), "float32"), A((992, 784), "float32"), A((992,), "float32"), A((992,), "float32"), K(784),
              K(1024)], (992, 1, 1)))
    add(Case("BN_bert_softmax_bwd_1eeba9", g, BB + "sum_1eeba9a28a57/oracle.py", "_bert_softmax_bwd_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"),
              A((24576,), "float32"), A((24576,), "float32"), A((2048, 128), "bool"), A((2048, 128), "bool"),
              A((24576, 128), "bfloat16"), K(12), K(128), K(128), K(8), K(128)], (3072, 1, 1)))
    add(Case("BN_dropout_residual_layernorm_d301b5", g, BB + "var_mean_d301b5fe0f3c/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 1536), "bool"), A((4096, 1536), "float32"),
              A((4096, 1536), "float32"), A((4096, 1536), "bfloat16"), A((4096,), "float32"), K(1536), K(2048)],
             (4096, 1, 1)))
    add(Case("BN_producer_456bcf", g, BB + "sum_456bcf55ec29/oracle.py", "_producer_kernel",
             [A((4, 1024, 372), "bfloat16"), A((4, 1024, 372), "bfloat16"), A((4, 2048, 372), "bfloat16"),
              A((4, 2048, 372), "bfloat16"), A((2, 12, 1024), "float32"), K(12), K(128), K(16)], (64, 12, 1)))
    add(Case("BN_final_456bcf", g, BB + "sum_456bcf55ec29/oracle.py", "_final_kernel",
             [A((2, 12, 1024), "float32"), A((2048,), "float32"), K(12), K(16), K(16)], (64, 1, 1)))
    add(Case("BN_reduce_de4088", g, BB + "sum_sum_de4088ac89ce/oracle.py", "_reduce_kernel",
             [A((351232,), "bfloat16"), A((1,), "bfloat16"), A((351232,), "bfloat16"), A((351232,), "float32"),
              A((448,), "float32"), A((448,), "float32"), K(448), K(196), K(1024), K(784)], (448, 1, 1)))
    add(Case("BN_where_producer_de4088", g, BB + "sum_sum_de4088ac89ce/oracle.py", "_where_producer_kernel",
             [A((351232,), "bfloat16"), A((351232,), "bfloat16"), A((1,), "bfloat16"), A((351232,), "bfloat16"),
              K(512)], (686, 1, 1)))
    add(Case("BN_epilogue_flat_de4088", g, BB + "sum_sum_de4088ac89ce/oracle.py", "_epilogue_flat_kernel",
             [A((351232,), "bfloat16"), A((351232,), "float32"), A((448,), "float32"), A((448,), "float32"),
              A((448,), "float32"), A((448,), "float32"), A((351232,), "bfloat16"), K(448), K(196), K(512),
              K(351232), K(0.0012755102040816326)], (686, 1, 1)))
    add(Case("BN_layernorm_d552da", g, BB + "var_mean_d552da4c6138/oracle.py", "_layernorm_kernel",
             [A((128, 768), "bfloat16"), A((768,), "float32"), A((768,), "float32"), A((128,), "float32"),
              A((128,), "float32"), A((128, 1024), "bfloat16"), K(768), K(1024)], (128, 1, 1)))
    add(Case("BN_where_flat_643db2", g, BB + "sum_sum_643db2887a01/oracle.py", "_where_flat_kernel",
             [A((90935296,), "bfloat16"), A((1,), "bfloat16"), A((90935296,), "bfloat16"),
              A((90935296,), "bfloat16"), K(1024)], (88804, 1, 1)))
    add(Case("BN_epilogue_flat_nhwc_643db2", g, BB + "sum_sum_643db2887a01/oracle.py", "_epilogue_flat_nhwc_kernel",
             [A((90935296,), "bfloat16"), A((90935296,), "bfloat16"), A((32,), "float32"), A((32,), "float32"),
              A((32,), "float32"), A((32,), "float32"), A((32,), "float32"), A((90935296,), "bfloat16"), K(32),
              K(3.5189856312778704e-07), K(1024)], (88804, 1, 1)))
    add(Case("BN_channel_reduce_pool_c94d2f", g, BB + "sum_sum_c94d2f06e30b/oracle.py", "_channel_reduce_pool_kernel",
             [A((128, 104, 4, 4), "bfloat16"), A((128, 88, 4, 4), "bfloat16"), A((1,), "bfloat16"),
              A((128, 88, 4, 4), "bfloat16"), A((128, 88, 4, 4), "bfloat16"), A((88,), "float32"),
              A((88,), "float32"), A((88,), "float32"), A((88,), "float32"), A((88,), "float32"),
              A((128, 88, 8, 8), "bfloat16"), K(2048)], (88, 1, 1)))
    add(Case("BN_partial_reduce_ad2e58", g, BB + "sum_sum_ad2e5844c8b7/oracle.py", "_partial_reduce_kernel",
             [A((4, 928, 256), "float32"), A((4, 928, 256), "float32"), A((1, 928), "float32"),
              A((1, 928), "float32"), K(4), K(196), K(256)], (928, 1, 1)))
    add(Case("BN_finalize_ad2e58", g, BB + "sum_sum_ad2e5844c8b7/oracle.py", "_finalize_kernel",
             [A((1, 928), "float32"), A((1, 928), "float32"), A((928,), "float32"), A((928,), "float32"),
              A((928,), "float32"), A((928,), "float32"), A((928,), "float32"), A((928,), "float32"),
              A((928,), "float32"), K(1), K(1), K(928), K(0.0012755102040816326)], (928, 1, 1)))
    add(Case("BN_epilogue_ad2e58", g, BB + "sum_sum_ad2e5844c8b7/oracle.py", "_epilogue_kernel",
             [A((4, 928, 256), "float32"), A((4, 928, 256), "float32"), A((928,), "float32"), A((928,), "float32"),
              A((928,), "float32"), A((4, 928, 256), "bfloat16"), K(196), K(256)], (928, 4, 1)))

    return [c for case in out for c in (case, case.launched("validate-bn-launch"))]
