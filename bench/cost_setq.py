"""Validation set Q: eight kernels of NVIDIA/TileGym that no earlier set (A-P) used, chosen for
variety (attention variants above all: prefill with sinks, soft caps, sliding windows, MLA, two
split-KV decoders; and a chunked linear-attention scan) and fixed before any prediction for them
was looked at (the model frozen first, the predictions committed before the device run).

No new repository gave a usable kernel: the repositories find_repos lists for "cutile" and
"cuda-tile" that earlier sets had not read are C/C++ utility libraries, dotfiles, Julia or Rust
bindings, CUDA C benchmarks or hold no cuTile Python kernel, and the other files that
`import cuda.tile as ct` or `@ct.kernel` find are ports of TileGym's or TileBench's files. So
every kernel here is one of an already-used repository that NO set used, each marked
[no set used] below:

- NVIDIA/TileGym (src/tilegym/ops/cutile at 75a1430, the commit of sets D and E, read through
  `--repo gym=DIR`; files that sets D, E, K and L did not read), each file's own launch (its
  fixed tiles where autotuning is off, else the first sm_90 configuration of its autotune list,
  with the kernel's declared occupancy), on a model's shapes:
  - `experimental/swa_attention.py` `_swa_fwd_kernel` [no set used]: sliding-window causal
    attention over flattened (heads x padded sequence, head dim) buffers, the key loop starting
    at the window's first tile, float16, 64x128 tiles, `occupancy=2`; Mistral-7B's 32 heads of
    128 (its launcher repeats the KV heads), window 4,096, 16,384 tokens;
  - `attention_sink.py` `_attention_sink_kernel` [no set used]: causal attention whose softmax
    adds a learned per-head sink logit, the query offset read from memory, grouped heads, 128x128
    tiles (its launch without autotuning); gpt-oss's 64 query heads over 8 KV heads of 64, full
    layers (no band), 2 sequences of 8,192, bfloat16;
  - `gemma_attention.py` `_gemma_fmha_kernel` [no set used]: causal attention with logit soft
    capping (tanh) and a sliding window, grouped heads, head dim 256 (its first configuration
    for heads wider than 128: 64x32 tiles, `occupancy=2`); Gemma-2-9B's 16 heads over 8 KV heads,
    soft cap 50, window 4,096, 2 sequences of 8,192, bfloat16;
  - `mla.py` `_prefill_mla_kernel` [no set used]: causal MLA prefill, a 128-wide no-RoPE part
    and a 64-wide RoPE part (one RoPE key per batch) in two `mma` per key tile; DeepSeek-V3's
    128 heads, 4,096 tokens, bfloat16, 64x64 tiles (its first sm_90 configuration);
  - `mla_decoding_split_kv.py` `_naive_absorb_mla_transpose_kernel` [no set used]: absorbed MLA
    decode over the latent cache, 16 heads a block, split KV (the partial outputs and base-2
    log-sum-exps stored by `scatter` for a later reduction), keys loaded transposed by `order=`;
    DeepSeek-V3: 128 heads, latent 512, RoPE 64, 64 requests of 8,192 cached tokens (2 splits).
    The source passes the latent cache as both keys and values; a case cannot state one array
    twice, so the values are read from a second array of the same shape;
  - `gemma_attention_decode.py` `_gemma_attention_decode_kernel_grouped` [no set used]: soft-capped
    grouped-query decode, the query heads of a KV head padded to 8 rows, split KV; Gemma-2-9B's
    global layers (no window), head dim 256, 32 requests of 8,192 cached tokens (1 split);
  - `chunk_gated_delta_rule.py` `_intra_chunk_prepare_kernel` and `_chunk_inter_recurrence_kernel`
    [no set used]: the gated DeltaNet in chunks of 64, the first kernel per (head, chunk)
    (L2-normalised query and key, cumulative decay, a triangular solve by 6 Neumann steps,
    bfloat16 intermediates), the second one block per head walking all chunks in order with the
    128x128 state carried (the final state stored); Qwen3-Next's 32 heads of 128 (one head count
    for query, key and value, as the kernel takes), 8 sequences of 8,192. The decays are init
    `rand` (the run's inputs; the check below used negative ones).

Each kernel is built dynamically shaped (`validate-q`) and as tilescope's launch builds it
(`validate-q-launch`), as sets M-P. Nothing is copied here: the files are read from the checkout
(`cost_setm.load_checkout`; TileGym's host modules `tilegym.*` stood in while a module loads,
`tilegym.experimental`'s marker `experimental_kernel` handing the kernel back: `HOST_MODULES`).

Every case built (tileiras 13.4, sm_90; the slowest, Gemma's decode, 53 s on a loaded machine)
and ran on the CPU executor at the small sizes with no bounds report, and all eight agreed there
with a NumPy reference: relative error 3e-4 (float16 sliding window) and 1.6e-3 to 4.1e-3 in
bfloat16 (sinks, soft cap, MLA prefill, both decoders' partial outputs; their log-sum-exps to
2e-3 or less); the two gated DeltaNet kernels chained against the token-by-token recurrence to
2.9e-3 (outputs) and 2.7e-3 (final state). None was replaced.

Considered and left out: TileGym's `group_gemm.py` and upstream's `group_gemm.py` (lists of
arrays as arguments, which a case cannot state), upstream's `scaled_matmul.py` and
`samples/BlockScaledMatMul.py` (block-scaled `mma`), `experimental/nvfp4_quantize.py` (its
kernel is built by a factory, not a module attribute), `attention_sink_decode.py` (imports
`tilegym.ops` at load), `experimental/sparse_mla.py` (its launch without autotuning takes the
first configuration, one head and 16 gathered keys a block: seconds at a model's sizes) and
`moe.py` (a fused MoE GEMM, a kind sets K and O timed).
"""
from __future__ import annotations

import math
from typing import List

from costval_case import A, Case, K, S

GYM = "gym:src/tilegym/ops/cutile/"
COMMITS = {"gym": "NVIDIA/TileGym@75a1430"}

# Modules the checkouts' host code imports, stood in while a kernel module loads.
# TileGym's `@experimental_kernel` marks kernels: its stand-in hands the function back unchanged.
HOST_MODULES = {"gym": {"tilegym": {}, "tilegym.backend": {}, "tilegym.logger": {}, "tilegym.autotune": {},
                        "tilegym.experimental": {"experimental_kernel": lambda f=None, **kw: f if f else (lambda g: g)}}}


def setq_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    k = "validate-q"
    f16, bf16, i32 = "float16", "bfloat16", "int32"

    # _swa_fwd_kernel (tile_swa_attention: TILE_M 64, TILE_N 128, grid (cdiv(S, 64), B * H); KV heads
    # repeated to H; buffers (B * H * S, D)); Mistral-7B: 32 heads of 128, window 4,096
    h, s, dh, win = 32 // d, 16384 // d, 128, 4096 // d
    add(Case("Q_gym_swa_attention_f16_32hx16384_w4096", k, GYM + "experimental/swa_attention.py", "_swa_fwd_kernel",
             [A((h * s, dh), f16), A((h * s, dh), f16), A((h * s, dh), f16), A((h * s, dh), f16, "zeros"),
              S(1 / math.sqrt(dh)), S(s, i32), S(win, i32), S(s // 64, i32), S(s // 128, i32), K(64), K(128), K(dh),
              K(True)], (s // 64, h)))

    # _attention_sink_kernel (attention_sink without autotuning: TILE_M 128, TILE_N 128, grid
    # (cdiv(n_ctx, 128), bs * heads)); gpt-oss: 64 heads over 8 KV heads of 64, sm_scale 0.125
    bs, hq, hkv, sq, dq = 2, 64 // d, 8 // d, 8192 // d, 64
    add(Case("Q_gym_attention_sink_bf16_2x8192_64q8kv", k, GYM + "attention_sink.py", "_attention_sink_kernel",
             [A((bs, hq, sq, dq), bf16), A((bs, hkv, sq, dq), bf16), A((bs, hkv, sq, dq), bf16), A((hq,)),
              A((bs, hq, sq, dq), bf16, "zeros"), A((1,), i32, "zeros"), S(0.125), K(dq), K(hq), K(sq), K(128),
              K(128), K(hq // hkv), K(0)], (sq // 128, bs * hq)))

    # _gemma_fmha_kernel (gemma attention without autotuning: head dim 256 -> BLOCK_M 64, BLOCK_N 32;
    # causal STAGE 3, EVEN_K); Gemma-2-9B: 16 heads over 8 KV heads, soft cap 50, window 4,096,
    # query_pre_attn_scalar 256
    gb, gh, gkv, gs, gd = 2, 16 // d, 8 // d, 8192 // d, 256
    add(Case("Q_gym_gemma_attention_softcap_window_bf16_2x8192_16q8kv_d256", k, GYM + "gemma_attention.py",
             "_gemma_fmha_kernel",
             [A((gb, gh, gs, gd), bf16), A((gb, gkv, gs, gd), bf16), A((gb, gkv, gs, gd), bf16),
              A((gb, gh, gs, gd), bf16, "zeros"), S(1 / 16), K(gb), K(gh), K(gs), K(gs), K(gd), K(64), K(32),
              K(gh // gkv), K(3), K(4096 // d), K(50.0), K(True), K(True)], (gs // 64, gb * gh)))

    # _prefill_mla_kernel (tile_mla's first sm_90 configuration: TILE_M 64, TILE_N 64, occupancy 1;
    # grid (cdiv(S, 64), B * H); as many KV heads as heads: query_group_size 0); DeepSeek-V3: 128
    # heads, no-RoPE 128, RoPE 64, softmax scale 1 / sqrt(192)
    mh, ms, md, mp = 128 // d, 4096 // d, 128, 64
    add(Case("Q_gym_mla_prefill_bf16_4096t_128h", k, GYM + "mla.py", "_prefill_mla_kernel",
             [A((1, mh, ms, md), bf16), A((1, mh, ms, mp), bf16), A((1, mh, ms, md), bf16), A((1, 1, ms, mp), bf16),
              A((1, mh, ms, md), bf16), A((1, mh, ms, md), bf16, "zeros"), S(1 / math.sqrt(md + mp)), K(md), K(mp),
              S(mh, i32), K(64), K(64), K(0)], (ms // 64, mh)))

    # _naive_absorb_mla_transpose_kernel (mla_decoding_split_kv: TILE_H 16, TILE_N 128, the split length
    # the next power of two of S_kv / max(1, SMs / B), at least 128; grid (H / 16, B, splits); the latent
    # cache passed as keys and values); DeepSeek-V3's absorbed decode: 128 heads, latent 512, RoPE 64,
    # 64 requests of 8,192 cached tokens, softmax scale 1 / sqrt(192)
    db, dhh, dkv, dl, dr = 64 // d, 128, 8192 // d, 512, 64
    split = max(1 << (max(1, dkv // max(1, 132 // db)) - 1).bit_length(), 128)
    ns = -(-dkv // split)
    cache = A((db, dkv, dl), bf16)
    add(Case("Q_gym_mla_decode_split_kv_bf16_64x8192_128h", k, GYM + "mla_decoding_split_kv.py",
             "_naive_absorb_mla_transpose_kernel",
             [A((db, dhh, dl), bf16), A((db, dhh, dr), bf16), cache, cache, A((db, dkv, dr), bf16),
              A((db, dhh, ns, dl), bf16, "zeros"), A((db, dhh, ns), init="zeros"), S(1 / math.sqrt(192)), S(db, i32),
              S(dhh, i32), S(dkv, i32), K(ns), K(split), K(dl), K(16), K(128), K(dr), K(dkv % 128 == 0)],
             (dhh // 16, db, ns)))

    # _gemma_attention_decode_kernel_grouped (gemma_fmha_decode: BLOCK_N 128, splits max(1, SMs / (B * KV
    # heads)), the split length a power of two >= 128, query groups padded to 8 rows; grid (B, KV heads,
    # splits)); Gemma-2-9B's global layers (no window), soft cap 50, 32 requests of 8,192 cached tokens
    eb, eh, ekv, es, ed = 32 // d, 16, 8, 8192 // d, 256
    esplits = max(1, 132 // (eb * ekv))
    elen = max(128, 1 << (-(-es // esplits) - 1).bit_length())
    ens, eper = -(-es // elen), eh // ekv
    add(Case("Q_gym_gemma_decode_softcap_bf16_32x8192_16q8kv_d256", k, GYM + "gemma_attention_decode.py",
             "_gemma_attention_decode_kernel_grouped",
             [A((eb, ekv, eper, ed), bf16), A((eb, ekv, es, ed), bf16), A((eb, ekv, es, ed), bf16),
              A((eb, ekv, eper, ens, ed), bf16, "zeros"), A((eb, ekv, eper, ens), init="zeros"), S(1 / 16), K(eb),
              K(eh), K(ekv), K(es), K(elen), K(ed), K(128), K(eper), K(max(8, eper)), K(ens), K(0), K(50.0), K(True)],
             (eb, ekv, ens)))

    # chunk_gated_delta_rule (chunk_size 64, BLOCK_K 128, SOLVE_STEPS 6, bfloat16 intermediates, query
    # and key L2-normalised in the kernel, the final state stored): Qwen3-Next's gated DeltaNet
    # layers, 32 heads of 128 (one head count for query, key and value, as the kernel takes), 8 x 8,192 tokens
    cb, ch, ct_, cd, cc = 8 // d, 32 // d, 8192 // d, 128, 64
    nc = ct_ // cc
    chunked = [A((cb, ch, nc, cc, cd), bf16, "zeros") for _ in range(4)]
    add(Case("Q_gym_gated_delta_chunk_prepare_bf16_8x8192_32h", k, GYM + "chunk_gated_delta_rule.py",
             "_intra_chunk_prepare_kernel",
             [A((cb, ct_, ch, cd), bf16), A((cb, ct_, ch, cd), bf16), A((cb, ct_, ch, cd), bf16),
              A((cb, ct_, ch), bf16, "rand"), A((cb, ct_, ch), init="rand")] + chunked
             + [A((cb, ch, nc, cc), init="zeros"), S(ct_, i32), S(cd, i32), S(cd, i32), S(1 / math.sqrt(cd)), K(ch),
                K(True), K(cc), K(cd), K(6), K(True)], (cb * ch, nc)))
    # the inter-chunk recurrence (grid (B * H, V / 128)): one block walks all chunks of a head,
    # carrying the 128x128 state
    add(Case("Q_gym_gated_delta_chunk_recurrence_bf16_8x8192_32h", k, GYM + "chunk_gated_delta_rule.py",
             "_chunk_inter_recurrence_kernel",
             [A((cb, ch, nc, cc, cd), bf16) for _ in range(4)]
             + [A((cb, ch, nc, cc), init="rand"), A((cb, ch, nc, cc, cd), init="zeros"), A((1, 1, 1, 1), init="zeros"),
                A((cb, ch, cd, cd), init="zeros"), S(nc, i32), S(cd, i32), S(cd, i32), K(ch), K(False), K(True), K(cc),
                K(cd), K(128)], (cb * ch, 1)))

    for x in list(out):
        add(x.launched("validate-q-launch"))
    return out + deltanet_recurrence_cases(d)


def deltanet_recurrence_cases(d: int = 1) -> List[Case]:
    """The gated DeltaNet's inter-chunk recurrence, dynamic builds, over other batches, head counts,
    chunk and head sizes than set Q's (one wave of blocks or two, 32- and 64-row chunks, heads of 64
    and 128): the IR's one chunk loop against the cubin's loops (history 97). Microbenchmarks, not
    validation launches."""
    out: List[Case] = []
    bf16, i32 = "bfloat16", "int32"
    for cb, ch, tokens, cc, cd in ((4, 32, 8192, 64, 128), (8, 32, 8192, 32, 128), (8, 32, 8192, 64, 64),
                                   (8, 16, 16384, 64, 128)):
        cb, nc = max(1, cb // d), tokens // d // cc
        out.append(Case(f"deltanet_rec_bf16_{cb}x{tokens}_{ch}h_c{cc}_d{cd}", "micro",
                        GYM + "chunk_gated_delta_rule.py", "_chunk_inter_recurrence_kernel",
                        [A((cb, ch, nc, cc, cd), bf16) for _ in range(4)]
                        + [A((cb, ch, nc, cc), init="rand"), A((cb, ch, nc, cc, cd), init="zeros"),
                           A((1, 1, 1, 1), init="zeros"), A((cb, ch, cd, cd), init="zeros"), S(nc, i32), S(cd, i32),
                           S(cd, i32), K(ch), K(False), K(True), K(cc), K(cd), K(cd)], (cb * ch, 1)))
    return out
