"""Validation set AG: 32 launches of 25 files of eellison/better-benchmark's cuTile ports of PyTorch
Inductor's fused kernels (66bb464, `--repo bbench=DIR`, as sets W and Y) that no set had used, drawn
before any prediction for them was looked at (model version 77 frozen first, the predictions
committed before the device run).

The draw: of the 1,727 `repros_cutile/canonical/*/oracle.py` files, less the 20 of sets W and Y,
`random.Random(36).sample(names, 80)` over the sorted names; the files taken in that order until
32 launches, every launch of a file or none. Each file's `oracle_forward` was run once at its first
shape point (`repros/canonical/*/shapes.json`, the repository's own `make_inputs`) with tilescope's
CPU device layer and torch on the CPU, `ct.launch` recording each launch (kernel, grid, arguments)
instead of running it, the implementation the file's registry picks for an H100 (each of these
files registers B200 ones only, which it falls back to). A file is passed over only if a launch
passes an array that is not contiguous (the cases hold no strides) or launches nothing: one was
(sum_sum_6a8cdea856dd launches no kernel at that point). So the sizes, tile sizes and grids are
the files' own, as their models' training steps make them; nothing is scaled. Integer arrays hold
values spread over the range the recorded inputs held (`index:N`), so gathers land as they would.
Files with several kernels give each distinct launch (sum_b0e3fd562409's gate and sum;
sum_sum_sum_3cac3bbf4e8f's row pass and two reductions; sum_sum_sum_79c321089383's row pass, column
partials and finalisation; sum_623a84402e27's copy and column sum; var_mean_var_mean_4cdcce28fdf4's
group statistics and epilogue).
The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-ag`) and as tilescope's launch builds it
(`validate-ag-launch`), as sets M-AF.
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K

BB = "bbench:repros_cutile/canonical/"
COMMITS = {"bbench": "eellison/better-benchmark 66bb464fffce8a05264ddcbfcb85bba1b8a01ecc"}


def setag_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants (row
    lengths, element counts, strides) fix the sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-ag"
    add(Case("AG_mask_to_bias_bef609", g, BB + "pointwise_bef60966ace3/oracle.py", "_mask_to_bias_kernel",
             [A((8388608,), "bool"), A((8388608,), "bfloat16"), K(1024)], (8192, 1, 1)))
    add(Case("AG_safe_softmax_dropout_2655cc", g, BB + "amax_sum_any_2655cc8a0790/oracle.py",
             "_safe_softmax_dropout_kernel",
             [A((196608, 512), "bfloat16"), A((196608, 512), "bfloat16"), A((196608, 512), "float32"),
              A((196608, 512), "bfloat16"), A((196608, 512), "bool"), A((196608, 512), "bfloat16"), K(512)],
             (196608, 1, 1)))
    add(Case("AG_softmax_dropout_119baf", g, BB + "amax_sum_119baf9550ec/oracle.py", "_softmax_dropout_kernel",
             [A((65536, 1024), "bfloat16"), A((65536, 1024), "float32"), A((65536,), "float32"),
              A((65536,), "float32"), A((65536, 1024), "bool"), A((65536, 1024), "bfloat16"), K(1024), K(1),
              K(1024)], (65536, 1, 1)))
    add(Case("AG_layernorm_f3d797", g, BB + "var_mean_f3d797c5c146/oracle.py", "_layernorm_kernel",
             [A((128, 4096), "bfloat16"), A((4096,), "bfloat16"), A((4096,), "bfloat16"),
              A((128, 4096), "bfloat16"), K(4096)], (128, 1, 1)))
    add(Case("AG_dropout_residual_layernorm_e7bcff", g, BB + "var_mean_e7bcffc0e186/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"),
              A((8192, 1024), "float32"), A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"),
              A((8192, 1), "float32"), K(1024), K(1024), K(1), K(1.1111111111111112), K(1e-12)], (8192, 1, 1)))
    add(Case("AG_bert_add_backing_81981d", g, BB + "pointwise_81981d13665a/oracle.py", "_bert_add_backing_kernel",
             [A((1572864,), "bfloat16"), A((1572864,), "bfloat16"), A((1572864,), "bfloat16"), K(1024)],
             (1536, 1, 1)))
    add(Case("AG_gptneo_masked_softmax_c37243", g, BB + "amax_sum_c372431bff28/oracle.py",
             "_gptneo_masked_softmax_kernel",
             [A((4194304,), "bool"), A((8388608,), "float32"), A((4096,), "int64", "index:32"),
              A((524288,), "bfloat16"), A((8388608,), "bfloat16"), K(65536), K(2048), K(4194304)], (8192, 1, 1)))
    add(Case("AG_scaled_softmax_dropout_00b1a5", g, BB + "amax_amax_any_00b1a5ec08e7/oracle.py",
             "_scaled_softmax_dropout_kernel",
             [A((196608, 512), "bfloat16"), A((196608, 512), "float32"), A((196608,), "float32"),
              A((196608,), "float32"), A((196608,), "bool"), A((196608,), "float32"), A((196608, 512), "bool"),
              A((196608, 512), "bfloat16"), K(512)], (196608, 1, 1)))
    add(Case("AG_bn_backward_8ddadf", g, BB + "sum_sum_8ddadf2c06d3/oracle.py", "_bn_backward_kernel",
             [A((4, 1024, 196), "bfloat16"), A((1,), "bfloat16"), A((4, 1024, 196), "bfloat16"),
              A((4, 1024, 196), "bfloat16"), A((1024,), "float32"), A((1024,), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((1024,), "float32"),
              A((4, 1024, 196), "bfloat16"), K(4), K(196), K(256)], (1024, 1, 1)))
    add(Case("AG_dropout_residual_layernorm_1767f6", g, BB + "var_mean_1767f6da7869/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((32768, 256), "bfloat16"), A((32768, 256), "float32"), A((32768, 256), "bfloat16"),
              A((256,), "float32"), A((256,), "float32"), A((32768, 256), "bool"), A((32768, 256), "bfloat16"),
              A((32768,), "float32"), A((32768,), "float32"), A((32768, 256), "float32"),
              A((32768, 256), "bfloat16"), K(256), K(2), K(256)], (16384, 1, 1)))
    add(Case("AG_xlnet_layout_clone_000209", g, BB + "pointwise_000209e1748d/oracle.py", "_xlnet_layout_clone_kernel",
             [A((512, 16, 64, 16), "bfloat16"), A((16, 16, 512, 64), "bfloat16"), K(64)], (512, 16, 1)))
    add(Case("AG_cast_padded_transpose_52fe19", g, BB + "pointwise_52fe1925ccda/oracle.py",
             "_cast_padded_transpose_kernel",
             [A((20005, 768), "float32"), A((768, 20008), "bfloat16"), A((20005, 768), "bfloat16"), K(64),
              K(64)], (313, 12, 1)))
    add(Case("AG_longformer_iota4_clone_6fa759", g, BB + "pointwise_6fa7595f145a/oracle.py",
             "_longformer_iota4_clone_kernel",
             [A((384, 768, 64), "int64", "index:1"), K(64), K(64), K(98304), K(16384), K(64)], (384, 12, 1)))
    add(Case("AG_dropout_residual_ln_9d56b9", g, BB + "var_mean_9d56b9ed5aa7/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"),
              A((8192, 1024), "float32"), A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"),
              A((8192,), "float32"), K(1024), K(1024), K(1.1111111111111112), K(1e-12)], (8192, 1, 1)))
    add(Case("AG_dropout_layernorm_38a1ef", g, BB + "var_mean_38a1ef006479/oracle.py", "_dropout_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"),
              A((8192, 1024), "float32"), A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"),
              A((8192, 1), "float32"), K(1024), K(1024), K(1), K(1e-12), K(0.1), K(1.1111111111111112)],
             (8192, 1, 1)))
    add(Case("AG_demucs_gate_b0e3fd", g, BB + "sum_b0e3fd562409/oracle.py", "_demucs_gate_kernel",
             [A((4, 512, 2048), "bfloat16"), A((4, 1024, 2048), "bfloat16"), A((4, 1024, 2048), "bfloat16"),
              K(1450), K(2048), K(512)], (4, 512, 1)))
    add(Case("AG_demucs_sum_b0e3fd", g, BB + "sum_b0e3fd562409/oracle.py", "_demucs_sum_kernel",
             [A((4, 1024, 2048), "bfloat16"), A((1024,), "float32"), K(4), K(1450), K(2048), K(4)], (1024, 1, 1)))
    add(Case("AG_relu_dropout_masks_e8e4b2", g, BB + "pointwise_e8e4b21e74ff/oracle.py", "_relu_dropout_masks_kernel",
             [A((16777216,), "bfloat16"), A((16777216,), "float32"), A((16777216,), "bool"),
              A((16777216,), "bfloat16"), A((16777216,), "bool"), K(1024)], (16384, 1, 1)))
    add(Case("AG_ln_backward_row_3cac3b", g, BB + "sum_sum_sum_3cac3bbf4e8f/oracle.py", "_ln_backward_row_kernel",
             [A((1152000, 1), "float32"), A((1,), "bfloat16"), A((512,), "float32"),
              A((1152000, 512), "bfloat16"), A((1152000, 1), "float32"), A((1152000, 512), "bfloat16"),
              A((18000, 512), "float32"), K(64), K(512), K(0.001953125)], (18000, 1, 1)))
    add(Case("AG_reduce_partial_3cac3b", g, BB + "sum_sum_sum_3cac3bbf4e8f/oracle.py", "_reduce_partial_kernel",
             [A((18000, 512), "float32"), A((128, 512), "float32"), K(18000), K(512), K(256), K(16)], (71, 32, 1)))
    add(Case("AG_final_reduce_3cac3b", g, BB + "sum_sum_sum_3cac3bbf4e8f/oracle.py", "_final_reduce_kernel",
             [A((128, 512), "float32"), A((512,), "float32"), K(128), K(16)], (32, 1, 1)))
    add(Case("AG_dropout_add_6e7efb", g, BB + "pointwise_6e7efb08a440/oracle.py", "_dropout_add_kernel",
             [A((6291456,), "bfloat16"), A((6291456,), "float32"), A((6291456,), "float32"),
              A((6291456,), "bool"), A((6291456,), "float32"), K(256)], (24576, 1, 1)))
    add(Case("AG_channel_reduce_065a82", g, BB + "sum_sum_sum_065a82cdc059/oracle.py", "_channel_reduce_kernel",
             [A((96, 401408), "float32"), A((96, 401408), "float32"), A((96,), "float32"), A((96,), "float32"),
              K(401408), K(524288)], (96, 1, 1)))
    add(Case("AG_relative_position_softmax_c35490", g, BB + "amax_sum_c35490c8001a/oracle.py",
             "_relative_position_softmax_kernel",
             [A((24576, 128), "bfloat16"), A((192,), "bfloat16"), A((3145728,), "bfloat16"),
              A((24576, 128), "bfloat16"), K(6), K(128), K(128), K(128)], (24576, 1, 1)))
    add(Case("AG_row_reduce_79c321", g, BB + "sum_sum_sum_79c321089383/oracle.py", "_row_reduce_kernel",
             [A((16384, 768), "float32"), A((16384, 768), "float32"), A((16384,), "float32"),
              A((16384,), "float32"), K(768), K(1024)], (16384, 1, 1)))
    add(Case("AG_col_partials_79c321", g, BB + "sum_sum_sum_79c321089383/oracle.py", "_col_partials_kernel",
             [A((16384, 768), "float32"), A((16384, 768), "float32"), A((256, 2, 768), "float32"), K(64), K(64)],
             (12, 256, 1)))
    add(Case("AG_col_finalize_79c321", g, BB + "sum_sum_sum_79c321089383/oracle.py", "_col_finalize_kernel",
             [A((256, 2, 768), "float32"), A((768,), "float32"), A((768,), "float32"), K(256), K(16)], (48, 1, 1)))
    add(Case("AG_copy_623a84", g, BB + "sum_623a84402e27/oracle.py", "_copy_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "bfloat16"), K(32), K(32)], (256, 32, 1)))
    add(Case("AG_col_sum_bf16_623a84", g, BB + "sum_623a84402e27/oracle.py", "_col_sum_bf16_kernel",
             [A((8192, 1024), "bfloat16"), A((1024,), "float32"), K(8192), K(32)], (32, 1, 1)))
    add(Case("AG_group_mean_var_4cdcce", g, BB + "var_mean_var_mean_4cdcce28fdf4/oracle.py", "_group_mean_var_kernel",
             [A((4096, 16), "float32"), A((4096,), "float32"), A((4096,), "float32"), K(16), K(0.0625)],
             (4096, 1, 1)))
    add(Case("AG_dual_gn_epilogue_4cdcce", g, BB + "var_mean_var_mean_4cdcce28fdf4/oracle.py",
             "_dual_gn_epilogue_kernel",
             [A((65536,), "float32"), A((65536,), "float32"), A((4096,), "float32"), A((4096,), "float32"),
              A((4096,), "float32"), A((4096,), "float32"), A((512,), "float32"), A((512,), "float32"),
              A((512,), "float32"), A((512,), "float32"), A((65536,), "float32"), A((65536,), "bfloat16"),
              K(512), K(16), K(16), K(128)], (512, 1, 1)))
    add(Case("AG_xent_bwd_1bd9fa", g, BB + "sum_1bd9fae13cde/oracle.py", "_xent_bwd_kernel",
             [A((1,), "float32"), A((1,), "float32"), A((16384,), "int64", "index:100"),
              A((823525369,), "bfloat16"), A((16384,), "float32"), A((16384,), "float32"),
              A((823410688,), "bfloat16"), K(2048)], (16384, 25, 1)))

    return [c for case in out for c in (case, case.launched("validate-ag-launch"))]
