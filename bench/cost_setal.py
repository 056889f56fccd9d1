"""Validation set AL: 32 launches of 30 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AK were, from
the files none of them nor sets W and Y used, after set AK was timed and while model version 80
(lone waves' lines: only the SMs that hold blocks take them) was being made on AK's times;
version 80's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py AL BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 149 of sets W, Y and AG to AK,
`random.Random(41).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Three files were passed over: sum_75456ad2c2c7's oracle raises NotImplementedError (the port left
it out); sum_sum_3a61ea52bbe0 has a launch the cases cannot hold, and var_mean_481c5828fa83 a kernel
a function makes at run time, which no case can name (the draw passes such kernels over since this
set; no earlier set's file has one). So the sizes, tile sizes and
grids are the files' own; nothing is scaled. Files with several kernels give each distinct launch
(a second launch of one kernel at other sizes: the suffix `_2`). The files' host imports are stood
in as set Y's are (cost_sety.HOST_MODULES). Each kernel is built dynamically shaped
(`validate-al`) and as tilescope's launch builds it (`validate-al-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setal_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-al"
    add(Case("AL_row_reduce_69989b", g, BB + "sum_69989b880f6c/oracle.py", "_row_reduce_kernel",
             [A((4, 4, 765576), "float32"), A((4, 765576), "float32"), K(4), K(4), K(1024)], (4, 748, 1)))
    add(Case("AL_relu_concat_dropout_de64dd", g, BB + "pointwise_de64dd044945/oracle.py",
             "_relu_concat_dropout_kernel",
             [A((2768896,), "bfloat16"), A((2768896,), "float32"), A((2768896,), "bool"),
              A((2768896,), "bfloat16"), K(1024)], (2704, 1, 1)))
    add(Case("AL_rotary_out_527df5", g, BB + "pointwise_527df57b755b/oracle.py", "_rotary_out_kernel",
             [A((4096000,), "bfloat16"), A((128000,), "bfloat16"), A((128000,), "bfloat16"),
              A((4096000,), "bfloat16"), K(64), K(128), K(32), K(1000), K(1024)], (2000, 1, 1)))
    add(Case("AL_rotary_out_527df5_2", g, BB + "pointwise_527df57b755b/oracle.py", "_rotary_out_kernel",
             [A((1024000,), "bfloat16"), A((128000,), "bfloat16"), A((128000,), "bfloat16"),
              A((1024000,), "bfloat16"), K(64), K(128), K(8), K(1000), K(1024)], (500, 1, 1)))
    add(Case("AL_broadcast_gate_residual_flat_010998", g, BB + "pointwise_01099867ba2c/oracle.py",
             "_broadcast_gate_residual_flat_kernel",
             [A((196608,), "bfloat16"), A((12582912,), "bfloat16"), A((1,), "bfloat16"),
              A((12582912,), "bfloat16"), A((12582912,), "bfloat16"), K(1536), K(98304), K(1024)], (12288, 1, 1)))
    add(Case("AL_column_prod_sum_7a3340", g, BB + "sum_7a3340d935e9/oracle.py", "_column_prod_sum_kernel",
             [A((8192, 1024), "float32"), A((8192, 1024), "float32"), A((1024,), "float32"), K(8192), K(128),
              K(32)], (32, 1, 1)))
    add(Case("AL_dropout_residual_ln_0af75a", g, BB + "var_mean_0af75aeb1fe2/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 1536), "bool"), A((4096, 1536), "float32"),
              A((4096, 1536), "float32"), A((4096, 1536), "bfloat16"), A((4096,), "float32"), K(1536), K(2048),
              K(1.1111111111111112), K(1e-07)], (4096, 1, 1)))
    add(Case("AL_gelu_layernorm_af84c0", g, BB + "var_mean_af84c0099cf6/oracle.py", "_gelu_layernorm_kernel",
             [A((16384, 768), "float32"), A((768,), "float32"), A((768,), "float32"), A((16384, 768), "float32"),
              K(768), K(256)], (16384, 1, 1)))
    add(Case("AL_slice_relu_add_a68a45", g, BB + "pointwise_a68a45ab034a/oracle.py", "_slice_relu_add_kernel",
             [A((2981888,), "bfloat16"), A((3047424,), "bfloat16"), A((2981888,), "bfloat16"), K(364), K(372),
              K(4), K(1024)], (2912, 1, 1)))
    add(Case("AL_bf16_cast_c3cfd4", g, BB + "sum_sum_sum_c3cfd4211c4e/oracle.py", "_bf16_cast_kernel",
             [A((16777216,), "float32"), A((16777216,), "bfloat16"), K(1024)], (16384, 1, 1)))
    add(Case("AL_grouped_kv_9640ae", g, BB + "pointwise_9640aefa2584/oracle.py", "_grouped_kv_kernel",
             [A((1, 1000, 4, 256), "bfloat16"), A((1, 8, 1000, 256), "bfloat16"), K(1000), K(256), K(2),
              K(1024)], (1, 4, 250)))
    add(Case("AL_dropout_residual_layernorm_ea17bb", g, BB + "var_mean_ea17bbef3a14/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("AL_mbart_dual_layernorm_0dd15b", g, BB + "var_mean_var_mean_0dd15b92dc70/oracle.py",
             "_mbart_dual_layernorm_kernel",
             [A((50265, 1024), "bfloat16"), A((8192,), "int64", "index:50263"), A((1026, 1024), "bfloat16"),
              A((1024,), "bfloat16"), A((1024,), "bfloat16"), A((1024,), "bfloat16"), A((1024,), "bfloat16"),
              A((8192, 1024), "bfloat16"), A((8192, 1024), "bfloat16"), K(1024), K(1024)], (8192, 1, 1)))
    add(Case("AL_dropout_residual_layernorm_0a4e6a", g, BB + "var_mean_0a4e6a5f43c5/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192, 1), "float32"), K(1024), K(1024),
              K(1)], (8192, 1, 1)))
    add(Case("AL_scaled_softmax_dropout_99661e", g, BB + "amax_amax_any_99661ef23d1d/oracle.py",
             "_scaled_softmax_dropout_kernel",
             [A((196608, 512), "bfloat16"), A((196608, 512), "float32"), A((196608,), "float32"),
              A((196608,), "float32"), A((196608,), "bool"), A((196608,), "float32"), A((196608, 512), "bool"),
              A((196608, 512), "bfloat16"), K(512)], (196608, 1, 1)))
    add(Case("AL_hardswish_flatten_bf16_6adcb3", g, BB + "pointwise_6adcb3046e1b/oracle.py",
             "_hardswish_flatten_bf16_kernel",
             [A((655360,), "bfloat16"), A((655360,), "bfloat16"), K(1024)], (640, 1, 1)))
    add(Case("AL_dropout_residual_layernorm_879915", g, BB + "var_mean_8799151bd693/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 1536), "bool"), A((4096, 1536), "float32"),
              A((4096, 1536), "float32"), A((4096, 1536), "bfloat16"), A((4096,), "float32"), K(1536), K(2048),
              K(1536.0)], (4096, 1, 1)))
    add(Case("AL_softmax_dropout_0a8830", g, BB + "amax_sum_0a883020e364/oracle.py", "_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "float32"), A((24576,), "float32"),
              A((24576,), "float32"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"),
              K(128)], (24576, 1, 1)))
    add(Case("AL_bert_add_83ed19", g, BB + "mean_var_83ed19c04171/oracle.py", "_bert_add_kernel",
             [A((1572864,), "bfloat16"), A((1572864,), "bfloat16"), A((1572864,), "bfloat16"),
              K(1024)], (1536, 1, 1)))
    add(Case("AL_bert_residual_layernorm_83ed19", g, BB + "mean_var_83ed19c04171/oracle.py",
             "_bert_residual_layernorm_kernel",
             [A((2048, 768), "bfloat16"), A((2048, 768), "bfloat16"), A((768,), "bfloat16"), A((768,), "bfloat16"),
              A((2048, 768), "bfloat16"), A((2048, 1024), "bfloat16"), K(768), K(1024), K(2)], (1024, 1, 1)))
    add(Case("AL_dual_rmsnorm_fdad8a", g, BB + "mean_mean_fdad8a241215/oracle.py", "_dual_rmsnorm_kernel",
             [A((1000, 2304), "bfloat16"), A((2304,), "bfloat16"), A((1000, 2304), "bfloat16"),
              A((2304,), "bfloat16"), A((1000, 2304), "bfloat16"), A((1000, 2304), "bfloat16"), K(2304),
              K(4096)], (1000, 1, 1)))
    add(Case("AL_residual_layernorm_e063bc", g, BB + "var_mean_e063bcf2d8d5/oracle.py",
             "_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((1024,), "float32"),
              A((1024,), "float32"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024)], (8192, 1, 1)))
    add(Case("AL_relu_dropout_masks_cbfed5", g, BB + "pointwise_cbfed5cd52de/oracle.py",
             "_relu_dropout_masks_kernel",
             [A((524288,), "bfloat16"), A((524288,), "float32"), A((524288,), "bool"), A((524288,), "bfloat16"),
              A((524288,), "bool"), K(512)], (1024, 1, 1)))
    add(Case("AL_visformer_layout_021e90", g, BB + "pointwise_021e90d9c17d/oracle.py", "_visformer_layout_kernel",
             [A((4816896,), "bfloat16"), A((4816896,), "bfloat16"), K(6), K(49), K(128), K(768), K(6272), K(37632),
              K(1024)], (4704, 1, 1)))
    add(Case("AL_upsample_cat_783d11", g, BB + "pointwise_783d1118b332/oracle.py", "_upsample_cat_kernel",
             [A((512,), "bfloat16"), A((1208320,), "bfloat16"), A((512,), "bfloat16"), A((512,), "bfloat16"),
              A((512,), "bfloat16"), A((4874240,), "bfloat16"), A((9748480,), "bfloat16"), K(9748480), K(512),
              K(40), K(59), K(80), K(119), K(118), K(256)], (38080, 1, 1)))
    add(Case("AL_dropout_residual_layernorm_7c7109", g, BB + "var_mean_7c71094ec875/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("AL_residual_layernorm_bf16_b19e82", g, BB + "var_mean_b19e82f2a47b/oracle.py",
             "_residual_layernorm_bf16_kernel",
             [A((4096, 2560), "bfloat16"), A((4096, 2560), "bfloat16"), A((2560,), "bfloat16"),
              A((2560,), "bfloat16"), A((4096, 2560), "bfloat16"), A((4096, 2560), "bfloat16"), K(2560),
              K(4096)], (4096, 1, 1)))
    add(Case("AL_dropout_residual_layernorm_1a0a7a", g, BB + "var_mean_1a0a7a562afd/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 1536), "bool"), A((4096, 1536), "float32"),
              A((4096, 1536), "float32"), A((4096, 1536), "bfloat16"), A((4096,), "float32"), K(1536),
              K(2048)], (4096, 1, 1)))
    add(Case("AL_safe_softmax_dropout_random_725f76", g, BB + "amax_sum_any_725f76a84d6a/oracle.py",
             "_safe_softmax_dropout_random_kernel",
             [A((131072, 128), "bfloat16"), A((131072, 128), "bfloat16"), A((131072, 128), "float32"),
              A((131072, 128), "bfloat16"), A((131072, 128), "bool"), A((131072, 128), "bfloat16"), K(8),
              K(128)], (16384, 1, 1)))
    add(Case("AL_bn_hardswish_mean_65a318", g, BB + "mean_65a318c9ed9c/oracle.py", "_bn_hardswish_mean_kernel",
             [A((960,), "bfloat16"), A((24084480,), "bfloat16"), A((960,), "bfloat16"), A((960,), "bfloat16"),
              A((960,), "bfloat16"), A((24084480,), "bfloat16"), A((491520,), "bfloat16"), K(960), K(49),
              K(64)], (491520, 1, 1)))
    add(Case("AL_cat_ln_1d57e5", g, BB + "var_mean_1d57e5873892/oracle.py", "_cat_ln_kernel",
             [A((768,), "bfloat16"), A((128, 196, 768), "bfloat16"), A((768,), "bfloat16"), A((768,), "bfloat16"),
              A((128, 197, 1024), "bfloat16"), A((128, 197, 1024), "bfloat16"), K(768), K(1024),
              K(1e-06)], (128, 197, 1)))
    add(Case("AL_softmax_dropout_6a5306", g, BB + "amax_sum_6a53066a9204/oracle.py", "_softmax_dropout_kernel",
             [A((98304, 512), "bfloat16"), A((98304, 512), "float32"), A((98304, 1), "float32"),
              A((98304, 1), "float32"), A((98304, 512), "bool"), A((98304, 512), "bfloat16"), K(512), K(1),
              K(512)], (98304, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-al-launch"))]
