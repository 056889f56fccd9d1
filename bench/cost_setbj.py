"""Validation set BJ: 32 launches of 22 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to BI were, from
the files none of them nor sets W and Y used, after set BI was drawn, while model version 97 was the
latest; version 97's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py BJ BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 716 of sets W, Y and AG to BI,
`random.Random(65).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
No file was passed over. So the sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-bj`) and as tilescope's launch builds it
(`validate-bj-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setbj_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-bj"
    add(Case("BJ_relu_dropout_masks_e4d2c6", g, BB + "pointwise_e4d2c6337728/oracle.py", "_relu_dropout_masks_kernel",
             [A((16777216,), "bfloat16"), A((16777216,), "float32"), A((16777216,), "bool"),
              A((16777216,), "bfloat16"), A((16777216,), "bool"), K(1024)], (16384, 1, 1)))
    add(Case("BJ_nfnet_gate_flat_54f7ee", g, BB + "pointwise_54f7ee896ad5/oracle.py", "_nfnet_gate_flat_kernel",
             [A((196608,), "bfloat16"), A((15925248,), "bfloat16"), A((15925248,), "bfloat16"),
              A((15925248,), "bfloat16"), K(1536), K(81), K(1024)], (15552, 1, 1)))
    add(Case("BJ_gelu_derivative_finish_544fac", g, BB + "pointwise_544fac7c5583/oracle.py",
             "_gelu_derivative_finish_kernel",
             [A((38535168,), "bfloat16"), A((38535168,), "bfloat16"), A((38535168,), "float32"),
              A((38535168,), "bfloat16"), K(512)], (75264, 1, 1)))
    add(Case("BJ_channel_sum_c9b37d", g, BB + "sum_c9b37dbc088b/oracle.py", "_channel_sum_kernel",
             [A((96800, 16), "bfloat16"), A((1024, 16), "float32"), K(131072), K(96800), K(128), K(16)], (1024, 1, 1)))
    add(Case("BJ_finalize_channel_sum_c9b37d", g, BB + "sum_c9b37dbc088b/oracle.py", "_finalize_channel_sum_kernel",
             [A((1024, 16), "float32"), A((16,), "float32"), K(1024), K(16)], (1, 1, 1)))
    add(Case("BJ_dropout_residual_ln_8b98e0", g, BB + "var_mean_8b98e0815e8e/oracle.py", "_dropout_residual_ln_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "float32"), A((8192, 768), "float32"), A((768,), "float32"),
              A((768,), "float32"), A((8192, 768), "bool"), A((8192, 768), "float32"), A((8192, 768), "float32"),
              A((8192, 768), "bfloat16"), A((8192,), "float32"), K(768), K(1024)], (8192, 1, 1)))
    add(Case("BJ_rope_trig_182cea", g, BB + "pointwise_182cea8287c6/oracle.py", "_rope_trig_kernel",
             [A((128,), "bfloat16"), A((1000, 256), "bfloat16"), A((1000, 256), "bfloat16"), K(1000), K(256), K(128),
              K(8), K(64)], (125, 4, 1)))
    add(Case("BJ_rotary_q_182cea", g, BB + "pointwise_182cea8287c6/oracle.py", "_rotary_q_kernel",
             [A((1000, 8, 256), "bfloat16"), A((1000, 256), "bfloat16"), A((1000, 256), "bfloat16"),
              A((1000, 8, 256), "bfloat16"), K(256), K(128), K(8)], (1000, 8, 1)))
    add(Case("BJ_rotary_k_repeat_182cea", g, BB + "pointwise_182cea8287c6/oracle.py", "_rotary_k_repeat_kernel",
             [A((1000, 4, 256), "bfloat16"), A((1000, 256), "bfloat16"), A((1000, 256), "bfloat16"),
              A((1000, 4, 256), "bfloat16"), A((8, 1000, 256), "bfloat16"), K(256), K(128), K(4), K(2), K(8)],
             (1000, 4, 1)))
    add(Case("BJ_softmax_backward_06d4cf", g, BB + "sum_06d4cf240d3c/oracle.py", "_softmax_backward_kernel",
             [A((98304, 512), "bfloat16"), A((98304, 512), "bool"), A((98304, 512), "bfloat16"),
              A((98304,), "float32"), A((98304,), "float32"), A((98304, 512), "bfloat16"), K(512)], (98304, 1, 1)))
    add(Case("BJ_gelu_bwd_2ba099", g, BB + "sum_2ba0992ca00b/oracle.py", "_gelu_bwd_kernel",
             [A((16384, 3072), "float32"), A((16384, 3072), "float32"), A((16384, 3072), "float32"),
              A((128, 3072), "float32"), K(128), K(128)], (128, 24, 1)))
    add(Case("BJ_reduce_partials_2ba099", g, BB + "sum_2ba0992ca00b/oracle.py", "_reduce_partials_kernel",
             [A((128, 3072), "float32"), A((3072,), "float32"), K(128), K(128), K(128)], (24, 1, 1)))
    add(Case("BJ_epilogue_0bad56", g, BB + "sum_sum_0bad56ceb78f/oracle.py", "_epilogue_kernel",
             [A((51380224,), "bfloat16"), A((51380224,), "float32"), A((51380224,), "float32"),
              A((51380224,), "float32"), A((51380224,), "float32"), A((51380224,), "bfloat16"), K(256)],
             (200704, 1, 1)))
    add(Case("BJ_direct_channel_061bf3", g, BB + "sum_061bf34754dd/oracle.py", "_direct_channel_kernel",
             [A((3057664,), "bfloat16"), A((3057664,), "bfloat16"), A((6115328,), "bfloat16"),
              A((6115328,), "bfloat16"), A((512,), "float32"), A((512,), "float32"), K(5972), K(512), K(1024),
              K(1493), K(1024), K(6)], (512, 1, 1)))
    add(Case("BJ_mt5_residual_row_tile_38fa7c", g, BB + "sum_sum_38fa7c1b328d/oracle.py",
             "_mt5_residual_row_tile_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "bfloat16"),
              A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"),
              A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"),
              A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"),
              A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"),
              A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"), A((4096, 512), "bool"), A((512,), "float32"),
              A((4096, 512), "float32"), A((4096,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"),
              A((4096, 512), "float32"), A((4096, 512), "bfloat16"), K(4), K(512)], (1024, 1, 1)))
    add(Case("BJ_finalize_column_sum_38fa7c", g, BB + "sum_sum_38fa7c1b328d/oracle.py", "_finalize_column_sum_kernel",
             [A((4096, 512), "float32"), A((512,), "float32"), K(4096), K(4), K(8)], (64, 1, 1)))
    add(Case("BJ_dropout_residual_layernorm_e6f457", g, BB + "var_mean_e6f457facad2/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024)],
             (8192, 1, 1)))
    add(Case("BJ_scatter_add_9a59fb", g, BB + "pointwise_9a59fb6b2026/oracle.py", "_scatter_add_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"),
              A((8192, 1024), "bfloat16"), A((8192, 1024), "bool"), A((8192,), "int64", "index:100"),
              A((8192,), "bool"), A((32000, 1024), "float32"), K(1024)], (8192, 1, 1)))
    add(Case("BJ_row_layernorm_6de478", g, BB + "var_mean_6de4787c0d2d/oracle.py", "_row_layernorm_kernel",
             [A((6272, 2048), "bfloat16"), A((2048,), "bfloat16"), A((2048,), "bfloat16"),
              A((6272, 2048), "bfloat16"), K(2048), K(2048), K(1), K(1e-05)], (6272, 1, 1)))
    add(Case("BJ_first_partials_0a8714", g, BB + "sum_sum_sum_0a8714a3041e/oracle.py", "_first_partials_kernel",
             [A((25088, 160), "bfloat16"), A((25088, 160), "bfloat16"), A((25088, 160), "bfloat16"),
              A((160,), "float32"), A((25088, 160), "bfloat16"), A((256, 160), "float32"), A((256, 160), "float32"),
              K(128), K(16)], (196, 10, 1)))
    add(Case("BJ_finalize_partials_0a8714", g, BB + "sum_sum_sum_0a8714a3041e/oracle.py", "_finalize_partials_kernel",
             [A((256, 160), "float32"), A((256, 160), "float32"), A((160,), "float32"), A((160,), "float32"), K(256),
              K(16)], (10, 1, 1)))
    add(Case("BJ_second_partials_0a8714", g, BB + "sum_sum_sum_0a8714a3041e/oracle.py", "_second_partials_kernel",
             [A((25088, 80), "bfloat16"), A((25088, 80), "bfloat16"), A((80,), "float32"), A((256, 80), "float32"),
              A((256, 80), "float32"), K(80), K(128), K(16)], (196, 5, 1)))
    add(Case("BJ_finalize_partials_0a8714_2", g, BB + "sum_sum_sum_0a8714a3041e/oracle.py", "_finalize_partials_kernel",
             [A((256, 80), "float32"), A((256, 80), "float32"), A((80,), "float32"), A((80,), "float32"), K(256),
              K(16)], (5, 1, 1)))
    add(Case("BJ_xlnet_chunk_copy_fb9acc", g, BB + "pointwise_fb9acc3ed8b0/oracle.py", "_xlnet_chunk_copy_kernel",
             [A((16, 16, 512, 64), "bfloat16"), A((512, 16, 16, 64), "bfloat16")], (512, 16, 16)))
    add(Case("BJ_dropout_layernorm_ceafd0", g, BB + "var_mean_ceafd02ea4c4/oracle.py", "_dropout_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024)], (8192, 1, 1)))
    add(Case("BJ_mt5_gelu_gate_dropout_1d2c10", g, BB + "pointwise_1d2c10996f53/oracle.py",
             "_mt5_gelu_gate_dropout_kernel",
             [A((4194304,), "bfloat16"), A((4194304,), "bfloat16"), A((4194304,), "float32"), A((4194304,), "bool"),
              A((4194304,), "bfloat16"), K(1024)], (4096, 1, 1)))
    add(Case("BJ_masked_softmax_dropout_bdb7b5", g, BB + "amax_sum_bdb7b585dc1d/oracle.py",
             "_masked_softmax_dropout_kernel",
             [A((98304, 512), "bfloat16"), A((98304, 512), "bool"), A((1,), "bfloat16"), A((98304, 512), "float32"),
              A((98304, 512), "bfloat16"), A((98304,), "float32"), A((98304,), "float32"), A((98304, 512), "bool"),
              A((98304, 512), "bfloat16"), K(512)], (98304, 1, 1)))
    add(Case("BJ_instance_norm_residual_bf16_bc7890", g, BB + "var_mean_bc789056cbad/oracle.py",
             "_instance_norm_residual_bf16_kernel",
             [A((256, 4096), "bfloat16"), A((256, 4096), "bfloat16"), A((256, 4096), "bfloat16"), K(4096), K(4096)],
             (256, 1, 1)))
    add(Case("BJ_mt5_row_4df091", g, BB + "sum_sum_4df091034d07/oracle.py", "_mt5_row_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"), A((512,), "float32"),
              A((4096, 512), "float32"), A((4096,), "float32"), A((4096, 512), "float32"), A((4096, 512), "bool"),
              A((4096, 512), "float32"), A((4096, 512), "float32"), A((4096, 512), "bfloat16"), K(512),
              K(0.001953125)], (4096, 1, 1)))
    add(Case("BJ_col_sum_4df091", g, BB + "sum_sum_4df091034d07/oracle.py", "_col_sum_kernel",
             [A((4096, 512), "float32"), A((512,), "float32"), K(4096), K(512), K(64), K(32)], (16, 1, 1)))
    add(Case("BJ_scale_and_partial_42c689", g, BB + "sum_42c689cc9c14/oracle.py", "_scale_and_partial_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "bfloat16"), A((64, 768), "float32"), K(128), K(64)],
             (64, 12, 1)))
    add(Case("BJ_final_sum_42c689", g, BB + "sum_42c689cc9c14/oracle.py", "_final_sum_kernel",
             [A((64, 768), "float32"), A((768,), "float32"), K(64), K(64)], (12, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-bj-launch"))]
