"""Validation set AM: 34 launches of 20 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AL were, from
the files none of them nor sets W and Y used, after set AL was timed and while model version 81
(a lane walking its own row brings a line a wait that goes out; one-column tiles walked a line a
lane even when aligned) was being made on the times of AG to AL; version 81's predictions are
committed before the device run.

The draw (`python bench/cost_bbench_draw.py AM BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 179 of sets W, Y and AG to AL,
`random.Random(42).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Two files were passed over, each with a launch the cases cannot hold (amax_sum_sum_4bf8a79efec4,
amax_sum_6a531546a9ab). So the sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other
sizes: the suffix `_2`). The files' host imports are stood in as set Y's are
(cost_sety.HOST_MODULES). Each kernel is built dynamically shaped (`validate-am`) and as
tilescope's launch builds it (`validate-am-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setam_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-am"
    add(Case("AM_groupnorm_affine_relu_73c588", g, BB + "var_mean_73c58826bf26/oracle.py",
             "_groupnorm_affine_relu_kernel",
             [A((128, 32, 16, 1), "bfloat16"), A((32, 16), "bfloat16"), A((32, 16), "bfloat16"),
              A((128, 32, 16, 1), "bfloat16"), K(16), K(1), K(16)], (128, 32, 1)))
    add(Case("AM_residual_rmsnorm_426e24", g, BB + "mean_426e2409482e/oracle.py", "_residual_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"), A((512,), "bfloat16"),
              A((4096, 512), "bfloat16"), K(512), K(512)], (4096, 1, 1)))
    add(Case("AM_cross_entropy_forward_3aad23", g, BB + "amax_sum_3aad2361105e/oracle.py",
             "_cross_entropy_forward_kernel",
             [A((8192,), "int64", "index:262135"), A((8192, 262144), "bfloat16"), A((8192,), "float32"), K(262144),
              K(64), K(4096)], (8192, 1, 1)))
    add(Case("AM_residual_layernorm_52ddb6", g, BB + "var_mean_mean_52ddb6a14d4e/oracle.py",
             "_residual_layernorm_kernel",
             [A((6272, 1024), "bfloat16"), A((6272, 1024), "bfloat16"), A((1024,), "bfloat16"),
              A((1024,), "bfloat16"), A((6272, 1024), "bfloat16"), K(1024), K(1024)], (6272, 1, 1)))
    add(Case("AM_spatial_mean_52ddb6", g, BB + "var_mean_mean_52ddb6a14d4e/oracle.py", "_spatial_mean_kernel",
             [A((128, 49, 1024), "bfloat16"), A((128, 1024), "bfloat16"), K(49), K(32), K(64)], (128, 32, 1)))
    add(Case("AM_bn_relu_a22d76", g, BB + "pointwise_a22d76c884fc/oracle.py", "_bn_relu_kernel",
             [A((64, 704, 49), "bfloat16"), A((704,), "bfloat16"), A((704,), "bfloat16"), A((704,), "bfloat16"),
              A((704,), "bfloat16"), A((64, 704, 49), "bfloat16"), K(64), K(49)], (64, 704, 1)))
    add(Case("AM_segment_causal_6d75f4", g, BB + "pointwise_6d75f431992b/oracle.py", "_segment_causal_kernel",
             [A((512,), "int64", "index:512"), A((32, 512), "int64", "index:32"), A((32, 512, 512), "bfloat16"),
              K(32), K(32)], (32, 16, 16)))
    add(Case("AM_key_layout_clone_4e2a69", g, BB + "pointwise_4e2a690272cd/oracle.py", "_key_layout_clone_kernel",
             [A((32, 6, 64, 128), "bfloat16"), A((32, 128, 6, 64), "bfloat16"), K(6), K(64)], (32, 128, 6)))
    add(Case("AM_bn_relu_spatial_mean_ee7476", g, BB + "mean_ee7476ab4c8e/oracle.py",
             "_bn_relu_spatial_mean_kernel",
             [A((64, 1024, 49), "bfloat16"), A((1024,), "bfloat16"), A((1024,), "bfloat16"),
              A((1024,), "bfloat16"), A((1024,), "bfloat16"), A((64, 1024), "bfloat16")], (64, 1024, 1)))
    add(Case("AM_channel_norm_scale_bf16_ffc111", g, BB + "var_mean_ffc11133a616/oracle.py",
             "_channel_norm_scale_bf16_kernel",
             [A((3072, 1536), "bfloat16"), A((3072,), "bfloat16"), A((3072, 1536), "bfloat16"), K(1536),
              K(2048)], (3072, 1, 1)))
    add(Case("AM_sink_softmax_66e6dc", g, BB + "max_amax_sum_66e6dc6d2131/oracle.py", "_sink_softmax_kernel",
             [A((64000, 1024), "bfloat16"), A((64000, 1024), "bfloat16"), A((64000,), "bfloat16"),
              A((64000, 1024), "bfloat16"), K(1000), K(1024)], (64000, 1, 1)))
    add(Case("AM_bn_partial_stats_ad7165", g, BB + "var_mean_ad7165cabf3f/oracle.py", "_bn_partial_stats_kernel",
             [A((25088, 672), "bfloat16"), A((49, 672), "float32"), A((49, 672), "float32"), K(25088), K(512),
              K(8)], (49, 84, 1)))
    add(Case("AM_bn_finalize_stats_ad7165", g, BB + "var_mean_ad7165cabf3f/oracle.py", "_bn_finalize_stats_kernel",
             [A((49, 672), "float32"), A((49, 672), "float32"), A((672,), "float32"), A((672,), "float32"),
              A((672,), "float32"), A((672,), "float32"), K(49), K(64), K(8), K(3.985969387755102e-05), K(0.001),
              K(1.0000398612827361), K(0.1), K(0.9)], (84, 1, 1)))
    add(Case("AM_bn_affine_silu_pad_ad7165", g, BB + "var_mean_ad7165cabf3f/oracle.py",
             "_bn_affine_silu_pad_kernel",
             [A((128, 672, 256), "bfloat16"), A((672,), "float32"), A((672,), "float32"), A((672,), "float32"),
              A((672,), "float32"), A((128, 672, 256), "bfloat16"), K(128), K(672), K(14), K(14), K(14), K(14),
              K(256), K(256), K(1), K(1), K(256)], (128, 672, 1)))
    add(Case("AM_bn_stats_3a94a1", g, BB + "var_mean_mean_3a94a106616a/oracle.py", "_bn_stats_kernel",
             [A((960, 1568), "bfloat16"), A((960,), "float32"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), K(1568), K(2048)], (960, 1, 1)))
    add(Case("AM_hardswish_spatial_mean_3a94a1", g, BB + "var_mean_mean_3a94a106616a/oracle.py",
             "_hardswish_spatial_mean_kernel",
             [A((30720, 49), "bfloat16"), A((960,), "float32"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((30720,), "bfloat16"), K(960), K(49), K(8), K(64)], (3840, 1, 1)))
    add(Case("AM_partial_reduce_ca662c", g, BB + "sum_sum_sum_ca662cf33758/oracle.py", "_partial_reduce_kernel",
             [A((64, 613760), "bfloat16"), A((1,), "bfloat16"), A((64, 613760), "bfloat16"),
              A((64, 613760), "bfloat16"), A((64,), "float32"), A((600, 64), "float32"), A((600, 64), "float32"),
              K(613760), K(1024)], (64, 600, 1)))
    add(Case("AM_finalize_first_ca662c", g, BB + "sum_sum_sum_ca662cf33758/oracle.py", "_finalize_first_kernel",
             [A((600, 64), "float32"), A((600, 64), "float32"), A((64,), "float32"), A((64,), "float32"),
              A((64,), "float32"), A((64,), "float32"), K(1024), K(600), K(8)], (8, 1, 1)))
    add(Case("AM_epilogue_ca662c", g, BB + "sum_sum_sum_ca662cf33758/oracle.py", "_epilogue_kernel",
             [A((64, 613760), "bfloat16"), A((1,), "bfloat16"), A((64, 613760), "bfloat16"),
              A((64, 613760), "bfloat16"), A((64,), "float32"), A((64,), "float32"), A((64,), "float32"),
              A((64,), "float32"), A((64,), "float32"), A((64, 614400), "bfloat16"), A((600, 64), "float32"),
              K(613760), K(1024), K(1.6293013555787278e-06)], (64, 600, 1)))
    add(Case("AM_finalize_dense_sum_ca662c", g, BB + "sum_sum_sum_ca662cf33758/oracle.py",
             "_finalize_dense_sum_kernel",
             [A((600, 64), "float32"), A((64,), "float32"), K(1024), K(600), K(8)], (8, 1, 1)))
    add(Case("AM_bn_partial_stats_33d243", g, BB + "var_mean_33d24326eae6/oracle.py", "_bn_partial_stats_kernel",
             [A((232, 6272), "bfloat16"), A((7, 232), "float32"), A((7, 232), "float32"), K(6272),
              K(1024)], (232, 7, 1)))
    add(Case("AM_bn_finalize_stats_33d243", g, BB + "var_mean_33d24326eae6/oracle.py", "_bn_finalize_stats_kernel",
             [A((7, 232), "float32"), A((7, 232), "float32"), A((232,), "float32"), A((232,), "float32"),
              A((232,), "float32"), K(6272), K(7), K(8)], (232, 1, 1)))
    add(Case("AM_bn_apply_33d243", g, BB + "var_mean_33d24326eae6/oracle.py", "_bn_apply_kernel",
             [A((232, 6272), "bfloat16"), A((232,), "float32"), A((232,), "float32"), A((232,), "float32"),
              A((232,), "float32"), A((232, 6272), "bfloat16"), K(6272), K(1024)], (232, 7, 1)))
    add(Case("AM_bn_tail_2928b7", g, BB + "sum_sum_2928b7b46154/oracle.py", "_bn_tail_kernel",
             [A((4, 1024, 14, 14), "bfloat16"), A((4, 992, 14, 14), "bfloat16"), A((4, 960, 14, 14), "bfloat16"),
              A((4, 928, 14, 14), "bfloat16"), A((4, 896, 14, 14), "bfloat16"), A((4, 864, 14, 14), "bfloat16"),
              A((4, 832, 14, 14), "bfloat16"), A((4, 800, 14, 14), "bfloat16"), A((4, 768, 14, 14), "bfloat16"),
              A((4, 736, 14, 14), "bfloat16"), A((4, 704, 14, 14), "bfloat16"), A((4, 672, 14, 14), "bfloat16"),
              A((4, 640, 14, 14), "bfloat16"), A((4, 608, 14, 14), "bfloat16"), A((4, 576, 14, 14), "bfloat16"),
              A((4, 544, 14, 14), "bfloat16"), A((4, 512, 14, 14), "bfloat16"), A((4, 480, 14, 14), "bfloat16"),
              A((4, 448, 14, 14), "bfloat16"), A((4, 416, 14, 14), "bfloat16"), A((1,), "bfloat16"),
              A((4, 416, 14, 14), "bfloat16"), A((4, 416, 14, 14), "bfloat16"), A((416,), "float32"),
              A((416,), "float32"), A((416,), "float32"), A((416,), "float32"), A((416,), "float32"),
              A((4, 416, 14, 14), "bfloat16"), A((4, 32, 14, 14), "bfloat16"), K(1024)], (416, 1, 1)))
    add(Case("AM_scaled_masked_softmax_dropout_63eb58", g, BB + "amax_sum_63eb58845b46/oracle.py",
             "_scaled_masked_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "bool"), A((1,), "bfloat16"),
              A((24576, 128), "float32"), A((24576, 128), "bfloat16"), A((24576,), "float32"),
              A((24576,), "float32"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"),
              K(128)], (24576, 1, 1)))
    add(Case("AM_invert_permutation_a18494", g, BB + "amax_sum_sum_a184947064f0/oracle.py",
             "_invert_permutation_kernel",
             [A((4000,), "int64", "index:4000"), A((4000,), "int64", "index:140037142291489"), K(4000),
              K(1024)], (4, 1, 1)))
    add(Case("AM_routed_combine_rmsnorm_a18494", g, BB + "amax_sum_sum_a184947064f0/oracle.py",
             "_routed_combine_rmsnorm_kernel",
             [A((92160,), "bfloat16"), A((4000,), "int64", "index:32"), A((11520000,), "bfloat16"),
              A((1000, 4), "bfloat16"), A((4000,), "int64", "index:140037142291489"), A((4000,), "bool"),
              A((1000, 2880), "bfloat16"), A((2880,), "bfloat16"), A((1000, 2880), "bfloat16"),
              A((1000, 2880), "bfloat16"), K(2880), K(4), K(4096)], (1000, 1, 1)))
    add(Case("AM_bf16_fp32_tanh_gelu_49492e", g, BB + "pointwise_49492eb7035e/oracle.py",
             "_bf16_fp32_tanh_gelu_kernel",
             [A((2097152,), "bfloat16"), A((2097152,), "bfloat16"), K(1024)], (2048, 1, 1)))
    add(Case("AM_gptj_rope_5c9e53", g, BB + "pointwise_5c9e535343f4/oracle.py", "_gptj_rope_kernel",
             [A((524288,), "bfloat16"), A((524288,), "bfloat16"), A((4096,), "bfloat16"), A((4096,), "bfloat16"),
              A((131072,), "bfloat16"), A((524288,), "bfloat16"), A((524288,), "bfloat16"),
              A((524288,), "bfloat16"), K(524288), K(131072), K(512)], (1024, 1, 1)))
    add(Case("AM_channel_partial_1a5618", g, BB + "sum_sum_sum_1a561863a1c6/oracle.py", "_channel_partial_kernel",
             [A((100352, 80), "float32"), A((100352, 80), "float32"), A((80, 1024), "float32"),
              A((80, 1024), "float32"), K(128), K(100352)], (80, 784, 1)))
    add(Case("AM_channel_finalize_1a5618", g, BB + "sum_sum_sum_1a561863a1c6/oracle.py", "_channel_finalize_kernel",
             [A((80, 1024), "float32"), A((80, 1024), "float32"), A((80,), "float32"), A((80,), "float32"),
              K(1024)], (80, 1, 1)))
    add(Case("AM_channel_partial_1a5618_2", g, BB + "sum_sum_sum_1a561863a1c6/oracle.py", "_channel_partial_kernel",
             [A((100352, 40), "float32"), A((100352, 40), "float32"), A((40, 1024), "float32"),
              A((40, 1024), "float32"), K(128), K(100352)], (40, 784, 1)))
    add(Case("AM_channel_finalize_1a5618_2", g, BB + "sum_sum_sum_1a561863a1c6/oracle.py",
             "_channel_finalize_kernel",
             [A((40, 1024), "float32"), A((40, 1024), "float32"), A((40,), "float32"), A((40,), "float32"),
              K(1024)], (40, 1, 1)))
    add(Case("AM_f32_to_bf16_1a5618", g, BB + "sum_sum_sum_1a561863a1c6/oracle.py", "_f32_to_bf16_kernel",
             [A((4014080,), "float32"), A((4014080,), "bfloat16"), K(4014080), K(1024)], (3920, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-am-launch"))]
