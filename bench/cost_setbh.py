"""Validation set BH: 32 launches of 24 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to BG were, from
the files none of them nor sets W and Y used, after set BG was drawn, while model version 95 was the
latest; version 95's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py BH BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 665 of sets W, Y and AG to BG,
`random.Random(63).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
One file was passed over, with a launch the cases cannot hold (sum_6119d597d188). So the sizes, tile
sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-bh`) and as tilescope's launch builds it
(`validate-bh-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setbh_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-bh"
    add(Case("BH_dropout_residual_layernorm_8c76be", g, BB + "var_mean_8c76be9c9a48/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1),
              K(1024)], (8192, 1, 1)))
    add(Case("BH_layernorm_88c8b2", g, BB + "var_mean_88c8b20940d5/oracle.py", "_layernorm_kernel",
             [A((25216, 768), "float32"), A((768,), "float32"), A((768,), "float32"), A((25216,), "float32"),
              A((25216,), "float32"), A((25216, 768), "bfloat16"), K(768), K(1024)], (25216, 1, 1)))
    add(Case("BH_partial_3e2827", g, BB + "sum_sum_3e2827a51f95/oracle.py", "_partial_kernel",
             [A((100352, 40), "bfloat16"), A((100352, 40), "bfloat16"), A((100352, 40), "bfloat16"),
              A((40,), "float32"), A((98, 40), "float32"), A((98, 40), "float32"), K(1024), K(8)], (98, 5, 1)))
    add(Case("BH_finalize_3e2827", g, BB + "sum_sum_3e2827a51f95/oracle.py", "_finalize_kernel",
             [A((98, 40), "float32"), A((98, 40), "float32"), A((40,), "float32"), A((40,), "float32"),
              A((40,), "float32"), A((40,), "float32"), A((40,), "float32"), A((40,), "float32"),
              A((40,), "float32"), K(128)], (40, 1, 1)))
    add(Case("BH_epilogue_3e2827", g, BB + "sum_sum_3e2827a51f95/oracle.py", "_epilogue_kernel",
             [A((100352, 40), "bfloat16"), A((100352, 40), "bfloat16"), A((100352, 40), "bfloat16"),
              A((40,), "float32"), A((40,), "float32"), A((40,), "float32"), A((40,), "float32"),
              A((100352, 40), "bfloat16"), K(1024), K(8)], (98, 5, 1)))
    add(Case("BH_dropout_residual_layernorm_e1d758", g, BB + "var_mean_e1d758bfd9bc/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024),
              K(1.1111111111111112), K(1e-12)], (8192, 1, 1)))
    add(Case("BH_dropout_residual_rmsnorm_ecd084", g, BB + "mean_ecd0849414d5/oracle.py",
             "_dropout_residual_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"),
              A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"),
              A((4096, 512), "bfloat16"), K(512), K(512)], (4096, 1, 1)))
    add(Case("BH_dropout_layernorm_06f909", g, BB + "var_mean_06f909d22a3a/oracle.py", "_dropout_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("BH_relu_spatial_mean_b402ee", g, BB + "mean_b402ee209d0b/oracle.py", "_relu_spatial_mean_kernel",
             [A((16000, 169), "bfloat16"), A((16000,), "bfloat16"), K(169), K(4), K(256)], (4000, 1, 1)))
    add(Case("BH_dropout_residual_rmsnorm_8a7e89", g, BB + "mean_8a7e89839c2f/oracle.py",
             "_dropout_residual_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"),
              A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"),
              A((4096, 512), "bfloat16"), K(512), K(512)], (4096, 1, 1)))
    add(Case("BH_relu_mask_c27296", g, BB + "pointwise_c27296e16e1b/oracle.py", "_relu_mask_kernel",
             [A((655360,), "bfloat16"), A((655360,), "bfloat16"), A((655360,), "bool"), K(1024)], (640, 1, 1)))
    add(Case("BH_bn_tail_370ed6", g, BB + "sum_sum_370ed60792c7/oracle.py", "_bn_tail_kernel",
             [A((802816,), "bfloat16"), A((777728,), "bfloat16"), A((752640,), "bfloat16"),
              A((727552,), "bfloat16"), A((702464,), "bfloat16"), A((677376,), "bfloat16"),
              A((652288,), "bfloat16"), A((627200,), "bfloat16"), A((602112,), "bfloat16"),
              A((577024,), "bfloat16"), A((551936,), "bfloat16"), A((526848,), "bfloat16"),
              A((501760,), "bfloat16"), A((476672,), "bfloat16"), A((451584,), "bfloat16"),
              A((426496,), "bfloat16"), A((401408,), "bfloat16"), A((376320,), "bfloat16"),
              A((351232,), "bfloat16"), A((326144,), "bfloat16"), A((301056,), "bfloat16"),
              A((275968,), "bfloat16"), A((250880,), "bfloat16"), A((225792,), "bfloat16"), A((1,), "bfloat16"),
              A((225792,), "bfloat16"), A((225792,), "bfloat16"), A((288,), "float32"), A((288,), "float32"),
              A((288,), "float32"), A((288,), "float32"), A((288,), "float32"), A((225792,), "bfloat16"),
              A((25088,), "bfloat16"), K(288), K(196), K(784), K(256), K(32), K(0.0012755102040816326), K(1024),
              K(1024), K(992), K(960), K(928), K(896), K(864), K(832), K(800), K(768), K(736), K(704), K(672),
              K(640), K(608), K(576), K(544), K(512), K(480), K(448), K(416), K(384), K(352),
              K(320)], (288, 1, 1)))
    add(Case("BH_dual_dropout_rmsnorm_80c7c8", g, BB + "mean_80c7c8da1d70/oracle.py",
             "_dual_dropout_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"),
              A((4096, 512), "float32"), A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"),
              A((4096,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096, 512), "bfloat16"),
              K(512), K(512)], (4096, 1, 1)))
    add(Case("BH_partial_reduce_77f6be", g, BB + "sum_sum_77f6be69be60/oracle.py", "_partial_reduce_kernel",
             [A((131072,), "bfloat16"), A((6422528,), "bfloat16"), A((1024,), "float32"), A((1024,), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((100352,), "float32"), A((1,), "bfloat16"),
              K(8)], (128, 49, 1)))
    add(Case("BH_finalize_77f6be", g, BB + "sum_sum_77f6be69be60/oracle.py", "_finalize_kernel",
             [A((100352,), "float32"), A((1024,), "float32"), A((1024,), "float32"), A((1024,), "float32"),
              A((2048,), "float32"), K(16), K(64)], (64, 1, 1)))
    add(Case("BH_epilogue_77f6be", g, BB + "sum_sum_77f6be69be60/oracle.py", "_epilogue_kernel",
             [A((131072,), "bfloat16"), A((6422528,), "bfloat16"), A((1024,), "float32"), A((1024,), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((2048,), "float32"), A((6422528,), "bfloat16"),
              K(1024)], (6272, 1, 1)))
    add(Case("BH_row_logsumexp_fcbd22", g, BB + "amax_sum_sum_fcbd22cca943/oracle.py", "_row_logsumexp_kernel",
             [A((128, 50400), "bfloat16"), A((128,), "float32"), A((128,), "float32"), A((128,), "float32"),
              A((128,), "float32"), K(50400), K(8192)], (128, 1, 1)))
    add(Case("BH_mean_reduce_fcbd22", g, BB + "amax_sum_sum_fcbd22cca943/oracle.py", "_mean_reduce_kernel",
             [A((128,), "float32"), A((128,), "float32"), A((1,), "float32"), K(128), K(128)], (1, 1, 1)))
    add(Case("BH_relu_e97208", g, BB + "pointwise_e972081e0aab/oracle.py", "_relu_kernel",
             [A((12616704,), "bfloat16"), A((12616704,), "bfloat16"), K(1024)], (12321, 1, 1)))
    add(Case("BH_dual_bn_add_relu_2c331e", g, BB + "pointwise_2c331ef4f17f/oracle.py", "_dual_bn_add_relu_kernel",
             [A((384,), "bfloat16"), A((9633792,), "bfloat16"), A((384,), "bfloat16"), A((384,), "bfloat16"),
              A((384,), "bfloat16"), A((384,), "bfloat16"), A((9633792,), "bfloat16"), A((384,), "bfloat16"),
              A((384,), "bfloat16"), A((384,), "bfloat16"), A((9633792,), "bfloat16"), K(128), K(384), K(14),
              K(14), K(75264), K(1), K(5376), K(384), K(9633792), K(512)], (18816, 1, 1)))
    add(Case("BH_partial_reduce_deb15e", g, BB + "sum_sum_deb15e5bd8f2/oracle.py", "_partial_reduce_kernel",
             [A((6422528, 8), "float32"), A((6422528, 8), "float32"), A((6272, 8), "float32"),
              A((6272, 8), "float32"), K(1024), K(8)], (1, 6272, 1)))
    add(Case("BH_finalize_deb15e", g, BB + "sum_sum_deb15e5bd8f2/oracle.py", "_finalize_kernel",
             [A((6272, 8), "float32"), A((6272, 8), "float32"), A((8,), "float32"), A((8,), "float32"), K(8),
              K(128), K(49)], (1, 1, 1)))
    add(Case("BH_bf16_pass_deb15e", g, BB + "sum_sum_deb15e5bd8f2/oracle.py", "_bf16_pass_kernel",
             [A((51380224,), "bfloat16"), A((51380224,), "bfloat16"), K(1024)], (50176, 1, 1)))
    add(Case("BH_causal_mask_febb9b", g, BB + "pointwise_febb9b4c9d22/oracle.py", "_causal_mask_kernel",
             [A((64, 1, 128, 128), "bfloat16"), A((64, 1, 128, 128), "bfloat16"), A((64, 1, 128, 128), "bfloat16"),
              A((64, 1, 128, 128), "bfloat16"), A((64, 1, 128, 128), "bfloat16"), A((64, 1, 128, 128), "bfloat16"),
              A((64, 1, 128, 128), "bfloat16"), A((64, 1, 128, 128), "bfloat16"), A((64, 1, 128, 128), "bfloat16"),
              A((64, 1, 128, 128), "bfloat16"), A((64, 1, 128, 128), "bfloat16"), A((64, 1, 128, 128), "bfloat16"),
              K(32), K(32)], (64, 4, 4)))
    add(Case("BH_copy_e7c559", g, BB + "sum_e7c5599e5aa2/oracle.py", "_copy_kernel",
             [A((131072, 432), "bfloat16"), A((131072, 432), "bfloat16"), K(512), K(16)], (256, 27, 1)))
    add(Case("BH_col_sum_bf16_e7c559", g, BB + "sum_e7c5599e5aa2/oracle.py", "_col_sum_bf16_kernel",
             [A((131072, 432), "bfloat16"), A((432,), "float32"), K(512), K(256), K(16)], (27, 1, 1)))
    add(Case("BH_safe_softmax_dropout_2bd234", g, BB + "amax_sum_any_2bd234cc2ede/oracle.py",
             "_safe_softmax_dropout_kernel",
             [A((131072, 128), "bfloat16"), A((131072, 128), "bfloat16"), A((131072, 128), "float32"),
              A((131072, 128), "bfloat16"), A((131072, 128), "bool"), A((131072, 128), "bfloat16"), K(128), K(1),
              K(128)], (131072, 1, 1)))
    add(Case("BH_safe_softmax_dropout_6bcd7f", g, BB + "amax_sum_any_6bcd7f175f83/oracle.py",
             "_safe_softmax_dropout_kernel",
             [A((196608, 512), "bfloat16"), A((196608, 512), "bfloat16"), A((196608, 512), "float32"),
              A((196608, 512), "bfloat16"), A((196608, 512), "bool"), A((196608, 512), "bfloat16"),
              K(512)], (196608, 1, 1)))
    add(Case("BH_grouped_kv_repeat_65717f", g, BB + "pointwise_65717f3841e5/oracle.py", "_grouped_kv_repeat_kernel",
             [A((1000, 8, 64), "bfloat16"), A((8, 8, 1000, 64), "bfloat16"), K(8), K(64), K(8)], (8, 125, 1)))
    add(Case("BH_residual_bn_affine_f11bfb", g, BB + "pointwise_f11bfb86b6b6/oracle.py",
             "_residual_bn_affine_kernel",
             [A((4816896,), "bfloat16"), A((4816896,), "bfloat16"), A((768,), "bfloat16"), A((768,), "bfloat16"),
              A((768,), "bfloat16"), A((768,), "bfloat16"), A((4816896,), "bfloat16"), A((4816896,), "bfloat16"),
              K(768), K(512), K(1e-05)], (9408, 1, 1)))
    add(Case("BH_dropout_residual_ln_5fb45b", g, BB + "var_mean_5fb45b3e5469/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((4096, 2048), "bfloat16"), A((4096, 2048), "float32"), A((4096, 2048), "float32"),
              A((2048,), "float32"), A((2048,), "float32"), A((4096, 2048), "bool"), A((4096, 2048), "float32"),
              A((4096, 2048), "float32"), A((4096, 2048), "bfloat16"), A((4096,), "float32"), K(1536),
              K(2048)], (4096, 1, 1)))
    add(Case("BH_embed_layernorm_63cad2", g, BB + "var_mean_63cad2383953/oracle.py", "_embed_layernorm_kernel",
             [A((1, 384), "bfloat16"), A((1, 384), "bfloat16"), A((384,), "bfloat16"), A((384,), "bfloat16"),
              A((1, 384), "bfloat16"), A((1, 384), "bfloat16"), K(384), K(512)], (1, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-bh-launch"))]
