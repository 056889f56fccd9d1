"""Validation set AV: 32 launches of 24 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AU were, from
the files none of them nor sets W and Y used, after set AU was timed, while model version 87 was the
latest; version 87's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py AV BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 388 of sets W, Y and AG to AU,
`random.Random(51).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Two files were passed over, each with a launch the cases cannot hold (sum_sum_1f47655da3e5,
pointwise_c0f1f15a4e49). So the sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-av`) and as tilescope's launch builds it
(`validate-av-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setav_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-av"
    add(Case("AV_selu_dropout_ac8d8e", g, BB + "pointwise_ac8d8e1c9b73/oracle.py", "_selu_dropout_kernel",
             [A((262144,), "bfloat16"), A((262144,), "float32"), A((262144,), "bool"), A((262144,), "bfloat16"),
              K(1024)], (256, 1, 1)))
    add(Case("AV_bias_dropout_layernorm_1fc57d", g, BB + "var_mean_1fc57d20f910/oracle.py",
             "_bias_dropout_layernorm_kernel",
             [A((768,), "float32"), A((8192, 768), "bfloat16"), A((8192, 768), "float32"),
              A((8192, 768), "float32"), A((768,), "float32"), A((768,), "float32"), A((6291456,), "bool"),
              A((6291456,), "float32"), A((6291456,), "float32"), A((6291456,), "bfloat16"), A((8192,), "float32"),
              K(768), K(1024), K(1)], (8192, 1, 1)))
    add(Case("AV_dropout_residual_layernorm_75fe86", g, BB + "var_mean_75fe8662cbb9/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((16384, 768), "bfloat16"), A((16384, 768), "float32"), A((16384, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((16384, 1024), "bool"), A((16384, 1024), "float32"),
              A((16384, 1024), "float32"), A((16384, 1024), "bfloat16"), A((16384,), "float32"), K(768),
              K(1024)], (16384, 1, 1)))
    add(Case("AV_gelu_dropout_294953", g, BB + "pointwise_294953bc01c4/oracle.py", "_gelu_dropout_kernel",
             [A((33554432,), "bfloat16"), A((33554432,), "float32"), A((33554432,), "bool"),
              A((33554432,), "bfloat16"), K(1024)], (32768, 1, 1)))
    add(Case("AV_gelu_dropout_apply_af9d8a", g, BB + "pointwise_af9d8a0400c0/oracle.py",
             "_gelu_dropout_apply_kernel",
             [A((6291456,), "bfloat16"), A((6291456,), "float32"), A((6291456,), "bool"),
              A((6291456,), "bfloat16"), K(1024)], (6144, 1, 1)))
    add(Case("AV_shufflenet_dual_bn_relu_99e028", g, BB + "pointwise_99e028e77568/oracle.py",
             "_shufflenet_dual_bn_relu_kernel",
             [A((232,), "bfloat16"), A((64, 232, 49), "bfloat16"), A((232,), "bfloat16"), A((232,), "bfloat16"),
              A((232,), "bfloat16"), A((232,), "bfloat16"), A((64, 232, 49), "bfloat16"), A((232,), "bfloat16"),
              A((232,), "bfloat16"), A((232,), "bfloat16"), A((64, 232, 2, 64), "bfloat16"), K(232), K(49),
              K(64)], (64, 232, 1)))
    add(Case("AV_embedding_shifted_gather_bd36ae", g, BB + "pointwise_bd36aeaf70c1/oracle.py",
             "_embedding_shifted_gather_kernel",
             [A((8192,), "int64", "index:2048"), A((2050, 768), "float32"),
              A((8192,), "int64", "index:139739027315057"), A((8192, 768), "float32"), K(1),
              K(256)], (8192, 3, 1)))
    add(Case("AV_layout_copy_9b966e", g, BB + "sum_sum_9b966ec53e70/oracle.py", "_layout_copy_kernel",
             [A((512, 49, 160), "bfloat16"), A((512, 160, 49), "bfloat16"), A((512, 49, 160), "bfloat16"), K(512),
              K(160), K(49), K(16), K(64)], (512, 10, 1)))
    add(Case("AV_partial_reduce_9b966e", g, BB + "sum_sum_9b966ec53e70/oracle.py", "_partial_reduce_kernel",
             [A((25088, 160), "bfloat16"), A((25088, 80), "bfloat16"), A((80,), "float32"),
              A((784, 80), "float32"), A((784, 80), "float32"), K(160), K(80), K(80), K(25088), K(32),
              K(16)], (5, 784, 1)))
    add(Case("AV_finalize_9b966e", g, BB + "sum_sum_9b966ec53e70/oracle.py", "_finalize_kernel",
             [A((784, 80), "float32"), A((784, 80), "float32"), A((80,), "float32"), A((80,), "float32"),
              A((80,), "float32"), A((80,), "float32"), A((3, 80), "float32"), K(80), K(784), K(1024), K(16),
              K(3.985969387755102e-05)], (5, 1, 1)))
    add(Case("AV_epilogue_9b966e", g, BB + "sum_sum_9b966ec53e70/oracle.py", "_epilogue_kernel",
             [A((25088, 160), "bfloat16"), A((25088, 80), "bfloat16"), A((80,), "float32"), A((3, 80), "float32"),
              A((25088, 80), "bfloat16"), K(160), K(80), K(80), K(25088), K(32), K(16)], (784, 5, 1)))
    add(Case("AV_dropout_residual_layernorm_6ad2dc", g, BB + "var_mean_6ad2dcf096da/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("AV_colsum_bf16_rounded_8adea0", g, BB + "sum_sum_sum_8adea0bd8df9/oracle.py",
             "_colsum_bf16_rounded_kernel",
             [A((4096, 16384), "bfloat16"), A((8, 16384), "float32"), K(4096), K(16384), K(512),
              K(64)], (256, 8, 1)))
    add(Case("AV_chunk_reduce_8adea0", g, BB + "sum_sum_sum_8adea0bd8df9/oracle.py", "_chunk_reduce_kernel",
             [A((8, 16384), "float32"), A((16384,), "float32"), K(8), K(8), K(16384), K(64)], (256, 1, 1)))
    add(Case("AV_gptj_bf16_layernorm_3efb2d", g, BB + "var_mean_3efb2d7c03c8/oracle.py",
             "_gptj_bf16_layernorm_kernel",
             [A((128, 4096), "bfloat16"), A((128, 4096), "bfloat16"), A((128, 4096), "bfloat16"),
              A((4096,), "bfloat16"), A((4096,), "bfloat16"), A((128, 4096), "bfloat16"), K(4096),
              K(4096)], (128, 1, 1)))
    add(Case("AV_scaled_residual_layernorm_f7a754", g, BB + "var_mean_f7a754994b8a/oracle.py",
             "_scaled_residual_layernorm_kernel",
             [A((175360, 768), "bfloat16"), A((768,), "bfloat16"), A((175360, 768), "bfloat16"),
              A((768,), "bfloat16"), A((768,), "bfloat16"), A((175360, 768), "bfloat16"),
              A((175360, 768), "bfloat16"), K(768), K(1024), K(768.0)], (175360, 1, 1)))
    add(Case("AV_add3_materialize_d2b085", g, BB + "sum_d2b0852482c4/oracle.py", "_add3_materialize_kernel",
             [A((4096, 4096), "bfloat16"), A((4096, 4096), "bfloat16"), A((4096, 4096), "bfloat16"),
              A((4096, 4096), "bfloat16"), A((4096, 4096), "bfloat16"), K(128), K(64)], (32, 64, 1)))
    add(Case("AV_column_sum_d2b085", g, BB + "sum_d2b0852482c4/oracle.py", "_column_sum_kernel",
             [A((4096, 4096), "bfloat16"), A((4096,), "float32"), K(4096), K(64)], (64, 1, 1)))
    add(Case("AV_dropout_residual_ln_b20c40", g, BB + "var_mean_b20c40e35cf9/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("AV_bn_backward_7b53f7", g, BB + "sum_sum_7b53f7309dbe/oracle.py", "_bn_backward_kernel",
             [A((128, 128, 1024), "bfloat16"), A((1,), "bfloat16"), A((128, 128, 1024), "bfloat16"),
              A((128, 128, 1024), "bfloat16"), A((128,), "float32"), A((128,), "float32"), A((128,), "float32"),
              A((128,), "float32"), A((128,), "float32"), A((128, 128, 1024), "bfloat16"), K(128),
              K(1024)], (128, 1, 1)))
    add(Case("AV_segment_causal_mask_12_de8967", g, BB + "pointwise_de8967598ec8/oracle.py",
             "_segment_causal_mask_12_kernel",
             [A((8, 1024), "int64", "index:8"), A((8, 1, 1024, 1024), "bfloat16"),
              A((8, 1, 1024, 1024), "bfloat16"), A((8, 1, 1024, 1024), "bfloat16"),
              A((8, 1, 1024, 1024), "bfloat16"), A((8, 1, 1024, 1024), "bfloat16"),
              A((8, 1, 1024, 1024), "bfloat16"), A((8, 1, 1024, 1024), "bfloat16"),
              A((8, 1, 1024, 1024), "bfloat16"), A((8, 1, 1024, 1024), "bfloat16"),
              A((8, 1, 1024, 1024), "bfloat16"), A((8, 1, 1024, 1024), "bfloat16"),
              A((8, 1, 1024, 1024), "bfloat16"), K(1024), K(128)], (8, 1024, 8)))
    add(Case("AV_partial_reduce_b265bd", g, BB + "sum_sum_b265bd27fbd8/oracle.py", "_partial_reduce_kernel",
             [A((18464768,), "bfloat16"), A((9232384,), "bfloat16"), A((92,), "float32"), A((92,), "float32"),
              A((92,), "float32"), A((92,), "float32"), A((1,), "bfloat16"), A((23552,), "float32"),
              A((23552,), "float32"), K(100352), K(184), K(92), K(92), K(196), K(14), K(92), K(512),
              K(4)], (196, 23, 1)))
    add(Case("AV_finalize_b265bd", g, BB + "sum_sum_b265bd27fbd8/oracle.py", "_finalize_kernel",
             [A((256, 92), "float32"), A((256, 92), "float32"), A((92,), "float32"), A((92,), "float32"),
              A((92,), "float32"), A((92,), "float32"), A((92,), "float32"), A((92,), "float32"),
              A((92,), "float32"), K(92), K(196), K(256), K(4), K(9.964923469387754e-06)], (23, 1, 1)))
    add(Case("AV_epilogue_b265bd", g, BB + "sum_sum_b265bd27fbd8/oracle.py", "_epilogue_kernel",
             [A((18464768,), "bfloat16"), A((9232384,), "bfloat16"), A((92,), "float32"), A((92,), "float32"),
              A((92,), "float32"), A((92,), "float32"), A((1,), "bfloat16"), A((92,), "float32"),
              A((92,), "float32"), A((92,), "float32"), A((9232384,), "bfloat16"), K(9232384), K(184), K(92),
              K(196), K(14), K(92), K(18032), K(1), K(1288), K(92), K(18032), K(1), K(1288), K(92),
              K(512)], (18032, 1, 1)))
    add(Case("AV_xlnet_softmax_dropout_83a07e", g, BB + "amax_amax_any_83a07ed6c707/oracle.py",
             "_xlnet_softmax_dropout_kernel",
             [A((131072, 512), "bfloat16"), A((131072, 512), "bfloat16"), A((131072, 512), "float32"),
              A((131072, 512), "bfloat16"), A((131072, 1), "float32"), A((131072, 1), "float32"),
              A((131072, 1), "bool"), A((131072, 1), "float32"), A((131072, 512), "bool"),
              A((131072, 512), "bfloat16"), K(512), K(512), K(0.1), K(1.1111111111111112)], (131072, 1, 1)))
    add(Case("AV_dropout_residual_rmsnorm_ec8e6c", g, BB + "mean_ec8e6cb1cc72/oracle.py",
             "_dropout_residual_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"),
              A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"),
              A((4096, 512), "bfloat16"), K(512), K(512)], (4096, 1, 1)))
    add(Case("AV_online_softmax_707988", g, BB + "amax_sum_7079889cfc04/oracle.py", "_online_softmax_kernel",
             [A((8192, 262144), "bfloat16"), A((8192, 262144), "bfloat16"), K(8192), K(32)], (8192, 1, 1)))
    add(Case("AV_dropout_residual_layernorm_5bc38b", g, BB + "var_mean_5bc38bbfb644/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("AV_longformer_softmax_dropout_884c40", g, BB + "amax_sum_884c406c2df8/oracle.py",
             "_longformer_softmax_dropout_kernel",
             [A((98304, 513), "bfloat16"), A((98304,), "bool"), A((1,), "float32"), A((98304, 513), "float32"),
              A((98304,), "float32"), A((98304,), "float32"), A((98304, 513), "bool"), A((98304, 513), "bfloat16"),
              K(513), K(1024)], (98304, 1, 1)))
    add(Case("AV_bn_backward_element_db03a2", g, BB + "sum_sum_sum_db03a2e026aa/oracle.py",
             "_bn_backward_element_kernel",
             [A((192, 100352), "float32"), A((192, 100352), "bfloat16"), A((192,), "float32"),
              A((192,), "float32"), A((192,), "float32"), A((192,), "float32"), A((192,), "float32"),
              A((192, 100352), "bfloat16"), K(100352), K(131072), K(1), K(0)], (192, 1, 1)))
    add(Case("AV_bn_backward_element_db03a2_2", g, BB + "sum_sum_sum_db03a2e026aa/oracle.py",
             "_bn_backward_element_kernel",
             [A((192, 100352), "bfloat16"), A((192, 100352), "bfloat16"), A((192,), "float32"),
              A((192,), "float32"), A((192,), "float32"), A((192,), "float32"), A((192,), "float32"),
              A((192, 100352), "bfloat16"), K(100352), K(131072), K(0), K(0)], (192, 1, 1)))
    add(Case("AV_fill_one_f32_3db3fa", g, BB + "pointwise_3db3fa64fd30/oracle.py", "_fill_one_f32_kernel",
             [A((8192,), "float32"), K(1024)], (8, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-av-launch"))]
