"""Validation set AI: 33 launches of 25 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG and AH were, from
the files none of them nor sets W and Y used, after sets AG and AH were timed and before any
prediction for these was looked at (model version 77, unchanged, its predictions committed before
the device run).

The draw (`python bench/cost_bbench_draw.py AI BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 71 of sets W, Y, AG and AH,
`random.Random(38).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none (the last file taken brings the count to 33), each file's
`oracle_forward` run once at its first shape point with tilescope's CPU device layer and torch on
the CPU, `ct.launch` recording each launch. Two files were passed over: each has a launch the
cases cannot hold (amax_sum_sum_a4f202093213, pointwise_dbd126b833fb). So the sizes, tile sizes
and grids are the files' own; nothing is scaled. Files with several kernels give each distinct
launch. The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES). One build
is missing: sum_sum_sum_f0df0905cd69's one-block finalisation as written (two (2048, 1024) float32
tiles in one block) did not finish in tileiras within 30 minutes; its launched build did (140 s).
Each kernel is built dynamically shaped (`validate-ai`) and as tilescope's launch builds it
(`validate-ai-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setai_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-ai"
    add(Case("AI_dropout_residual_layernorm_3bc311", g, BB + "var_mean_3bc311a8676a/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((16384, 768), "float32"), A((16384, 768), "float32"), A((16384, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((16384, 1024), "bool"), A((16384, 1024), "float32"),
              A((16384, 1024), "float32"), A((16384,), "float32"), K(768), K(1024)], (16384, 1, 1)))
    add(Case("AI_bf16_pass_b011c3", g, BB + "sum_b011c33c656b/oracle.py", "_bf16_pass_kernel",
             [A((75497472,), "bfloat16"), A((75497472,), "bfloat16"), K(1024)], (73728, 1, 1)))
    add(Case("AI_t5_softmax_backward_d5a292", g, BB + "sum_d5a292f49eef/oracle.py", "_t5_softmax_backward_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"),
              A((24576,), "float32"), A((24576,), "float32"), A((24576, 128), "bfloat16"), K(1.1111111111111112),
              K(128)], (24576, 1, 1)))
    add(Case("AI_residual_layernorm_view_da5aa7", g, BB + "var_mean_da5aa7a47091/oracle.py",
             "_residual_layernorm_view_kernel",
             [A((16384, 768), "bfloat16"), A((16384, 768), "bfloat16"), A((768,), "bfloat16"),
              A((768,), "bfloat16"), A((16384, 768), "bfloat16"), K(768), K(2), K(1024), K(768.0), K(1)],
              (8192, 1, 1)))
    add(Case("AI_bn_stats_from_gathered_b12103", g, BB + "var_mean_b12103db1177/oracle.py",
             "_bn_stats_from_gathered_kernel",
             [A((232, 6272), "bfloat16"), A((232,), "float32"), A((232,), "float32"), K(6272), K(8192)],
              (232, 1, 1)))
    add(Case("AI_bn_affine_relu_b12103", g, BB + "var_mean_b12103db1177/oracle.py", "_bn_affine_relu_kernel",
             [A((1421, 1024), "bfloat16"), A((1421, 1024), "float32"), A((1421, 1024), "float32"),
              A((1421, 1024), "float32"), A((1421, 1024), "float32"), A((1421, 1024), "bfloat16"), K(1024)],
              (1421, 1, 1)))
    add(Case("AI_safe_softmax_dropout_a8ebed", g, BB + "amax_sum_any_a8ebede53f88/oracle.py",
             "_safe_softmax_dropout_kernel",
             [A((131072, 128), "bfloat16"), A((131072, 128), "bfloat16"), A((131072, 128), "float32"),
              A((131072, 128), "bfloat16"), A((131072, 128), "bool"), A((131072, 128), "bfloat16"), K(128), K(8),
              K(128), K(1.1111111111111112)], (16384, 1, 1)))
    add(Case("AI_causal_source_mask_f3d3e8", g, BB + "pointwise_f3d3e860d8b0/oracle.py",
             "_causal_source_mask_kernel",
             [A((128, 128), "float32"), A((128, 1, 128, 128), "bool"), K(32), K(128)], (128, 4, 1)))
    add(Case("AI_dropout_ln_8e06cc", g, BB + "var_mean_8e06cc841b36/oracle.py", "_dropout_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024)],
              (8192, 1, 1)))
    add(Case("AI_bn_tail15_3fb780", g, BB + "sum_sum_3fb78031bd33/oracle.py", "_bn_tail15_kernel",
             [A((4, 1024, 14, 14), "bfloat16"), A((4, 992, 14, 14), "bfloat16"), A((4, 960, 14, 14), "bfloat16"),
              A((4, 928, 14, 14), "bfloat16"), A((4, 896, 14, 14), "bfloat16"), A((4, 864, 14, 14), "bfloat16"),
              A((4, 832, 14, 14), "bfloat16"), A((4, 800, 14, 14), "bfloat16"), A((4, 768, 14, 14), "bfloat16"),
              A((4, 736, 14, 14), "bfloat16"), A((4, 704, 14, 14), "bfloat16"), A((4, 672, 14, 14), "bfloat16"),
              A((4, 640, 14, 14), "bfloat16"), A((4, 608, 14, 14), "bfloat16"), A((4, 576, 14, 14), "bfloat16"),
              A((4, 544, 14, 14), "bfloat16"), A((1,), "bfloat16"), A((4, 544, 14, 14), "bfloat16"),
              A((4, 544, 14, 14), "bfloat16"), A((544,), "float32"), A((544,), "float32"), A((544,), "float32"),
              A((544,), "float32"), A((544,), "float32"), A((4, 544, 14, 14), "bfloat16"),
              A((4, 32, 14, 14), "bfloat16"), K(14), K(14), K(196), K(784), K(1024)], (544, 1, 1)))
    add(Case("AI_gptneo_attn_backward_02fe2c", g, BB + "sum_02fe2c82b1fd/oracle.py", "_gptneo_attn_backward_kernel",
             [A((8388608,), "bfloat16"), A((128,), "int64", "index:128"), A((4096,), "int64", "index:32"),
              A((1,), "float32"), A((8388608,), "bfloat16"), A((4194304,), "bool"), A((65536,), "float32"),
              A((65536,), "float32"), A((1,), "bfloat16"), A((8388608,), "bfloat16"), K(2048)], (8192, 1, 1)))
    add(Case("AI_materialize_relpos_bias_821fb9", g, BB + "amax_sum_821fb95bd167/oracle.py",
             "_materialize_relpos_bias_kernel",
             [A((2401,), "int64", "index:169"), A((5408,), "bfloat16"), A((76832,), "bfloat16"), K(32), K(76832),
              K(256)], (301, 1, 1)))
    add(Case("AI_swin_softmax_821fb9", g, BB + "amax_sum_821fb95bd167/oracle.py", "_swin_softmax_kernel",
             [A((12845056,), "bfloat16"), A((76832,), "bfloat16"), A((12845056,), "bfloat16"), K(229376), K(32),
              K(64)], (229376, 1, 1)))
    add(Case("AI_instance_norm_relu_single_129ad7", g, BB + "var_mean_129ad79a9b02/oracle.py",
             "_instance_norm_relu_kernel_single",
             [A((128, 16384), "bfloat16"), A((128, 16384), "bfloat16"), K(16384), K(16384)], (128, 1, 1)))
    add(Case("AI_layernorm_59d866", g, BB + "var_mean_59d866109a4c/oracle.py", "_layernorm_kernel",
             [A((128, 4096), "float32"), A((4096,), "float32"), A((4096,), "float32"), A((128,), "float32"),
              A((128,), "float32"), A((128, 4096), "bfloat16"), K(4096), K(4096.0)], (128, 1, 1)))
    add(Case("AI_spatial_mean_768bb6", g, BB + "mean_var_mean_768bb6a7efb9/oracle.py", "_spatial_mean_kernel",
             [A((128, 81, 640), "bfloat16"), A((128, 81, 640), "bfloat16"), A((128, 640), "bfloat16"), K(81),
              K(128), K(128)], (128, 5, 1)))
    add(Case("AI_layernorm_768bb6", g, BB + "mean_var_mean_768bb6a7efb9/oracle.py", "_layernorm_kernel",
             [A((128, 1024), "bfloat16"), A((1024,), "bfloat16"), A((1024,), "bfloat16"),
              A((128, 1024), "bfloat16"), K(1e-06), K(640), K(1024)], (128, 1, 1)))
    add(Case("AI_row_ln_backward_f0df09", g, BB + "sum_sum_sum_f0df0905cd69/oracle.py", "_row_ln_backward_kernel",
             [A((16384, 768), "bfloat16"), A((16384, 768), "float32"), A((16384, 768), "bfloat16"),
              A((16384, 768), "bfloat16"), A((16384, 768), "bool"), A((768,), "float32"),
              A((16384, 768), "float32"), A((16384,), "float32"), A((16384, 768), "float32"),
              A((512, 768), "float32"), A((2048, 1024), "float32"), A((2048, 1024), "float32"), K(8), K(768),
              K(1024), K(512), K(16384), K(1.1111111111111112)], (2048, 1, 1)))
    add(Case("AI_finalize_partials_f0df09", g, BB + "sum_sum_sum_f0df0905cd69/oracle.py",
             "_finalize_partials_kernel",
             [A((2048, 1024), "float32"), A((2048, 1024), "float32"), A((1024,), "float32"), A((1024,), "float32"),
              K(2048), K(2048), K(1024)], (1, 1, 1)))
    add(Case("AI_scatter_seg_voc_f0df09", g, BB + "sum_sum_sum_f0df0905cd69/oracle.py", "_scatter_seg_voc_kernel",
             [A((16384, 768), "float32"), A((16384,), "int64", "index:100"), A((16384,), "int64", "index:100"),
              A((2, 768), "float32"), A((30522, 768), "float32"), K(768), K(128)], (16384, 6, 1)))
    add(Case("AI_scatter_pos_f0df09", g, BB + "sum_sum_sum_f0df0905cd69/oracle.py", "_scatter_pos_kernel",
             [A((512, 768), "float32"), A((512,), "int64", "index:100"), A((512, 768), "float32"), K(768), K(128)],
              (512, 6, 1)))
    add(Case("AI_bn_relu_c6c7ad", g, BB + "pointwise_c6c7ad63023f/oracle.py", "_bn_relu_kernel",
             [A((38912, 49), "bfloat16"), A((608,), "bfloat16"), A((608,), "bfloat16"), A((608,), "bfloat16"),
              A((608,), "bfloat16"), A((38912, 49), "bfloat16"), K(49), K(64), K(608)], (38912, 1, 1)))
    add(Case("AI_scaled_head_layout_733daf", g, BB + "pointwise_733dafce05a6/oracle.py",
             "_scaled_head_layout_kernel",
             [A((64, 256, 16, 64), "bfloat16"), A((64, 16, 256, 64), "bfloat16"), K(64), K(256), K(16), K(64),
              K(16), K(64)], (1024, 16, 1)))
    add(Case("AI_residual_layernorm_9e07bb", g, BB + "var_mean_9e07bb297a15/oracle.py",
             "_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((1024,), "float32"), A((1024,), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"),
              A((8192,), "float32"), K(1024)], (8192, 1, 1)))
    add(Case("AI_nfnet_gate_add_c7d487", g, BB + "pointwise_c7d4871a86a8/oracle.py", "_nfnet_gate_add_kernel",
             [A((196608,), "bfloat16"), A((50331648,), "bfloat16"), A((1,), "bfloat16"), A((50331648,), "bfloat16"),
              A((50331648,), "bfloat16"), K(50331648), K(1536), K(256), K(1024)], (49152, 1, 1)))
    add(Case("AI_nfnet_gelu_epilogue_c7d487", g, BB + "pointwise_c7d4871a86a8/oracle.py",
             "_nfnet_gelu_epilogue_kernel",
             [A((50331648,), "bfloat16"), A((50331648,), "bfloat16"), K(50331648), K(1024)], (49152, 1, 1)))
    add(Case("AI_vit_patch_layernorm_2b21be", g, BB + "var_mean_2b21beb0932e/oracle.py",
             "_vit_patch_layernorm_kernel",
             [A((4816896,), "bfloat16"), A((192,), "float32"), A((37824,), "float32"), A((192,), "float32"),
              A((192,), "float32"), A((4841472,), "float32"), A((4841472,), "float32"), A((25216,), "float32"),
              A((25216,), "float32"), A((4841472,), "bfloat16"), K(25216), K(197), K(196), K(192), K(37632), K(1),
              K(192), K(256)], (25216, 1, 1)))
    add(Case("AI_channel_ln_b48155", g, BB + "var_mean_b48155c1deba/oracle.py", "_channel_ln_kernel",
             [A((401408, 80), "bfloat16"), A((80,), "float32"), A((80,), "float32"), A((401408,), "float32"),
              A((401408,), "float32"), A((401408, 80), "float32"), A((401408, 80), "bfloat16"), K(401408), K(80),
              K(8), K(128)], (50176, 1, 1)))
    add(Case("AI_f32_to_bf16_ae7e57", g, BB + "pointwise_ae7e5786852b/oracle.py", "_f32_to_bf16_kernel",
             [A((1048576,), "float32"), A((1048576,), "bfloat16"), K(1024)], (1024, 1, 1)))
    add(Case("AI_densenet_pool_606011", g, BB + "sum_sum_606011640906/oracle.py", "_densenet_pool_kernel",
             [A((1605632,), "bfloat16"), A((1505280,), "bfloat16"), A((1404928,), "bfloat16"),
              A((1304576,), "bfloat16"), A((1204224,), "bfloat16"), A((1103872,), "bfloat16"),
              A((1003520,), "bfloat16"), A((903168,), "bfloat16"), A((802816,), "bfloat16"),
              A((702464,), "bfloat16"), A((602112,), "bfloat16"), A((501760,), "bfloat16"),
              A((401408,), "bfloat16"), A((1,), "bfloat16"), A((401408,), "bfloat16"), A((401408,), "bfloat16"),
              A((128,), "float32"), A((128,), "float32"), A((128,), "float32"), A((128,), "float32"),
              A((128,), "float32"), A((1605632,), "bfloat16"), K(4096)], (128, 1, 1)))
    add(Case("AI_embedding_layernorm_e3af0c", g, BB + "var_mean_e3af0cd941ae/oracle.py",
             "_embedding_layernorm_kernel",
             [A((50265, 1024), "bfloat16"), A((8192,), "int64", "index:50262"), A((1026, 1024), "bfloat16"),
              A((1024,), "bfloat16"), A((1024,), "bfloat16"), A((8192, 1024), "bfloat16"), K(1024), K(1024),
              K(1024), K(2), K(1e-05)], (8192, 1, 1)))
    add(Case("AI_row_d90a5c", g, BB + "sum_sum_sum_d90a5c698770/oracle.py", "_row_kernel",
             [A((128, 768), "bfloat16"), A((128, 768), "bfloat16"), A((768,), "float32"),
              A((25344, 768), "float32"), A((25344,), "float32"), A((25344, 768), "float32"),
              A((25344, 768), "bfloat16"), A((25344, 768), "float32"), A((25344, 768), "float32"),
              A((25344, 768), "bfloat16"), K(768), K(1024), K(198)], (25344, 1, 1)))
    add(Case("AI_finalize_channel_sums_d90a5c", g, BB + "sum_sum_sum_d90a5c698770/oracle.py",
             "_finalize_channel_sums_kernel",
             [A((25344, 768), "float32"), A((25344, 768), "float32"), A((25344, 768), "bfloat16"),
              A((768,), "float32"), A((768,), "float32"), A((768,), "float32"), K(32768), K(768), K(16)],
              (48, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-ai-launch"))]
