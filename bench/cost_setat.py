"""Validation set AT: 33 launches of 26 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AS were, from
the files none of them nor sets W and Y used, after set AS was drawn, while model version 86 was the
latest; version 86's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py AT BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 337 of sets W, Y and AG to AS,
`random.Random(49).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Five files were passed over, each with a launch the cases cannot hold (sum_94c812035160,
sum_39ea00f83135, var_mean_0b4143d6fc46, sum_sum_sum_199240d27571, sum_sum_1f47655da3e5). So the
sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-at`) and as tilescope's launch builds it
(`validate-at-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setat_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-at"
    add(Case("AT_softmax_dropout_edf871", g, BB + "amax_sum_edf871faa304/oracle.py", "_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "float32"), A((24576,), "float32"),
              A((24576,), "float32"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"),
              K(128)], (24576, 1, 1)))
    add(Case("AT_row_sum_96e388", g, BB + "sum_sum_96e388e74e6f/oracle.py", "_row_sum_kernel",
             [A((36864, 784), "bfloat16"), A((36864,), "float32"), K(784), K(1024)], (36864, 1, 1)))
    add(Case("AT_channel_sum_96e388", g, BB + "sum_sum_96e388e74e6f/oracle.py", "_channel_sum_kernel",
             [A((36864,), "bfloat16"), A((72,), "float32"), K(72), K(512)], (72, 1, 1)))
    add(Case("AT_dropout_rmsnorm_b9c2c7", g, BB + "mean_b9c2c7be4890/oracle.py", "_dropout_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"),
              A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"),
              A((4096, 512), "bfloat16"), K(512)], (4096, 1, 1)))
    add(Case("AT_mixed_residual_layernorm_528c70", g, BB + "var_mean_528c70306f73/oracle.py",
             "_mixed_residual_layernorm_kernel",
             [A((32768, 768), "bfloat16"), A((32768, 768), "float32"), A((768,), "float32"), A((768,), "float32"),
              A((32768, 768), "float32"), A((32768, 768), "bfloat16"), A((32768,), "float32"), K(768),
              K(0.0013020833333333333), K(1024)], (32768, 1, 1)))
    add(Case("AT_safe_softmax_dropout_836f72", g, BB + "amax_sum_any_836f72914974/oracle.py",
             "_safe_softmax_dropout_kernel",
             [A((131072, 128), "bfloat16"), A((131072, 128), "bfloat16"), A((131072, 128), "float32"),
              A((131072, 128), "bfloat16"), A((131072, 128), "bool"), A((131072, 128), "bfloat16"),
              K(128)], (131072, 1, 1)))
    add(Case("AT_masked_softmax_dropout_32ad3e", g, BB + "amax_sum_any_32ad3e5c5477/oracle.py",
             "_masked_softmax_dropout_kernel",
             [A((131072, 128), "bfloat16"), A((131072, 128), "bool"), A((131072, 128), "float32"),
              A((131072, 128), "bfloat16"), A((131072, 128), "bool"), A((131072, 128), "bfloat16"),
              K(128)], (131072, 1, 1)))
    add(Case("AT_attention_mask_bias_c96952", g, BB + "pointwise_c96952c07750/oracle.py",
             "_attention_mask_bias_kernel",
             [A((262144,), "bool"), A((262144,), "bfloat16"), K(1024)], (256, 1, 1)))
    add(Case("AT_bn_relu_flat_153f6d", g, BB + "pointwise_153f6de83bab/oracle.py", "_bn_relu_flat_kernel",
             [A((2007040,), "bfloat16"), A((640,), "float32"), A((640,), "float32"), A((640,), "bfloat16"),
              A((640,), "bfloat16"), A((2007040,), "bfloat16"), K(49), K(640), K(1024)], (1960, 1, 1)))
    add(Case("AT_softmax_outputs_3342ba", g, BB + "amax_sum_any_3342ba469382/oracle.py", "_softmax_outputs_kernel",
             [A((393216, 128), "bfloat16"), A((393216, 128), "float32"), A((393216,), "float32"),
              A((393216,), "float32"), A((393216,), "bool"), A((393216, 128), "bfloat16"),
              A((393216, 128), "bool"), A((393216, 128), "bfloat16"), K(128)], (393216, 1, 1)))
    add(Case("AT_residual_ln_d59520", g, BB + "var_mean_d59520e0c4ae/oracle.py", "_residual_ln_kernel",
             [A((16384, 768), "float32"), A((16384, 768), "float32"), A((768,), "float32"), A((768,), "float32"),
              A((16384, 768), "float32"), K(768), K(1024), K(0.0013020833333333333)], (16384, 1, 1)))
    add(Case("AT_residual_ln_45f7df", g, BB + "var_mean_45f7dfd4a983/oracle.py", "_residual_ln_kernel",
             [A((4096, 4096), "bfloat16"), A((4096, 4096), "bfloat16"), A((4096,), "bfloat16"),
              A((4096,), "bfloat16"), A((4096, 4096), "bfloat16"), K(4096), K(4096), K(4096.0)], (4096, 1, 1)))
    add(Case("AT_layernorm_row_004f9a", g, BB + "var_mean_004f9a9ea198/oracle.py", "_layernorm_row_kernel",
             [A((100352, 256), "bfloat16"), A((256,), "bfloat16"), A((256,), "bfloat16"),
              A((100352, 256), "bfloat16"), K(256), K(256), K(8)], (12544, 1, 1)))
    add(Case("AT_add_div_bf16_731465", g, BB + "pointwise_7314654d3afc/oracle.py", "_add_div_bf16_kernel",
             [A((128000,), "bfloat16"), A((128000,), "bfloat16"), A((128000,), "bfloat16"),
              K(1024)], (125, 1, 1)))
    add(Case("AT_add_layernorm_a5935f", g, BB + "var_mean_a5935fda7ed0/oracle.py", "_add_layernorm_kernel",
             [A((4096, 4096), "bfloat16"), A((4096, 4096), "float32"), A((4096,), "float32"),
              A((4096,), "float32"), A((4096, 4096), "float32"), A((4096, 4096), "bfloat16"),
              A((4096,), "float32"), K(4096), K(4096)], (4096, 1, 1)))
    add(Case("AT_scaled_head_layout_transpose_clone_dadf1b", g, BB + "pointwise_dadf1b0b8097/oracle.py",
             "_scaled_head_layout_transpose_clone_kernel",
             [A((16, 128, 32, 5, 16), "bfloat16"), A((16, 32, 5, 16, 128), "bfloat16"), K(5), K(16),
              K(128)], (16, 160, 1)))
    add(Case("AT_dropout_residual_layernorm_755a7f", g, BB + "var_mean_755a7f9b1e5b/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((6291456,), "bool"), A((6291456,), "float32"),
              A((6291456,), "float32"), A((6291456,), "bfloat16"), A((4096,), "float32"), K(1536), K(2048),
              K(1)], (4096, 1, 1)))
    add(Case("AT_reduce_150c6e", g, BB + "sum_sum_150c6ef298e6/oracle.py", "_reduce_kernel",
             [A((4194304,), "bfloat16"), A((1,), "bfloat16"), A((4194304,), "bfloat16"), A((4194304,), "bfloat16"),
              A((128,), "float32"), A((128,), "float32"), A((128,), "float32"), K(128), K(256), K(32768),
              K(1024)], (128, 32, 1)))
    add(Case("AT_epilogue_150c6e", g, BB + "sum_sum_150c6ef298e6/oracle.py", "_epilogue_kernel",
             [A((4718592,), "bfloat16"), A((4194304,), "bfloat16"), A((1,), "bfloat16"), A((4194304,), "bfloat16"),
              A((4194304,), "bfloat16"), A((128,), "float32"), A((128,), "float32"), A((128,), "float32"),
              A((128,), "float32"), A((128,), "float32"), A((4194304,), "bfloat16"), K(128), K(144), K(16), K(256),
              K(4194304), K(3.0517578125e-05), K(256)], (16384, 1, 1)))
    add(Case("AT_bn_tail_6e7e9c", g, BB + "sum_sum_6e7e9c6fec80/oracle.py", "_bn_tail_kernel",
             [A((4, 960, 14, 14), "bfloat16"), A((1,), "bfloat16"), A((4, 960, 14, 14), "bfloat16"),
              A((4, 960, 14, 14), "bfloat16"), A((960,), "float32"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((960,), "float32"), A((4, 960, 14, 14), "bfloat16"), K(196), K(784), K(14),
              K(1024), K(0.0012755102040816326)], (960, 1, 1)))
    add(Case("AT_residual_add_6e7e9c", g, BB + "sum_sum_6e7e9c6fec80/oracle.py", "_residual_add_kernel",
             [A((4, 1024, 14, 14), "bfloat16"), A((4, 992, 14, 14), "bfloat16"), A((4, 960, 14, 14), "bfloat16"),
              A((4, 32, 14, 14), "bfloat16"), K(196), K(784), K(14), K(1024)], (32, 1, 1)))
    add(Case("AT_scaled_bias_softmax_7bdfc8", g, BB + "amax_sum_7bdfc869f56b/oracle.py",
             "_scaled_bias_softmax_kernel",
             [A((16, 128, 128), "float32"), A((1, 1, 128, 128), "bfloat16"), A((16, 128, 128), "bfloat16"),
              K(128)], (16, 128, 1)))
    add(Case("AT_gelu_dropout_a8c22a", g, BB + "pointwise_a8c22a6e9809/oracle.py", "_gelu_dropout_kernel",
             [A((33554432,), "bfloat16"), A((33554432,), "float32"), A((33554432,), "bool"),
              A((33554432,), "bfloat16"), K(1024)], (32768, 1, 1)))
    add(Case("AT_dropout_dropout_mean_var_ea8b03", g, BB + "mean_var_ea8b03f394dc/oracle.py",
             "_dropout_dropout_mean_var_kernel",
             [A((2048, 768), "bfloat16"), A((2048, 768), "float32"), A((2048, 768), "float32"),
              A((2048, 768), "float32"), A((768,), "float32"), A((768,), "float32"), A((2048, 1024), "bool"),
              A((2048, 1024), "bool"), A((2048, 1024), "float32"), A((2048,), "float32"),
              A((2048, 1024), "float32"), A((2048, 1024), "bfloat16"), K(768), K(1024)], (2048, 1, 1)))
    add(Case("AT_residual_rmsnorm_41e8bb", g, BB + "mean_41e8bba10b8b/oracle.py", "_residual_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"), A((512,), "bfloat16"),
              A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"), K(512), K(512)], (4096, 1, 1)))
    add(Case("AT_reduce_b50ad4", g, BB + "sum_sum_b50ad423ed16/oracle.py", "_reduce_kernel",
             [A((1605632, 72), "bfloat16"), A((1605632, 36), "bfloat16"), A((1605632, 36), "bfloat16"),
              A((1,), "bfloat16"), A((1605632, 36), "bfloat16"), A((36,), "float32"), A((1568, 64), "float32"),
              A((1568, 64), "float32"), K(36), K(72), K(64), K(1024), K(64)], (1568, 1, 1)))
    add(Case("AT_finalize_b50ad4", g, BB + "sum_sum_b50ad423ed16/oracle.py", "_finalize_kernel",
             [A((1568, 64), "float32"), A((1568, 64), "float32"), A((36,), "float32"), A((36,), "float32"),
              A((36,), "float32"), A((36,), "float32"), A((36,), "float32"), A((36,), "float32"),
              A((36,), "float32"), K(1568), K(2048), K(36), K(64), K(6.228077168367346e-07)], (1, 1, 1)))
    add(Case("AT_epilogue_b50ad4", g, BB + "sum_sum_b50ad423ed16/oracle.py", "_epilogue_kernel",
             [A((1605632, 72), "bfloat16"), A((1605632, 36), "bfloat16"), A((1605632, 36), "bfloat16"),
              A((1,), "bfloat16"), A((1605632, 36), "bfloat16"), A((36,), "float32"), A((36,), "float32"),
              A((36,), "float32"), A((36,), "float32"), A((1605632, 36), "bfloat16"), K(36), K(72), K(64),
              K(64)], (25088, 1, 1)))
    add(Case("AT_xent_backward_final_49dda4", g, BB + "sum_49dda4f7b564/oracle.py", "_xent_backward_final_kernel",
             [A((4096, 256008), "bfloat16"), A((4096,), "float32"), A((4096,), "float32"),
              A((4096,), "int64", "index:100"), A((4096,), "float32"), A((4096,), "bool"), A((4096,), "float32"),
              A((4096, 256008), "bfloat16"), A((4096, 256008), "bfloat16"), K(256008), K(1024)], (4096, 251, 1)))
    add(Case("AT_masked_where_e70c30", g, BB + "sum_e70c30104d29/oracle.py", "_masked_where_kernel",
             [A((8192, 4096), "bfloat16"), A((8192, 4096), "bool"), A((8192, 4096), "bfloat16"), K(64),
              K(128)], (128, 32, 1)))
    add(Case("AT_column_sum_e70c30", g, BB + "sum_e70c30104d29/oracle.py", "_column_sum_kernel",
             [A((8192, 4096), "bfloat16"), A((4096,), "float32"), K(128), K(64), K(128)], (32, 1, 1)))
    add(Case("AT_copy_c17729", g, BB + "pointwise_c1772948ebc8/oracle.py", "_copy_kernel",
             [A((327680,), "float32"), A((327680,), "float32"), K(1024)], (320, 1, 1)))
    add(Case("AT_iota_c17729", g, BB + "pointwise_c1772948ebc8/oracle.py", "_iota_kernel",
             [A((128,), "int64"), K(128)], (1, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-at-launch"))]
