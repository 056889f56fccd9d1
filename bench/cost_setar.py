"""Validation set AR: 32 launches of 23 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AQ were, from
the files none of them nor sets W and Y used, after set AQ was timed and model version 85 (few
blocks wait less for their loads) was made on it; version 85's predictions are committed before
the device run.

The draw (`python bench/cost_bbench_draw.py AR BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 293 of sets W, Y and AG to AQ,
`random.Random(47).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Three files were passed over, each with a launch the cases cannot hold (sum_sum_abf3db8fc03f,
sum_6d68a671ec4a, sum_sum_1f47655da3e5). So the sizes, tile sizes and grids are the files' own;
nothing is scaled. Files with several kernels give each distinct launch (a second launch of one
kernel at other sizes: the suffix `_2`). The files' host imports are stood in as set Y's are
(cost_sety.HOST_MODULES). Each kernel is built dynamically shaped (`validate-ar`) and as
tilescope's launch builds it (`validate-ar-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setar_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-ar"
    add(Case("AR_mt5_loss_backward_89a9de", g, BB + "sum_89a9de6a6901/oracle.py", "_mt5_loss_backward_kernel",
             [A((1,), "float32"), A((1,), "float32"), A((4096,), "int64", "index:100"),
              A((4096, 250112), "bfloat16"), A((4096,), "float32"), A((4096,), "float32"),
              A((4096, 250112), "bfloat16"), A((4096, 250112), "bfloat16"), K(250112), K(8),
              K(128)], (512, 1954, 1)))
    add(Case("AR_softmax_dropout_d21b31", g, BB + "amax_sum_d21b31cf06aa/oracle.py", "_softmax_dropout_kernel",
             [A((65536, 1024), "bfloat16"), A((65536, 1024), "float32"), A((65536,), "float32"),
              A((65536,), "float32"), A((65536, 1024), "bool"), A((65536, 1024), "bfloat16"),
              K(1024)], (65536, 1, 1)))
    add(Case("AR_residual_layernorm_alias_393456", g, BB + "var_mean_393456b916a6/oracle.py",
             "_residual_layernorm_alias_kernel",
             [A((4096, 4096), "bfloat16"), A((4096, 4096), "bfloat16"), A((4096,), "bfloat16"),
              A((4096,), "bfloat16"), A((4096, 4096), "bfloat16"), K(4096), K(4096), K(0)], (4096, 1, 1)))
    add(Case("AR_producer_partials_f4b82d", g, BB + "sum_sum_f4b82dbfbec5/oracle.py", "_producer_partials_kernel",
             [A((1605632, 96), "bfloat16"), A((1605632, 96), "bfloat16"), A((96,), "float32"), A((96,), "float32"),
              A((96,), "float32"), A((96,), "float32"), A((1568, 96), "float32"), A((1568, 96), "float32"),
              K(1024), K(16)], (1568, 6, 1)))
    add(Case("AR_finalize_f4b82d", g, BB + "sum_sum_f4b82dbfbec5/oracle.py", "_finalize_kernel",
             [A((1568, 96), "float32"), A((1568, 96), "float32"), A((96,), "float32"), A((96,), "float32"),
              A((96,), "float32"), A((96,), "float32"), K(1568), K(16)], (6, 1, 1)))
    add(Case("AR_bn_backward_epilogue_f4b82d", g, BB + "sum_sum_f4b82dbfbec5/oracle.py",
             "_bn_backward_epilogue_kernel",
             [A((1605632, 96), "bfloat16"), A((1605632, 96), "bfloat16"), A((96,), "float32"), A((96,), "float32"),
              A((96,), "float32"), A((96,), "float32"), A((96,), "float32"), A((96,), "float32"),
              A((1605632, 96), "bfloat16"), K(1024), K(16), K(6.228077168367346e-07)], (1568, 6, 1)))
    add(Case("AR_ln_dropout_4d561d", g, BB + "var_mean_4d561d6ce269/oracle.py", "_ln_dropout_kernel",
             [A((16384, 768), "float32"), A((768,), "float32"), A((768,), "float32"), A((16384, 768), "float32"),
              A((16384, 1024), "float32"), A((16384, 1024), "bool"), A((16384, 1024), "float32"),
              A((16384, 1024), "bfloat16"), A((16384,), "float32"), K(768), K(1024)], (16384, 1, 1)))
    add(Case("AR_ghostnet_bn_cat_residual_a99945", g, BB + "pointwise_a99945d92cdd/oracle.py",
             "_ghostnet_bn_cat_residual_kernel",
             [A((80,), "bfloat16"), A((2007040,), "bfloat16"), A((80,), "bfloat16"), A((80,), "bfloat16"),
              A((80,), "bfloat16"), A((2007040,), "bfloat16"), A((4014080,), "bfloat16"),
              A((4014080,), "bfloat16"), A((4014080,), "int32", "index:160"), A((4014080,), "int32", "index:80"),
              A((4014080,), "int32", "index:2007040"), A((4014080,), "uint8", "index:2"), K(256),
              K(80)], (15680, 1, 1)))
    add(Case("AR_row_e830fd", g, BB + "sum_sum_sum_e830fd414272/oracle.py", "_row_kernel",
             [A((4096, 128), "bfloat16"), A((128,), "float32"), A((4096, 128), "bfloat16"), A((4096,), "float32"),
              A((4096,), "float32"), A((4096, 128), "bfloat16"), A((128,), "float32"), A((128,), "float32"),
              A((128,), "float32"), K(128), K(128.0), K(0.0078125), K(0.7978845608028654),
              K(0.044715)], (4096, 1, 1)))
    add(Case("AR_producer_add1_3280ce", g, BB + "sum_sum_3280cef0c732/oracle.py", "_producer_add1_kernel",
             [A((344064,), "float32"), A((67436544,), "bfloat16"), A((344064,), "bfloat16"),
              A((67436544,), "bfloat16"), K(67436544), K(672), K(196), K(1024)], (65856, 1, 1)))
    add(Case("AR_partial_reduce_3280ce", g, BB + "sum_sum_3280cef0c732/oracle.py", "_partial_reduce_kernel",
             [A((100352, 336), "bfloat16"), A((100352, 336), "bfloat16"), A((1,), "bfloat16"),
              A((336,), "float32"), A((336,), "float32"), A((336,), "float32"), A((336,), "float32"),
              A((196, 336), "float32"), A((196, 336), "float32"), K(100352), K(336), K(512),
              K(16)], (196, 21, 1)))
    add(Case("AR_finalize_3280ce", g, BB + "sum_sum_3280cef0c732/oracle.py", "_finalize_kernel",
             [A((196, 336), "float32"), A((196, 336), "float32"), A((336,), "float32"), A((336,), "float32"),
              A((336,), "float32"), A((336,), "float32"), A((336,), "float32"), A((336,), "float32"),
              A((336,), "float32"), K(196), K(256), K(336), K(16), K(9.964923469387754e-06)], (21, 1, 1)))
    add(Case("AR_epilogue_3280ce", g, BB + "sum_sum_3280cef0c732/oracle.py", "_epilogue_kernel",
             [A((100352, 336), "bfloat16"), A((100352, 336), "bfloat16"), A((1,), "bfloat16"),
              A((336,), "float32"), A((336,), "float32"), A((336,), "float32"), A((336,), "float32"),
              A((336,), "float32"), A((336,), "float32"), A((336,), "float32"), A((100352, 336), "bfloat16"),
              K(16)], (100352, 21, 1)))
    add(Case("AR_dropout_residual_layernorm_9b89c8", g, BB + "var_mean_9b89c81024e8/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 1536), "bool"), A((4096, 1536), "float32"),
              A((4096, 1536), "float32"), A((4096, 1536), "bfloat16"), A((4096, 1), "float32"), K(1536), K(2048),
              K(1)], (4096, 1, 1)))
    add(Case("AR_causal_mask_ac21f5", g, BB + "amax_sum_ac21f557e1ce/oracle.py", "_causal_mask_kernel",
             [A((32, 1, 128, 128), "bfloat16"), K(128), K(128), K(-3.3895313892515355e+38), K(16),
              K(8)], (32, 8, 1)))
    add(Case("AR_softmax_ac21f5", g, BB + "amax_sum_ac21f557e1ce/oracle.py", "_softmax_kernel",
             [A((65536, 128), "bfloat16"), A((65536, 128), "bfloat16"), K(65536), K(128), K(128),
              K(-3.3895313892515355e+38), K(16), K(8)], (4096, 1, 1)))
    add(Case("AR_pool_where_86b039", g, BB + "sum_sum_86b0392acb3d/oracle.py", "_pool_where_kernel",
             [A((49152,), "bfloat16"), A((786432,), "bfloat16"), A((786432,), "bfloat16"), K(512), K(16), K(256),
              K(786432)], (3072, 1, 1)))
    add(Case("AR_reduce_86b039", g, BB + "sum_sum_86b0392acb3d/oracle.py", "_reduce_kernel",
             [A((786432,), "bfloat16"), A((786432,), "float32"), A((512,), "float32"), A((512,), "float32"),
              K(512), K(16), K(2048), K(1536)], (512, 1, 1)))
    add(Case("AR_epilogue_86b039", g, BB + "sum_sum_86b0392acb3d/oracle.py", "_epilogue_kernel",
             [A((786432,), "bfloat16"), A((786432,), "float32"), A((512,), "float32"), A((512,), "float32"),
              A((512,), "float32"), A((512,), "float32"), A((786432,), "bfloat16"), K(512), K(16), K(256),
              K(786432), K(0.0006510416666666666)], (3072, 1, 1)))
    add(Case("AR_swin_ln_row_e24ed1", g, BB + "var_mean_e24ed1c36a95/oracle.py", "_swin_ln_row_kernel",
             [A((401408, 128), "bfloat16"), A((401408, 128), "bfloat16"), A((128,), "bfloat16"),
              A((128,), "bfloat16"), A((401408, 128), "bfloat16"), A((401408, 128), "bfloat16"),
              K(128)], (401408, 1, 1)))
    add(Case("AR_masked_scaled_softmax_4506a8", g, BB + "amax_sum_4506a84dfa49/oracle.py",
             "_masked_scaled_softmax_kernel",
             [A((16, 1, 128, 128), "bool"), A((16, 12, 128, 128), "bfloat16"), A((16, 12, 128, 128), "bfloat16"),
              K(4), K(128)], (16, 128, 3)))
    add(Case("AR_dropout_residual_rmsnorm_5b2f38", g, BB + "mean_5b2f38aad09a/oracle.py",
             "_dropout_residual_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"),
              A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"),
              A((4096, 512), "bfloat16"), K(512), K(512)], (4096, 1, 1)))
    add(Case("AR_scaled_softmax_dropout_0ec44a", g, BB + "amax_amax_any_0ec44ac10279/oracle.py",
             "_scaled_softmax_dropout_kernel",
             [A((196608, 512), "bfloat16"), A((196608, 512), "float32"), A((196608,), "float32"),
              A((196608,), "float32"), A((196608,), "bool"), A((196608,), "float32"), A((196608, 512), "bool"),
              A((196608, 512), "bfloat16"), K(512), K(4), K(512)], (49152, 1, 1)))
    add(Case("AR_sum12_bf16_to_f32_b09bec", g, BB + "pointwise_b09beca3a7bd/oracle.py", "_sum12_bf16_to_f32_kernel",
             [A((16777216,), "bfloat16"), A((16777216,), "bfloat16"), A((16777216,), "bfloat16"),
              A((16777216,), "bfloat16"), A((16777216,), "bfloat16"), A((16777216,), "bfloat16"),
              A((16777216,), "bfloat16"), A((16777216,), "bfloat16"), A((16777216,), "bfloat16"),
              A((16777216,), "bfloat16"), A((16777216,), "bfloat16"), A((16777216,), "bfloat16"),
              A((16777216,), "float32"), K(1024)], (16384, 1, 1)))
    add(Case("AR_channel_sum_dot_59c5b1", g, BB + "sum_sum_sum_59c5b1609d60/oracle.py", "_channel_sum_dot_kernel",
             [A((32, 131072), "float32"), A((32, 131072), "float32"), A((32,), "float32"), A((32,), "float32"),
              K(131072), K(4096), K(32)], (32, 1, 1)))
    add(Case("AR_channel_sum_bf16_reduce_59c5b1", g, BB + "sum_sum_sum_59c5b1609d60/oracle.py",
             "_channel_sum_bf16_reduce_kernel",
             [A((32, 131072), "bfloat16"), A((32,), "float32"), K(131072), K(4096), K(32)], (32, 1, 1)))
    add(Case("AR_dropout_residual_ln_331f3c", g, BB + "var_mean_331f3c87e4d8/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((4096, 2048), "bfloat16"), A((4096, 2048), "float32"), A((4096, 2048), "float32"),
              A((2048,), "float32"), A((2048,), "float32"), A((4096, 2048), "bool"), A((4096, 2048), "float32"),
              A((4096, 2048), "float32"), A((4096, 2048), "bfloat16"), A((4096,), "float32"), K(1536), K(1536.0),
              K(2048)], (4096, 1, 1)))
    add(Case("AR_xlnet_softmax_dropout_99a4f1", g, BB + "amax_amax_any_99a4f19df20a/oracle.py",
             "_xlnet_softmax_dropout_kernel",
             [A((131072, 512), "bfloat16"), A((131072, 512), "float32"), A((131072,), "float32"),
              A((131072,), "float32"), A((131072,), "bool"), A((131072,), "float32"), A((131072, 512), "bool"),
              A((131072, 512), "bfloat16"), K(512)], (131072, 1, 1)))
    add(Case("AR_prefix_slice_bf16_to_f32_fa1cc9", g, BB + "pointwise_fa1cc97c6cfd/oracle.py",
             "_prefix_slice_bf16_to_f32_kernel",
             [A((51471360,), "bfloat16"), A((51471360,), "float32"), K(1024)], (50265, 1, 1)))
    add(Case("AR_dropout_residual_ln_49c745", g, BB + "var_mean_49c7455398cd/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((16384, 1024), "float32"), A((16384, 1024), "float32"), A((16384, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((16384, 1024), "bool"), A((16384, 1024), "float32"),
              A((16384, 1024), "float32"), A((16384,), "float32"), K(768), K(1024)], (16384, 1, 1)))
    add(Case("AR_bn_backward_epilogue_a58657", g, BB + "sum_sum_a58657212bf4/oracle.py",
             "_bn_backward_epilogue_kernel",
             [A((9633792,), "float32"), A((9633792,), "float32"), A((9633792,), "float32"),
              A((9633792,), "float32"), A((9633792,), "float32"), A((9633792,), "bfloat16"),
              K(1024)], (9408, 1, 1)))
    add(Case("AR_silu_795cdb", g, BB + "pointwise_795cdbe23b17/oracle.py", "_silu_kernel",
             [A((3981312,), "bfloat16"), A((3981312,), "bfloat16"), K(1024)], (3888, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-ar-launch"))]
