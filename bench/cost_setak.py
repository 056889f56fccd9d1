"""Validation set AK: 32 launches of 27 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AJ were, from
the files none of them nor sets W and Y used, after set AJ was timed and while model version 79
(waits in loops on data the launch before left in L2) was being made on AJ's times; version 79's
predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py AK BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 122 of sets W, Y and AG to AJ,
`random.Random(40).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
One file was passed over: it has a launch the cases cannot hold (var_mean_fded946cd26f). So the
sizes, tile sizes and grids are the files' own; nothing is scaled. Files with several kernels give
each distinct launch. The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-ak`) and as tilescope's launch builds it
(`validate-ak-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setak_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-ak"
    add(Case("AK_dense_6435ae", g, BB + "sum_sum_6435ae06bfdf/oracle.py", "_dense_kernel",
             [A((301056,), "bfloat16"), A((1,), "bfloat16"), A((301056,), "bfloat16"), A((301056,), "bfloat16"),
              A((384,), "float32"), A((384,), "float32"), A((384,), "float32"), A((384,), "float32"),
              A((384,), "float32"), A((301056,), "bfloat16"), K(1024)], (384, 1, 1)))
    add(Case("AK_slice_add_6435ae", g, BB + "sum_sum_6435ae06bfdf/oracle.py", "_slice_add_kernel",
             [A((802816,), "bfloat16"), A((777728,), "bfloat16"), A((752640,), "bfloat16"),
              A((727552,), "bfloat16"), A((702464,), "bfloat16"), A((677376,), "bfloat16"),
              A((652288,), "bfloat16"), A((627200,), "bfloat16"), A((602112,), "bfloat16"),
              A((577024,), "bfloat16"), A((551936,), "bfloat16"), A((526848,), "bfloat16"),
              A((501760,), "bfloat16"), A((476672,), "bfloat16"), A((451584,), "bfloat16"),
              A((426496,), "bfloat16"), A((401408,), "bfloat16"), A((376320,), "bfloat16"),
              A((351232,), "bfloat16"), A((326144,), "bfloat16"), A((301056,), "bfloat16"),
              A((25088,), "bfloat16"), K(1024)], (32, 1, 1)))
    add(Case("AK_dropout_residual_layernorm_02f962", g, BB + "var_mean_02f96287f24b/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192, 1), "float32"), K(1024), K(1024),
              K(1), K(1.1111111111111112), K(1e-12)], (8192, 1, 1)))
    add(Case("AK_ln_row_reduction_23ebf7", g, BB + "sum_sum_sum_23ebf74d21f6/oracle.py", "_ln_row_reduction_kernel",
             [A((2048, 768), "float32"), A((2048, 768), "float32"), A((2048,), "float32"), A((2048,), "float32"),
              K(768), K(1024)], (2048, 1, 1)))
    add(Case("AK_col_sum_23ebf7", g, BB + "sum_sum_sum_23ebf74d21f6/oracle.py", "_col_sum_kernel",
             [A((2048, 768), "float32"), A((768,), "float32"), K(2048)], (768, 1, 1)))
    add(Case("AK_masked_softmax_dropout_65b131", g, BB + "amax_sum_65b1314d871f/oracle.py",
             "_masked_softmax_dropout_kernel",
             [A((98304, 512), "bfloat16"), A((98304, 512), "bool"), A((1,), "bfloat16"),
              A((98304, 512), "float32"), A((98304, 512), "bfloat16"), A((98304,), "float32"),
              A((98304,), "float32"), A((98304, 512), "bool"), A((98304, 512), "bfloat16"),
              K(512)], (98304, 1, 1)))
    add(Case("AK_relative_bias_62b6a7", g, BB + "pointwise_62b6a7509fae/oracle.py", "_relative_bias_kernel",
             [A((38809,), "int64", "index:732"), A((8784,), "float32"), A((472800,), "bfloat16"), K(465708),
              K(256)], (1820, 1, 1)))
    add(Case("AK_pad_zero_62b6a7", g, BB + "pointwise_62b6a7509fae/oracle.py", "_pad_zero_kernel",
             [A((472800,), "bfloat16"), K(7092), K(256)], (28, 1, 1)))
    add(Case("AK_gelu_gate_dropout_97e884", g, BB + "pointwise_97e884699b38/oracle.py", "_gelu_gate_dropout_kernel",
             [A((4194304,), "bfloat16"), A((4194304,), "bfloat16"), A((4194304,), "float32"),
              A((4194304,), "bool"), A((4194304,), "bfloat16"), K(1024)], (4096, 1, 1)))
    add(Case("AK_dropout_residual_ln_78fea5", g, BB + "var_mean_78fea59fb397/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024),
              K(1.1111111111111112), K(1e-12)], (8192, 1, 1)))
    add(Case("AK_dropout_residual_layernorm_4ebf42", g, BB + "var_mean_4ebf42fea4f9/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("AK_mixed_affine_residual_layernorm_787e1d", g, BB + "var_mean_787e1d544efe/oracle.py",
             "_mixed_affine_residual_layernorm_kernel",
             [A((25216, 768), "bfloat16"), A((768,), "float32"), A((25216, 768), "float32"), A((768,), "float32"),
              A((768,), "float32"), A((25216, 768), "float32"), A((25216, 768), "float32"),
              A((25216, 768), "bfloat16"), A((25216,), "float32"), K(768), K(1024)], (25216, 1, 1)))
    add(Case("AK_finite_causal_mask_2fe505", g, BB + "pointwise_2fe50540b345/oracle.py",
             "_finite_causal_mask_kernel",
             [A((524288,), "float32"), K(128), K(1024)], (512, 1, 1)))
    add(Case("AK_dropout_rmsnorm_99b12b", g, BB + "mean_99b12bdefa24/oracle.py", "_dropout_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"),
              A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"),
              A((4096, 512), "bfloat16"), K(512), K(512)], (4096, 1, 1)))
    add(Case("AK_relu_view_edd262", g, BB + "pointwise_edd2629dfab3/oracle.py", "_relu_view_kernel",
             [A((33554432,), "bfloat16"), A((33554432,), "bfloat16"), K(1024)], (32768, 1, 1)))
    add(Case("AK_mt5_gelu_gate_dropout_8fce69", g, BB + "pointwise_8fce69a7fd7a/oracle.py",
             "_mt5_gelu_gate_dropout_kernel",
             [A((4194304,), "bfloat16"), A((4194304,), "bfloat16"), A((4194304,), "float32"),
              A((4194304,), "bool"), A((4194304,), "bfloat16"), K(1024)], (4096, 1, 1)))
    add(Case("AK_dropout_residual_ln_e835ce", g, BB + "var_mean_e835ce476902/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((16384, 1024), "bfloat16"), A((16384, 1024), "float32"), A((16384, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((16384, 1024), "bool"), A((16384, 1024), "float32"),
              A((16384, 1024), "float32"), A((16384, 1024), "bfloat16"), A((16384,), "float32"), K(768), K(1024),
              K(1.1111111111111112), K(1e-12)], (16384, 1, 1)))
    add(Case("AK_row_dual_sum_2e7998", g, BB + "sum_sum_2e7998fcb884/oracle.py", "_row_dual_sum_kernel",
             [A((4096, 4096), "bfloat16"), A((4096, 4096), "float32"), A((4096, 4096), "bfloat16"),
              A((4096, 4096), "bfloat16"), A((4096,), "float32"), A((4096, 4096), "float32"),
              A((4096,), "float32"), A((4096, 4096), "float32"), A((4096, 4096), "float32"),
              A((4096, 4096), "bfloat16"), K(4096)], (4096, 1, 1)))
    add(Case("AK_masked_softmax_dropout_4d1a52", g, BB + "amax_sum_4d1a52b53ba2/oracle.py",
             "_masked_softmax_dropout_kernel",
             [A((98304, 512), "bfloat16"), A((4096, 512), "bool"), A((1,), "bfloat16"), A((98304, 512), "float32"),
              A((98304, 512), "bfloat16"), A((98304,), "float32"), A((98304,), "float32"), A((98304, 512), "bool"),
              A((98304, 512), "bfloat16"), K(24), K(512), K(512), K(512)], (98304, 1, 1)))
    add(Case("AK_col_sum_301d49", g, BB + "sum_sum_sum_301d492a313d/oracle.py", "_col_sum_kernel",
             [A((153280, 128), "bfloat16"), A((128,), "float32"), K(153280), K(128), K(128), K(128)], (1, 1, 1)))
    add(Case("AK_bias_dropout_residual_ln_e18739", g, BB + "var_mean_e187399c29bb/oracle.py",
             "_bias_dropout_residual_ln_kernel",
             [A((8192, 768), "bfloat16"), A((768,), "float32"), A((8192, 768), "float32"),
              A((8192, 768), "float32"), A((768,), "float32"), A((768,), "float32"), A((8192, 768), "bool"),
              A((8192, 768), "float32"), A((8192, 768), "float32"), A((8192, 768), "bfloat16"),
              A((8192,), "float32"), K(768), K(1024)], (8192, 1, 1)))
    add(Case("AK_dropout_rmsnorm_a27c44", g, BB + "mean_a27c4498a84d/oracle.py", "_dropout_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"),
              A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"),
              A((4096, 512), "bfloat16"), K(512), K(512)], (4096, 1, 1)))
    add(Case("AK_safe_softmax_dropout_58ccf0", g, BB + "amax_sum_any_58ccf001855a/oracle.py",
             "_safe_softmax_dropout_kernel",
             [A((196608, 512), "bfloat16"), A((196608, 512), "bfloat16"), A((196608, 512), "float32"),
              A((196608, 512), "bfloat16"), A((196608, 512), "bool"), A((196608, 512), "bfloat16"),
              K(512)], (196608, 1, 1)))
    add(Case("AK_dropout_residual_layernorm_permute_53e4de", g, BB + "var_mean_53e4de98e8f7/oracle.py",
             "_dropout_residual_layernorm_permute_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "float32"), A((8192, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((6291456,), "bool"), A((6291456,), "float32"),
              A((6291456,), "float32"), A((6291456,), "bfloat16"), A((8192,), "float32"), K(8), K(1024), K(768),
              K(1024), K(1)], (8192, 1, 1)))
    add(Case("AK_prefix_bf16_to_f32_29959f", g, BB + "pointwise_29959fe03fc6/oracle.py",
             "_prefix_bf16_to_f32_kernel",
             [A((197951, 512), "bfloat16"), A((197951, 512), "float32"), K(512)], (197951, 1, 1)))
    add(Case("AK_xlnet_residual_layernorm_3a55f9", g, BB + "var_mean_3a55f9ba3f1d/oracle.py",
             "_xlnet_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "bfloat16"), A((1024,), "bfloat16"),
              A((1024,), "bfloat16"), A((8192, 1024), "bfloat16"), K(1024), K(1024)], (8192, 1, 1)))
    add(Case("AK_pool_bn_relu_ba4e73", g, BB + "var_mean_ba4e73ab2deb/oracle.py", "_pool_bn_relu_kernel",
             [A((401408,), "bfloat16"), A((512,), "float32"), A((512,), "float32"), A((100352,), "bfloat16"),
              A((512,), "float32"), A((100352,), "bfloat16"), A((512,), "float32"), A((512,), "float32"), K(4),
              K(512), K(14), K(14), K(7), K(7), K(196), K(256)], (512, 1, 1)))
    add(Case("AK_partial_reduce_65ef50", g, BB + "sum_sum_65ef503caa31/oracle.py", "_partial_reduce_kernel",
             [A((4718592,), "bfloat16"), A((1,), "bfloat16"), A((4718592,), "bfloat16"), A((4718592,), "bfloat16"),
              A((144,), "float32"), A((4608,), "float32"), A((4608,), "float32"), K(144), K(256), K(32768),
              K(1024)], (144, 32, 1)))
    add(Case("AK_finalize_65ef50", g, BB + "sum_sum_65ef503caa31/oracle.py", "_finalize_kernel",
             [A((4608,), "float32"), A((4608,), "float32"), A((144,), "float32"), A((144,), "float32"),
              A((144,), "float32"), A((144,), "float32"), A((144,), "float32"), A((144,), "float32"),
              A((144,), "float32"), K(144), K(32), K(32)], (144, 1, 1)))
    add(Case("AK_epilogue_65ef50", g, BB + "sum_sum_65ef503caa31/oracle.py", "_epilogue_kernel",
             [A((5242880,), "bfloat16"), A((4718592,), "bfloat16"), A((1,), "bfloat16"), A((4718592,), "bfloat16"),
              A((4718592,), "bfloat16"), A((144,), "float32"), A((144,), "float32"), A((144,), "float32"),
              A((144,), "float32"), A((4718592,), "bfloat16"), K(144), K(160), K(256), K(4718592),
              K(512)], (9216, 1, 1)))
    add(Case("AK_safe_softmax_dropout_0d1fd9", g, BB + "amax_sum_any_0d1fd92f7011/oracle.py",
             "_safe_softmax_dropout_kernel",
             [A((393216, 128), "bfloat16"), A((393216, 128), "bfloat16"), A((393216, 128), "float32"),
              A((393216, 128), "bfloat16"), A((393216, 128), "bool"), A((393216, 128), "bfloat16"),
              K(128)], (393216, 1, 1)))
    add(Case("AK_gelu_dropout_08576d", g, BB + "pointwise_08576d101b39/oracle.py", "_gelu_dropout_kernel",
             [A((33554432,), "bfloat16"), A((33554432,), "float32"), A((33554432,), "bool"),
              A((33554432,), "bfloat16"), K(33554432), K(1024), K(1.1111111111111112)], (32768, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-ak-launch"))]
