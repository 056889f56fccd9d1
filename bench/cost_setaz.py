"""Validation set AZ: 32 launches of 26 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AY were, from
the files none of them nor sets W and Y used, after set AY was drawn, while model version 89 was the
latest; version 89's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py AZ BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 472 of sets W, Y and AG to AY,
`random.Random(55).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
One file was passed over, with a launch the cases cannot hold (sum_sum_d227dc0811d2). So the sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-az`) and as tilescope's launch builds it
(`validate-az-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setaz_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-az"
    add(Case("AZ_dropout_rmsnorm_77a9e1", g, BB + "mean_77a9e1c598ea/oracle.py", "_dropout_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"),
              A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"),
              A((4096, 512), "bfloat16"), K(512), K(512)], (4096, 1, 1)))
    add(Case("AZ_fill_negative_zero_6a41a6", g, BB + "pointwise_6a41a6a28b15/oracle.py",
             "_fill_negative_zero_kernel",
             [A((8192,), "float32"), K(1024)], (8, 1, 1)))
    add(Case("AZ_scaled_head_clone_255caf", g, BB + "pointwise_255caf07ee83/oracle.py", "_scaled_head_clone_kernel",
             [A((5242880,), "bfloat16"), A((5242880,), "bfloat16"), K(128), K(32), K(80), K(1024),
              K(0.334370152488211)], (5120, 1, 1)))
    add(Case("AZ_gated_selu_bf16_sum_703928", g, BB + "sum_7039286a336e/oracle.py", "_gated_selu_bf16_sum_kernel",
             [A((256, 1024), "bool"), A((256, 1024), "bfloat16"), A((256, 1024), "bfloat16"),
              A((256, 1024), "bfloat16"), A((1024,), "float32"), K(128)], (8, 1, 1)))
    add(Case("AZ_dropout_residual_rmsnorm_0ef8e7", g, BB + "mean_0ef8e7d245ba/oracle.py",
             "_dropout_residual_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"),
              A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"),
              A((4096, 512), "bfloat16"), K(512)], (4096, 1, 1)))
    add(Case("AZ_fill_neg_zero_57dd46", g, BB + "pointwise_57dd467b4a45/oracle.py", "_fill_neg_zero_kernel",
             [A((8192,), "bfloat16"), K(1024)], (8, 1, 1)))
    add(Case("AZ_softmax_backward_dropout_6d8612", g, BB + "sum_6d8612892024/oracle.py",
             "_softmax_backward_dropout_kernel",
             [A((393216, 128), "bfloat16"), A((393216, 128), "bool"), A((393216, 128), "bfloat16"),
              A((393216,), "float32"), A((393216,), "float32"), A((393216,), "bool"), A((393216, 128), "bfloat16"),
              K(128), K(8), K(128)], (49152, 1, 1)))
    add(Case("AZ_dropout_rmsnorm_63bc58", g, BB + "mean_63bc58206705/oracle.py", "_dropout_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"),
              A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"),
              A((4096, 512), "bfloat16"), K(512), K(512)], (4096, 1, 1)))
    add(Case("AZ_bn_tail_47b68e", g, BB + "sum_sum_47b68e6603ba/oracle.py", "_bn_tail_kernel",
             [A((376832,), "bfloat16"), A((344064,), "bfloat16"), A((1,), "bfloat16"), A((344064,), "bfloat16"),
              A((344064,), "bfloat16"), A((168,), "float32"), A((168,), "float32"), A((168,), "float32"),
              A((168,), "float32"), A((168,), "float32"), A((344064,), "bfloat16"), K(2048)], (168, 1, 1)))
    add(Case("AZ_dropout_layernorm_232949", g, BB + "var_mean_23294968b555/oracle.py", "_dropout_layernorm_kernel",
             [A((4096, 2048), "bfloat16"), A((4096, 2048), "float32"), A((4096, 2048), "float32"),
              A((2048,), "float32"), A((2048,), "float32"), A((4096, 2048), "bool"), A((4096, 2048), "float32"),
              A((4096, 2048), "float32"), A((4096, 2048), "bfloat16"), A((4096,), "float32"), K(1536),
              K(2048)], (4096, 1, 1)))
    add(Case("AZ_dropout_residual_ln_a150df", g, BB + "var_mean_a150df3e3295/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("AZ_add3_c63450", g, BB + "sum_sum_c634506089db/oracle.py", "_add3_kernel",
             [A((2097152,), "bfloat16"), A((2097152,), "bfloat16"), A((2097152,), "bfloat16"),
              A((2097152,), "float32"), K(1024)], (2048, 1, 1)))
    add(Case("AZ_ln_bw_epilogue_c63450", g, BB + "sum_sum_c634506089db/oracle.py", "_ln_bw_epilogue_kernel",
             [A((2097152,), "float32"), A((512,), "float32"), A((2097152,), "float32"), A((4096,), "float32"),
              A((2097152,), "float32"), A((2097152,), "bool"), A((4096,), "float32"), A((2097152,), "float32"),
              A((2097152,), "bfloat16"), K(512), K(0.001953125), K(1024)], (2048, 1, 1)))
    add(Case("AZ_dropout_residual_ln_permute_5c40fc", g, BB + "var_mean_5c40fc7d02ca/oracle.py",
             "_dropout_residual_ln_permute_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "float32"), A((8192, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((6291456,), "bool"), A((6291456,), "float32"),
              A((6291456,), "float32"), A((6291456,), "bfloat16"), A((8192,), "float32"), K(8), K(1024), K(768),
              K(1024)], (8192, 1, 1)))
    add(Case("AZ_row_ln_backward_0c3a6f", g, BB + "sum_sum_sum_0c3a6fa20cd5/oracle.py", "_row_ln_backward_kernel",
             [A((128, 1024), "bfloat16"), A((1024,), "float32"), A((128, 1024), "float32"), A((128,), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((128, 1024), "float32"), K(768)], (128, 1, 1)))
    add(Case("AZ_materialize_0c3a6f", g, BB + "sum_sum_sum_0c3a6fa20cd5/oracle.py", "_materialize_kernel",
             [A((128, 1024), "float32"), A((1024,), "float32"), A((128, 197, 1024), "bfloat16"),
              A((128, 197, 1024), "float32"), A((128, 197, 1024), "bfloat16"), A((768,), "float32"),
              A((768,), "float32"), K(768), K(197)], (128, 197, 1)))
    add(Case("AZ_col_sum_bf16_roundtrip_b11452", g, BB + "sum_b11452e206ee/oracle.py",
             "_col_sum_bf16_roundtrip_kernel",
             [A((32768, 1536), "bfloat16"), A((1536,), "float32"), K(32768), K(64)], (24, 1, 1)))
    add(Case("AZ_row_reduce_74f116", g, BB + "sum_sum_sum_74f116312f8b/oracle.py", "_row_reduce_kernel",
             [A((4096, 2048), "float32"), A((4096, 2048), "float32"), A((4096,), "float32"), A((4096,), "float32"),
              K(1536), K(2048)], (4096, 1, 1)))
    add(Case("AZ_col_partials_74f116", g, BB + "sum_sum_sum_74f116312f8b/oracle.py", "_col_partials_kernel",
             [A((4096, 1536), "float32"), A((4096, 1536), "float32"), A((64, 2, 1536), "float32"), K(64),
              K(64)], (24, 64, 1)))
    add(Case("AZ_col_finalize_74f116", g, BB + "sum_sum_sum_74f116312f8b/oracle.py", "_col_finalize_kernel",
             [A((64, 2, 1536), "float32"), A((1536,), "float32"), A((1536,), "float32"), K(64),
              K(16)], (96, 1, 1)))
    add(Case("AZ_dropout_residual_layernorm_97fd1a", g, BB + "var_mean_97fd1a9318ef/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((16384, 768), "bfloat16"), A((16384, 768), "float32"), A((16384, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((16384, 768), "bool"), A((16384, 768), "float32"),
              A((16384, 768), "float32"), A((16384, 768), "bfloat16"), A((16384,), "float32"), K(768),
              K(1024)], (16384, 1, 1)))
    add(Case("AZ_safe_softmax_dropout_569bba", g, BB + "amax_sum_any_569bba0f4f68/oracle.py",
             "_safe_softmax_dropout_kernel",
             [A((196608, 512), "bfloat16"), A((196608, 512), "bfloat16"), A((196608, 512), "float32"),
              A((196608, 512), "bfloat16"), A((196608, 512), "bool"), A((196608, 512), "bfloat16"),
              K(512)], (196608, 1, 1)))
    add(Case("AZ_embedding_add_dc1e4a", g, BB + "pointwise_dc1e4ac6d11f/oracle.py", "_embedding_add_kernel",
             [A((1024,), "int64", "index:100"), A((1026, 1024), "float32"), A((1024,), "int64"),
              A((1048576,), "float32"), K(1024), K(1024), K(1)], (1024, 1, 1)))
    add(Case("AZ_safe_softmax_dropout_56c7a5", g, BB + "amax_sum_any_56c7a5304dc4/oracle.py",
             "_safe_softmax_dropout_kernel",
             [A((131072, 128), "bfloat16"), A((131072, 128), "bfloat16"), A((131072, 128), "float32"),
              A((131072, 128), "bfloat16"), A((131072, 128), "bool"), A((131072, 128), "bfloat16"), K(8),
              K(128)], (16384, 1, 1)))
    add(Case("AZ_fill_one_f32_b1940c", g, BB + "pointwise_b1940cc2c2d3/oracle.py", "_fill_one_f32_kernel",
             [A((4096,), "float32"), K(1024)], (4, 1, 1)))
    add(Case("AZ_fill_one_f32_b1940c_2", g, BB + "pointwise_b1940cc2c2d3/oracle.py", "_fill_one_f32_kernel",
             [A((2097152,), "float32"), K(1024)], (2048, 1, 1)))
    add(Case("AZ_fill_true_bool_b1940c", g, BB + "pointwise_b1940cc2c2d3/oracle.py", "_fill_true_bool_kernel",
             [A((2097152,), "bool"), K(1024)], (2048, 1, 1)))
    add(Case("AZ_swin_ln_6cd69c", g, BB + "var_mean_6cd69c8f3b06/oracle.py", "_swin_ln_kernel",
             [A((6272, 1024), "bfloat16"), A((1024,), "bfloat16"), A((1024,), "bfloat16"),
              A((6272, 1024), "bfloat16"), K(1024)], (6272, 1, 1)))
    add(Case("AZ_softmax_dropout_0e7262", g, BB + "amax_sum_0e7262a9b81b/oracle.py", "_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "float32"), A((24576,), "float32"),
              A((24576,), "float32"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"),
              K(128)], (24576, 1, 1)))
    add(Case("AZ_dropout_residual_ln_d99603", g, BB + "var_mean_d99603638029/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((16384, 1024), "bfloat16"), A((16384, 1024), "float32"), A((16384, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((16384, 1024), "bool"), A((16384, 1024), "float32"),
              A((16384, 1024), "float32"), A((16384, 1024), "bfloat16"), A((16384,), "float32"), K(768),
              K(1024)], (16384, 1, 1)))
    add(Case("AZ_embedding_layernorm_14955e", g, BB + "var_mean_14955ed02f87/oracle.py",
             "_embedding_layernorm_kernel",
             [A((30522, 768), "bfloat16"), A((16384,), "int64", "index:30522"), A((512,), "int64", "index:1"),
              A((512,), "int64", "index:512"), A((2, 768), "bfloat16"), A((512, 768), "bfloat16"),
              A((768,), "bfloat16"), A((768,), "bfloat16"), A((16384, 768), "bfloat16"), K(512), K(768),
              K(1024)], (16384, 1, 1)))
    add(Case("AZ_xglm_shifted_embedding_gather_a888b5", g, BB + "pointwise_a888b5ed0623/oracle.py",
             "_xglm_shifted_embedding_gather_kernel",
             [A((128,), "int64", "index:2037"), A((2050, 1024), "float32"), A((128, 1024), "float32"), K(1024),
              K(128)], (1, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-az-launch"))]
