"""Validation set BB: 33 launches of 22 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to BA were, from
the files none of them nor sets W and Y used, after set BA was drawn, while model version 89 was the
latest; version 89's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py BB BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 520 of sets W, Y and AG to BA,
`random.Random(57).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Two files were passed over: one with a launch the cases cannot hold (var_mean_var_mean_ab0bc2e3c91a),
one whose oracle did not run (pointwise_43588d3e9780). So the sizes, tile sizes and grids are the
files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-bb`) and as tilescope's launch builds it
(`validate-bb-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setbb_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-bb"
    add(Case("BB_masked_softmax_cd8a1b", g, BB + "amax_sum_any_cd8a1b4cf13b/oracle.py", "_masked_softmax_kernel",
             [A((65536, 128), "bfloat16"), A((128, 128), "bool"), A((1,), "bfloat16"), A((1,), "bfloat16"),
              A((65536, 128), "bfloat16"), K(128), K(16)], (4096, 1, 1)))
    add(Case("BB_reduce_b69943", g, BB + "sum_sum_b699431fa635/oracle.py", "_reduce_kernel",
             [A((476672,), "bfloat16"), A((1,), "bfloat16"), A((476672,), "bfloat16"), A((476672,), "bfloat16"),
              A((608,), "float32"), A((608,), "float32"), A((608,), "float32"), A((608,), "float32"),
              A((608,), "float32"), K(608), K(196), K(784), K(1024)], (608, 1, 1)))
    add(Case("BB_epilogue_b69943", g, BB + "sum_sum_b699431fa635/oracle.py", "_epilogue_kernel",
             [A((476672,), "bfloat16"), A((1,), "bfloat16"), A((476672,), "bfloat16"), A((476672,), "bfloat16"),
              A((608,), "float32"), A((608,), "float32"), A((608,), "float32"), A((608,), "float32"),
              A((608,), "float32"), A((476672,), "bfloat16"), K(476672), K(608), K(196), K(0.0012755102040816326),
              K(256)], (1862, 1, 1)))
    add(Case("BB_slice_add_b69943", g, BB + "sum_sum_b699431fa635/oracle.py", "_slice_add_kernel",
             [A((802816,), "bfloat16"), A((777728,), "bfloat16"), A((752640,), "bfloat16"),
              A((727552,), "bfloat16"), A((702464,), "bfloat16"), A((677376,), "bfloat16"),
              A((652288,), "bfloat16"), A((627200,), "bfloat16"), A((602112,), "bfloat16"),
              A((577024,), "bfloat16"), A((551936,), "bfloat16"), A((526848,), "bfloat16"),
              A((501760,), "bfloat16"), A((476672,), "bfloat16"), A((25088,), "bfloat16"), K(25088), K(196),
              K(576), K(32), K(608), K(256)], (98, 1, 1)))
    add(Case("BB_softmax_dropout_359194", g, BB + "amax_sum_35919422d9ae/oracle.py", "_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "float32"), A((24576, 128), "float32"),
              A((24576, 128), "bfloat16"), A((24576,), "float32"), A((24576,), "float32"), A((24576, 128), "bool"),
              A((24576, 128), "bfloat16"), K(128), K(4), K(128), K(1.1111111111111112)], (6144, 1, 1)))
    add(Case("BB_head_layout_div_b65830", g, BB + "pointwise_b65830214642/oracle.py", "_head_layout_div_kernel",
             [A((6291456,), "bfloat16"), A((6291456,), "bfloat16"), K(8), K(24), K(512), K(64),
              K(4096)], (1536, 1, 1)))
    add(Case("BB_dropout_residual_layernorm_96b554", g, BB + "var_mean_96b55483e3cf/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((16384, 768), "bfloat16"), A((16384, 768), "float32"), A((16384, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((16384, 1024), "bool"), A((16384, 1024), "float32"),
              A((16384, 1024), "float32"), A((16384, 1024), "bfloat16"), A((16384,), "float32"), K(768),
              K(1024)], (16384, 1, 1)))
    add(Case("BB_bn_tail_kernel_no_add_0fbee3", g, BB + "sum_sum_0fbee3d7ac79/oracle.py", "_bn_tail_kernel_no_add",
             [A((4, 320, 784), "bfloat16"), A((1,), "bfloat16"), A((4, 320, 784), "bfloat16"),
              A((4, 320, 784), "bfloat16"), A((320,), "float32"), A((320,), "float32"), A((320,), "float32"),
              A((320,), "float32"), A((320,), "float32"), A((4, 320, 784), "bfloat16"), K(4), K(1024), K(784),
              K(0.00031887755102040814)], (288, 1, 1)))
    add(Case("BB_bn_tail_kernel_slice_0fbee3", g, BB + "sum_sum_0fbee3d7ac79/oracle.py", "_bn_tail_kernel_slice",
             [A((4, 512, 784), "bfloat16"), A((4, 480, 784), "bfloat16"), A((4, 448, 784), "bfloat16"),
              A((4, 416, 784), "bfloat16"), A((4, 384, 784), "bfloat16"), A((4, 352, 784), "bfloat16"),
              A((4, 320, 784), "bfloat16"), A((1,), "bfloat16"), A((4, 320, 784), "bfloat16"),
              A((4, 320, 784), "bfloat16"), A((320,), "float32"), A((320,), "float32"), A((320,), "float32"),
              A((320,), "float32"), A((320,), "float32"), A((4, 320, 784), "bfloat16"),
              A((4, 32, 784), "bfloat16"), K(288), K(4), K(1024), K(784), K(0.00031887755102040814)], (32, 1, 1)))
    add(Case("BB_embedding_ln_h2560_4c1b6e", g, BB + "var_mean_4c1b6e6ef03f/oracle.py",
             "_embedding_ln_h2560_kernel",
             [A((8008, 2560), "bfloat16"), A((4096,), "int64", "index:8005"), A((128, 2560), "bfloat16"),
              A((2560,), "bfloat16"), A((2560,), "bfloat16"), A((4096, 5, 512), "bfloat16"),
              A((4096, 5, 512), "bfloat16"), K(128), K(2560), K(512)], (4096, 1, 1)))
    add(Case("BB_row_projection_mask_6c6fa3", g, BB + "sum_6c6fa38d6351/oracle.py", "_row_projection_mask_kernel",
             [A((8388608,), "bfloat16"), A((8388608,), "float32"), A((4194304,), "bool"), A((1,), "bfloat16"),
              A((8388608,), "bfloat16"), K(2), K(128), K(2048)], (32768, 1, 1)))
    add(Case("BB_ln_backward_row_f6eef8", g, BB + "sum_sum_sum_f6eef8c5a35a/oracle.py", "_ln_backward_row_kernel",
             [A((8192, 1024), "float32"), A((1024,), "float32"), A((8192, 1024), "float32"),
              A((8192, 1024), "bool"), A((8192, 1), "float32"), A((8192, 1), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "float32"), A((1024, 1024), "float32"),
              A((1024, 1024), "float32"), K(8192), K(768), K(8), K(1024)], (1024, 1, 1)))
    add(Case("BB_reduce_chunks_f6eef8", g, BB + "sum_sum_sum_f6eef8c5a35a/oracle.py", "_reduce_chunks_kernel",
             [A((1024, 1024), "float32"), A((1024,), "float32"), K(1024), K(1024), K(768), K(1024)], (1, 1, 1)))
    add(Case("BB_scatter_f6eef8", g, BB + "sum_sum_sum_f6eef8c5a35a/oracle.py", "_scatter_kernel",
             [A((8192, 1024), "float32"), A((8192, 1024), "bool"), A((1024,), "int64", "index:100"),
              A((8192,), "int64", "index:100"), A((1024, 768), "float32"), A((50257, 768), "float32"), K(768),
              K(1024), K(1024), K(50257), K(1.1111111111111112)], (8192, 1, 1)))
    add(Case("BB_tail_e62c5b", g, BB + "sum_sum_e62c5b3ab99a/oracle.py", "_tail_kernel",
             [A((1605632,), "bfloat16"), A((1505280,), "bfloat16"), A((1404928,), "bfloat16"),
              A((1304576,), "bfloat16"), A((1204224,), "bfloat16"), A((1103872,), "bfloat16"), A((1,), "bfloat16"),
              A((1103872,), "bfloat16"), A((1103872,), "bfloat16"), A((352,), "float32"), A((352,), "float32"),
              A((352,), "float32"), A((352,), "float32"), A((352,), "float32"), A((1103872,), "bfloat16"),
              A((100352,), "bfloat16"), K(352), K(784), K(3136), K(320), K(32), K(0.00031887755102040814),
              K(4096)], (352, 1, 1)))
    add(Case("BB_scaled_masked_softmax_dropout_3dd48b", g, BB + "amax_sum_3dd48baf16a7/oracle.py",
             "_scaled_masked_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "bool"), A((1,), "bfloat16"),
              A((24576, 128), "float32"), A((24576, 128), "bfloat16"), A((24576,), "float32"),
              A((24576,), "float32"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"), K(8),
              K(128)], (3072, 1, 1)))
    add(Case("BB_dropout_residual_layernorm_9ce76e", g, BB + "var_mean_9ce76edffcec/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("BB_tail_cc8aaf", g, BB + "sum_sum_cc8aafa6ae2d/oracle.py", "_tail_kernel",
             [A((1605632,), "bfloat16"), A((1505280,), "bfloat16"), A((1404928,), "bfloat16"),
              A((1304576,), "bfloat16"), A((1204224,), "bfloat16"), A((1103872,), "bfloat16"),
              A((1003520,), "bfloat16"), A((903168,), "bfloat16"), A((802816,), "bfloat16"),
              A((702464,), "bfloat16"), A((602112,), "bfloat16"), A((501760,), "bfloat16"), A((1,), "bfloat16"),
              A((501760,), "bfloat16"), A((501760,), "bfloat16"), A((160,), "float32"), A((160,), "float32"),
              A((160,), "float32"), A((160,), "float32"), A((160,), "float32"), A((501760,), "bfloat16"),
              A((100352,), "bfloat16"), K(4096)], (160, 1, 1)))
    add(Case("BB_producer_28aca3", g, BB + "sum_sum_sum_28aca384bafa/oracle.py", "_producer_kernel",
             [A((128, 1536, 144), "bfloat16"), A((128, 1536, 144), "bfloat16"), A((128, 1536, 144), "bfloat16"),
              A((128, 1536), "bfloat16"), A((128, 1536, 144), "bfloat16"), A((1,), "float32"),
              A((128, 1536, 144), "bfloat16"), A((128, 1536), "bfloat16"), A((128, 1536, 144), "bfloat16"),
              A((128, 1536), "float32"), A((128, 1536), "float32"), K(144), K(144), K(16)], (128, 1536, 1)))
    add(Case("BB_side_28aca3", g, BB + "sum_sum_sum_28aca384bafa/oracle.py", "_side_kernel",
             [A((128, 1536), "float32"), A((128, 1536), "bfloat16"), A((128, 1536), "bfloat16"), K(128), K(1536),
              K(64)], (128, 24, 1)))
    add(Case("BB_channel_reduce_28aca3", g, BB + "sum_sum_sum_28aca384bafa/oracle.py", "_channel_reduce_kernel",
             [A((128, 1536), "bfloat16"), A((1536,), "float32"), K(128), K(1536), K(128), K(16)], (96, 1, 1)))
    add(Case("BB_rope_trig_d52678", g, BB + "mean_mean_d52678a47406/oracle.py", "_rope_trig_kernel",
             [A((128,), "bfloat16"), A((1000, 256), "bfloat16"), A((1000, 256), "bfloat16"), K(1000), K(256),
              K(128), K(8), K(64)], (125, 4, 1)))
    add(Case("BB_rmsnorm_rope_q_d52678", g, BB + "mean_mean_d52678a47406/oracle.py", "_rmsnorm_rope_q_kernel",
             [A((1000, 8, 256), "bfloat16"), A((256,), "bfloat16"), A((1000, 256), "bfloat16"),
              A((1000, 256), "bfloat16"), A((1000, 8, 256), "bfloat16"), K(256), K(128), K(8),
              K(1e-06)], (1000, 8, 1)))
    add(Case("BB_rmsnorm_rope_k_d52678", g, BB + "mean_mean_d52678a47406/oracle.py", "_rmsnorm_rope_k_kernel",
             [A((1000, 4, 256), "bfloat16"), A((256,), "bfloat16"), A((1000, 256), "bfloat16"),
              A((1000, 256), "bfloat16"), A((1000, 4, 256), "bfloat16"), A((8, 1000, 256), "bfloat16"), K(256),
              K(128), K(4), K(2), K(8), K(1e-06)], (1000, 4, 1)))
    add(Case("BB_dropout_residual_layernorm_5c9451", g, BB + "var_mean_5c94515647e9/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192, 1), "float32"), K(1024), K(1024),
              K(1)], (8192, 1, 1)))
    add(Case("BB_swin_shifted_window_ln_d3e13f", g, BB + "var_mean_d3e13f25b442/oracle.py",
             "_swin_shifted_window_ln_kernel",
             [A((25088, 512), "bfloat16"), A((25088, 512), "bfloat16"), A((512,), "bfloat16"),
              A((512,), "bfloat16"), A((25088, 512), "bfloat16"), A((25088, 512), "bfloat16"), K(14), K(14),
              K(512), K(7), K(3), K(512)], (25088, 1, 1)))
    add(Case("BB_bn_channels_last_e6ddc8", g, BB + "pointwise_e6ddc8e897ec/oracle.py", "_bn_channels_last_kernel",
             [A((160,), "bfloat16"), A((1003520,), "bfloat16"), A((160,), "float32"), A((160,), "bfloat16"),
              A((160,), "bfloat16"), A((1003520,), "bfloat16"), A((1003520,), "bfloat16"), K(160),
              K(1024)], (980, 1, 1)))
    add(Case("BB_bf16_to_f32_copy_1c9e8d", g, BB + "pointwise_1c9e8dc48812/oracle.py", "_bf16_to_f32_copy_kernel",
             [A((524288,), "bfloat16"), A((524288,), "float32"), K(1024)], (512, 1, 1)))
    add(Case("BB_dropout_residual_layernorm_f574b8", g, BB + "var_mean_f574b8ec0222/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((16384, 768), "bfloat16"), A((16384, 768), "float32"), A((16384, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((16384, 768), "bool"), A((16384, 768), "float32"),
              A((16384, 768), "float32"), A((16384, 768), "bfloat16"), A((16384,), "float32"), K(768),
              K(1024)], (16384, 1, 1)))
    add(Case("BB_sigmoid_246850", g, BB + "pointwise_246850b7c198/oracle.py", "_sigmoid_kernel",
             [A((6240,), "bfloat16"), A((6240,), "bfloat16"), K(256)], (25, 1, 1)))
    add(Case("BB_xent_bwd_f0e3bb", g, BB + "sum_sum_f0e3bbdfb32f/oracle.py", "_xent_bwd_kernel",
             [A((4096, 128104), "bfloat16"), A((4096, 128100), "bfloat16"), A((4096,), "float32"),
              A((4096,), "float32"), A((4096,), "float32"), A((4096,), "int64", "index:100"),
              A((4096, 128104), "bfloat16"), A((128104, 4096), "bfloat16"), K(4096), K(128100), K(128104),
              K(512)], (4096, 251, 1)))
    add(Case("BB_column_sum_f0e3bb", g, BB + "sum_sum_f0e3bbdfb32f/oracle.py", "_column_sum_kernel",
             [A((4096, 128104), "bfloat16"), A((32, 128100), "float32"), K(128), K(128), K(128100),
              K(128104)], (32, 1001, 1)))
    add(Case("BB_col_finalize_bf16_f0e3bb", g, BB + "sum_sum_f0e3bbdfb32f/oracle.py", "_col_finalize_bf16_kernel",
             [A((32, 128100), "float32"), A((128100,), "float32"), K(32), K(128100), K(128),
              K(32)], (1001, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-bb-launch"))]
