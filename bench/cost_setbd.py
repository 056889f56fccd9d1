"""Validation set BD: 32 launches of 23 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to BC were, from
the files none of them nor sets W and Y used, after set BC was drawn, while model version 90 was the
latest; version 90's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py BD BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 568 of sets W, Y and AG to BC,
`random.Random(59).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
One file was passed over, with a launch the cases cannot hold (amax_sum_6a531546a9ab). So the sizes,
tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-bd`) and as tilescope's launch builds it
(`validate-bd-launch`). tileiras crashes (SIGSEGV, after 80 s) on `_channel_reduce_kernel`'s
(1, 8388608) float32 tiles in both builds: those two launches have no cubin and no time.
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setbd_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-bd"
    add(Case("BD_fill_where_c3d0c3", g, BB + "pointwise_c3d0c3208b3d/oracle.py", "_fill_where_kernel",
             [A((1,), "bfloat16"), A((524288,), "bfloat16"), K(1024)], (512, 1, 1)))
    add(Case("BD_dropout_rmsnorm_8fc8b0", g, BB + "mean_8fc8b05567b8/oracle.py", "_dropout_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"),
              A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"),
              A((4096, 512), "bfloat16"), K(512), K(512)], (4096, 1, 1)))
    add(Case("BD_mobilevit_patch_layernorm_51bba8", g, BB + "var_mean_51bba8502cc5/oracle.py",
             "_mobilevit_patch_layernorm_kernel",
             [A((1966080,), "bfloat16"), A((240,), "bfloat16"), A((240,), "bfloat16"), A((1966080,), "bfloat16"),
              A((1966080,), "bfloat16"), K(8192), K(240), K(8), K(16), K(15360), K(1), K(1920), K(240), K(256),
              K(4)], (2048, 1, 1)))
    add(Case("BD_copy_bf16_238e96", g, BB + "pointwise_238e96847398/oracle.py", "_copy_bf16_kernel",
             [A((1082016,), "bfloat16"), A((1082016,), "bfloat16"), K(1082016), K(32)], (33813, 1, 1)))
    add(Case("BD_scaled_copy_reduce_e8fb8b", g, BB + "sum_e8fb8b021cdf/oracle.py", "_scaled_copy_reduce_kernel",
             [A((16384, 1024), "bfloat16"), A((16384, 1024), "bfloat16"), A((128, 1024), "float32"), K(16384),
              K(1024), K(128), K(32)], (128, 32, 1)))
    add(Case("BD_final_sum_e8fb8b", g, BB + "sum_e8fb8b021cdf/oracle.py", "_final_sum_kernel",
             [A((128, 1024), "float32"), A((1024,), "float32"), K(128), K(32)], (32, 1, 1)))
    add(Case("BD_masked_softmax_dropout_6afeef", g, BB + "amax_sum_6afeef4d689d/oracle.py",
             "_masked_softmax_dropout_kernel",
             [A((98304, 512), "bfloat16"), A((98304, 512), "float32"), A((98304,), "float32"),
              A((98304,), "float32"), A((98304, 512), "bool"), A((98304, 512), "bfloat16"), K(512),
              K(1.1111111111111112)], (98304, 1, 1)))
    add(Case("BD_xlnet_softmax_dropout_e74b32", g, BB + "amax_amax_any_e74b32b01a07/oracle.py",
             "_xlnet_softmax_dropout_kernel",
             [A((131072, 512), "bfloat16"), A((131072, 512), "bfloat16"), A((131072, 512), "float32"),
              A((131072, 512), "bfloat16"), A((131072,), "float32"), A((131072,), "float32"), A((131072,), "bool"),
              A((131072,), "float32"), A((131072, 512), "bool"), A((131072, 512), "bfloat16"),
              K(512)], (131072, 1, 1)))
    add(Case("BD_relu_layernorm_8ae98a", g, BB + "var_mean_8ae98a8e9539/oracle.py", "_relu_layernorm_kernel",
             [A((32768, 512), "bfloat16"), A((512,), "bfloat16"), A((512,), "bfloat16"),
              A((32768, 512), "bfloat16"), K(512), K(512)], (32768, 1, 1)))
    add(Case("BD_ln_bwd_140a28", g, BB + "sum_sum_sum_140a28e119af/oracle.py", "_ln_bwd_kernel",
             [A((8192, 1024), "float32"), A((1024,), "float32"), A((8192, 1024), "float32"), A((8192,), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              K(1024)], (8192, 1, 1)))
    add(Case("BD_col_sum_kernel_full_140a28", g, BB + "sum_sum_sum_140a28e119af/oracle.py", "_col_sum_kernel_full",
             [A((8192, 1024), "float32"), A((1024,), "float32"), K(8192)], (1024, 1, 1)))
    add(Case("BD_col_sum_kernel_seq_140a28", g, BB + "sum_sum_sum_140a28e119af/oracle.py", "_col_sum_kernel_seq",
             [A((16, 512, 1024), "float32"), A((512, 1024), "float32"), K(16)], (512, 1024, 1)))
    add(Case("BD_triple_residual_layernorm_bf16_eac408", g, BB + "var_mean_eac408f45b9d/oracle.py",
             "_triple_residual_layernorm_bf16_kernel",
             [A((128, 4096), "bfloat16"), A((128, 4096), "bfloat16"), A((128, 4096), "bfloat16"),
              A((4096,), "bfloat16"), A((4096,), "bfloat16"), A((128, 4096), "bfloat16"),
              A((128, 4096), "bfloat16"), K(4096), K(4096)], (128, 1, 1)))
    add(Case("BD_fill_zero_c9a027", g, BB + "sum_c9a027c44aa7/oracle.py", "_fill_zero_kernel",
             [A((1,), "bfloat16")], (1, 1, 1)))
    add(Case("BD_masked_store_sum_c9a027", g, BB + "sum_c9a027c44aa7/oracle.py", "_masked_store_sum_kernel",
             [A((64, 4096), "bool"), A((64, 4096), "bfloat16"), A((64, 4096), "bool"), A((64, 4096), "bfloat16"),
              A((4096,), "float32"), K(64), K(16)], (256, 1, 1)))
    add(Case("BD_shufflenet_bn_relu_shuffle_41944c", g, BB + "pointwise_41944c71d2d8/oracle.py",
             "_shufflenet_bn_relu_shuffle_kernel",
             [A((232,), "bfloat16"), A((64, 232, 49), "bfloat16"), A((232,), "bfloat16"), A((232,), "bfloat16"),
              A((232,), "bfloat16"), A((64, 232, 49), "bfloat16"), A((64, 232, 2, 64), "bfloat16"), K(232), K(49),
              K(64)], (64, 232, 1)))
    add(Case("BD_partial_reduce_7f5745", g, BB + "sum_sum_7f5745d75e84/oracle.py", "_partial_reduce_kernel",
             [A((25088, 160), "bfloat16"), A((25088, 80), "bfloat16"), A((25088, 80), "bfloat16"),
              A((80,), "float32"), A((25, 80), "float32"), A((25, 80), "float32"), K(25088), K(80), K(160),
              K(1024), K(16)], (5, 25, 1)))
    add(Case("BD_finalize_7f5745", g, BB + "sum_sum_7f5745d75e84/oracle.py", "_finalize_kernel",
             [A((25, 80), "float32"), A((25, 80), "float32"), A((80,), "float32"), A((80,), "float32"),
              A((80,), "float32"), A((80,), "float32"), A((80,), "float32"), A((80,), "float32"),
              A((80,), "float32"), K(80), K(25), K(32), K(16)], (5, 1, 1)))
    add(Case("BD_epilogue_7f5745", g, BB + "sum_sum_7f5745d75e84/oracle.py", "_epilogue_kernel",
             [A((4014080,), "bfloat16"), A((2007040,), "bfloat16"), A((2007040,), "bfloat16"), A((80,), "float32"),
              A((80,), "float32"), A((80,), "float32"), A((80,), "float32"), A((2007040,), "bfloat16"), K(80),
              K(160), K(512)], (3920, 1, 1)))
    add(Case("BD_relu_dropout_6381ec", g, BB + "pointwise_6381ec1f2e2a/oracle.py", "_relu_dropout_kernel",
             [A((8192, 2048), "bfloat16"), A((8192, 2048), "float32"), A((8192, 2048), "bool"),
              A((8192, 2048), "bfloat16"), A((8192, 2048), "bool"), K(8192), K(2048), K(8),
              K(1024)], (1024, 2, 1)))
    add(Case("BD_dropout_residual_ln_d8af25", g, BB + "var_mean_d8af25d872f0/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024),
              K(1.1111111111111112), K(1e-12)], (8192, 1, 1)))
    add(Case("BD_dropout_residual_layernorm_e4fd79", g, BB + "mean_var_e4fd793207ea/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((2048, 768), "bfloat16"), A((2048, 768), "float32"), A((2048, 768), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((2048, 1024), "bool"), A((2048, 1024), "float32"),
              A((2048,), "float32"), A((2048, 1024), "float32"), A((2048, 1024), "bfloat16"), K(768),
              K(1024)], (2048, 1, 1)))
    add(Case("BD_query_rmsnorm_rope_37961b", g, BB + "mean_mean_37961b6339c1/oracle.py",
             "_query_rmsnorm_rope_kernel",
             [A((16000, 128), "bfloat16"), A((128,), "bfloat16"), A((1000, 128), "bfloat16"),
              A((1000, 128), "bfloat16"), A((16000, 128), "bfloat16"), K(16)], (16000, 1, 1)))
    add(Case("BD_key_rmsnorm_rope_repeat_37961b", g, BB + "mean_mean_37961b6339c1/oracle.py",
             "_key_rmsnorm_rope_repeat_kernel",
             [A((8000, 128), "bfloat16"), A((128,), "bfloat16"), A((1000, 128), "bfloat16"),
              A((1000, 128), "bfloat16"), A((8000, 128), "bfloat16"), A((16, 1000, 128), "bfloat16"), K(8),
              K(2)], (8000, 1, 1)))
    add(Case("BD_token0_rows_093187", g, BB + "sum_sum_sum_0931873d4f42/oracle.py", "_token0_rows_kernel",
             [A((128, 192), "bfloat16"), A((192,), "float32"), A((25216, 192), "float32"), A((25216,), "float32"),
              A((128, 256), "float32"), A((128, 256), "bfloat16"), A((128, 256), "float32"),
              A((128, 256), "float32"), A((128, 256), "float32"), K(192), K(256)], (128, 1, 1)))
    add(Case("BD_finalize_channel_sums_093187", g, BB + "sum_sum_sum_0931873d4f42/oracle.py",
             "_finalize_channel_sums_kernel",
             [A((128, 256), "float32"), A((128, 256), "float32"), A((128, 256), "float32"), A((192,), "float32"),
              A((192,), "float32"), A((192,), "float32"), K(128), K(16)], (12, 1, 1)))
    add(Case("BD_softmax_any_dropout_cdb7e7", g, BB + "amax_sum_any_cdb7e77aafa5/oracle.py",
             "_softmax_any_dropout_kernel",
             [A((131072, 128), "bfloat16"), A((8192, 128), "bfloat16"), A((131072, 128), "float32"),
              A((131072, 128), "bfloat16"), A((131072, 128), "bool"), A((131072, 128), "bfloat16"), K(16), K(128),
              K(128), K(128)], (131072, 1, 1)))
    add(Case("BD_channel_reduce_262370", g, BB + "sum_sum_26237066094b/oracle.py", "_channel_reduce_kernel",
             [A((16, 6422528), "float32"), A((16, 6422528), "float32"), A((16,), "float32"), A((16,), "float32"),
              K(6422528), K(8388608)], (16, 1, 1)))
    add(Case("BD_where_producer_00d729", g, BB + "sum_sum_00d72974c5fe/oracle.py", "_where_producer_kernel",
             [A((14680064,), "bfloat16"), A((1,), "bfloat16"), A((14680064,), "bfloat16"),
              A((14680064,), "bfloat16"), K(1024)], (14336, 1, 1)))
    add(Case("BD_bn_backward_epilogue_00d729", g, BB + "sum_sum_00d72974c5fe/oracle.py",
             "_bn_backward_epilogue_kernel",
             [A((14680064,), "bfloat16"), A((14680064,), "float32"), A((14680064,), "float32"),
              A((14680064,), "float32"), A((14680064,), "float32"), A((14680064,), "bfloat16"),
              A((14680064,), "bfloat16"), K(1024)], (14336, 1, 1)))
    add(Case("BD_silu_spatial_mean_b2700c", g, BB + "mean_b2700cd0ebd1/oracle.py", "_silu_spatial_mean_kernel",
             [A((128, 81, 2304), "bfloat16"), A((128, 2304), "bfloat16"), K(81), K(128)], (128, 2304, 1)))
    add(Case("BD_xglm_softmax_dropout_bc3fbe", g, BB + "amax_sum_bc3fbecd2ce0/oracle.py",
             "_xglm_softmax_dropout_kernel",
             [A((512, 128, 128), "bfloat16"), A((32, 128, 128), "float32"), A((65536, 128), "float32"),
              A((65536,), "float32"), A((65536,), "float32"), A((65536, 128), "bool"), A((65536, 128), "bfloat16"),
              K(16), K(128), K(128)], (65536, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-bd-launch"))]
