"""Validation set AH: 32 launches of 26 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as set AG was, from the files
neither it nor sets W and Y used, before any prediction for them was looked at (model version 77
frozen first, the predictions committed before the device run).

The draw (`python bench/cost_bbench_draw.py AH BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 45 of sets W, Y and AG,
`random.Random(37).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch. No
file was passed over. So the sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (sum_f3f44f50fa4d's copy-and-reduce and sum;
sum_sum_265e9af469d5's partial reduction, finalisation and epilogue; sum_sum_sum_fa89e02bc4cb's
producer and finalisation; pointwise_87cb1a76ed86's two halves; sum_aa70ea7e1d52's producer and
finalisation). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-ah`) and as tilescope's launch builds it
(`validate-ah-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setah_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-ah"
    add(Case("AH_xlnet_residual_layernorm_60f287", g, BB + "var_mean_60f28772f7d2/oracle.py",
             "_xlnet_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "bfloat16"), A((1024,), "bfloat16"),
              A((1024,), "bfloat16"), A((8192, 1024), "bfloat16"), K(1024), K(1024)], (8192, 1, 1)))
    add(Case("AH_dropout_residual_ln_06edf7", g, BB + "var_mean_06edf7b2c05f/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((16384, 768), "bfloat16"), A((16384, 768), "float32"), A((16384, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((16384, 768), "bool"), A((16384, 768), "float32"),
              A((16384, 768), "float32"), A((16384, 768), "bfloat16"), A((16384,), "float32"), K(768), K(1024),
              K(768.0)], (16384, 1, 1)))
    add(Case("AH_softmax_backward_1bdd25", g, BB + "amax_sum_sum_1bdd2568d0b8/oracle.py",
             "_softmax_backward_kernel",
             [A((1,), "float32"), A((1,), "float32"), A((8, 2), "bool"), A((8, 1), "bool"), A((8, 2), "bfloat16"),
              A((8, 2), "bfloat16"), A((8, 2), "bfloat16"), K(8)], (1, 1, 1)))
    add(Case("AH_dropout_residual_layernorm_19d8f8", g, BB + "var_mean_19d8f8be3ff8/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024)],
              (8192, 1, 1)))
    add(Case("AH_dropout_residual_layernorm_50316b", g, BB + "var_mean_50316b328972/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((32768, 768), "bfloat16"), A((32768, 768), "float32"), A((32768, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((32768, 768), "bool"), A((32768, 768), "float32"),
              A((32768, 768), "float32"), A((32768, 768), "bfloat16"), A((32768,), "float32"), K(768), K(1024),
              K(1.1111111111111112), K(1e-12)], (32768, 1, 1)))
    add(Case("AH_dropout_residual_ln_c0264c", g, BB + "var_mean_c0264c0d2975/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024)],
              (8192, 1, 1)))
    add(Case("AH_dropout_residual_layernorm_31311f", g, BB + "var_mean_31311fcd2f9a/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 2048), "bool"), A((4096, 2048), "float32"),
              A((4096, 2048), "float32"), A((4096, 2048), "bfloat16"), A((4096,), "float32"), K(1536), K(2048)],
              (4096, 1, 1)))
    add(Case("AH_affine_silu_prod_c91da8", g, BB + "sum_sum_c91da8ecf163/oracle.py", "_affine_silu_prod_kernel",
             [A((51380224,), "bfloat16"), A((51380224,), "bfloat16"), A((51380224,), "float32"),
              A((51380224,), "float32"), A((51380224,), "float32"), A((51380224,), "float32"),
              A((51380224,), "float32"), A((51380224,), "bfloat16"), K(256)], (200704, 1, 1)))
    add(Case("AH_token_masked_scaled_softmax_68ce17", g, BB + "amax_sum_68ce17870caf/oracle.py",
             "_token_masked_scaled_softmax_kernel",
             [A((2048,), "int64", "index:18566"), A((3145728,), "bfloat16"), A((262144,), "bool"),
              A((3145728,), "bfloat16"), K(16384), K(128), K(1), K(16384), K(128), K(1), K(12), K(128), K(128),
              K(8), K(128), K(-998244352.0)], (2048, 2, 1)))
    add(Case("AH_residual_layernorm_h2560_2bd313", g, BB + "var_mean_2bd313f3c17f/oracle.py",
             "_residual_layernorm_h2560_kernel",
             [A((2048, 2560), "bfloat16"), A((2048, 2560), "bfloat16"), A((2560,), "bfloat16"),
              A((2560,), "bfloat16"), A((2048, 4096), "bfloat16"), K(2560), K(4096)], (2048, 1, 1)))
    add(Case("AH_gelu_f662d0", g, BB + "pointwise_f662d0fd23e3/oracle.py", "_gelu_kernel",
             [A((33554432,), "bfloat16"), A((33554432,), "bfloat16"), K(1024)], (32768, 1, 1)))
    add(Case("AH_scaled_copy_reduce_f3f44f", g, BB + "sum_f3f44f50fa4d/oracle.py", "_scaled_copy_reduce_kernel",
             [A((5242880,), "bfloat16"), A((5242880,), "bfloat16"), A((81920,), "float32"), K(10240), K(128), K(1),
              K(32), K(80), K(128), K(2048), K(2560), K(0.334370152488211), K(64), K(64)], (32, 40, 1)))
    add(Case("AH_finish_sum_f3f44f", g, BB + "sum_f3f44f50fa4d/oracle.py", "_finish_sum_kernel",
             [A((81920,), "float32"), A((2560,), "float32"), K(32), K(2560), K(32), K(64)], (40, 1, 1)))
    add(Case("AH_spatial_reduce_f1db21", g, BB + "sum_sum_f1db211e227c/oracle.py", "_spatial_reduce_kernel",
             [A((61440, 784), "bfloat16"), A((61440, 784), "bfloat16"), A((61440,), "float32"), K(1024)],
              (61440, 1, 1)))
    add(Case("AH_dropout_residual_layernorm_f1628f", g, BB + "var_mean_f1628f66ca9d/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 2048), "bool"), A((4096, 2048), "float32"),
              A((4096, 2048), "float32"), A((4096, 2048), "bfloat16"), A((4096,), "float32"), K(1536), K(2048)],
              (4096, 1, 1)))
    add(Case("AH_gt_zero_mask_any_191888", g, BB + "any_1918882eece2/oracle.py", "_gt_zero_mask_any_kernel",
             [A((8192,), "bfloat16"), A((8192,), "bool"), A((1,), "bool"), K(8192)], (1, 1, 1)))
    add(Case("AH_dropout_residual_ln_62d1a0", g, BB + "var_mean_62d1a04fba6c/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((16384, 768), "bfloat16"), A((16384, 768), "float32"), A((16384, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((12582912,), "bool"), A((12582912,), "float32"),
              A((12582912,), "float32"), A((12582912,), "bfloat16"), A((12582912,), "bfloat16"),
              A((16384,), "float32"), K(768), K(1024)], (16384, 1, 1)))
    add(Case("AH_partial_reduce_265e9a", g, BB + "sum_sum_265e9af469d5/oracle.py", "_partial_reduce_kernel",
             [A((100352, 672), "bfloat16"), A((100352, 336), "bfloat16"), A((100352, 336), "bfloat16"),
              A((1,), "bfloat16"), A((100352, 336), "bfloat16"), A((336,), "float32"), A((196, 336), "float32"),
              A((196, 336), "float32"), K(512), K(16)], (21, 196, 1)))
    add(Case("AH_finalize_265e9a", g, BB + "sum_sum_265e9af469d5/oracle.py", "_finalize_kernel",
             [A((196, 336), "float32"), A((196, 336), "float32"), A((336,), "float32"), A((336,), "float32"),
              A((336,), "float32"), A((336,), "float32"), A((336,), "float32"), A((336,), "float32"),
              A((336,), "float32"), K(196), K(256), K(16)], (21, 1, 1)))
    add(Case("AH_epilogue_265e9a", g, BB + "sum_sum_265e9af469d5/oracle.py", "_epilogue_kernel",
             [A((67436544,), "bfloat16"), A((33718272,), "bfloat16"), A((33718272,), "bfloat16"),
              A((1,), "bfloat16"), A((33718272,), "bfloat16"), A((336,), "float32"), A((336,), "float32"),
              A((336,), "float32"), A((336,), "float32"), A((33718272,), "bfloat16"), K(512)], (65856, 1, 1)))
    add(Case("AH_grn_producer_fa89e0", g, BB + "sum_sum_sum_fa89e02bc4cb/oracle.py", "_grn_producer_kernel",
             [A((401408, 80), "bfloat16"), A((80,), "float32"), A((401408, 80), "float32"), A((401408,), "float32"),
              A((401408, 80), "float32"), A((401408, 80), "bfloat16"), A((1204224,), "float32"), K(401408), K(80),
              K(3136), K(128), K(128), K(80.0)], (3136, 1, 1)))
    add(Case("AH_grn_finalize_fa89e0", g, BB + "sum_sum_sum_fa89e02bc4cb/oracle.py", "_grn_finalize_kernel",
             [A((3136, 128), "float32"), A((3136, 128), "float32"), A((3136, 128), "float32"), A((80,), "float32"),
              A((80,), "float32"), A((80,), "float32"), K(80), K(3136), K(4096), K(128)], (1, 1, 1)))
    add(Case("AH_dropout_residual_ln_fb9b8d", g, BB + "var_mean_fb9b8dccff88/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((16384, 768), "bfloat16"), A((16384, 768), "float32"), A((16384, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((16384, 768), "bool"), A((16384, 768), "float32"),
              A((16384, 768), "float32"), A((16384, 768), "bfloat16"), A((16384,), "float32"), K(768), K(1024),
              K(768.0)], (16384, 1, 1)))
    add(Case("AH_copy_first_half_87cb1a", g, BB + "pointwise_87cb1a76ed86/oracle.py", "_copy_first_half_kernel",
             [A((19619840,), "bfloat16"), A((19619840,), "bfloat16"), K(19619840), K(1024)], (19160, 1, 1)))
    add(Case("AH_resize_pad_second_half_87cb1a", g, BB + "pointwise_87cb1a76ed86/oracle.py",
             "_resize_pad_second_half_kernel",
             [A((128,), "bfloat16"), A((4894720,), "bfloat16"), A((128,), "bfloat16"), A((128,), "bfloat16"),
              A((128,), "bfloat16"), A((19619840,), "bfloat16"), K(128), K(160), K(239), K(320), K(478), K(479),
              K(38240), K(153280), K(512)], (40960, 1, 1)))
    add(Case("AH_t5_loss_backward_055125", g, BB + "sum_0551250469f2/oracle.py", "_t5_loss_backward_kernel",
             [A((8192, 32768), "bfloat16"), A((8192, 32768), "float32"), A((8192, 32768), "float32"),
              A((8192, 32768), "float32"), A((8192, 32768), "bfloat16"), A((8192, 32768), "bfloat16"),
              A((8192, 32768), "bfloat16"), K(8), K(512)], (1024, 64, 1)))
    add(Case("AH_dropout_residual_layernorm_b1d294", g, BB + "var_mean_b1d294e82f98/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024)],
              (8192, 1, 1)))
    add(Case("AH_produce_aa70ea", g, BB + "sum_aa70ea7e1d52/oracle.py", "_produce_kernel",
             [A((4, 128, 23210), "bfloat16"), A((4, 256, 23210), "bfloat16"), A((4, 256, 23210), "bfloat16"),
              A((2, 364, 128), "float32"), K(91), K(32), K(256)], (4, 4, 91)))
    add(Case("AH_finalize_aa70ea", g, BB + "sum_aa70ea7e1d52/oracle.py", "_finalize_kernel",
             [A((2, 364, 128), "float32"), A((256,), "float32"), K(364), K(128), K(32)], (4, 1, 1)))
    add(Case("AH_densenet_pool_057287", g, BB + "sum_sum_057287685232/oracle.py", "_densenet_pool_kernel",
             [A((786432,), "bfloat16"), A((655360,), "bfloat16"), A((1,), "bfloat16"), A((655360,), "bfloat16"),
              A((655360,), "bfloat16"), A((80,), "float32"), A((80,), "float32"), A((80,), "float32"),
              A((80,), "float32"), A((80,), "float32"), A((2621440,), "bfloat16"), K(8192)], (80, 1, 1)))
    add(Case("AH_dropout_residual_rmsnorm_d1274b", g, BB + "mean_d1274b12566d/oracle.py",
             "_dropout_residual_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"),
              A((512,), "float32"), A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"),
              A((4096, 512), "bfloat16"), K(512)], (4096, 1, 1)))
    add(Case("AH_dropout_ln_ff238b", g, BB + "var_mean_ff238bf0bce8/oracle.py", "_dropout_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192,), "float32"), A((8192,), "float32"), A((8192, 1024), "bfloat16"), K(1024)], (8192, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-ah-launch"))]
