"""Validation set AU: 32 launches of 25 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AT were, from
the files none of them nor sets W and Y used, after sets AS and AT were timed and model version 87
(a gather of consecutive elements on few blocks) was made; version 87's predictions are committed
before the device run.

The draw (`python bench/cost_bbench_draw.py AU BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 363 of sets W, Y and AG to AT,
`random.Random(50).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Three files were passed over: two with a launch the cases cannot hold (pointwise_a77badc5e988,
sum_898c72fb606a), one without a launch (sum_sum_sum_92943d6eae4c). So the sizes, tile sizes and
grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-au`) and as tilescope's launch builds it
(`validate-au-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setau_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-au"
    add(Case("AU_class_token_layernorm_06a6ae", g, BB + "var_mean_06a6aec610f6/oracle.py",
             "_class_token_layernorm_kernel",
             [A((175360, 768), "bfloat16"), A((768,), "bfloat16"), A((175360, 768), "bfloat16"),
              A((768,), "bfloat16"), A((768,), "bfloat16"), A((128, 768), "bfloat16"), K(1024)], (128, 1, 1)))
    add(Case("AU_head_layout_clone_c50944", g, BB + "pointwise_c509446d4a84/oracle.py", "_head_layout_clone_kernel",
             [A((8, 512, 24, 64), "bfloat16"), A((8, 24, 512, 64), "bfloat16"), K(16), K(64)], (8, 24, 32)))
    add(Case("AU_materialize_partial_17d3d9", g, BB + "sum_sum_17d3d92edca8/oracle.py",
             "_materialize_partial_kernel",
             [A((8192,), "int64", "index:100"), A((8192, 29056), "bfloat16"), A((8192,), "float32"),
              A((8192,), "float32"), A((8192, 29056), "bfloat16"), A((8192,), "float32"),
              A((8192, 29056), "bfloat16"), A((29056, 128), "float32"), K(64), K(128)], (128, 227, 1)))
    add(Case("AU_finalize_sum_17d3d9", g, BB + "sum_sum_17d3d92edca8/oracle.py", "_finalize_sum_kernel",
             [A((29056, 128), "float32"), A((29056,), "float32"), K(8), K(128)], (3632, 1, 1)))
    add(Case("AU_dropout_residual_layernorm_f10949", g, BB + "var_mean_f1094971e1b4/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("AU_softmax_backward_fma_7ba9dc", g, BB + "sum_7ba9dcb96142/oracle.py", "_softmax_backward_fma_kernel",
             [A((98304, 1024), "float32"), A((98304, 1024), "float32"), A((98304,), "float32"),
              A((98304,), "float32"), A((98304,), "float32"), A((98304, 1024), "bfloat16"), A((1024,), "bool"),
              K(1024)], (98304, 1, 1)))
    add(Case("AU_sliding_window_softmax_40ecfc", g, BB + "max_amax_sum_40ecfc34136c/oracle.py",
             "_sliding_window_softmax_kernel",
             [A((64000000,), "bfloat16"), A((64,), "bfloat16"), A((1000000,), "bfloat16"),
              A((64000000,), "bfloat16"), K(64), K(1000), K(1000), K(2), K(1024)], (1000, 32, 1)))
    add(Case("AU_distillgpt2_embedding_dropout_layernorm_4a268d", g, BB + "var_mean_4a268d7c766e/oracle.py",
             "_distillgpt2_embedding_dropout_layernorm_kernel",
             [A((16384, 768), "float32"), A((16384, 768), "float32"), A((768,), "float32"), A((768,), "float32"),
              A((16384, 768), "float32"), A((16384, 768), "bool"), A((16384, 768), "float32"),
              A((16384,), "float32"), A((16384,), "float32"), A((16384, 768), "bfloat16"), K(768), K(512),
              K(1024)], (16384, 1, 1)))
    add(Case("AU_materialize_partial_sum_3a6aa9", g, BB + "sum_3a6aa9bca77f/oracle.py",
             "_materialize_partial_sum_kernel",
             [A((131072, 288), "bfloat16"), A((131072, 288), "bfloat16"), A((131072, 288), "bfloat16"),
              A((512, 288), "float32"), K(131072), K(288), K(256), K(256), K(32), K(1)], (512, 9, 1)))
    add(Case("AU_final_sum_3a6aa9", g, BB + "sum_3a6aa9bca77f/oracle.py", "_final_sum_kernel",
             [A((512, 288), "float32"), A((288,), "float32"), K(512), K(288), K(32)], (9, 1, 1)))
    add(Case("AU_invstd_818c3a", g, BB + "pointwise_818c3aa59952/oracle.py", "_invstd_kernel",
             [A((80,), "bfloat16"), A((80,), "float32"), K(80), K(128)], (1, 1, 1)))
    add(Case("AU_bn_affine_channels_last_818c3a", g, BB + "pointwise_818c3aa59952/oracle.py",
             "_bn_affine_channels_last_kernel",
             [A((2007040,), "bfloat16"), A((80,), "bfloat16"), A((80,), "float32"), A((80,), "bfloat16"),
              A((80,), "bfloat16"), A((2007040,), "bfloat16"), K(2007040), K(80), K(1024)], (1960, 1, 1)))
    add(Case("AU_dropout_residual_layernorm_69ffe3", g, BB + "var_mean_69ffe374d494/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((16384, 768), "float32"), A((16384, 768), "float32"), A((16384, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((16384, 1024), "bool"), A((16384, 1024), "float32"),
              A((16384, 1024), "float32"), A((16384,), "float32"), K(768), K(1024)], (16384, 1, 1)))
    add(Case("AU_identity_copy_176e8f", g, BB + "pointwise_176e8f2b992e/oracle.py", "_identity_copy_kernel",
             [A((25165824,), "bfloat16"), A((25165824,), "bfloat16"), A((25165824,), "bfloat16"),
              A((25165824,), "bfloat16"), K(25165824), K(1024)], (24576, 1, 1)))
    add(Case("AU_channel_sum_c57657", g, BB + "sum_c5765737e761/oracle.py", "_channel_sum_kernel",
             [A((1000, 5408), "bfloat16"), A((1000,), "float32"), K(5408), K(8192)], (1000, 1, 1)))
    add(Case("AU_dropout_rmsnorm_657711", g, BB + "mean_65771166374c/oracle.py", "_dropout_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"),
              A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096, 1), "float32"),
              A((4096, 512), "bfloat16"), K(512), K(512), K(1)], (4096, 1, 1)))
    add(Case("AU_materialize_and_sum_4a0cb5", g, BB + "sum_4a0cb54db4dc/oracle.py", "_materialize_and_sum_kernel",
             [A((128, 16), "bfloat16"), A((128, 16), "bfloat16"), A((128, 16), "bfloat16"), A((16,), "float32"),
              K(128), K(16)], (1, 1, 1)))
    add(Case("AU_causal_bias_pair_802def", g, BB + "pointwise_802def73cfd7/oracle.py", "_causal_bias_pair_kernel",
             [A((4, 1, 2048, 2048), "bfloat16"), A((4, 1, 2048, 2048), "bfloat16"), K(32), K(128),
              K(2048)], (4, 64, 16)))
    add(Case("AU_bn_silu_498fa7", g, BB + "pointwise_498fa7e126b8/oracle.py", "_bn_silu_kernel",
             [A((24084480,), "bfloat16"), A((240,), "bfloat16"), A((240,), "bfloat16"), A((240,), "bfloat16"),
              A((240,), "bfloat16"), A((24084480,), "bfloat16"), K(240), K(512)], (47040, 1, 1)))
    add(Case("AU_biased_xent_rows_1d3ecc", g, BB + "amax_sum_sum_1d3ecc85e538/oracle.py",
             "_biased_xent_rows_kernel",
             [A((32768, 30528), "bfloat16"), A((30522,), "bfloat16"), A((32768,), "float32"),
              A((32768,), "float32"), A((1000144896,), "bfloat16"), A((32768,), "bfloat16"),
              A((32768,), "float32"), K(30522), K(30), K(1024)], (32768, 1, 1)))
    add(Case("AU_mean_reduce_1d3ecc", g, BB + "amax_sum_sum_1d3ecc85e538/oracle.py", "_mean_reduce_kernel",
             [A((32768,), "bfloat16"), A((32768,), "float32"), A((1,), "bfloat16"), K(32768),
              K(32768)], (1, 1, 1)))
    add(Case("AU_copy_reduce_76fb99", g, BB + "sum_76fb9946e296/oracle.py", "_copy_reduce_kernel",
             [A((2048, 2560), "bfloat16"), A((2048, 2560), "bfloat16"), A((16, 2560), "float32"), K(32), K(80),
              K(2048), K(2560), K(128), K(32), K(0.334370152488211)], (16, 80, 1)))
    add(Case("AU_finish_sum_76fb99", g, BB + "sum_76fb9946e296/oracle.py", "_finish_sum_kernel",
             [A((16, 2560), "float32"), A((2560,), "float32"), K(16), K(2560), K(16), K(32)], (80, 1, 1)))
    add(Case("AU_channel_layernorm_c003cf", g, BB + "var_mean_c003cf6c87f4/oracle.py", "_channel_layernorm_kernel",
             [A((401408, 80), "bfloat16"), A((401408, 80), "float32"), A((80,), "float32"), A((80,), "float32"),
              A((401408, 128), "float32"), A((401408, 128), "bfloat16"), A((401408,), "float32"), K(80),
              K(128)], (401408, 1, 1)))
    add(Case("AU_dropout_layernorm_c66a4a", g, BB + "var_mean_c66a4a92eb88/oracle.py", "_dropout_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192, 1), "float32"), K(768), K(1024),
              K(1), K(1e-05), K(0.1), K(1.1111111111111112)], (8192, 1, 1)))
    add(Case("AU_partial_reduce_ed2e3f", g, BB + "sum_sum_ed2e3f6639e7/oracle.py", "_partial_reduce_kernel",
             [A((401408, 120), "float32"), A((401408, 120), "float32"), A((784, 128), "float32"),
              A((784, 128), "float32"), K(512), K(16)], (784, 8, 1)))
    add(Case("AU_finalize_ed2e3f", g, BB + "sum_sum_ed2e3f6639e7/oracle.py", "_finalize_kernel",
             [A((784, 128), "float32"), A((784, 128), "float32"), A((128,), "float32"), A((128,), "float32"),
              K(784), K(1024), K(16)], (8, 1, 1)))
    add(Case("AU_bn_backward_dense_ed2e3f", g, BB + "sum_sum_ed2e3f6639e7/oracle.py", "_bn_backward_dense_kernel",
             [A((512, 120, 1024), "float32"), A((512, 120, 1024), "float32"), A((120,), "float32"),
              A((120,), "float32"), A((120,), "float32"), A((512, 120, 1024), "bfloat16"),
              K(1024)], (512, 120, 1)))
    add(Case("AU_residual_layernorm_ee1676", g, BB + "var_mean_ee167627f636/oracle.py",
             "_residual_layernorm_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "bfloat16"), A((768,), "bfloat16"), A((768,), "bfloat16"),
              A((8192, 768), "bfloat16"), K(768), K(1024)], (8192, 1, 1)))
    add(Case("AU_bn_hardswish_mean_1e85ed", g, BB + "mean_1e85edda8f16/oracle.py", "_bn_hardswish_mean_kernel",
             [A((960,), "bfloat16"), A((30720, 49), "bfloat16"), A((960,), "bfloat16"), A((960,), "bfloat16"),
              A((960,), "bfloat16"), A((30720, 49), "bfloat16"), A((30720,), "bfloat16"), K(49), K(64), K(49.0),
              K(960)], (30720, 1, 1)))
    add(Case("AU_scaled_masked_softmax_dropout_ea6ff2", g, BB + "amax_sum_ea6ff299f7bb/oracle.py",
             "_scaled_masked_softmax_dropout_kernel",
             [A((16, 12, 128, 128), "bfloat16"), A((16, 1, 128, 128), "bool"), A((16, 12, 128, 128), "float32"),
              A((16, 12, 128, 128), "bfloat16"), A((16, 12, 128, 1), "float32"), A((16, 12, 128, 1), "float32"),
              A((16, 12, 128, 128), "bool"), A((16, 12, 128, 128), "bfloat16"), K(-0.482421875),
              K(128)], (16, 12, 128)))
    add(Case("AU_double_dropout_layernorm_f9dcf7", g, BB + "var_mean_f9dcf755019d/oracle.py",
             "_double_dropout_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"),
              A((8192, 1024), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192,), "float32"), K(1024), K(1024)], (8192, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-au-launch"))]
