"""Validation set AS: 37 launches of 21 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AR were, from
the files none of them nor sets W and Y used, after set AR was timed and model version 86 (a launch's
tile atomic of fewer elements than its threads) made on it; version 86's predictions are committed
before the device run.

The draw (`python bench/cost_bbench_draw.py AS BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 316 of sets W, Y and AG to AR,
`random.Random(48).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
No file was passed over. So the sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-as`) and as tilescope's launch builds it
(`validate-as-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setas_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-as"
    add(Case("AS_gelu_layernorm_3c7707", g, BB + "var_mean_3c7707c0bb8a/oracle.py", "_gelu_layernorm_kernel",
             [A((4096, 128), "bfloat16"), A((128,), "float32"), A((128,), "float32"), A((4096,), "float32"),
              A((4096,), "float32"), A((4096, 128), "bfloat16"), K(128), K(128)], (4096, 1, 1)))
    add(Case("AS_gelu_backward_03788f", g, BB + "sum_03788f40c42f/oracle.py", "_gelu_backward_kernel",
             [A((16384, 3072), "bfloat16"), A((16384, 3072), "bfloat16"), A((16384, 3072), "bfloat16"),
              K(1024)], (16384, 3, 1)))
    add(Case("AS_col_sum_03788f", g, BB + "sum_03788f40c42f/oracle.py", "_col_sum_kernel",
             [A((16384, 3072), "bfloat16"), A((3072,), "float32"), K(16384), K(256), K(1024), K(64)], (3, 1, 1)))
    add(Case("AS_embedding_layernorm_alias_75f17d", g, BB + "mean_var_75f17d2ac9eb/oracle.py",
             "_embedding_layernorm_alias_kernel",
             [A((20005, 768), "bfloat16"), A((2048,), "int64", "index:19970"), A((512, 768), "bfloat16"),
              A((3, 768), "bfloat16"), A((2048,), "int64", "index:3"), A((768,), "bfloat16"),
              A((768,), "bfloat16"), A((2048, 768), "bfloat16"), A((2048, 768), "bfloat16"), K(128), K(768),
              K(1024)], (2048, 1, 1)))
    add(Case("AS_bias_dropout_layernorm_4903d1", g, BB + "var_mean_4903d1ba689a/oracle.py",
             "_bias_dropout_layernorm_kernel",
             [A((768,), "float32"), A((8192, 768), "bfloat16"), A((8192, 768), "float32"),
              A((8192, 768), "float32"), A((768,), "float32"), A((768,), "float32"), A((8192, 768), "bool"),
              A((8192, 768), "float32"), A((8192, 768), "float32"), A((8192, 768), "bfloat16"),
              A((8192,), "float32"), K(768), K(1024)], (8192, 1, 1)))
    add(Case("AS_bn_relu_maxpool_302622", g, BB + "var_mean_302622e401f9/oracle.py", "_bn_relu_maxpool_kernel",
             [A((645248, 192), "bfloat16"), A((192,), "float32"), A((192,), "float32"), A((192,), "float32"),
              A((192,), "float32"), A((156800, 192), "bfloat16"), A((156800, 192), "int8", "index:1"), K(192),
              K(256)], (128, 1225, 1)))
    add(Case("AS_avgpool_302622", g, BB + "var_mean_302622e401f9/oracle.py", "_avgpool_kernel",
             [A((156800, 192), "bfloat16"), A((156800, 192), "bfloat16"), K(192), K(256)], (128, 1225, 1)))
    add(Case("AS_tanh_bf16_edfab1", g, BB + "pointwise_edfab1af9465/oracle.py", "_tanh_bf16_kernel",
             [A((196608,), "bfloat16"), A((196608,), "bfloat16"), K(256)], (768, 1, 1)))
    add(Case("AS_init_ed482d", g, BB + "sum_sum_sum_ed482d857957/oracle.py", "_init_kernel",
             [A((24576000,), "float32"), A((393216,), "float32"), A((3072,), "float32"), A((24576000,), "float32"),
              K(24576000), K(393216), K(3072), K(1024)], (24000, 1, 1)))
    add(Case("AS_row_ed482d", g, BB + "sum_sum_sum_ed482d857957/oracle.py", "_row_kernel",
             [A((16384, 768), "float32"), A((768,), "float32"), A((16384, 768), "float32"), A((16384,), "float32"),
              A((512,), "int64", "index:100"), A((16384,), "int64", "index:100"),
              A((16384,), "int64", "index:100"), A((2048, 768), "float32"), A((2048, 768), "float32"),
              A((393216,), "float32"), A((3072,), "float32"), A((24576000,), "float32"), K(768), K(512), K(1024),
              K(768.0), K(8)], (2048, 1, 1)))
    add(Case("AS_finalize_ed482d", g, BB + "sum_sum_sum_ed482d857957/oracle.py", "_finalize_kernel",
             [A((2048, 768), "float32"), A((2048, 768), "float32"), A((768,), "float32"), A((768,), "float32"),
              K(2048), K(768), K(1024), K(2048), K(8)], (96, 1, 1)))
    add(Case("AS_row_affine_435f65", g, BB + "pointwise_435f6504efa7/oracle.py", "_row_affine_kernel",
             [A((32768, 512), "bfloat16"), A((32768, 512), "bfloat16"), A((512,), "bfloat16"),
              A((512,), "bfloat16"), A((32768, 512), "bfloat16"), K(1), K(512)], (32768, 1, 1)))
    add(Case("AS_silu_producer_cd8694", g, BB + "sum_sum_cd8694c00507/oracle.py", "_silu_producer_kernel",
             [A((33554432,), "bfloat16"), A((33554432,), "bfloat16"), A((33554432,), "float32"),
              A((33554432,), "float32"), A((33554432,), "float32"), A((33554432,), "float32"),
              A((33554432,), "bfloat16"), K(1024)], (32768, 1, 1)))
    add(Case("AS_epilogue_cd8694", g, BB + "sum_sum_cd8694c00507/oracle.py", "_epilogue_kernel",
             [A((33554432,), "bfloat16"), A((33554432,), "float32"), A((33554432,), "float32"),
              A((33554432,), "float32"), A((33554432,), "float32"), A((33554432,), "bfloat16"),
              K(1024)], (32768, 1, 1)))
    add(Case("AS_mobilevit_slice_scatter_2017ac", g, BB + "pointwise_2017ac6d22a7/oracle.py",
             "_mobilevit_slice_scatter_kernel",
             [A((18874368,), "bfloat16"), A((20971520,), "bfloat16"), A((20971520,), "bfloat16"),
              K(1024)], (20480, 1, 1)))
    add(Case("AS_gelu_dropout_10be75", g, BB + "pointwise_10be75ce3204/oracle.py", "_gelu_dropout_kernel",
             [A((33554432,), "bfloat16"), A((33554432,), "float32"), A((33554432,), "bool"),
              A((33554432,), "bfloat16"), K(1024)], (32768, 1, 1)))
    add(Case("AS_dropout_residual_ln_permute_ed2e40", g, BB + "var_mean_ed2e4094de1e/oracle.py",
             "_dropout_residual_ln_permute_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "float32"), A((8192, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((6291456,), "bool"), A((6291456,), "float32"),
              A((6291456,), "float32"), A((6291456,), "bfloat16"), A((8192,), "float32"), K(8), K(1024), K(768),
              K(1024)], (8192, 1, 1)))
    add(Case("AS_bn_hardswish_mean_aa227d", g, BB + "mean_aa227dd8002d/oracle.py", "_bn_hardswish_mean_kernel",
             [A((960,), "bfloat16"), A((30720, 49), "bfloat16"), A((960,), "bfloat16"), A((960,), "bfloat16"),
              A((960,), "bfloat16"), A((30720,), "bfloat16"), K(49), K(960), K(16), K(64)], (1920, 1, 1)))
    add(Case("AS_init_vocab_b60275", g, BB + "sum_sum_sum_b6027582bc37/oracle.py", "_init_vocab_kernel",
             [A((250112, 512), "bfloat16"), A((250112, 512), "float32"), K(128057344), K(512),
              K(1024)], (125056, 1, 1)))
    add(Case("AS_branch_scatter_reduce_b60275", g, BB + "sum_sum_sum_b6027582bc37/oracle.py",
             "_branch_scatter_reduce_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"), A((4096, 512), "bfloat16"),
              A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"),
              A((4096, 512), "float32"), A((4096,), "int64", "index:100"), A((512,), "float32"),
              A((250112, 512), "float32"), K(4096), K(512), K(250112), K(512)], (4096, 1, 1)))
    add(Case("AS_groupnorm_e405de", g, BB + "var_mean_e405decd6535/oracle.py", "_groupnorm_kernel",
             [A((4096, 32), "bfloat16"), A((256,), "bfloat16"), A((256,), "bfloat16"), A((4096, 32), "bfloat16"),
              A((4096, 32), "bfloat16"), K(256), K(4), K(32), K(8)], (4096, 1, 1)))
    add(Case("AS_bf16_to_f32_6ee05b", g, BB + "pointwise_6ee05b1c8806/oracle.py", "_bf16_to_f32_kernel",
             [A((1048576,), "bfloat16"), A((1048576,), "float32"), K(1024)], (1024, 1, 1)))
    add(Case("AS_relu_le_68ad64", g, BB + "pointwise_68ad640449a8/oracle.py", "_relu_le_kernel",
             [A((2985984,), "bfloat16"), A((2985984,), "bfloat16"), A((2985984,), "bool"),
              K(256)], (11664, 1, 1)))
    add(Case("AS_dropout_layernorm_01fbd6", g, BB + "var_mean_01fbd6c1b27f/oracle.py", "_dropout_layernorm_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "float32"), A((8192, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((6291456,), "bool"), A((6291456,), "float32"),
              A((6291456,), "float32"), A((8192,), "float32"), K(768), K(1024), K(2)], (4096, 1, 1)))
    add(Case("AS_dropout_residual_layernorm_48fe94", g, BB + "var_mean_48fe94d26f82/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 1536), "bool"), A((4096, 1536), "float32"),
              A((4096, 1536), "float32"), A((4096, 1536), "bfloat16"), A((4096,), "float32"), K(1536), K(2048),
              K(1536.0)], (4096, 1, 1)))
    add(Case("AS_sum12_partial_f5be98", g, BB + "sum_sum_sum_f5be9899ede5/oracle.py", "_sum12_partial_kernel",
             [A((64, 153280), "float32"), A((64, 153280), "float32"), A((64, 300), "float32"),
              A((64, 300), "float32"), K(153280), K(512)], (64, 300, 1)))
    add(Case("AS_sum12_finalize_f5be98", g, BB + "sum_sum_sum_f5be9899ede5/oracle.py", "_sum12_finalize_kernel",
             [A((64, 300), "float32"), A((64, 300), "float32"), A((64,), "float32"), A((64,), "float32"),
              A((64,), "float32"), A((64,), "float32"), K(300), K(512)], (64, 1, 1)))
    add(Case("AS_final_output_partial_f5be98", g, BB + "sum_sum_sum_f5be9899ede5/oracle.py",
             "_final_output_partial_kernel",
             [A((64, 153280), "float32"), A((64, 153280), "float32"), A((64,), "float32"), A((64,), "float32"),
              A((64,), "float32"), A((64,), "float32"), A((64, 153280), "bfloat16"), A((64, 300), "float32"),
              K(153280), K(512), K(6.524008350730689e-06)], (64, 300, 1)))
    add(Case("AS_sum4_finalize_f5be98", g, BB + "sum_sum_sum_f5be9899ede5/oracle.py", "_sum4_finalize_kernel",
             [A((64, 300), "float32"), A((64,), "float32"), K(300), K(512)], (64, 1, 1)))
    add(Case("AS_bn_relu_slice_12465c", g, BB + "pointwise_12465c189749/oracle.py", "_bn_relu_slice_kernel",
             [A((64, 512, 7, 7), "bfloat16"), A((736,), "bfloat16"), A((736,), "bfloat16"), A((736,), "bfloat16"),
              A((736,), "bfloat16"), A((64, 736, 7, 7), "bfloat16"), K(0), K(8), K(8), K(7), K(7)], (64, 512, 1)))
    add(Case("AS_bn_relu_slice_12465c_2", g, BB + "pointwise_12465c189749/oracle.py", "_bn_relu_slice_kernel",
             [A((64, 32, 7, 7), "bfloat16"), A((736,), "bfloat16"), A((736,), "bfloat16"), A((736,), "bfloat16"),
              A((736,), "bfloat16"), A((64, 736, 7, 7), "bfloat16"), K(512), K(8), K(8), K(7),
              K(7)], (64, 32, 1)))
    add(Case("AS_bn_relu_slice_12465c_3", g, BB + "pointwise_12465c189749/oracle.py", "_bn_relu_slice_kernel",
             [A((64, 32, 7, 7), "bfloat16"), A((736,), "bfloat16"), A((736,), "bfloat16"), A((736,), "bfloat16"),
              A((736,), "bfloat16"), A((64, 736, 7, 7), "bfloat16"), K(544), K(8), K(8), K(7),
              K(7)], (64, 32, 1)))
    add(Case("AS_bn_relu_slice_12465c_4", g, BB + "pointwise_12465c189749/oracle.py", "_bn_relu_slice_kernel",
             [A((64, 32, 7, 7), "bfloat16"), A((736,), "bfloat16"), A((736,), "bfloat16"), A((736,), "bfloat16"),
              A((736,), "bfloat16"), A((64, 736, 7, 7), "bfloat16"), K(576), K(8), K(8), K(7),
              K(7)], (64, 32, 1)))
    add(Case("AS_bn_relu_slice_12465c_5", g, BB + "pointwise_12465c189749/oracle.py", "_bn_relu_slice_kernel",
             [A((64, 32, 7, 7), "bfloat16"), A((736,), "bfloat16"), A((736,), "bfloat16"), A((736,), "bfloat16"),
              A((736,), "bfloat16"), A((64, 736, 7, 7), "bfloat16"), K(608), K(8), K(8), K(7),
              K(7)], (64, 32, 1)))
    add(Case("AS_bn_relu_slice_12465c_6", g, BB + "pointwise_12465c189749/oracle.py", "_bn_relu_slice_kernel",
             [A((64, 32, 7, 7), "bfloat16"), A((736,), "bfloat16"), A((736,), "bfloat16"), A((736,), "bfloat16"),
              A((736,), "bfloat16"), A((64, 736, 7, 7), "bfloat16"), K(640), K(8), K(8), K(7),
              K(7)], (64, 32, 1)))
    add(Case("AS_bn_relu_slice_12465c_7", g, BB + "pointwise_12465c189749/oracle.py", "_bn_relu_slice_kernel",
             [A((64, 32, 7, 7), "bfloat16"), A((736,), "bfloat16"), A((736,), "bfloat16"), A((736,), "bfloat16"),
              A((736,), "bfloat16"), A((64, 736, 7, 7), "bfloat16"), K(672), K(8), K(8), K(7),
              K(7)], (64, 32, 1)))
    add(Case("AS_bn_relu_slice_12465c_8", g, BB + "pointwise_12465c189749/oracle.py", "_bn_relu_slice_kernel",
             [A((64, 32, 7, 7), "bfloat16"), A((736,), "bfloat16"), A((736,), "bfloat16"), A((736,), "bfloat16"),
              A((736,), "bfloat16"), A((64, 736, 7, 7), "bfloat16"), K(704), K(8), K(8), K(7),
              K(7)], (64, 32, 1)))

    return [c for case in out for c in (case, case.launched("validate-as-launch"))]
