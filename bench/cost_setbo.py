"""Validation set BO: 32 launches of 28 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to BN were, from
the files none of them nor sets W and Y used, after set BN was drawn, while model version 101 was the
latest; version 101's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py BO BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 828 of sets W, Y and AG to BN,
`random.Random(70).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Four files were passed over: one made no launch (pointwise_ab77134ec783), three a launch the cases
cannot hold (var_mean_e184692a514a, sum_sum_sum_f2eb6784cabb, amax_sum_sum_a1ef5e832cd1). So the
sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-bo`) and as tilescope's launch builds it
(`validate-bo-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setbo_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-bo"
    add(Case("BO_dropout_residual_rmsnorm_4a6776", g, BB + "mean_4a6776b9b660/oracle.py",
             "_dropout_residual_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"), A((512,), "float32"),
              A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"), A((4096, 512), "bfloat16"),
              K(512)], (4096, 1, 1)))
    add(Case("BO_longformer_stencil_835299", g, BB + "pointwise_8352994b2efb/oracle.py", "_longformer_stencil_kernel",
             [A((1024, 8, 12, 64), "bfloat16"), A((768,), "bfloat16"), A((288, 64, 512), "bfloat16"), K(64),
              K(64)], (288, 1, 8)))
    add(Case("BO_dropout_residual_ln_3aab85", g, BB + "var_mean_3aab85d2b053/oracle.py", "_dropout_residual_ln_kernel",
             [A((2048, 2560), "bfloat16"), A((2048, 2560), "float32"), A((2048, 2560), "float32"),
              A((2560,), "float32"), A((2560,), "float32"), A((2048, 2560), "bool"), A((2048, 2560), "float32"),
              A((2048, 2560), "float32"), A((2048, 2560), "bfloat16"), A((2048,), "float32"), K(2560),
              K(4096)], (2048, 1, 1)))
    add(Case("BO_lennard_jones_c90243", g, BB + "sum_c902430e8a5b/oracle.py", "_lennard_jones_kernel",
             [A((128, 1), "bfloat16"), A((1, 16), "float32"), A((128, 16), "bfloat16"), A((128, 16), "bfloat16"),
              A((16,), "float32")], (1, 1, 1)))
    add(Case("BO_slice_scatter_where_a05c10", g, BB + "sum_a05c10ed018a/oracle.py", "_slice_scatter_where_kernel",
             [A((4, 1024, 364), "bfloat16"), A((4, 1024, 364), "bool"), A((1,), "bfloat16"),
              A((4, 1024, 372), "bfloat16"), A((4, 1024, 364), "bfloat16"), K(512)], (4, 1024, 1)))
    add(Case("BO_sum_where_a05c10", g, BB + "sum_a05c10ed018a/oracle.py", "_sum_where_kernel",
             [A((4, 1024, 364), "bfloat16"), A((1024,), "float32"), K(4), K(364), K(512)], (1024, 1, 1)))
    add(Case("BO_dropout_residual_rmsnorm_bb3c8e", g, BB + "mean_bb3c8e668150/oracle.py",
             "_dropout_residual_rmsnorm_kernel",
             [A((8192, 512), "bfloat16"), A((8192, 512), "float32"), A((8192, 512), "float32"), A((512,), "float32"),
              A((8192, 512), "bool"), A((8192, 512), "float32"), A((8192,), "float32"), A((8192, 512), "bfloat16"),
              K(512), K(512)], (8192, 1, 1)))
    add(Case("BO_last_token_xent_6fdd39", g, BB + "argmax_amax_sum_6fdd39a1aff9/oracle.py", "_last_token_xent_kernel",
             [A((4096, 2), "bfloat16"), A((32, 128), "int64", "index:100"), A((32,), "int64", "index:28"),
              A((32,), "int64", "index:2"), A((1,), "float32"), A((32,), "int64", "index:4432406250505"),
              A((32, 2), "bfloat16"), A((1,), "float32"), A((1,), "float32"), A((32,), "bool"), A((32, 2), "bool"),
              K(128), K(2), K(32), K(128)], (1, 1, 1)))
    add(Case("BO_dual_rmsnorm_bf16_8c30aa", g, BB + "mean_mean_8c30aa48d748/oracle.py", "_dual_rmsnorm_bf16_kernel",
             [A((1000, 2304), "bfloat16"), A((2304,), "bfloat16"), A((1000, 2304), "bfloat16"), A((2304,), "bfloat16"),
              A((1000, 2304), "bfloat16"), A((1000, 2304), "bfloat16"), K(2304), K(4096)], (1000, 1, 1)))
    add(Case("BO_dropout_residual_ln_1ba4f6", g, BB + "var_mean_1ba4f69ab18b/oracle.py", "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024),
              K(1)], (8192, 1, 1)))
    add(Case("BO_dropout_residual_layernorm_1c3bad", g, BB + "var_mean_1c3bad3003cb/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024),
              K(1)], (8192, 1, 1)))
    add(Case("BO_row_ln_bw_51b3bd", g, BB + "sum_sum_sum_51b3bd5aa388/oracle.py", "_row_ln_bw_kernel",
             [A((25216, 192), "bfloat16"), A((192,), "float32"), A((25216, 192), "float32"), A((25216,), "float32"),
              A((25216,), "float32"), A((25216, 192), "float32"), A((25216, 192), "float32"), A((788, 256), "float32"),
              A((788, 256), "float32"), K(25216), K(192), K(0.005208333333333333), K(32), K(8), K(256)], (788, 1, 1)))
    add(Case("BO_token_reduce_51b3bd", g, BB + "sum_sum_sum_51b3bd5aa388/oracle.py", "_token_reduce_kernel",
             [A((25216, 192), "float32"), A((197, 192), "float32"), A((25088, 192), "bfloat16"),
              A((196, 192), "float32"), K(128), K(197), K(192), K(128), K(32)], (197, 6, 1)))
    add(Case("BO_finalize_vectors_51b3bd", g, BB + "sum_sum_sum_51b3bd5aa388/oracle.py", "_finalize_vectors_kernel",
             [A((788, 256), "float32"), A((788, 256), "float32"), A((196, 192), "float32"), A((192,), "float32"),
              A((192,), "float32"), A((192,), "float32"), K(788), K(1024), K(196), K(256), K(64)], (3, 1, 1)))
    add(Case("BO_convbert_window_gather_2b4602", g, BB + "pointwise_2b46022db36e/oracle.py",
             "_convbert_window_gather_kernel",
             [A((6291456,), "bfloat16"), A((4608,), "int64", "index:520"), A((56623104,), "bfloat16"), K(56623104),
              K(1024)], (55296, 1, 1)))
    add(Case("BO_vit_patch_layernorm_499e4b", g, BB + "var_mean_499e4b26c010/oracle.py", "_vit_patch_layernorm_kernel",
             [A((192,), "bfloat16"), A((128, 196, 192), "bfloat16"), A((197, 192), "bfloat16"), A((192,), "bfloat16"),
              A((192,), "bfloat16"), A((4841472,), "bfloat16"), A((4841472,), "bfloat16"), K(25216), K(197), K(192),
              K(4), K(256)], (6304, 1, 1)))
    add(Case("BO_dropout_residual_layernorm_151f19", g, BB + "var_mean_151f19ad7d23/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("BO_xlnet_attention_backward_24541c", g, BB + "sum_24541cd0c55b/oracle.py",
             "_xlnet_attention_backward_kernel",
             [A((131072, 512), "bfloat16"), A((131072, 512), "bool"), A((131072, 512), "bfloat16"),
              A((131072,), "float32"), A((131072,), "float32"), A((131072,), "bool"), A((131072,), "float32"),
              A((131072, 512), "bfloat16"), K(512)], (131072, 1, 1)))
    add(Case("BO_bf16_residual_layernorm_clones_cf6bcf", g, BB + "var_mean_cf6bcfd335d5/oracle.py",
             "_bf16_residual_layernorm_clones_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "bfloat16"), A((768,), "bfloat16"), A((768,), "bfloat16"),
              A((8192, 1024), "bfloat16"), A((8192, 1024), "bfloat16"), A((8192, 1024), "bfloat16"),
              A((8192, 1024), "bfloat16"), K(768), K(1024), K(1024), K(8)], (8192, 1, 1)))
    add(Case("BO_slice_permute_clone_view_e85910", g, BB + "pointwise_e859108a48e0/oracle.py",
             "_slice_permute_clone_view_kernel",
             [A((2097152,), "bfloat16"), A((1966080,), "int32", "index:2097148"), A((1966080,), "bfloat16"),
              K(1024)], (1920, 1, 1)))
    add(Case("BO_transpose_copy_masked_3a0cd5", g, BB + "pointwise_3a0cd5d11499/oracle.py",
             "_transpose_copy_masked_kernel",
             [A((768, 49, 128), "bfloat16"), A((4816896,), "bfloat16"), K(768), K(49), K(128), K(64),
              K(128)], (768, 1, 1)))
    add(Case("BO_bn_affine_leaky_fc79e1", g, BB + "pointwise_fc79e17a0171/oracle.py", "_bn_affine_leaky_kernel",
             [A((512,), "bfloat16"), A((131072, 16), "bfloat16"), A((512,), "bfloat16"), A((512,), "bfloat16"),
              A((512,), "bfloat16"), A((131072, 16), "bfloat16"), K(512), K(16), K(16)], (131072, 1, 1)))
    add(Case("BO_softmax_dropout_e24ce7", g, BB + "amax_sum_e24ce795856b/oracle.py", "_softmax_dropout_kernel",
             [A((98304, 1024), "bfloat16"), A((98304,), "bool"), A((1,), "float32"), A((98304, 1024), "float32"),
              A((98304,), "float32"), A((98304,), "float32"), A((98304, 1024), "bool"), A((98304, 1024), "bfloat16"),
              A((1024,), "bool"), K(1024)], (98304, 1, 1)))
    add(Case("BO_materialize_partials_561863", g, BB + "sum_sum_5618630d0a84/oracle.py", "_materialize_partials_kernel",
             [A((1,), "float32"), A((1,), "float32"), A((8192,), "int64", "index:100"), A((8192, 32000), "bfloat16"),
              A((8192,), "float32"), A((8192,), "float32"), A((8192, 32000), "bfloat16"), A((8192, 32000), "bfloat16"),
              A((128, 32000), "float32"), K(64), K(32)], (128, 1000, 1)))
    add(Case("BO_finalize_sum_561863", g, BB + "sum_sum_5618630d0a84/oracle.py", "_finalize_sum_kernel",
             [A((128, 32000), "float32"), A((32000,), "float32"), K(128), K(128), K(32)], (1000, 1, 1)))
    add(Case("BO_slice_scatter_write_a903fd", g, BB + "pointwise_a903fdfa1994/oracle.py", "_slice_scatter_write_kernel",
             [A((512, 4, 16, 64), "bfloat16"), A((512, 4, 16, 64), "bfloat16"), K(64)], (512, 4, 16)))
    add(Case("BO_dropout_residual_ln_9f3bef", g, BB + "var_mean_9f3bef8d360d/oracle.py", "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024)], (8192, 1, 1)))
    add(Case("BO_bn_relu_666951", g, BB + "pointwise_666951cd0da5/oracle.py", "_bn_relu_kernel",
             [A((64, 116, 196), "bfloat16"), A((116,), "bfloat16"), A((116,), "bfloat16"), A((116,), "bfloat16"),
              A((116,), "bfloat16"), A((64, 116, 196), "bfloat16"), K(256)], (64, 116, 1)))
    add(Case("BO_gelu_dropout_e496b8", g, BB + "pointwise_e496b8719324/oracle.py", "_gelu_dropout_kernel",
             [A((33554432,), "bfloat16"), A((33554432,), "float32"), A((33554432,), "bool"), A((33554432,), "bfloat16"),
              K(1024)], (32768, 1, 1)))
    add(Case("BO_residual_layernorm_a82162", g, BB + "var_mean_a82162370df1/oracle.py", "_residual_layernorm_kernel",
             [A((16384, 768), "float32"), A((16384, 768), "float32"), A((768,), "float32"), A((768,), "float32"),
              A((16384, 768), "float32"), K(1024)], (16384, 1, 1)))
    add(Case("BO_sum_128x1_roundtrip_9552a6", g, BB + "sum_9552a61d796d/oracle.py", "_sum_128x1_roundtrip_kernel",
             [A((128, 1), "bfloat16"), A((1,), "float32"), K(128)], (1, 1, 1)))
    add(Case("BO_gn_bf8fb2", g, BB + "var_mean_mean_bf8fb2be89c6/oracle.py", "_gn_kernel",
             [A((128, 512), "bfloat16"), A((512,), "float32"), A((512,), "float32"), A((128, 512), "float32"),
              A((128, 32), "float32"), A((128, 32), "float32"), A((128, 512), "bfloat16"), A((128, 512), "bool"), K(16),
              K(32)], (128, 32, 1)))

    return [c for case in out for c in (case, case.launched("validate-bo-launch"))]
