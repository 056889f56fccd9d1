"""Validation set BF: 32 launches of 21 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to BE were, from
the files none of them nor sets W and Y used, after set BE was drawn, while model version 91 was the
latest; version 91's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py BF BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 618 of sets W, Y and AG to BE,
`random.Random(61).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
One file was passed over, with a launch the cases cannot hold (sum_sum_sum_199240d27571). So the
sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-bf`) and as tilescope's launch builds it
(`validate-bf-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setbf_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-bf"
    add(Case("BF_dropout_residual_layernorm_cb5f3c", g, BB + "var_mean_cb5f3cbe2c04/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("BF_gelu_826ea0", g, BB + "pointwise_826ea0b5f6e4/oracle.py", "_gelu_kernel",
             [A((77463552,), "bfloat16"), A((77463552,), "bfloat16"), K(1024)], (75648, 1, 1)))
    add(Case("BF_copy_c9434e", g, BB + "pointwise_c9434eade687/oracle.py", "_copy_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "bfloat16"), K(1024)], (8192, 1, 1)))
    add(Case("BF_row_7ce96d", g, BB + "sum_sum_7ce96d2e23ba/oracle.py", "_row_kernel",
             [A((8192, 512), "bfloat16"), A((8192, 512), "bool"), A((512,), "float32"), A((8192, 512), "float32"),
              A((8192,), "float32"), A((8192, 512), "bool"), A((4096, 512), "float32"), A((8192, 512), "float32"),
              A((8192, 512), "bfloat16"), K(2), K(512)], (4096, 1, 1)))
    add(Case("BF_finalize_col_sum_7ce96d", g, BB + "sum_sum_7ce96d2e23ba/oracle.py", "_finalize_col_sum_kernel",
             [A((4096, 512), "float32"), A((512,), "float32"), K(4096), K(512), K(4096), K(32)], (16, 1, 1)))
    add(Case("BF_channel_reduce_epilogue_12fc8e", g, BB + "sum_sum_12fc8ebf8180/oracle.py",
             "_channel_reduce_epilogue_kernel",
             [A((32, 128, 256), "bfloat16"), A((32, 128, 256), "bfloat16"), A((32, 128, 256), "bfloat16"),
              A((128,), "float32"), A((128,), "float32"), A((128,), "float32"), A((128,), "float32"),
              A((128,), "float32"), A((32, 128, 256), "bfloat16"), K(32), K(256),
              K(0.0001220703125)], (128, 1, 1)))
    add(Case("BF_partials_808b05", g, BB + "sum_sum_808b052d7393/oracle.py", "_partials_kernel",
             [A((491520,), "bfloat16"), A((25088, 960), "bfloat16"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((960,), "float32"), A((1,), "bfloat16"), A((196, 960), "float32"),
              A((196, 960), "float32"), K(960), K(49), K(25088), K(128), K(16)], (196, 60, 1)))
    add(Case("BF_finalize_808b05", g, BB + "sum_sum_808b052d7393/oracle.py", "_finalize_kernel",
             [A((196, 960), "float32"), A((196, 960), "float32"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((960,), "float32"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), K(960), K(196), K(256), K(16)], (60, 1, 1)))
    add(Case("BF_epilogue_808b05", g, BB + "sum_sum_808b052d7393/oracle.py", "_epilogue_kernel",
             [A((491520,), "bfloat16"), A((24084480,), "bfloat16"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((960,), "float32"), A((1,), "bfloat16"), A((960,), "float32"),
              A((960,), "float32"), A((960,), "float32"), A((24084480,), "bfloat16"), K(960), K(49),
              K(256)], (94080, 1, 1)))
    add(Case("BF_masked_softmax_dropout_9fc383", g, BB + "amax_sum_9fc38308ca2a/oracle.py",
             "_masked_softmax_dropout_kernel",
             [A((98304, 512), "bfloat16"), A((98304, 512), "bool"), A((1,), "bfloat16"),
              A((98304, 512), "float32"), A((98304, 512), "bfloat16"), A((98304,), "float32"),
              A((98304,), "float32"), A((98304, 512), "bool"), A((98304, 512), "bfloat16"), K(4),
              K(512)], (24576, 1, 1)))
    add(Case("BF_add_layernorm_bc5b60", g, BB + "var_mean_bc5b607a9d91/oracle.py", "_add_layernorm_kernel",
             [A((1500, 384), "bfloat16"), A((1500, 384), "bfloat16"), A((384,), "bfloat16"), A((384,), "bfloat16"),
              A((1500, 512), "bfloat16"), A((1500, 512), "bfloat16"), K(384), K(512)], (1500, 1, 1)))
    add(Case("BF_sum12_12f476", g, BB + "sum_sum_sum_12f47639e40c/oracle.py", "_sum12_kernel",
             [A((256, 16384), "bfloat16"), A((256, 16384), "bfloat16"), A((256,), "float32"),
              A((256, 128), "float32"), A((256, 128), "float32"), K(256), K(16384), K(32), K(128)], (8, 128, 1)))
    add(Case("BF_channel_sum_12f476", g, BB + "sum_sum_sum_12f47639e40c/oracle.py", "_channel_sum_kernel",
             [A((256, 128), "float32"), A((256,), "float32"), K(128), K(32)], (8, 1, 1)))
    add(Case("BF_fused_12f476", g, BB + "sum_sum_sum_12f47639e40c/oracle.py", "_fused_kernel",
             [A((256, 16384), "bfloat16"), A((256, 16384), "bfloat16"), A((256,), "float32"), A((256,), "float32"),
              A((256,), "float32"), A((256,), "float32"), A((256, 16384), "bfloat16"), K(256), K(16384), K(32),
              K(128)], (8, 128, 1)))
    add(Case("BF_sum3_12f476", g, BB + "sum_sum_sum_12f47639e40c/oracle.py", "_sum3_kernel",
             [A((256, 16384), "bfloat16"), A((256, 128), "float32"), K(9520), K(32), K(128)], (8, 128, 1)))
    add(Case("BF_channel_sum_bf16_12f476", g, BB + "sum_sum_sum_12f47639e40c/oracle.py", "_channel_sum_bf16_kernel",
             [A((256, 128), "float32"), A((256,), "float32"), K(128), K(32)], (8, 1, 1)))
    add(Case("BF_seqcls_tail_52310a", g, BB + "argmax_amax_sum_52310a7c5196/oracle.py", "_seqcls_tail_kernel",
             [A((8192, 2), "bfloat16"), A((8, 1024), "int64", "index:100"), A((8,), "int64", "index:8"),
              A((8,), "int64", "index:2"), A((8,), "int64", "index:1"), A((8, 2), "bfloat16"), A((1,), "float32"),
              A((1,), "float32"), A((8,), "bool"), A((8, 2), "bool"), K(1024), K(2), K(8), K(1024)], (1, 1, 1)))
    add(Case("BF_channel_var_mean_0a75c9", g, BB + "var_mean_0a75c9632b84/oracle.py", "_channel_var_mean_kernel",
             [A((672, 196), "bfloat16"), A((672,), "float32"), A((672,), "float32"), K(196), K(196.0),
              K(256)], (672, 1, 1)))
    add(Case("BF_dropout_residual_ln_874447", g, BB + "var_mean_87444703be27/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"),
              K(1024)], (8192, 1, 1)))
    add(Case("BF_partial_reduce_a65a0a", g, BB + "sum_sum_a65a0afcc157/oracle.py", "_partial_reduce_kernel",
             [A((128, 48, 32, 32), "bfloat16"), A((1,), "bfloat16"), A((128, 48, 32, 32), "bfloat16"),
              A((128, 48, 32, 32), "bfloat16"), A((48,), "float32"), A((128, 48), "float32"),
              A((128, 48), "float32"), K(48), K(1024), K(128), K(1024)], (128, 48, 1)))
    add(Case("BF_finalize_a65a0a", g, BB + "sum_sum_a65a0afcc157/oracle.py", "_finalize_kernel",
             [A((128, 48), "float32"), A((128, 48), "float32"), A((48,), "float32"), A((48,), "float32"),
              A((48,), "float32"), A((48,), "float32"), A((48,), "float32"), A((48,), "float32"),
              A((48,), "float32"), K(48), K(128), K(8), K(128), K(7.62939453125e-06)], (6, 1, 1)))
    add(Case("BF_epilogue_a65a0a", g, BB + "sum_sum_a65a0afcc157/oracle.py", "_epilogue_kernel",
             [A((128, 64, 32, 32), "bfloat16"), A((128, 48, 32, 32), "bfloat16"), A((1,), "bfloat16"),
              A((128, 48, 32, 32), "bfloat16"), A((128, 48, 32, 32), "bfloat16"), A((48,), "float32"),
              A((48,), "float32"), A((48,), "float32"), A((48,), "float32"), A((128, 48, 32, 32), "bfloat16"),
              K(48), K(64), K(16), K(1024), K(1024)], (128, 48, 1)))
    add(Case("BF_embedding_645fb1", g, BB + "pointwise_645fb123c324/oracle.py", "_embedding_kernel",
             [A((514, 1024), "float32"), A((64, 256, 1024), "float32"), K(1024), K(1024)], (256, 1, 64)))
    add(Case("BF_indices_645fb1", g, BB + "pointwise_645fb123c324/oracle.py", "_indices_kernel",
             [A((64, 256), "int64"), K(256)], (64, 1, 1)))
    add(Case("BF_bn_grad_b49b9f", g, BB + "sum_sum_b49b9f45e522/oracle.py", "_bn_grad_kernel",
             [A((4, 256, 14, 14), "bfloat16"), A((1,), "bfloat16"), A((4, 256, 14, 14), "bfloat16"),
              A((4, 256, 14, 14), "bfloat16"), A((256,), "float32"), A((256,), "float32"), A((256,), "float32"),
              A((256,), "float32"), A((256,), "float32"), A((4, 256, 14, 14), "bfloat16")], (256, 1, 1)))
    add(Case("BF_pool_backward_b49b9f", g, BB + "sum_sum_b49b9f45e522/oracle.py", "_pool_backward_kernel",
             [A((4, 256, 14, 14), "bfloat16"), A((4, 256, 14, 14), "bfloat16"),
              A((4, 256, 28, 28), "bfloat16")], (256, 1, 1)))
    add(Case("BF_scaled_softmax_dropout_7de696", g, BB + "amax_amax_any_7de69635670c/oracle.py",
             "_scaled_softmax_dropout_kernel",
             [A((196608, 512), "bfloat16"), A((196608, 512), "float32"), A((196608,), "float32"),
              A((196608,), "float32"), A((196608,), "bool"), A((196608,), "float32"), A((196608, 512), "bool"),
              A((196608, 512), "bfloat16"), K(512)], (196608, 1, 1)))
    add(Case("BF_dropout_residual_ln_daa978", g, BB + "var_mean_daa978c10e99/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "float32"), A((8192, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((8192, 768), "bool"), A((8192, 768), "float32"),
              A((8192, 768), "float32"), A((8192, 768), "bfloat16"), A((8192,), "float32"), K(768), K(1024),
              K(768.0)], (8192, 1, 1)))
    add(Case("BF_dropout_residual_rmsnorm_e8b283", g, BB + "mean_e8b283443d04/oracle.py",
             "_dropout_residual_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"),
              A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"),
              A((4096, 512), "bfloat16"), K(512)], (4096, 1, 1)))
    add(Case("BF_mt5_gelu_gate_dropout_715f43", g, BB + "pointwise_715f431a74eb/oracle.py",
             "_mt5_gelu_gate_dropout_kernel",
             [A((4194304,), "bfloat16"), A((4194304,), "bfloat16"), A((4194304,), "float32"),
              A((4194304,), "bool"), A((4194304,), "bfloat16"), K(1024)], (4096, 1, 1)))
    add(Case("BF_nfnet_bwd_c17d29", g, BB + "sum_sum_c17d298e608e/oracle.py", "_nfnet_bwd_kernel",
             [A((16, 27), "float32"), A((16, 27), "float32"), A((16,), "float32"), A((16,), "float32"),
              A((16,), "float32"), A((16,), "float32"), A((16, 32), "float32"), K(27), K(32),
              K(0.037037037037037035)], (16, 1, 1)))
    add(Case("BF_scaled_biased_softmax_9675d6", g, BB + "amax_sum_9675d6f1ba21/oracle.py",
             "_scaled_biased_softmax_kernel",
             [A((16, 128, 128), "bfloat16"), A((128, 128), "float32"), A((16, 128, 128), "float32"),
              A((16, 128, 128), "bfloat16"), K(128)], (16, 128, 1)))

    return [c for case in out for c in (case, case.launched("validate-bf-launch"))]
