"""Validation set AN: 32 launches of 22 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AM were, from
the files none of them nor sets W and Y used, after set AM was timed and while model version 82
(a tile one element wide has no walk to lose from L1) was being made on AM's times; version 82's
predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py AN BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 199 of sets W, Y and AG to AM,
`random.Random(43).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Two files were passed over: sum_75456ad2c2c7's oracle raises NotImplementedError (the port left it
out, as in set AL's draw), and sum_sum_sum_199240d27571 has a launch the cases cannot hold. So the
sizes, tile sizes and grids are the files' own; nothing is scaled. Files with several kernels give
each distinct launch (a second launch of one kernel at other sizes: the suffix `_2`). The files'
host imports are stood in as set Y's are (cost_sety.HOST_MODULES). Each kernel is built
dynamically shaped (`validate-an`) and as tilescope's launch builds it (`validate-an-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setan_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-an"
    add(Case("AN_masked_softmax_dropout_823ba7", g, BB + "amax_sum_823ba76647e9/oracle.py",
             "_masked_softmax_dropout_kernel",
             [A((98304, 512), "bfloat16"), A((98304, 512), "bool"), A((1,), "bfloat16"),
              A((98304, 512), "float32"), A((98304, 512), "bfloat16"), A((98304,), "float32"),
              A((98304,), "float32"), A((98304, 512), "bool"), A((98304, 512), "bfloat16"),
              K(512)], (98304, 1, 1)))
    add(Case("AN_rowwise_affine_b2b66f", g, BB + "pointwise_b2b66f70d626/oracle.py", "_rowwise_affine_kernel",
             [A((32768, 128), "bfloat16"), A((128,), "bfloat16"), A((128,), "bfloat16"),
              A((32768, 128), "bfloat16"), K(16), K(128)], (2048, 1, 1)))
    add(Case("AN_dropout_residual_layernorm_d8be32", g, BB + "var_mean_d8be325d48fc/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 2048), "bool"), A((4096, 2048), "float32"),
              A((4096, 2048), "float32"), A((4096, 2048), "bfloat16"), A((4096,), "float32"), K(1536),
              K(2048)], (4096, 1, 1)))
    add(Case("AN_rmsnorm_rope_ee4f8b", g, BB + "mean_mean_ee4f8b590982/oracle.py", "_rmsnorm_rope_kernel",
             [A((8000, 256), "bfloat16"), A((256,), "bfloat16"), A((1000, 256), "bfloat16"),
              A((1000, 256), "bfloat16"), A((8000, 256), "bfloat16"), K(8)], (8000, 1, 1)))
    add(Case("AN_rmsnorm_rope_key_repeat_ee4f8b", g, BB + "mean_mean_ee4f8b590982/oracle.py",
             "_rmsnorm_rope_key_repeat_kernel",
             [A((4000, 256), "bfloat16"), A((256,), "bfloat16"), A((1000, 256), "bfloat16"),
              A((1000, 256), "bfloat16"), A((4000, 256), "bfloat16"), A((8, 1000, 256), "bfloat16"), K(4),
              K(2)], (4000, 1, 1)))
    add(Case("AN_shuffle_b1354c", g, BB + "sum_sum_b1354c2a333b/oracle.py", "_shuffle_kernel",
             [A((2910208,), "bfloat16"), A((1455104,), "bfloat16"), A((2910208,), "bfloat16"), K(232), K(464),
              K(49), K(1024)], (2842, 1, 1)))
    add(Case("AN_producer_partial_b1354c", g, BB + "sum_sum_b1354c2a333b/oracle.py", "_producer_partial_kernel",
             [A((1455104,), "bfloat16"), A((1455104,), "bfloat16"), A((1,), "bfloat16"), A((232,), "float32"),
              A((232,), "float32"), A((232,), "float32"), A((232,), "float32"), A((1455104,), "bfloat16"),
              A((11368,), "float32"), A((11368,), "float32"), K(232), K(6272), K(49), K(128), K(8)], (49, 29, 1)))
    add(Case("AN_finalize_b1354c", g, BB + "sum_sum_b1354c2a333b/oracle.py", "_finalize_kernel",
             [A((11368,), "float32"), A((11368,), "float32"), A((232,), "float32"), A((232,), "float32"),
              A((232,), "float32"), A((232,), "float32"), K(232), K(49), K(64), K(8)], (29, 1, 1)))
    add(Case("AN_epilogue_nhwc_b1354c", g, BB + "sum_sum_b1354c2a333b/oracle.py", "_epilogue_nhwc_kernel",
             [A((1455104,), "bfloat16"), A((1455104,), "bfloat16"), A((232,), "float32"), A((232,), "float32"),
              A((232,), "float32"), A((232,), "float32"), A((232,), "float32"), A((1455104,), "bfloat16"), K(232),
              K(0.00015943877551020407), K(1024)], (1421, 1, 1)))
    add(Case("AN_dropout_residual_ln_b52cf3", g, BB + "var_mean_b52cf3fd9807/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((6291456,), "bool"), A((6291456,), "float32"),
              A((6291456,), "float32"), A((6291456,), "bfloat16"), A((4096,), "float32"), K(1536),
              K(2048)], (4096, 1, 1)))
    add(Case("AN_dropout_residual_ln_dba2f1", g, BB + "var_mean_dba2f104e79d/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("AN_row_logsumexp_f77445", g, BB + "amax_sum_sum_f77445bf16f4/oracle.py", "_row_logsumexp_kernel",
             [A((16384, 32768), "float32"), A((16384,), "float32"), A((16384,), "float32"), K(32000), K(4),
              K(8192)], (16384, 1, 1)))
    add(Case("AN_partials_936547", g, BB + "sum_sum_9365476417f3/oracle.py", "_partials_kernel",
             [A((6422528,), "float32"), A((6422528,), "float32"), A((6272,), "float32"), A((6272,), "float32"),
              K(100352), K(12544), K(64), K(1024)], (98, 64, 1)))
    add(Case("AN_finalize_936547", g, BB + "sum_sum_9365476417f3/oracle.py", "_finalize_kernel",
             [A((6272,), "float32"), A((6272,), "float32"), A((64,), "float32"), A((64,), "float32"),
              A((64,), "float32"), A((64,), "float32"), K(98), K(64), K(128)], (64, 1, 1)))
    add(Case("AN_bn_backward_epilogue_936547", g, BB + "sum_sum_9365476417f3/oracle.py",
             "_bn_backward_epilogue_kernel",
             [A((8, 64, 12544), "float32"), A((8, 64, 12544), "float32"), A((64,), "float32"), A((64,), "float32"),
              A((64,), "float32"), A((64,), "float32"), A((8, 64, 12544), "bfloat16"), K(16384),
              K(9.964923469387754e-06)], (8, 64, 1)))
    add(Case("AN_dropout_residual_layernorm_43610b", g, BB + "var_mean_43610b02573d/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 2048), "bool"), A((4096, 2048), "float32"),
              A((4096, 2048), "float32"), A((4096, 2048), "bfloat16"), A((4096,), "float32"), K(1536),
              K(2048)], (4096, 1, 1)))
    add(Case("AN_dropout_layernorm_5140df", g, BB + "var_mean_5140dfbeba32/oracle.py", "_dropout_layernorm_kernel",
             [A((4096, 2048), "bfloat16"), A((4096, 2048), "float32"), A((4096, 2048), "float32"),
              A((2048,), "float32"), A((2048,), "float32"), A((4096, 2048), "bool"), A((4096, 2048), "float32"),
              A((4096, 2048), "float32"), A((4096, 2048), "bfloat16"), A((4096, 1), "float32"), K(1536), K(2048),
              K(1), K(1e-07), K(0.1), K(1.1111111111111112)], (4096, 1, 1)))
    add(Case("AN_masked_softmax_dropout_192a3a", g, BB + "amax_sum_192a3a5bd7ff/oracle.py",
             "_masked_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((16, 128, 128), "bool"), A((1,), "bfloat16"),
              A((24576, 128), "float32"), A((24576, 128), "bfloat16"), A((24576,), "float32"),
              A((24576,), "float32"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"), K(12), K(128),
              K(128)], (24576, 1, 1)))
    add(Case("AN_bf16_cast_5b2567", g, BB + "sum_sum_sum_5b2567b5fdd7/oracle.py", "_bf16_cast_kernel",
             [A((25216, 192), "float32"), A((25216, 192), "bfloat16"), K(256)], (25216, 1, 1)))
    add(Case("AN_bn_backward_50a947", g, BB + "sum_sum_50a94749c62d/oracle.py", "_bn_backward_kernel",
             [A((512, 56, 196), "bfloat16"), A((512, 56, 196), "bfloat16"), A((512, 56, 196), "bfloat16"),
              A((56,), "float32"), A((56,), "float32"), A((56,), "float32"), A((56,), "float32"),
              A((56,), "float32"), A((512, 56, 196), "bfloat16"), K(512), K(196), K(256)], (56, 1, 1)))
    add(Case("AN_gptj_layernorm_28b0ef", g, BB + "var_mean_28b0ef07dcb9/oracle.py", "_gptj_layernorm_kernel",
             [A((128, 4096), "bfloat16"), A((128, 4096), "bfloat16"), A((128, 4096), "float32"),
              A((4096,), "float32"), A((4096,), "float32"), A((128, 4096), "float32"), A((128, 4096), "bfloat16"),
              A((128,), "float32"), K(4096), K(4096)], (128, 1, 1)))
    add(Case("AN_where_partial_sum_7cfdb8", g, BB + "sum_7cfdb80c54c5/oracle.py", "_where_partial_sum_kernel",
             [A((128, 128), "bfloat16"), A((1,), "bfloat16"), A((128, 128), "bfloat16"), A((128, 128), "bfloat16"),
              A((128,), "float32"), A((128,), "float32"), K(128), K(128), K(128), K(4), K(True)], (1, 32, 1)))
    add(Case("AN_dropout_residual_ln_62fd72", g, BB + "var_mean_62fd7229eda3/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((16384, 768), "bfloat16"), A((16384, 768), "float32"), A((16384, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((12582912,), "bool"), A((12582912,), "float32"),
              A((12582912,), "float32"), A((12582912,), "bfloat16"), A((12582912,), "bfloat16"),
              A((16384,), "float32"), K(768), K(1024)], (16384, 1, 1)))
    add(Case("AN_row_partial_ed793b", g, BB + "sum_sum_sum_ed793bcaf7cf/oracle.py", "_row_partial_kernel",
             [A((16384, 1024), "bfloat16"), A((16384, 1024), "float32"), A((1024,), "float32"),
              A((16384, 1024), "float32"), A((16384,), "float32"), A((16384, 1024), "bool"),
              A((16384, 1024), "float32"), A((16384, 1024), "bfloat16"), A((1024, 1024), "float32"),
              A((1024, 1024), "float32"), A((1024, 1024), "float32"), K(768), K(16), K(1024)], (1024, 1, 1)))
    add(Case("AN_finalize_ed793b", g, BB + "sum_sum_sum_ed793bcaf7cf/oracle.py", "_finalize_kernel",
             [A((1024, 1024), "float32"), A((1024, 1024), "float32"), A((1024, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((1024,), "float32"), K(1024), K(8),
              K(1024)], (128, 1, 1)))
    add(Case("AN_partial_563676", g, BB + "sum_sum_563676e3726c/oracle.py", "_partial_kernel",
             [A((25088, 128), "bfloat16"), A((25088, 128), "bfloat16"), A((128,), "float32"), A((128,), "float32"),
              A((128,), "float32"), A((128,), "float32"), A((1,), "bfloat16"), A((25088, 128), "float32"),
              A((392, 128), "float32"), A((392, 128), "float32"), K(64), K(128)], (392, 1, 1)))
    add(Case("AN_finalize_563676", g, BB + "sum_sum_563676e3726c/oracle.py", "_finalize_kernel",
             [A((392, 128), "float32"), A((392, 128), "float32"), A((128,), "float32"), A((128,), "float32"),
              A((128,), "float32"), A((128,), "float32"), A((128,), "float32"), A((128,), "float32"),
              A((128,), "float32"), K(392), K(512)], (128, 1, 1)))
    add(Case("AN_epilogue_563676", g, BB + "sum_sum_563676e3726c/oracle.py", "_epilogue_kernel",
             [A((25088, 128), "float32"), A((25088, 128), "bfloat16"), A((128,), "float32"), A((128,), "float32"),
              A((128,), "float32"), A((128,), "float32"), A((25088, 128), "bfloat16"), K(64),
              K(128)], (392, 1, 1)))
    add(Case("AN_copy_where_reduce_d23ffc", g, BB + "sum_d23ffc348e07/oracle.py", "_copy_where_reduce_kernel",
             [A((23768064,), "bfloat16"), A((23789484,), "bool"), A((23768064,), "bfloat16"),
              A((5888,), "float32"), K(92844), K(64), K(5947392), K(92928), K(23), K(4096)], (64, 4, 23)))
    add(Case("AN_final_sum_d23ffc", g, BB + "sum_d23ffc348e07/oracle.py", "_final_sum_kernel",
             [A((64, 92), "float32"), A((64,), "float32"), K(92), K(128)], (64, 1, 1)))
    add(Case("AN_silu_15e408", g, BB + "pointwise_15e408415993/oracle.py", "_silu_kernel",
             [A((3932160,), "bfloat16"), A((3932160,), "bfloat16"), K(1024)], (3840, 1, 1)))
    add(Case("AN_safe_softmax_dropout_997df2", g, BB + "amax_sum_any_997df2cdb45c/oracle.py",
             "_safe_softmax_dropout_kernel",
             [A((131072, 128), "bfloat16"), A((131072, 128), "bfloat16"), A((131072, 128), "float32"),
              A((131072, 128), "bfloat16"), A((131072, 128), "bool"), A((131072, 128), "bfloat16"),
              K(128)], (131072, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-an-launch"))]
