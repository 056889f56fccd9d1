"""Validation set BC: 32 launches of 26 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to BB were, from
the files none of them nor sets W and Y used, after set BB was timed, while model version 90 was
being made (the draw does not depend on the model); version 90's predictions are committed before
the device run.

The draw (`python bench/cost_bbench_draw.py BC BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 542 of sets W, Y and AG to BB,
`random.Random(58).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
One file was passed over, with a launch the cases cannot hold (sum_b50b2847e16a). So the sizes,
tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-bc`) and as tilescope's launch builds it
(`validate-bc-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setbc_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-bc"
    add(Case("BC_bn_residual_relu_81485f", g, BB + "pointwise_81485f33f5b9/oracle.py", "_bn_residual_relu_kernel",
             [A((256,), "bfloat16"), A((24576, 64), "bfloat16"), A((256,), "bfloat16"), A((256,), "bfloat16"),
              A((256,), "bfloat16"), A((24576, 64), "bfloat16"), A((24576, 64), "bfloat16"), K(64), K(16),
              K(256)], (24576, 4, 1)))
    add(Case("BC_dual_cast_99d2c4", g, BB + "pointwise_99d2c4cec20d/oracle.py", "_dual_cast_kernel",
             [A((19267584,), "bfloat16"), A((19267584,), "float32"), A((19267584,), "bfloat16"),
              K(1024)], (18816, 1, 1)))
    add(Case("BC_bf16_to_f32_8beb9f", g, BB + "pointwise_8beb9f5d4ff7/oracle.py", "_bf16_to_f32_kernel",
             [A((1048576,), "bfloat16"), A((1048576,), "float32"), K(1024)], (1024, 1, 1)))
    add(Case("BC_safe_softmax_dropout_c79390", g, BB + "amax_sum_any_c793902f63f2/oracle.py",
             "_safe_softmax_dropout_kernel",
             [A((393216, 128), "bfloat16"), A((393216, 128), "bfloat16"), A((393216, 128), "float32"),
              A((393216, 128), "bfloat16"), A((393216, 128), "bool"), A((393216, 128), "bfloat16"),
              K(128)], (393216, 1, 1)))
    add(Case("BC_zero_four_scalars_7ba7ef", g, BB + "pointwise_7ba7efb075cd/oracle.py", "_zero_four_scalars_kernel",
             [A((1,), "bfloat16"), A((1,), "bfloat16"), A((1,), "bfloat16"), A((1,), "bfloat16")], (1, 1, 1)))
    add(Case("BC_dropout_residual_layernorm_2da2cb", g, BB + "var_mean_2da2cb2a9aeb/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 2048), "bool"), A((4096, 2048), "float32"),
              A((4096, 2048), "float32"), A((4096, 2048), "bfloat16"), A((4096,), "float32"), K(1536),
              K(2048)], (4096, 1, 1)))
    add(Case("BC_store_row_partials_74daaa", g, BB + "sum_sum_sum_74daaa264688/oracle.py",
             "_store_row_partials_kernel",
             [A((128, 4096), "bfloat16"), A((128, 4096), "bfloat16"), A((128, 4096), "bfloat16"),
              A((128, 4096), "bfloat16"), A((4096,), "float32"), A((128, 4096), "bfloat16"),
              A((128, 4096), "float32"), A((128,), "float32"), A((128,), "float32"), A((128, 4096), "float32"),
              A((128, 4096), "float32"), A((128, 4096), "bfloat16"), A((128, 3, 4096), "float32"),
              K(4096)], (128, 1, 1)))
    add(Case("BC_finalize_partials_74daaa", g, BB + "sum_sum_sum_74daaa264688/oracle.py",
             "_finalize_partials_kernel",
             [A((128, 3, 4096), "float32"), A((4096,), "float32"), A((4096,), "float32"), A((4096,), "float32"),
              K(128), K(16)], (256, 1, 1)))
    add(Case("BC_partial_reduce_928eb1", g, BB + "sum_sum_928eb1560207/oracle.py", "_partial_reduce_kernel",
             [A((2809856,), "bfloat16"), A((1,), "bfloat16"), A((2809856,), "bfloat16"), A((2809856,), "bfloat16"),
              A((224,), "float32"), A((448,), "float32"), A((448,), "float32"), K(12544), K(3136), K(224), K(6272),
              K(8192)], (224, 2, 1)))
    add(Case("BC_finalize_928eb1", g, BB + "sum_sum_928eb1560207/oracle.py", "_finalize_kernel",
             [A((448,), "float32"), A((448,), "float32"), A((224,), "float32"), A((224,), "float32"),
              A((224,), "float32"), A((224,), "float32"), K(224), K(2), K(2)], (224, 1, 1)))
    add(Case("BC_epilogue_928eb1", g, BB + "sum_sum_928eb1560207/oracle.py", "_epilogue_kernel",
             [A((3211264,), "bfloat16"), A((2809856,), "bfloat16"), A((1,), "bfloat16"), A((2809856,), "bfloat16"),
              A((2809856,), "bfloat16"), A((224,), "float32"), A((224,), "float32"), A((224,), "float32"),
              A((224,), "float32"), A((224,), "float32"), A((2809856,), "bfloat16"), A((401408,), "bfloat16"),
              K(12544), K(3136), K(224), K(6272), K(7.971938775510203e-05), K(192), K(32), K(256),
              K(8192)], (224, 2, 1)))
    add(Case("BC_copy_partial_sum_785c25", g, BB + "sum_785c25a716ed/oracle.py", "_copy_partial_sum_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "bfloat16"), A((64, 1024), "float32"), K(8192), K(1024),
              K(128), K(64)], (64, 16, 1)))
    add(Case("BC_finish_sum_785c25", g, BB + "sum_785c25a716ed/oracle.py", "_finish_sum_kernel",
             [A((64, 1024), "float32"), A((1024,), "float32"), K(64), K(1024), K(64), K(64)], (16, 1, 1)))
    add(Case("BC_row_prefix_bf16_to_f32_kernel_pad_f7babc", g, BB + "pointwise_f7babc5c978c/oracle.py",
             "_row_prefix_bf16_to_f32_kernel_pad",
             [A((512, 197952), "bfloat16"), A((512, 200704), "float32"), K(4096)], (512, 49, 1)))
    add(Case("BC_affine_relu6_2e254a", g, BB + "var_mean_2e254a2827d8/oracle.py", "_affine_relu6_kernel",
             [A((6272, 960), "bfloat16"), A((960,), "float32"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((6021120,), "bfloat16"), K(960), K(1024)], (6272, 1, 1)))
    add(Case("BC_bf16_pass_c5cdd9", g, BB + "sum_sum_sum_c5cdd9ab78b4/oracle.py", "_bf16_pass_kernel",
             [A((524288,), "bfloat16"), A((524288,), "bfloat16"), K(1024)], (512, 1, 1)))
    add(Case("BC_visformer_recompute_softmax_bwd_5cb3d8", g, BB + "sum_5cb3d877d464/oracle.py",
             "_visformer_recompute_softmax_bwd_kernel",
             [A((29503488,), "bfloat16"), A((30720000,), "bfloat16"), A((150528,), "float32"),
              A((150528,), "float32"), A((150528,), "bool"), A((150528,), "float32"), A((29503488,), "bfloat16"),
              K(40000), K(200), K(1176), K(196), K(1), K(1176), K(196), K(1), K(1176), K(196), K(1), K(1176),
              K(196), K(1), K(6), K(196), K(256)], (150528, 1, 1)))
    add(Case("BC_dual_rmsnorm_final_7c0c7b", g, BB + "mean_mean_7c0c7b5ccbb8/oracle.py",
             "_dual_rmsnorm_final_kernel",
             [A((1000, 2304), "bfloat16"), A((2304,), "bfloat16"), A((1000, 2304), "bfloat16"),
              A((2304,), "bfloat16"), A((1000, 2304), "bfloat16"), K(2304), K(4096)], (1000, 1, 1)))
    add(Case("BC_visformer_safe_scaled_softmax_pad_f8e425", g, BB + "amax_amax_any_f8e425e72787/oracle.py",
             "_visformer_safe_scaled_softmax_pad_kernel",
             [A((768, 200, 200), "bfloat16"), A((150528,), "float32"), A((150528,), "float32"),
              A((150528,), "bool"), A((150528,), "float32"), A((29503488,), "bfloat16"),
              A((30720000,), "bfloat16"), K(256), K(196), K(0.125), K(200)], (768, 196, 1)))
    add(Case("BC_weight_std_7aed0e", g, BB + "var_mean_7aed0e0a804f/oracle.py", "_weight_std_kernel",
             [A((3072, 1536), "float32"), A((3072,), "float32"), A((3072,), "float32"),
              A((3072, 2048), "bfloat16"), A((3072,), "float32"), K(1536), K(2048)], (3072, 1, 1)))
    add(Case("BC_nfnet_gelu_scale_bf16_aa65d2", g, BB + "pointwise_aa65d2e7e324/oracle.py",
             "_nfnet_gelu_scale_bf16_kernel",
             [A((67108864,), "bfloat16"), A((67108864,), "bfloat16"), K(1024)], (65536, 1, 1)))
    add(Case("BC_dropout_residual_layernorm_4e1d87", g, BB + "var_mean_4e1d87b2095f/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"),
              K(1024)], (8192, 1, 1)))
    add(Case("BC_embedding_rmsnorm_029009", g, BB + "mean_0290099050c9/oracle.py", "_embedding_rmsnorm_kernel",
             [A((201088, 2880), "bfloat16"), A((1000,), "int64", "index:200855"), A((2880,), "bfloat16"),
              A((1000, 2880), "bfloat16"), A((1000, 2880), "bfloat16"), K(2880), K(4096)], (1000, 1, 1)))
    add(Case("BC_dropout_residual_layernorm_326013", g, BB + "var_mean_3260131881b0/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 1536), "bool"), A((4096, 1536), "float32"),
              A((4096, 1536), "float32"), A((4096, 1536), "bfloat16"), A((4096,), "float32"), K(1536), K(2048),
              K(1536.0)], (4096, 1, 1)))
    add(Case("BC_ln_f1e641", g, BB + "var_mean_f1e6419d4a7f/oracle.py", "_ln_kernel",
             [A((25088, 512), "bfloat16"), A((512,), "bfloat16"), A((512,), "bfloat16"),
              A((25088, 512), "bfloat16"), K(512), K(512)], (25088, 1, 1)))
    add(Case("BC_channel_reduce_epilogue_f9d747", g, BB + "sum_sum_f9d7470ca796/oracle.py",
             "_channel_reduce_epilogue_kernel",
             [A((128, 184), "bfloat16"), A((128, 184, 4, 4), "bfloat16"), A((184,), "float32"),
              A((184,), "float32"), A((184,), "float32"), A((184,), "float32"), A((), "bfloat16"),
              A((184,), "float32"), A((184,), "float32"), A((128, 184, 4, 4), "bfloat16"), K(128),
              K(16)], (184, 1, 1)))
    add(Case("BC_scalar_bf16_zero_f9d747", g, BB + "sum_sum_f9d7470ca796/oracle.py", "_scalar_bf16_zero_kernel",
             [A((1,), "bfloat16")], (1, 1, 1)))
    add(Case("BC_dense_bn_backward_d27740", g, BB + "sum_sum_d27740999897/oracle.py", "_dense_bn_backward_kernel",
             [A((1605632,), "bfloat16"), A((1,), "bfloat16"), A((1605632,), "bfloat16"), A((1605632,), "bfloat16"),
              A((512,), "float32"), A((512,), "float32"), A((512,), "float32"), A((512,), "float32"),
              A((512,), "float32"), A((1605632,), "bfloat16"), K(4096), K(3136), K(784), K(401408),
              K(0.00031887755102040814)], (512, 1, 1)))
    add(Case("BC_xent_rows_6aa38a", g, BB + "amax_sum_sum_6aa38ad4af60/oracle.py", "_xent_rows_kernel",
             [A((16384,), "int64", "index:31999"), A((16384, 32768), "float32"), A((16384,), "float32"),
              A((16384,), "float32"), A((16384,), "float32"), K(32000), K(32768)], (16384, 1, 1)))
    add(Case("BC_mean_reduce_6aa38a", g, BB + "amax_sum_sum_6aa38ad4af60/oracle.py", "_mean_reduce_kernel",
             [A((16384,), "float32"), A((16384,), "float32"), A((1,), "float32"), K(16384), K(16384)], (1, 1, 1)))
    add(Case("BC_residual_rmsnorm_bf16_f08c75", g, BB + "mean_f08c75b5f21f/oracle.py",
             "_residual_rmsnorm_bf16_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"), A((512,), "bfloat16"),
              A((4096, 512), "bfloat16"), K(512), K(512)], (4096, 1, 1)))
    add(Case("BC_se_sigmoid_mul_182f6f", g, BB + "pointwise_182f6f9450b9/oracle.py", "_se_sigmoid_mul_kernel",
             [A((128, 1152), "bfloat16"), A((128, 49, 1152), "bfloat16"), A((128, 49, 1152), "bfloat16"), K(1152),
              K(49), K(64), K(2048)], (128, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-bc-launch"))]
