"""Validation set AJ: 35 launches of 26 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG, AH and AI were,
from the files none of them nor sets W and Y used, after set AI was timed and while model version
78 (lone waves: data left in L2 by the launch before, a lone block's straight code) was being made
on AG's, AH's and AI's times; version 78's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py AJ BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 96 of sets W, Y, AG, AH and AI,
`random.Random(39).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none (the last file taken, with four launches, brings the count
to 35), each file's `oracle_forward` run once at its first shape point with tilescope's CPU device
layer and torch on the CPU, `ct.launch` recording each launch. One file was passed over: its oracle
raises NotImplementedError (pointwise_656833e29d89, a 30-kernel stencil the port left out). So the
sizes, tile sizes and grids are the files' own; nothing is scaled. Files with several kernels give
each distinct launch (a second launch of one kernel at other sizes: the suffix `_2`). The files'
host imports are stood in as set Y's are (cost_sety.HOST_MODULES). Each kernel is built dynamically
shaped (`validate-aj`) and as tilescope's launch builds it (`validate-aj-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setaj_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-aj"
    add(Case("AJ_swin_q_2db21a", g, BB + "pointwise_2db21af13668/oracle.py", "_swin_q_kernel",
             [A((4096, 64, 32), "bfloat16"), A((4096, 64, 32), "bfloat16"), K(49), K(56), K(32),
              K(0.1767766952966369), K(64)], (4096, 1, 1)))
    add(Case("AJ_swin_v_2db21a", g, BB + "pointwise_2db21af13668/oracle.py", "_swin_v_kernel",
             [A((4096, 64, 32), "bfloat16"), A((4096, 64, 32), "bfloat16"), K(49), K(56), K(32),
              K(64)], (4096, 1, 1)))
    add(Case("AJ_swin_k_2db21a", g, BB + "pointwise_2db21af13668/oracle.py", "_swin_k_kernel",
             [A((4096, 64, 32), "bfloat16"), A((4096, 32, 64), "bfloat16"), K(49), K(32), K(64)], (4096, 1, 1)))
    add(Case("AJ_bf16_cast_6ae114", g, BB + "pointwise_6ae114110db5/oracle.py", "_bf16_cast_kernel",
             [A((3, 320, 320), "float32"), A((3, 320, 320), "bfloat16"), K(64), K(64)], (3, 5, 5)))
    add(Case("AJ_materialize_partial_sum_407f03", g, BB + "sum_407f0323586d/oracle.py",
             "_materialize_partial_sum_kernel",
             [A((401408, 128), "bfloat16"), A((401408, 128), "bfloat16"), A((401408, 128), "bfloat16"),
              A((401408, 128), "bfloat16"), A((1568, 128), "float32"), K(128), K(256), K(32)], (1568, 4, 1)))
    add(Case("AJ_final_channel_sum_407f03", g, BB + "sum_407f0323586d/oracle.py", "_final_channel_sum_kernel",
             [A((1568, 128), "float32"), A((128,), "float32"), K(1568), K(128), K(32), K(2048)], (4, 1, 1)))
    add(Case("AJ_masked_softmax_dropout_29ef17", g, BB + "amax_sum_29ef178468e0/oracle.py",
             "_masked_softmax_dropout_kernel",
             [A((98304, 512), "bfloat16"), A((98304, 512), "bool"), A((1,), "bfloat16"),
              A((98304, 512), "float32"), A((98304, 512), "bfloat16"), A((98304,), "float32"),
              A((98304,), "float32"), A((98304, 512), "bool"), A((98304, 512), "bfloat16"),
              K(512)], (98304, 1, 1)))
    add(Case("AJ_cat_1bce79", g, BB + "pointwise_1bce79493ef1/oracle.py", "_cat_kernel",
             [A((3906816,), "bfloat16"), A((11720448,), "bfloat16"), A((15630336,), "bfloat16"), K(8), K(256),
              K(128), K(30522), K(30528)], (64, 120, 1)))
    add(Case("AJ_residual_affine_3af9b4", g, BB + "pointwise_3af9b4ebfd25/oracle.py", "_residual_affine_kernel",
             [A((32768, 512), "bfloat16"), A((32768, 512), "float32"), A((512,), "float32"), A((512,), "float32"),
              A((32768, 512), "float32"), A((32768, 512), "bfloat16"), K(512)], (32768, 1, 1)))
    add(Case("AJ_partial_hidden_sum_6ad4e4", g, BB + "sum_6ad4e4f2ca8d/oracle.py", "_partial_hidden_sum_kernel",
             [A((8192, 768), "bfloat16"), A((32, 768), "float32"), K(256), K(32)], (32, 24, 1)))
    add(Case("AJ_final_hidden_sum_6ad4e4", g, BB + "sum_6ad4e4f2ca8d/oracle.py", "_final_hidden_sum_kernel",
             [A((32, 768), "float32"), A((768,), "float32"), K(32), K(32)], (24, 1, 1)))
    add(Case("AJ_dropout_residual_layernorm_c73b66", g, BB + "var_mean_c73b66c15ee4/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192, 1), "float32"), K(1024), K(1024),
              K(1), K(1.1111111111111112), K(1e-12)], (8192, 1, 1)))
    add(Case("AJ_residual_add_951d09", g, BB + "sum_sum_sum_951d09ecbec1/oracle.py", "_residual_add_kernel",
             [A((18874368,), "float32"), A((18874368,), "bfloat16"), A((18874368,), "bfloat16"),
              K(1024)], (18432, 1, 1)))
    add(Case("AJ_xlnet_train_softmax_dropout_5b0603", g, BB + "amax_amax_any_5b0603c46fd7/oracle.py",
             "_xlnet_train_softmax_dropout_kernel",
             [A((131072, 512), "bfloat16"), A((134086656,), "bfloat16"), A((512,), "int64", "index:16"),
              A((131072, 512), "float32"), A((131072, 512), "bfloat16"), A((131072,), "float32"),
              A((131072,), "float32"), A((131072,), "bool"), A((131072,), "float32"), A((131072, 512), "bool"),
              A((131072, 512), "bfloat16"), K(512)], (131072, 1, 1)))
    add(Case("AJ_dropout_residual_ln_4d35a0", g, BB + "var_mean_4d35a0e593ab/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "float32"), A((8192, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((8192, 768), "bool"), A((8192, 768), "float32"),
              A((8192, 768), "float32"), A((8192, 768), "bfloat16"), A((8192,), "float32"), K(768),
              K(1024)], (8192, 1, 1)))
    add(Case("AJ_partial_stats_7a2ac1", g, BB + "var_mean_7a2ac1c4841d/oracle.py", "_partial_stats_kernel",
             [A((25088, 80), "bfloat16"), A((13, 80), "float32"), A((13, 80), "float32"), K(2048),
              K(16)], (13, 5, 1)))
    add(Case("AJ_bn_affine_7a2ac1", g, BB + "var_mean_7a2ac1c4841d/oracle.py", "_bn_affine_kernel",
             [A((2007040,), "bfloat16"), A((80,), "float32"), A((80,), "float32"), A((80,), "float32"),
              A((80,), "float32"), A((2007040,), "bfloat16"), K(80), K(2007040), K(1024)], (1960, 1, 1)))
    add(Case("AJ_residual_add_ee05f3", g, BB + "pointwise_ee05f315ed84/oracle.py", "_residual_add_kernel",
             [A((8388608,), "bfloat16"), A((8388608,), "float32"), A((8388608,), "bfloat16"),
              A((8388608,), "bfloat16"), A((8388608,), "float32"), K(1024)], (8192, 1, 1)))
    add(Case("AJ_dropout_residual_layernorm_a83b84", g, BB + "var_mean_a83b84b3c160/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "float32"), A((8192, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((8192, 768), "bool"), A((8192, 768), "float32"),
              A((8192, 768), "float32"), A((8192, 768), "bfloat16"), A((8192,), "float32"), K(768), K(1024),
              K(1.1111111111111112), K(1e-05)], (8192, 1, 1)))
    add(Case("AJ_longformer_chunk_07c6ea", g, BB + "pointwise_07c6ea330ab4/oracle.py", "_longformer_chunk_kernel",
             [A((6291456,), "bfloat16"), A((768,), "bfloat16"), A((18874368,), "bfloat16"), K(32)], (384, 24, 1)))
    add(Case("AJ_softmax_dropout_31d859", g, BB + "amax_sum_31d85970adb2/oracle.py", "_softmax_dropout_kernel",
             [A((98304, 1024), "bfloat16"), A((98304, 1), "bool"), A((1,), "float32"), A((98304, 1024), "float32"),
              A((98304, 1), "float32"), A((98304, 1), "float32"), A((98304, 1024), "bool"),
              A((98304, 1024), "bfloat16"), K(513), K(1024), K(0.1), K(1.1111111111111112)], (98304, 1, 1)))
    add(Case("AJ_qkv_permute_copy_a42e20", g, BB + "pointwise_a42e20fae37b/oracle.py", "_qkv_permute_copy",
             [A((128, 197, 3, 12, 64), "bfloat16"), A((128, 12, 197, 64), "bfloat16"),
              A((128, 12, 197, 64), "bfloat16"), A((128, 12, 197, 64), "bfloat16"), K(64)], (128, 197, 12)))
    add(Case("AJ_dropout_residual_ln_772632", g, BB + "var_mean_77263211d169/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 1536), "bool"), A((4096, 1536), "float32"),
              A((4096, 1536), "float32"), A((4096, 1536), "bfloat16"), A((4096,), "float32"), K(1536), K(2048),
              K(1536.0)], (4096, 1, 1)))
    add(Case("AJ_softmax_row_bf7830", g, BB + "amax_sum_bf7830302e6d/oracle.py", "_softmax_row_kernel",
             [A((98304, 513), "float32"), A((98304,), "bool"), A((98304, 513), "bfloat16"), A((98304,), "float32"),
              A((98304,), "float32"), K(513), K(1024)], (98304, 1, 1)))
    add(Case("AJ_nfnet_gate_silu_fb4ca2", g, BB + "pointwise_fb4ca2518d23/oracle.py", "_nfnet_gate_silu_kernel",
             [A((128, 1536), "bfloat16"), A((128, 81, 1536), "bfloat16"), A((128, 81, 1536), "bfloat16"),
              A((128, 81, 1536), "bfloat16"), A((128, 81, 1536), "bfloat16"), K(1536), K(0.9622504486493761),
              K(128)], (128, 81, 12)))
    add(Case("AJ_scaled_softmax_dropout_80cdfb", g, BB + "amax_amax_any_80cdfb3610b6/oracle.py",
             "_scaled_softmax_dropout_kernel",
             [A((196608, 512), "bfloat16"), A((196608, 512), "float32"), A((196608,), "float32"),
              A((196608,), "float32"), A((196608,), "bool"), A((196608,), "float32"), A((196608, 512), "bool"),
              A((196608, 512), "bfloat16"), K(4), K(512)], (49152, 1, 1)))
    add(Case("AJ_last_token_xent_ee1163", g, BB + "argmax_amax_sum_ee1163128221/oracle.py",
             "_last_token_xent_kernel",
             [A((32,), "int64", "index:2"), A((4096, 2), "bfloat16"), A((32, 128), "int64", "index:100"),
              A((32, 2), "bfloat16"), A((1,), "bfloat16"), K(32), K(128), K(32), K(128)], (1, 1, 1)))
    add(Case("AJ_scalar_zero_d6239b", g, BB + "sum_d6239b8319dc/oracle.py", "_scalar_zero_kernel",
             [A((1,), "bfloat16")], (1, 1, 1)))
    add(Case("AJ_masked_where_channel_sum_d6239b", g, BB + "sum_d6239b8319dc/oracle.py",
             "_masked_where_channel_sum_kernel",
             [A((128, 768), "bfloat16"), A((128, 768), "bfloat16"), A((128, 768), "bfloat16"),
              A((768,), "float32"), K(128), K(768), K(128), K(8)], (96, 1, 1)))
    add(Case("AJ_gelu_dropout_apply_e3d8c9", g, BB + "pointwise_e3d8c9fbcd68/oracle.py",
             "_gelu_dropout_apply_kernel",
             [A((33554432,), "bfloat16"), A((33554432,), "float32"), A((33554432,), "bool"),
              A((33554432,), "bfloat16"), K(1024)], (32768, 1, 1)))
    add(Case("AJ_channel_sum_ccfc54", g, BB + "sum_ccfc54d6b3cf/oracle.py", "_channel_sum_kernel",
             [A((128, 256, 169), "bfloat16"), A((256,), "float32"), K(128), K(169), K(32), K(256)], (256, 1, 1)))
    add(Case("AJ_partial_stats_414c9e", g, BB + "var_mean_var_mean_414c9e6634ca/oracle.py", "_partial_stats_kernel",
             [A((256, 12544), "bfloat16"), A((4, 64), "float32"), A((4, 64), "float32"), K(64), K(12544), K(1024),
              K(13)], (4, 64, 1)))
    add(Case("AJ_finalize_affine_relu_414c9e", g, BB + "var_mean_var_mean_414c9e6634ca/oracle.py",
             "_finalize_affine_relu_kernel",
             [A((256, 12544), "bfloat16"), A((4, 64), "float32"), A((4, 64), "float32"), A((64,), "float32"),
              A((64,), "float32"), A((64,), "float32"), A((64,), "float32"), A((256, 12544), "bfloat16"),
              A((64,), "float32"), A((64,), "float32"), K(64), K(12544), K(1024), K(13), K(4), K(4), K(50176),
              K(1.0000199302441455)], (4, 64, 1)))
    add(Case("AJ_partial_stats_414c9e_2", g, BB + "var_mean_var_mean_414c9e6634ca/oracle.py",
             "_partial_stats_kernel",
             [A((256, 3136), "bfloat16"), A((4, 64), "float32"), A((4, 64), "float32"), K(64), K(3136), K(1024),
              K(4)], (4, 64, 1)))
    add(Case("AJ_finalize_affine_relu_414c9e_2", g, BB + "var_mean_var_mean_414c9e6634ca/oracle.py",
             "_finalize_affine_relu_kernel",
             [A((256, 3136), "bfloat16"), A((4, 64), "float32"), A((4, 64), "float32"), A((64,), "float32"),
              A((64,), "float32"), A((64,), "float32"), A((64,), "float32"), A((256, 3136), "bfloat16"),
              A((64,), "float32"), A((64,), "float32"), K(64), K(3136), K(1024), K(4), K(4), K(4), K(12544),
              K(1.0000797257434426)], (4, 64, 1)))

    return [c for case in out for c in (case, case.launched("validate-aj-launch"))]
