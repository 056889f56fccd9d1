"""Validation set Y: thirteen kernels of twelve files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels that set W did not use, drawn before any prediction for them was
looked at (model version 54 frozen first, the predictions committed before the device run).

The draw: of the 1,727 `repros_cutile/canonical/*/oracle.py` files at 66bb464 (`--repo bbench=DIR`,
as set W), less set W's eight, `random.Random(2026)` sampled by the name's kind, roughly as the
kinds are common: pointwise 3, var_mean 3, sum_sum, sum_sum_sum, sum, amax_sum, mean and mean_var
one each. Each file's kernels are built for its first shape point (`repros/canonical/*/shapes.json`);
a file whose launch would take a few microseconds at that shape is scaled where its kernel reads
sizes from its arguments (the hard-swish: 1,024 times the file's 32 x 1280), and kept as it is
where its module fixes them (the scalar copy, the selected-row norm). Files with several kernels
give the two that cover the whole tensor (sum_sum_4100b99aa8b9's partial reduction and epilogue;
its per-channel finalisation of 7 values is left out). Arrays are the inputs' dtypes as the shape
points give them (sum_sum_4100b99aa8b9's centred source is bfloat16 there, float32 in a comment).
- `_gelu_dropout_kernel` (pointwise_1feab3394459): BERT's erf GELU and dropout, 1,024-element tiles;
- `_hardswish_bf16_kernel` (pointwise_5e98a1498875): MobileNetV3's hard swish, 1,024-element tiles;
- `_scalar_fresh_copy_kernel` (pointwise_9f7dce7fb407): one element copied by one block;
- `_dropout_residual_layernorm_kernel` (var_mean_a678817dc522): DeBERTa's dropout, residual add and
  layer norm, rows of 1,536 in 2,048-element tiles, five outputs;
- `_residual_ln_permute_kernel` (var_mean_d49a6f9122fd): XLNet's residual layer norm stored permuted;
- `_dropout_residual_layernorm_kernel` (var_mean_232f8ebe7430): ConvBERT's, rows of 768 in 1,024
  tiles with zero padding, outputs padded to 1,024;
- `_partial_reduce_kernel` and `_epilogue_kernel` (sum_sum_4100b99aa8b9): DenseNet's batch-norm
  backward over (4, 160, 56, 56) by gathers of 2,048 offsets, the epilogue also adding three
  residual slices;
- `_bn_epilogue_channel_kernel` (sum_sum_sum_fb3a1658dadb): RepVGG's batch-norm backward epilogue,
  one channel of 128 x 112 x 112 a block in one 2^21-element tile;
- `_selected_row_norm_kernel` (sum_b822d095bf9f): a row's L2 norm and division, 64 blocks;
- `_softmax_dropout_kernel` (amax_sum_e1a43ba9dec2): T5's attention softmax with dropout, rows of
  1,024;
- `_dropout_rmsnorm_kernel` (mean_e87c2c02866f): MT5's dropout, residual add and RMS norm;
- `_dropout_dropout_layernorm_kernel` (mean_var_cd39df132c99): BERT's two dropouts and layer norm
  by gathers and scatters of a masked 1,024-column row.
Each kernel is built dynamically shaped (`validate-y`) and as tilescope's launch builds it
(`validate-y-launch`), as sets M-X.
"""
from __future__ import annotations

from typing import List

from cost_setw import HOST_MODULES as SETW_HOST
from costval_case import A, Case, K

BB = "bbench:repros_cutile/canonical/"
COMMITS = {"bbench": "eellison/better-benchmark 66bb464fffce8a05264ddcbfcb85bba1b8a01ecc"}

# Host modules the files import, stood in while a kernel module loads: set W's, and Inductor's
# random-number primitives, which the dropout files' host code calls
HOST_MODULES = {"bbench": {**SETW_HOST["bbench"], "torch._inductor": {}, "torch._inductor.inductor_prims": {}}}


def sety_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    k = "validate-y"
    bf16, f32, b8 = "bfloat16", "float32", "bool"

    n = 2048 * 3072 // d
    add(Case("Y_bb_gelu_dropout_bf16_2048x3072", k, BB + "pointwise_1feab3394459/oracle.py", "_gelu_dropout_kernel",
             [A((n,), bf16), A((n,), f32), A((n,), b8, "zeros"), A((n,), bf16, "zeros"), K(1024)], (n // 1024,)))
    n = 32 * 1280 * 1024 // d
    add(Case("Y_bb_hardswish_bf16_32x1280x1024", k, BB + "pointwise_5e98a1498875/oracle.py", "_hardswish_bf16_kernel",
             [A((n,), bf16), A((n,), bf16, "zeros"), K(1024)], (n // 1024,)))
    add(Case("Y_bb_scalar_copy_bf16_1", k, BB + "pointwise_9f7dce7fb407/oracle.py", "_scalar_fresh_copy_kernel",
             [A((1,), bf16), A((1,), bf16, "zeros")], (1,)))

    rows, hid = 4096 // d, 1536
    add(Case("Y_bb_deberta_dropout_ln_bf16_4096x1536", k, BB + "var_mean_a678817dc522/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((rows, hid), bf16), A((rows, hid), f32), A((rows, hid), f32), A((hid,), f32), A((hid,), f32),
              A((rows, hid), b8, "zeros"), A((rows, hid), f32, "zeros"), A((rows, hid), f32, "zeros"),
              A((rows, hid), bf16, "zeros"), A((rows, 1), f32, "zeros"), K(hid), K(2048), K(1), K(1.0e-7)],
             (rows,)))
    add(Case("Y_bb_xlnet_residual_ln_permute_bf16_8192x1024", k, BB + "var_mean_d49a6f9122fd/oracle.py",
             "_residual_ln_permute_kernel",
             [A((8192, 1024), bf16), A((8192, 1024), bf16), A((1024,), bf16), A((1024,), bf16),
              A((16, 512, 1024), bf16, "zeros"), K(1024)], (8192,)))
    rows, hid = 16384 // d, 768
    add(Case("Y_bb_convbert_dropout_ln_bf16_16384x768", k, BB + "var_mean_232f8ebe7430/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((rows, hid), bf16), A((rows, hid), f32), A((rows, hid), f32), A((hid,), f32), A((hid,), f32),
              A((rows, 1024), b8, "zeros"), A((rows, 1024), f32, "zeros"), A((rows, 1024), bf16, "zeros"),
              A((rows,), f32, "zeros"), K(hid), K(1024)], (rows,)))

    # DenseNet's batch-norm backward: the module fixes (4, 160, 56, 56)
    nchw, blocks = 4 * 160 * 3136, (4 * 3136 + 2047) // 2048
    add(Case("Y_bb_densenet_bn_partial_reduce_bf16_4x160x56x56", k, BB + "sum_sum_4100b99aa8b9/oracle.py",
             "_partial_reduce_kernel",
             [A((nchw,), bf16), A((1,), bf16), A((nchw,), bf16), A((nchw,), bf16), A((160,), f32),
              A((blocks, 160), f32, "zeros"), A((blocks, 160), f32, "zeros"), K(4 * 3136), K(2048)], (160, blocks)))
    add(Case("Y_bb_densenet_bn_epilogue_bf16_4x160x56x56", k, BB + "sum_sum_4100b99aa8b9/oracle.py",
             "_epilogue_kernel",
             [A((4 * 256 * 3136,), bf16), A((4 * 224 * 3136,), bf16), A((4 * 192 * 3136,), bf16),
              A((nchw,), bf16), A((1,), bf16), A((nchw,), bf16), A((nchw,), bf16),
              A((160,), f32), A((160,), f32), A((160,), f32), A((160,), f32), A((160,), f32),
              A((nchw,), bf16, "zeros"), A((4 * 32 * 3136,), bf16, "zeros"), K(4 * 3136), K(2048)], (160, blocks)))
    nhw = 128 * 112 * 112 // d
    add(Case("Y_bb_repvgg_bn_epilogue_f32_64x128x112x112", k, BB + "sum_sum_sum_fb3a1658dadb/oracle.py",
             "_bn_epilogue_channel_kernel",
             [A((64, nhw), f32), A((64, nhw), f32), A((64,), f32), A((64,), f32), A((64,), f32),
              A((64, nhw), bf16, "zeros"), K(nhw), K(1 << (nhw - 1).bit_length())], (64,)))
    add(Case("Y_bb_selected_row_norm_bf16_64x50x256", k, BB + "sum_b822d095bf9f/oracle.py",
             "_selected_row_norm_kernel",
             [A((64, 50, 256), bf16), A((64,), f32, "zeros"), A((64, 256), f32, "zeros"), K(256)], (64,)))
    rows = 64 * 1024 // d
    add(Case("Y_bb_t5_softmax_dropout_bf16_65536x1024", k, BB + "amax_sum_e1a43ba9dec2/oracle.py",
             "_softmax_dropout_kernel",
             [A((rows, 1024), bf16), A((rows, 1024), f32), A((rows,), f32, "zeros"), A((rows,), f32, "zeros"),
              A((rows, 1024), b8, "zeros"), A((rows, 1024), bf16, "zeros"), K(1024)], (rows,)))
    rows, hid = 4096 // d, 512
    add(Case("Y_bb_mt5_dropout_rmsnorm_bf16_4096x512", k, BB + "mean_e87c2c02866f/oracle.py",
             "_dropout_rmsnorm_kernel",
             [A((rows, hid), bf16), A((rows, hid), f32), A((rows, hid), f32), A((hid,), f32),
              A((rows, hid), b8, "zeros"), A((rows, hid), f32, "zeros"), A((rows, 1), f32, "zeros"),
              A((rows, hid), bf16, "zeros"), K(hid), K(512), K(1), K(1.1111111111111112), K(1.0e-6)], (rows,)))
    rows, hid = 2048 // d, 768
    add(Case("Y_bb_bert_dropout2_ln_gather_bf16_2048x768", k, BB + "mean_var_cd39df132c99/oracle.py",
             "_dropout_dropout_layernorm_kernel",
             [A((rows, hid), bf16), A((rows, hid), f32), A((rows, hid), f32), A((rows, hid), f32), A((hid,), f32),
              A((hid,), f32), A((rows, hid), b8, "zeros"), A((rows, hid), b8, "zeros"),
              A((rows, hid), f32, "zeros"), A((rows,), f32, "zeros"), A((rows, hid), f32, "zeros"),
              A((rows, hid), bf16, "zeros"), K(hid), K(1024)], (rows,)))

    for x in list(out):
        add(x.launched("validate-y-launch"))
    return out
