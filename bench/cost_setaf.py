"""Validation set AF: the cuTile kernels of a mixture-of-experts token permutation in a fork of NVIDIA's
TransformerEngine (tdophung/TransformerEngine, commit 3646c092, "initial impl" of 2026-01-30): every kernel
of its three files, drawn before any prediction for them was looked at (model version 74 frozen first; the
predictions committed before any device run, bench/results/cost_setaf_predictions.json). No set had read a
file of this repository; none of its kernels is a kernel an earlier set timed. Its three files hold 22
kernels; the eleven that cuTile 1.7's front end accepts are the set:

- `transformer_engine/common/cutile/permutation.py`: the row-id map's first two passes (a running count
  of each expert's tokens in blocks of 256, then the blocks' prefix) and the chunk sort's map. Passed over:
  the map's third pass (`x.numel`, which a tile does not have) and the permutation, its inverse, the
  inverse's backward and the chunk copy (each indexes a tile, `n_routed[0]`, which cuTile does not
  support: upstream's front end rejects both alike);
- `transformer_engine/common/cutile/permutation_jeremy.py`, another implementation of the same eight: all
  but its third pass (`numel` again);
- `transformer_engine/pytorch/cutile/permutation.py`: its second pass, on a token-major map. Passed over:
  its first pass (a rank-2 gather with one index tile) and its permutation, inverse and chunk copy (tile
  indexing); its chunk map has the first file's body.

Sizes as a training step of an 8-expert top-2 MoE layer would make them: 65,536 tokens (16 sequences of
4,096), hidden size 4,096 in bfloat16, 256-element blocks (the launchers' default), 131,072 routed rows;
the chunk sort over those rows in 64 chunks (8 ranks of 8 experts). Each kernel reads the data the
pipeline's earlier passes would hand it (costval_moe.py: tokens routed at random). Flags as the
launchers' defaults or a training step's (the permutation with its probabilities, the inverse with
merging probabilities); an array the flags leave unread is one element (the launchers pass empty
tensors). The files are read from the checkout given by
`--repo te=DIR`, never copied here. Each kernel is built dynamically shaped (`validate-af`) and as
tilescope's launch builds it (`validate-af-launch`). Since version 76 the cases whose loop over the experts
reads how many a token goes to pass that count as a user states it (`read_values`, `--values n_routed=2`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K, S

COMMON = "te:transformer_engine/common/cutile/permutation.py"
JEREMY = "te:transformer_engine/common/cutile/permutation_jeremy.py"
TORCH = "te:transformer_engine/pytorch/cutile/permutation.py"
I32, F32, BF16 = "int32", "float32", "bfloat16"


# the third file imports the first (for its launchers, not its kernels)
HOST_MODULES = {"te": {"transformer_engine": {}, "transformer_engine.common": {},
                       "transformer_engine.common.cutile": {"permutation": None}}}


def _pow2(n: int) -> int:
    return 1 << (n - 1).bit_length()


def setaf_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    g = "validate-af"
    t, e, k, h, b = 65536 // d, 8, 2, 4096, 256
    rows, splits, nb = t * k, 64, -(-t // b)
    wide = 2 * e + 1
    moe = lambda what: f"moe:{what}:{t}:{e}:{k}:{b}"         # noqa: E731
    one = lambda dt=F32: A((1,), dt)                          # noqa: E731  (an array the flags leave unread)
    # what a user states of the routing (`--values n_routed=2`), which the blind predictions (version 74)
    # did not have: the experts each token's loop over all 8 goes to
    routed = {"n_routed": k}
    chunk_sizes = A((splits,), I32, f"moe:splits:{rows}:{splits}:0")
    chunk_order = A((splits,), I32, "moe:order:0:0:0")

    # -- the first file: compute_row_id_map's first two passes (grid (E, T/256)) and the chunk sort's map
    # over the routed rows (grid (rows,))
    add(Case("AF_row_id_pass1_cumsum_e8_64k", g, COMMON, "_row_id_map_pass_1_kernel",
             [A((e * t,), "bool", moe("route_et")), A((e * t,), I32, "zeros"), A((e * nb,), I32, "zeros"),
              K(t), K(e), K(b)], (e, nb)))
    add(Case("AF_row_id_pass2_prefix_e8_64k", g, COMMON, "_row_id_map_pass_2_kernel",
             [A((e * t,), I32, moe("local")), A((e * nb,), I32, moe("counts")), K(t), K(e), K(_pow2(e * nb)), K(b)],
             (e, nb)))
    add(Case("AF_chunk_sort_map_64_128k", g, COMMON, "_make_chunk_sort_map_kernel",
             [chunk_sizes, chunk_order, A((rows,), I32, "zeros"), K(splits), K(_pow2(splits))], (rows,)))

    # -- the second file: sizes as runtime arguments; the permutation with its probabilities (a training
    # step's), the inverse with merging probabilities and its backward (grid (T,), 256-wide blocks walked
    # along the hidden size), as the first file's launchers call its versions
    add(Case("AF_j_row_id_pass1_cumsum_e8_64k", g, JEREMY, "_row_id_map_pass_1_kernel_cutile",
             [A((e * t,), "bool", moe("route_et")), A((e * t,), I32, "zeros"), A((e * nb,), I32, "zeros"),
              S(t, I32), S(e, I32), K(b)], (e, nb)))
    add(Case("AF_j_row_id_pass2_prefix_e8_64k", g, JEREMY, "_row_id_map_pass_2_kernel_cutile",
             [A((e * t,), I32, moe("local")), A((e * nb,), I32, moe("counts")), S(t, I32), S(e, I32),
              K(_pow2(e * nb)), K(b)], (e, nb)))
    add(Case("AF_j_permute_probs_bf16_64kx4096_e8k2", g, JEREMY, "_permute_kernel_cutile",
             [A((t * h,), BF16), A((t * wide,), I32, moe("map")), A((t * e,)), one(), one(I32),
              A((rows * h,), BF16, "zeros"), A((rows,), F32, "zeros"), one(),
              S(t, I32), S(h, I32), S(0, I32), S(rows, I32), K(e), K(1), K(0), K(0), K(b)], (t, h // b),
             read_values=routed))
    add(Case("AF_j_unpermute_merge_bf16_64kx4096_e8k2", g, JEREMY, "_unpermute_kernel_cutile",
             [A((rows * h,), BF16), A((t * wide,), I32, moe("map")), A((t * e,)), one(), one(I32),
              A((t * h,), BF16, "zeros"), one(),
              S(t, I32), S(h, I32), S(rows, I32), K(e), K(_pow2(e)), K(1), K(0), K(0), K(b)], (t, h // b),
             read_values=routed))
    add(Case("AF_j_unpermute_bwd_merge_bf16_64kx4096_e8k2", g, JEREMY,
             "_unpermute_bwd_with_merging_probs_kernel_cutile",
             [A((t * h,), BF16), A((rows * h,), BF16), A((t * e,)), A((t * wide,), I32, moe("map")), one(I32),
              A((rows * h,), BF16, "zeros"), A((t * e,), F32, "zeros"),
              S(t, I32), S(h, I32), K(e), K(_pow2(e)), K(0), K(b)], (t,), read_values=routed))
    add(Case("AF_j_chunk_sort_map_64_128k", g, JEREMY, "_make_chunk_sort_map_kernel_cutile",
             [chunk_sizes, chunk_order, A((rows,), I32, "zeros"), K(splits), S(rows, I32), K(_pow2(splits))],
             (rows,)))
    add(Case("AF_j_sort_chunks_probs_bf16_128kx4096", g, JEREMY, "_sort_chunks_by_map_kernel_cutile",
             [A((rows * h,), BF16), A((rows,), I32, "moe:order:0:0:0"), A((rows,)), A((rows * h,), BF16, "zeros"),
              A((rows,), F32, "zeros"), S(rows, I32), S(h, I32), K(1), K(1), K(b)], (rows, h // b)))

    # -- the third file: its second pass, over the token-major map ([T, 2E + 1]) its first pass writes
    add(Case("AF_t_row_id_pass2_prefix_e8_64k", g, TORCH, "_row_id_map_pass_2_kernel",
             [A((t * wide,), I32, moe("rows_local")), A((e * nb,), I32, moe("counts")), K(t), K(e),
              K(_pow2(e * nb)), K(b)], (e, nb)))

    for x in list(out):
        add(x.launched("validate-af-launch"))
    return out
