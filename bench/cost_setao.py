"""Validation set AO: 32 launches of 25 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AN were, from
the files none of them nor sets W and Y used, after set AN was timed and while model version 83
(an access's instruction width is its kind's where each lane takes a row of its own) was being
made on AM's times; version 83's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py AO BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 221 of sets W, Y and AG to AN,
`random.Random(44).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Three files were passed over, each with a launch the cases cannot hold (sum_sum_sum_f2eb6784cabb,
sum_sum_sum_789f08ef70ab, var_mean_e184692a514a). So the sizes, tile sizes and grids are the
files' own; nothing is scaled. Files with several kernels give each distinct launch (a second
launch of one kernel at other sizes: the suffix `_2`). The files' host imports are stood in as set
Y's are (cost_sety.HOST_MODULES). Each kernel is built dynamically shaped (`validate-ao`) and as
tilescope's launch builds it (`validate-ao-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setao_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-ao"
    add(Case("AO_bn_backward_partial_1e07e3", g, BB + "sum_sum_1e07e3ba8c68/oracle.py",
             "_bn_backward_partial_kernel",
             [A((25088, 512), "bfloat16"), A((25088, 512), "bfloat16"), A((25088, 512), "bfloat16"),
              A((1,), "bfloat16"), A((25088, 512), "bfloat16"), A((512,), "float32"), A((392, 512), "float32"),
              A((392, 512), "float32"), K(64), K(512)], (392, 1, 1)))
    add(Case("AO_finalize_reduce_1e07e3", g, BB + "sum_sum_1e07e3ba8c68/oracle.py", "_finalize_reduce_kernel",
             [A((392, 512), "float32"), A((392, 512), "float32"), A((512,), "float32"), A((512,), "float32"),
              A((512,), "float32"), A((512,), "float32"), A((512,), "float32"), A((512,), "float32"),
              A((512,), "float32"), A((512,), "float32"), K(512), K(512), K(3.985969387755102e-05)], (1, 1, 1)))
    add(Case("AO_bn_backward_epilogue_1e07e3", g, BB + "sum_sum_1e07e3ba8c68/oracle.py",
             "_bn_backward_epilogue_kernel",
             [A((25088, 512), "bfloat16"), A((25088, 512), "bfloat16"), A((25088, 512), "bfloat16"),
              A((1,), "bfloat16"), A((25088, 512), "bfloat16"), A((512,), "float32"), A((512,), "float32"),
              A((512,), "float32"), A((512,), "float32"), A((25088, 512), "bfloat16"), K(64),
              K(512)], (392, 1, 1)))
    add(Case("AO_row_store_and_partial_reduce_8a3378", g, BB + "sum_sum_sum_8a3378108574/oracle.py",
             "_row_store_and_partial_reduce_kernel",
             [A((4096, 2048), "bfloat16"), A((4096, 2048), "bfloat16"), A((4096, 2048), "bfloat16"),
              A((2048,), "float32"), A((4096, 2048), "float32"), A((4096,), "float32"), A((4096, 2048), "float32"),
              A((4096, 2048), "float32"), A((4096, 2048), "bfloat16"), A((1024, 2048), "float32"),
              A((1024, 2048), "float32"), A((1024, 2048), "float32"), K(4096), K(2048), K(4),
              K(2048)], (1024, 1, 1)))
    add(Case("AO_finalize_column_partials_8a3378", g, BB + "sum_sum_sum_8a3378108574/oracle.py",
             "_finalize_column_partials_kernel",
             [A((1024, 2048), "float32"), A((1024, 2048), "float32"), A((1024, 2048), "float32"),
              A((2048,), "float32"), A((2048,), "float32"), A((2048,), "float32"), K(1024), K(2048),
              K(16)], (128, 1, 1)))
    add(Case("AO_bn_stats_ec9057", g, BB + "var_mean_ec9057741b2d/oracle.py", "_bn_stats_kernel",
             [A((128, 38240), "bfloat16"), A((128,), "float32"), A((128,), "float32"), A((128,), "float32"),
              A((128,), "float32"), K(128), K(38240), K(2.615062761506276e-05), K(2.6151311488271138e-05),
              K(1.0000261513114883), K(65536)], (128, 1, 1)))
    add(Case("AO_residual_rmsnorm_bf16_8818e3", g, BB + "mean_8818e35b12aa/oracle.py",
             "_residual_rmsnorm_bf16_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"), A((512,), "bfloat16"),
              A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"), K(512), K(512)], (4096, 1, 1)))
    add(Case("AO_mobilebert_embedding_affine_18acdd", g, BB + "pointwise_18acdd25ec9e/oracle.py",
             "_mobilebert_embedding_affine_kernel",
             [A((32768, 512), "bfloat16"), A((128,), "int64", "index:507"), A((512, 512), "bfloat16"),
              A((512,), "bfloat16"), A((512,), "bfloat16"), A((512,), "bfloat16"), A((32768, 512), "bfloat16"),
              K(128), K(512), K(512)], (32768, 1, 1)))
    add(Case("AO_where_partial_9fe210", g, BB + "sum_9fe21001f3f9/oracle.py", "_where_partial_kernel",
             [A((4, 64, 95696), "bfloat16"), A((1,), "bfloat16"), A((4, 64, 95696), "bfloat16"),
              A((4, 64, 95696), "bfloat16"), A((4, 64, 94), "float32"), K(95696), K(1024), K(94)], (4, 64, 94)))
    add(Case("AO_finalize_9fe210", g, BB + "sum_9fe21001f3f9/oracle.py", "_finalize_kernel",
             [A((4, 64, 94), "float32"), A((64,), "float32"), K(4), K(94), K(4), K(128)], (64, 1, 1)))
    add(Case("AO_residual_column_affine_5c3762", g, BB + "pointwise_5c3762c611b3/oracle.py",
             "_residual_column_affine_kernel",
             [A((32768, 128), "bfloat16"), A((32768, 128), "bfloat16"), A((128,), "bfloat16"),
              A((128,), "bfloat16"), A((128,), "bfloat16"), A((128,), "bfloat16"), A((32768, 128), "bfloat16"),
              K(16), K(128)], (2048, 1, 1)))
    add(Case("AO_xlnet_layout_bbf412", g, BB + "pointwise_bbf412ad3164/oracle.py", "_xlnet_layout_kernel",
             [A((16, 16, 512, 64), "bfloat16"), A((512, 16, 64, 16), "bfloat16"), K(64)], (16, 16, 512)))
    add(Case("AO_masked_softmax_dropout_65bf00", g, BB + "amax_sum_65bf008f632d/oracle.py",
             "_masked_softmax_dropout_kernel",
             [A((98304, 512), "bfloat16"), A((8, 512, 512), "bool"), A((1,), "bfloat16"),
              A((98304, 512), "float32"), A((98304, 512), "bfloat16"), A((98304,), "float32"),
              A((98304,), "float32"), A((98304, 512), "bool"), A((98304, 512), "bfloat16"), K(24), K(512),
              K(512)], (98304, 1, 1)))
    add(Case("AO_mt5_gelu_gate_dropout_5ae411", g, BB + "pointwise_5ae4111f8443/oracle.py",
             "_mt5_gelu_gate_dropout_kernel",
             [A((4194304,), "bfloat16"), A((4194304,), "bfloat16"), A((4194304,), "float32"),
              A((4194304,), "bool"), A((4194304,), "bfloat16"), K(1024)], (4096, 1, 1)))
    add(Case("AO_swin_shifted_window_layernorm_265507", g, BB + "var_mean_265507cb5c7e/oracle.py",
             "_swin_shifted_window_layernorm_kernel",
             [A((100352, 256), "bfloat16"), A((100352, 256), "bfloat16"), A((256,), "bfloat16"),
              A((256,), "bfloat16"), A((100352, 256), "bfloat16"), A((100352, 256), "bfloat16"), K(100352), K(28),
              K(28), K(256), K(7), K(3), K(256), K(8)], (12544, 1, 1)))
    add(Case("AO_scaled_softmax_dropout_98dd9c", g, BB + "amax_amax_any_98dd9cb433ce/oracle.py",
             "_scaled_softmax_dropout_kernel",
             [A((196608, 512), "bfloat16"), A((196608, 512), "float32"), A((196608,), "float32"),
              A((196608,), "float32"), A((196608,), "bool"), A((196608,), "float32"), A((196608, 512), "bool"),
              A((196608, 512), "bfloat16"), K(4), K(512)], (49152, 1, 1)))
    add(Case("AO_bn_relu6_spatial_mean_083e5d", g, BB + "mean_083e5d528a28/oracle.py",
             "_bn_relu6_spatial_mean_kernel",
             [A((1280,), "bfloat16"), A((8028160,), "bfloat16"), A((1280,), "bfloat16"), A((1280,), "bfloat16"),
              A((1280,), "bfloat16"), A((163840,), "bfloat16"), K(62720), K(1), K(8960), K(1280), K(1280), K(7),
              K(49), K(163840), K(32), K(64)], (5120, 1, 1)))
    add(Case("AO_mt5_gelu_gate_dropout_0057ba", g, BB + "pointwise_0057bacdbd86/oracle.py",
             "_mt5_gelu_gate_dropout_kernel",
             [A((4194304,), "bfloat16"), A((4194304,), "bfloat16"), A((4194304,), "float32"),
              A((4194304,), "bool"), A((4194304,), "bfloat16"), K(0.1), K(1.1111111111111112),
              K(1024)], (4096, 1, 1)))
    add(Case("AO_dropout_residual_ln_dc4abd", g, BB + "var_mean_dc4abd356145/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("AO_row_scatter_cbb8d3", g, BB + "pointwise_cbb8d3f0ed92/oracle.py", "_row_scatter_kernel",
             [A((128,), "int64", "index:99"), A((128, 2560), "float32"), A((128, 2560), "float32"), K(128),
              K(2560), K(256)], (128, 10, 1)))
    add(Case("AO_residual_layernorm_training_e2ecdb", g, BB + "var_mean_e2ecdbc22ad9/oracle.py",
             "_residual_layernorm_training_kernel",
             [A((25216, 192), "bfloat16"), A((25216, 192), "float32"), A((192,), "float32"), A((192,), "float32"),
              A((25216, 192), "float32"), A((25216, 192), "float32"), A((25216, 192), "bfloat16"),
              A((25216,), "float32"), K(192), K(256), K(0.005208333333333333)], (25216, 1, 1)))
    add(Case("AO_dropout_residual_layernorm_890c67", g, BB + "var_mean_890c673522ec/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 2048), "bool"), A((4096, 2048), "float32"),
              A((4096, 2048), "float32"), A((4096, 2048), "bfloat16"), A((4096,), "float32"), K(1536),
              K(2048)], (4096, 1, 1)))
    add(Case("AO_softmax_backward_row_983bc7", g, BB + "sum_983bc7365627/oracle.py", "_softmax_backward_row_kernel",
             [A((196608, 512), "bfloat16"), A((196608, 512), "bool"), A((196608, 512), "bfloat16"),
              A((196608,), "float32"), A((196608,), "float32"), A((196608,), "bool"), A((196608,), "float32"),
              A((196608, 512), "bfloat16"), K(512), K(4), K(512)], (49152, 1, 1)))
    add(Case("AO_dropout_residual_ln_43612b", g, BB + "var_mean_43612b52e7fc/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024),
              K(1.1111111111111112), K(1e-12)], (8192, 1, 1)))
    add(Case("AO_materialize_15a53c", g, BB + "sum_sum_15a53cd163aa/oracle.py", "_materialize_kernel",
             [A((1,), "float32"), A((1,), "float32"), A((4096,), "int64", "index:100"),
              A((4096, 30000), "bfloat16"), A((4096,), "float32"), A((4096,), "float32"),
              A((4096, 30000), "bfloat16"), A((4096, 30000), "bfloat16"), K(30000), K(512)], (4096, 59, 1)))
    add(Case("AO_partial_sum_15a53c", g, BB + "sum_sum_15a53cd163aa/oracle.py", "_partial_sum_kernel",
             [A((4096, 30000), "bfloat16"), A((32, 30000), "float32"), K(30000), K(128), K(64)], (32, 469, 1)))
    add(Case("AO_final_sum_15a53c", g, BB + "sum_sum_15a53cd163aa/oracle.py", "_final_sum_kernel",
             [A((32, 30000), "float32"), A((30000,), "float32"), K(30000), K(32), K(32), K(64)], (469, 1, 1)))
    add(Case("AO_dropout_residual_ln_c3d36c", g, BB + "var_mean_c3d36ccf2d97/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "float32"), A((8192, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((8192, 768), "bool"), A((8192, 768), "float32"),
              A((8192, 768), "float32"), A((8192, 768), "bfloat16"), A((8192,), "float32"), K(768),
              K(1024)], (8192, 1, 1)))
    add(Case("AO_embedding_gather_edf2e0", g, BB + "pointwise_edf2e0dc44ea/oracle.py", "_embedding_gather_kernel",
             [A((128, 2560), "float32"), A((128,), "int64", "index:128"), A((128, 2560), "float32"), K(2560), K(1),
              K(1024)], (128, 3, 1)))
    add(Case("AO_materialize_partial_4a4493", g, BB + "sum_4a4493837e6e/oracle.py", "_materialize_partial_kernel",
             [A((1605632, 16), "bfloat16"), A((1605632, 16), "bfloat16"), A((1605632, 16), "bfloat16"),
              A((25088, 16), "float32"), A((16,), "float32"), K(1605632), K(16), K(64), K(16),
              K(False)], (25088, 1, 1)))
    add(Case("AO_final_sum_4a4493", g, BB + "sum_4a4493837e6e/oracle.py", "_final_sum_kernel",
             [A((25088, 16), "float32"), A((16,), "float32"), K(16), K(25088), K(32768), K(4)], (4, 1, 1)))
    add(Case("AO_softmax_dropout_e518e0", g, BB + "amax_sum_e518e0151afa/oracle.py", "_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "float32"), A((24576,), "float32"),
              A((24576,), "float32"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"),
              K(128)], (24576, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-ao-launch"))]
