"""Validation set BG: 32 launches of 26 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to BF were, from
the files none of them nor sets W and Y used, after set BF was drawn, while model version 93 was the
latest; version 93's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py BG BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 639 of sets W, Y and AG to BF,
`random.Random(62).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Four files were passed over, each with a launch the cases cannot hold (pointwise_faf725b387f9,
pointwise_5e648310bc29, var_mean_0b4143d6fc46, sum_sum_57d47dc4b26f). So the sizes, tile sizes and
grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-bg`) and as tilescope's launch builds it
(`validate-bg-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setbg_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-bg"
    add(Case("BG_slice_scatter_76e48e", g, BB + "pointwise_76e48e105773/oracle.py", "_slice_scatter_kernel",
             [A((512, 16, 4, 60), "bfloat16"), A((512, 4, 16, 64), "bfloat16"), A((512, 4, 16, 64), "bfloat16"),
              K(60), K(64)], (512, 4, 16)))
    add(Case("BG_dual_dropout_rmsnorm_014afd", g, BB + "mean_014afd4984e6/oracle.py",
             "_dual_dropout_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"),
              A((4096, 512), "float32"), A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"),
              A((4096,), "float32"), A((4096, 512), "bool"), A((4096, 512), "bfloat16"), K(512), K(2), K(512),
              K(1.1111111111111112), K(1e-06)], (2048, 1, 1)))
    add(Case("BG_dropout_residual_ln_9f7fee", g, BB + "var_mean_9f7fee57d4ab/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024),
              K(1024.0)], (8192, 1, 1)))
    add(Case("BG_channel_reduce_64e732", g, BB + "sum_sum_64e7323dd3c2/oracle.py", "_channel_reduce_kernel",
             [A((384, 3136), "float32"), A((384, 3136), "float32"), A((384,), "float32"), A((384,), "float32"),
              K(3136), K(4096)], (384, 1, 1)))
    add(Case("BG_row_tile_31ea6d", g, BB + "sum_sum_sum_31ea6dc807dd/oracle.py", "_row_tile_kernel",
             [A((8192, 768), "bfloat16"), A((768,), "float32"), A((8192, 768), "bfloat16"), A((8192, 768), "bool"),
              A((8192, 768), "float32"), A((8192,), "float32"), A((8192,), "float32"), A((8192, 768), "float32"),
              A((8192, 768), "float32"), A((8192, 768), "bfloat16"), A((512, 3, 768), "float32"), K(512), K(768),
              K(16), K(1024)], (512, 1, 1)))
    add(Case("BG_finalize_31ea6d", g, BB + "sum_sum_sum_31ea6dc807dd/oracle.py", "_finalize_kernel",
             [A((512, 3, 768), "float32"), A((768,), "float32"), A((768,), "float32"), A((768,), "float32"),
              K(512), K(768), K(64), K(16)], (48, 1, 1)))
    add(Case("BG_convbert_window_732ce9", g, BB + "pointwise_732ce9dc68ae/oracle.py", "_convbert_window_kernel",
             [A((6291456,), "bfloat16"), A((56623104,), "bfloat16"), K(4)], (24576, 1, 1)))
    add(Case("BG_add_and_layernorm_f7b8ee", g, BB + "var_mean_f7b8ee7f7654/oracle.py", "_add_and_layernorm_kernel",
             [A((2048, 2560), "bfloat16"), A((2560,), "bfloat16"), A((2560,), "bfloat16"),
              A((2048, 2560), "bfloat16"), K(2560), K(4096)], (2048, 1, 1)))
    add(Case("BG_relu_maxpool_9b95b7", g, BB + "pointwise_9b95b7531c94/oracle.py", "_relu_maxpool_kernel",
             [A((6422528,), "bfloat16"), A((1605632,), "bfloat16"), A((1605632,), "int8", "index:1"),
              A((1605632,), "bfloat16"), A((6422528,), "bool"), K(1605632), K(128)], (12544, 1, 1)))
    add(Case("BG_xlnet_train_softmax_dropout_b8745b", g, BB + "amax_amax_any_b8745b71b07d/oracle.py",
             "_xlnet_train_softmax_dropout_kernel",
             [A((131072, 512), "bfloat16"), A((134086656,), "bfloat16"), A((512,), "int64", "index:16"),
              A((131072, 512), "float32"), A((131072, 512), "bfloat16"), A((131072,), "float32"),
              A((131072,), "float32"), A((131072,), "bool"), A((131072,), "float32"), A((131072, 512), "bool"),
              A((131072, 512), "bfloat16"), K(512)], (131072, 1, 1)))
    add(Case("BG_materialize_add_partial_sum_66751d", g, BB + "sum_66751dee67d6/oracle.py",
             "_materialize_add_partial_sum_kernel",
             [A((401408, 80), "bfloat16"), A((401408, 80), "float32"), A((401408, 80), "float32"),
              A((401408, 80), "bfloat16"), A((6272, 80), "float32"), K(401408), K(80), K(64),
              K(32)], (6272, 3, 1)))
    add(Case("BG_final_channel_sum_66751d", g, BB + "sum_66751dee67d6/oracle.py", "_final_channel_sum_kernel",
             [A((6272, 80), "float32"), A((80,), "float32"), K(80), K(6272), K(8192), K(32)], (3, 1, 1)))
    add(Case("BG_relu_slice_add_mask_7344e3", g, BB + "pointwise_7344e3d613b2/oracle.py",
             "_relu_slice_add_mask_kernel",
             [A((5943296,), "bfloat16"), A((5943296,), "bfloat16"), A((5943296,), "bfloat16"),
              A((5943296,), "bool"), K(1024)], (5804, 1, 1)))
    add(Case("BG_gelu_dropout_1c19f2", g, BB + "pointwise_1c19f24becf5/oracle.py", "_gelu_dropout_kernel",
             [A((6291456,), "bfloat16"), A((6291456,), "float32"), A((6291456,), "bool"),
              A((6291456,), "bfloat16"), K(1024)], (6144, 1, 1)))
    add(Case("BG_softmax_dropout_013b78", g, BB + "amax_sum_any_013b789f83b8/oracle.py", "_softmax_dropout_kernel",
             [A((196608, 512), "bfloat16"), A((196608, 512), "bfloat16"), A((196608, 512), "float32"),
              A((196608, 512), "bfloat16"), A((196608, 512), "bool"), A((196608, 512), "bfloat16"),
              K(512)], (196608, 1, 1)))
    add(Case("BG_layernorm_dropout_ac2b7b", g, BB + "var_mean_ac2b7ba56267/oracle.py", "_layernorm_dropout_kernel",
             [A((8192, 768), "float32"), A((8192, 768), "float32"), A((768,), "float32"), A((768,), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192,), "float32"), K(768), K(1024)], (8192, 1, 1)))
    add(Case("BG_dropout_residual_layernorm_a82aa6", g, BB + "var_mean_a82aa6115201/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024),
              K(1)], (8192, 1, 1)))
    add(Case("BG_bn_relu_5f6d60", g, BB + "var_mean_mean_5f6d60b04d02/oracle.py", "_bn_relu_kernel",
             [A((512, 784), "bfloat16"), A((512,), "float32"), A((512,), "float32"), A((512, 784), "bfloat16"),
              A((512,), "float32"), A((512,), "float32"), A((512,), "float32"), A((512, 784), "bool"),
              A((512, 784), "bfloat16"), K(784), K(1024)], (512, 1, 1)))
    add(Case("BG_softmax_dropout_558e5d", g, BB + "amax_sum_558e5dcf3862/oracle.py", "_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "float32"), A((24576,), "float32"),
              A((24576,), "float32"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"),
              K(128)], (24576, 1, 1)))
    add(Case("BG_partial_reduce_fa3f32", g, BB + "sum_sum_fa3f320d4dca/oracle.py", "_partial_reduce_kernel",
             [A((100352, 56), "bfloat16"), A((100352, 56), "float32"), A((196, 56), "float32"),
              A((196, 56), "float32"), K(100352), K(56), K(512), K(8)], (7, 196, 1)))
    add(Case("BG_finalize_fa3f32", g, BB + "sum_sum_fa3f320d4dca/oracle.py", "_finalize_kernel",
             [A((196, 56), "float32"), A((196, 56), "float32"), A((56,), "float32"), A((56,), "float32"),
              A((56,), "float32"), A((56,), "float32"), A((56,), "float32"), A((56,), "float32"),
              A((56,), "float32"), K(196), K(256), K(8), K(9.964923469387754e-06), K(56)], (7, 1, 1)))
    add(Case("BG_epilogue_fa3f32", g, BB + "sum_sum_fa3f320d4dca/oracle.py", "_epilogue_kernel",
             [A((100352, 56), "bfloat16"), A((100352, 56), "float32"), A((56,), "float32"), A((56,), "float32"),
              A((56,), "float32"), A((100352, 56), "bfloat16"), K(512), K(8)], (7, 196, 1)))
    add(Case("BG_scaled_head_clone_5d4ed0", g, BB + "pointwise_5d4ed0a3898e/oracle.py", "_scaled_head_clone_kernel",
             [A((1500, 6, 64), "bfloat16"), A((6, 1500, 64), "bfloat16"), K(64)], (6, 1500, 1)))
    add(Case("BG_causal_mask_13_c9af56", g, BB + "pointwise_c9af56d69f6c/oracle.py", "_causal_mask_13_kernel",
             [A((1, 1, 1000, 1000), "bfloat16"), A((1, 1, 1000, 1000), "bfloat16"),
              A((1, 1, 1000, 1000), "bfloat16"), A((1, 1, 1000, 1000), "bfloat16"),
              A((1, 1, 1000, 1000), "bfloat16"), A((1, 1, 1000, 1000), "bfloat16"),
              A((1, 1, 1000, 1000), "bfloat16"), A((1, 1, 1000, 1000), "bfloat16"),
              A((1, 1, 1000, 1000), "bfloat16"), A((1, 1, 1000, 1000), "bfloat16"),
              A((1, 1, 1000, 1000), "bfloat16"), A((1, 1, 1000, 1000), "bfloat16"),
              A((1, 1, 1000, 1000), "bfloat16"), K(8), K(8)], (125, 125, 1)))
    add(Case("BG_bn_relu_mean_90c16d", g, BB + "mean_90c16d3077b1/oracle.py", "_bn_relu_mean_kernel",
             [A((120,), "bfloat16"), A((3840, 784), "bfloat16"), A((120,), "bfloat16"), A((120,), "bfloat16"),
              A((120,), "bfloat16"), A((3840, 784), "bfloat16"), A((3840,), "bfloat16"), K(784), K(1024), K(784.0),
              K(120)], (3840, 1, 1)))
    add(Case("BG_masked_where_sum_b089f1", g, BB + "sum_sum_b089f1ca0d13/oracle.py", "_masked_where_sum_kernel",
             [A((4096, 729), "bfloat16"), A((4096, 729), "bool"), A((1,), "bfloat16"), A((4096, 729), "bfloat16"),
              A((4096,), "float32"), K(729), K(1024)], (4096, 1, 1)))
    add(Case("BG_final_sum_over_n_b089f1", g, BB + "sum_sum_b089f1ca0d13/oracle.py", "_final_sum_over_n_kernel",
             [A((32, 128), "float32"), A((128,), "float32"), K(32), K(128), K(32), K(8)], (16, 1, 1)))
    add(Case("BG_residual_layernorm_80e7ff", g, BB + "var_mean_80e7ff4dee7f/oracle.py",
             "_residual_layernorm_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "bfloat16"), A((768,), "bfloat16"), A((768,), "bfloat16"),
              A((8192, 768), "bfloat16"), K(768), K(1024)], (8192, 1, 1)))
    add(Case("BG_gptneo_masked_softmax_row_60b6ba", g, BB + "amax_sum_60b6ba41c0bb/oracle.py",
             "_gptneo_masked_softmax_row_kernel",
             [A((65536, 128), "bfloat16"), A((65536, 128), "bool"), A((65536, 128), "float32"),
              A((65536,), "float32"), A((65536,), "float32"), A((65536, 128), "bfloat16"),
              K(-3.3895313892515355e+38), K(128)], (65536, 1, 1)))
    add(Case("BG_producer_partials_565b9b", g, BB + "sum_sum_sum_565b9b0299d1/oracle.py",
             "_producer_partials_kernel",
             [A((32768, 128), "bfloat16"), A((32768, 128), "bfloat16"), A((32768, 128), "bfloat16"),
              A((128,), "float32"), A((32768, 128), "bfloat16"), A((256, 128), "float32"),
              A((256, 128), "float32"), A((256, 128), "float32"), K(128), K(128)], (256, 1, 1)))
    add(Case("BG_finalize_partials_565b9b", g, BB + "sum_sum_sum_565b9b0299d1/oracle.py",
             "_finalize_partials_kernel",
             [A((256, 128), "float32"), A((256, 128), "float32"), A((256, 128), "float32"), A((128,), "float32"),
              A((128,), "float32"), A((128,), "float32"), K(128), K(256)], (1, 1, 1)))
    add(Case("BG_dropout_residual_ln_9b4501", g, BB + "var_mean_9b4501cc7b35/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((16384, 768), "bfloat16"), A((16384, 768), "float32"), A((16384, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((12582912,), "bool"), A((12582912,), "float32"),
              A((12582912,), "float32"), A((12582912,), "bfloat16"), A((16384,), "float32"), K(768),
              K(1024)], (16384, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-bg-launch"))]
