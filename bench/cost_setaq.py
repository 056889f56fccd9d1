"""Validation set AQ: 33 launches of 23 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AP were, from
the files none of them nor sets W and Y used, after set AP was timed and while model version 84
was still the latest; version 84's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py AQ BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 270 of sets W, Y and AG to AP,
`random.Random(46).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
No file was passed over. So the sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-aq`) and as tilescope's launch builds it
(`validate-aq-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setaq_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-aq"
    add(Case("AQ_xent_stats_rows_18d38e", g, BB + "amax_sum_sum_18d38efb56db/oracle.py", "_xent_stats_rows_kernel",
             [A((524713984,), "bfloat16"), A((4096,), "int64", "index:100"), A((4096,), "float32"),
              A((4096,), "float32"), A((4096,), "float32"), A((4096,), "float32"), K(128104), K(128100),
              K(8192)], (4096, 1, 1)))
    add(Case("AQ_mean_reduce_18d38e", g, BB + "amax_sum_sum_18d38efb56db/oracle.py", "_mean_reduce_kernel",
             [A((4096,), "float32"), A((4096,), "float32"), A((1,), "float32"), A((1,), "float32"), K(4096),
              K(4096)], (1, 1, 1)))
    add(Case("AQ_bn_backward_3690c3", g, BB + "sum_sum_3690c31a5a51/oracle.py", "_bn_backward_kernel",
             [A((128, 96, 1024), "bfloat16"), A((128, 96, 1024), "bfloat16"), A((96,), "float32"),
              A((96,), "float32"), A((96,), "float32"), A((96,), "float32"), A((128, 96, 1024), "bfloat16"),
              A((128, 96, 1024), "bfloat16"), K(12582912), K(96), K(1024), K(32), K(1024), K(1)], (128, 3, 1)))
    add(Case("AQ_masked_softmax_dropout_9f78a1", g, BB + "amax_sum_9f78a11df098/oracle.py",
             "_masked_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "bool"), A((1,), "bfloat16"),
              A((24576, 128), "float32"), A((24576, 128), "bfloat16"), A((24576,), "float32"),
              A((24576,), "float32"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"), K(128), K(8), K(128),
              K(1.1111111111111112)], (3072, 1, 1)))
    add(Case("AQ_dropout_residual_ln_5b870e", g, BB + "var_mean_5b870e78f4a2/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 1536), "bool"), A((4096, 1536), "float32"),
              A((4096, 1536), "float32"), A((4096, 1536), "bfloat16"), A((4096,), "float32"), K(1536), K(2048),
              K(1536.0)], (4096, 1, 1)))
    add(Case("AQ_dropout_residual_ln_57d9fe", g, BB + "var_mean_57d9fe10252a/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024),
              K(1.1111111111111112), K(1e-12)], (8192, 1, 1)))
    add(Case("AQ_causal_mask_702050", g, BB + "pointwise_70205018a608/oracle.py", "_causal_mask_kernel",
             [A((32, 128), "float32"), A((32, 1, 128, 128), "bool"), K(128), K(32), K(128)], (32, 4, 1)))
    add(Case("AQ_deberta_embedding_layernorm_a73bc5", g, BB + "var_mean_a73bc583f18c/oracle.py",
             "_deberta_embedding_layernorm_kernel",
             [A((128100, 1536), "bfloat16"), A((4096,), "int64", "index:128069"), A((512, 1536), "bfloat16"),
              A((512,), "int64", "index:512"), A((1536,), "bfloat16"), A((1536,), "bfloat16"),
              A((4096, 2048), "bfloat16"), K(512), K(1536), K(1e-07), K(2048)], (4096, 1, 1)))
    add(Case("AQ_zero_full_and_temp_d91597", g, BB + "sum_sum_sum_d915970dff62/oracle.py",
             "_zero_full_and_temp_kernel",
             [A((6389760,), "float32"), A((6291456,), "float32"), K(256)], (24960, 1, 1)))
    add(Case("AQ_scatter_probabilities_d91597", g, BB + "sum_sum_sum_d915970dff62/oracle.py",
             "_scatter_probabilities_kernel",
             [A((54,), "float32"), A((16384, 54), "bfloat16"), A((98304,), "float32"), A((98304,), "float32"),
              A((98304, 64), "bfloat16"), A((9, 512), "int64", "index:520"), A((16384, 384), "float32"), K(32),
              K(16)], (98304, 2, 1)))
    add(Case("AQ_finalize_out0_partials_d91597", g, BB + "sum_sum_sum_d915970dff62/oracle.py",
             "_finalize_out0_partials_kernel",
             [A((16384, 384), "float32"), A((16384, 384), "bfloat16"), A((1024, 384), "float32"), K(16),
              K(64)], (1024, 6, 1)))
    add(Case("AQ_finalize_bf16_sum_d91597", g, BB + "sum_sum_sum_d915970dff62/oracle.py",
             "_finalize_bf16_sum_kernel",
             [A((1024, 384), "float32"), A((384,), "float32"), K(1024), K(384), K(1024), K(16)], (24, 1, 1)))
    add(Case("AQ_store_out3_d91597", g, BB + "sum_sum_sum_d915970dff62/oracle.py", "_store_out3_kernel",
             [A((54,), "float32"), A((16384, 54), "bfloat16"), A((98304,), "float32"), A((98304,), "float32"),
              A((98304, 9), "bfloat16"), A((16384, 54), "bfloat16"), K(16), K(16)], (6144, 1, 1)))
    add(Case("AQ_reduce_bf16_columns_d91597", g, BB + "sum_sum_sum_d915970dff62/oracle.py",
             "_reduce_bf16_columns_kernel",
             [A((16384, 54), "bfloat16"), A((1024, 54), "float32"), K(16384), K(54), K(16), K(64)], (1024, 1, 1)))
    add(Case("AQ_finalize_bf16_sum_d91597_2", g, BB + "sum_sum_sum_d915970dff62/oracle.py",
             "_finalize_bf16_sum_kernel",
             [A((1024, 54), "float32"), A((54,), "float32"), K(1024), K(54), K(1024), K(16)], (4, 1, 1)))
    add(Case("AQ_head_transpose_clone_045f4f", g, BB + "pointwise_045f4feb3853/oracle.py",
             "_head_transpose_clone_kernel",
             [A((32, 16, 128, 128), "bfloat16"), A((32, 128, 16, 128), "bfloat16"), K(128)], (32, 16, 128)))
    add(Case("AQ_gn_relu_maxpool_545fa2", g, BB + "var_mean_545fa28a7068/oracle.py", "_gn_relu_maxpool_kernel",
             [A((2097152,), "bfloat16"), A((64,), "bfloat16"), A((64,), "bfloat16"), A((4096, 128), "bfloat16"),
              K(32), K(2), K(16), K(16), K(8), K(8), K(512), K(128), K(512), K(128)], (4096, 1, 1)))
    add(Case("AQ_dropout_residual_layernorm_11df98", g, BB + "var_mean_11df982f906b/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 1536), "bool"), A((4096, 1536), "float32"),
              A((4096, 1536), "float32"), A((4096, 1536), "bfloat16"), A((4096,), "float32"), K(1536),
              K(2048)], (4096, 1, 1)))
    add(Case("AQ_row_softmax_7932ff", g, BB + "amax_sum_7932ff4134ad/oracle.py", "_row_softmax_kernel",
             [A((65536, 1024), "bfloat16"), A((65536, 1024), "bfloat16"), K(1024), K(1024)], (65536, 1, 1)))
    add(Case("AQ_scaled_masked_softmax_dropout_715e35", g, BB + "amax_sum_715e3538e1e7/oracle.py",
             "_scaled_masked_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "bool"), A((1,), "bfloat16"),
              A((24576, 128), "float32"), A((24576, 128), "bfloat16"), A((24576,), "float32"),
              A((24576,), "float32"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"),
              K(128)], (24576, 1, 1)))
    add(Case("AQ_log_softmax_k2_dfd25c", g, BB + "amax_sum_dfd25c31021c/oracle.py", "_log_softmax_k2_kernel",
             [A((16, 2), "bfloat16"), A((16, 2), "float32"), K(16)], (1, 1, 1)))
    add(Case("AQ_tanh_scale_f7d204", g, BB + "pointwise_f7d2043cd67e/oracle.py", "_tanh_scale_kernel",
             [A((256000000,), "bfloat16"), A((256000000,), "bfloat16"), K(1024)], (250000, 1, 1)))
    add(Case("AQ_dropout_residual_layernorm_a48ef6", g, BB + "var_mean_a48ef61eae4e/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1),
              K(1024)], (8192, 1, 1)))
    add(Case("AQ_safe_softmax_dropout_9a3766", g, BB + "amax_sum_any_9a3766802a10/oracle.py",
             "_safe_softmax_dropout_kernel",
             [A((131072, 128), "bfloat16"), A((131072, 128), "bfloat16"), A((131072, 128), "float32"),
              A((131072, 128), "bfloat16"), A((131072, 128), "bool"), A((131072, 128), "bfloat16"), K(128), K(128),
              K(0.1), K(1.1111111111111112)], (131072, 1, 1)))
    add(Case("AQ_softmax_dropout_7303c4", g, BB + "amax_sum_7303c49b6018/oracle.py", "_softmax_dropout_kernel",
             [A((98304, 1024), "bfloat16"), A((98304, 1), "bool"), A((1,), "float32"), A((98304, 1024), "float32"),
              A((98304, 1), "float32"), A((98304, 1), "float32"), A((98304, 1024), "bool"),
              A((98304, 1024), "bfloat16"), K(513), K(1024), K(0.1), K(1.1111111111111112)], (98304, 1, 1)))
    add(Case("AQ_dropout_mean_var_08d022", g, BB + "mean_var_08d022b64cd6/oracle.py", "_dropout_mean_var_kernel",
             [A((2048, 768), "bfloat16"), A((2048, 768), "float32"), A((2048, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((2048, 768), "bool"), A((2048, 768), "float32"),
              A((2048,), "float32"), A((2048, 768), "float32"), A((2048, 768), "bfloat16"), K(768),
              K(1024)], (2048, 1, 1)))
    add(Case("AQ_swin_shifted_ln_25c71e", g, BB + "var_mean_25c71e7fbc96/oracle.py", "_swin_shifted_ln_kernel",
             [A((12845056,), "bfloat16"), A((12845056,), "bfloat16"), A((512,), "bfloat16"), A((512,), "bfloat16"),
              A((12845056,), "bfloat16"), A((12845056,), "bfloat16"), K(25088), K(14), K(14), K(7), K(2), K(2),
              K(512), K(11), K(512), K(4)], (6272, 1, 1)))
    add(Case("AQ_bf16_add_d572db", g, BB + "pointwise_d572db383c8a/oracle.py", "_bf16_add_kernel",
             [A((98304,), "bfloat16"), A((98304,), "bfloat16"), A((98304,), "bfloat16"), K(1024)], (96, 1, 1)))
    add(Case("AQ_partial_channel_stats_02476d", g, BB + "var_mean_02476d05a5a4/oracle.py",
             "_partial_channel_stats_kernel",
             [A((64, 65536), "bfloat16"), A((64, 64), "float32"), A((64, 64), "float32"), K(65536), K(1024),
              K(1)], (64, 64, 1)))
    add(Case("AQ_final_channel_stats_02476d", g, BB + "var_mean_02476d05a5a4/oracle.py",
             "_final_channel_stats_kernel",
             [A((64, 64), "float32"), A((64, 64), "float32"), A((64,), "float32"), A((64,), "float32"), K(65536),
              K(64), K(64), K(1)], (64, 1, 1)))
    add(Case("AQ_reflect_norm_bf16_relu_02476d", g, BB + "var_mean_02476d05a5a4/oracle.py",
             "_reflect_norm_bf16_relu_kernel",
             [A((4194304,), "bfloat16"), A((64,), "float32"), A((64,), "float32"), A((4393216,), "bfloat16"),
              K(4393216), K(65536), K(68644), K(256), K(256), K(262), K(3), K(1024)], (4291, 1, 1)))
    add(Case("AQ_materialize_partial_139a30", g, BB + "sum_139a3020e8bf/oracle.py", "_materialize_partial_kernel",
             [A((25216, 3072), "bfloat16"), A((25216, 3072), "bfloat16"), A((25216, 3072), "bfloat16"),
              A((394, 3072), "float32"), A((3072,), "float32"), K(25216), K(3072), K(64), K(64),
              K(False)], (394, 48, 1)))
    add(Case("AQ_final_sum_139a30", g, BB + "sum_139a3020e8bf/oracle.py", "_final_sum_kernel",
             [A((394, 3072), "float32"), A((3072,), "float32"), K(3072), K(394), K(512), K(16)], (192, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-aq-launch"))]
