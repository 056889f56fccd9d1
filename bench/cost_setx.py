"""Validation set X: ten public cuTile kernels of four sources no earlier set (A-W) used, chosen for
variety (a split-K skinny GEMM fused with an RMS partial sum, a column-persistent kernel with two
products a tile, stream mixing by extracted rows, a reduction with its broadcast product, a float32
GEMM with a GELU epilogue, a GEMM of a transposed operand, a row norm's backward whose weight
gradients are added by contended atomics, a particle-to-grid scatter by atomics, an iterative
normalisation of 4x4 matrices, a conjugate-gradient solve on them), fixed before any prediction
for them was looked at (model version 47 frozen first, the predictions to be committed before
the device run).

- NVIDIA/Megatron-LM (`--repo megatron=DIR`, d48bd6b, branch `dev`,
  `megatron/core/fusions/fused_mhc_kernels.py`): the cuTile path of the fused mHC
  (manifold-constrained hyper-connection) kernels, in the dtype of the file's unit tests
  (`tests/unit_tests/fusions/test_fused_mhc_kernels.py`: bfloat16 inputs) and the float32 buffers
  its launchers allocate, on 16,384 tokens (4,096 x 4), 4 streams of C = 4,096 (K = n C = 16,384,
  N = n^2 + 2n = 24), with the tiles the launchers take when `cuda.tile_experimental`'s autotuner
  is absent:
  - `_ct_proj_rms_fwd_kernel`: x (16,384 x 16,384) times the (24 x 16,384) weight transposed by
    TF32 `mma` into 128 x 32 tiles, split over K 16 ways (`_default_proj_rms_fwd_config` for
    K >= 16,384: 128 x 32 x 128, split 16), with the rows' sums of squares; grid (128, 16);
  - `_ct_fused_grad_x_weight_kernel`: the backward's K >= 8,192 path, one block a 128-wide
    K column walking all 128 row tiles (grad_x = grad_proj W + grad_r x / (r K), and
    grad_W += x^T grad_proj, two TF32 products a tile); grid (128,);
  - `_ct_hpb_fwd_kernel`: H_res^T mixing of the residual streams plus H_post x, one token a
    block (TILE_SIZE 1, TILE_C 1,024, the launcher's defaults); grid (16,384,);
  - `_ct_h_agg_bwd_kernel`: h_aggregate's backward (grad_x = go h, grad_h = sum go x), four
    tokens a block, TILE_C 1,024; grid (4,096,).
  The module's host imports are stood in (Megatron's rank utilities and the PyTorch reference
  module it imports for the fallbacks); Triton is absent, so its Triton kernels are not defined.
- Virusoid1/MLP-Kernel-Lab (`--repo mlplab=DIR`, c247cd3, `cutile_kernels/`): an MLP training
  lab's float32 kernels, with the tiles its launchers take from `triton_kernels.gpu_utils.
  get_arch_params()` on compute capability 9.0 (its "ada_loom" branch: 32 x 32 x 32 for matrix
  products, 256 for the LayerNorm; the module is stood in with that table), the lab's MLP shapes
  (hidden 768, FFN 3,072, the README's benchmark) on 8,192 rows:
  - `mlp_cutile.py` `mlp_first_layer_kernel`: x W + b and tanh-GELU, (8,192 x 768) (768 x 3,072);
    grid (256, 96);
  - `backward.py` `matmul_backward_b_kernel`: dW = x^T dC, each block walking the 256 row tiles of
    both operands, the first transposed in registers; grid (24, 96);
  - `layernorm.py` `layernorm_backward_kernel`: one row a block, two passes over 1,024 columns,
    d_gamma and d_beta added by `atomic_add` from every row (8,192 rows: 2 x 8,192 x 1,024 atomic
    additions onto 2,048 addresses); grid (8,192,).
- philipnickel/MPM-CudaJax (`--repo mpm=DIR`, `src/mpm_jax/p2g/cutile/`, v1.py at 599aaed,
  common.py at 85c193b): `cutile_v1_p2g_kernel`, MLS-MPM's particle-to-grid transfer, four
  particles a block, each particle's 27-node quadratic B-spline stencil (padded to 32 lanes, the
  masked lanes adding zero) added by `atomic_add` into a (G, G, G, 4) float32 grid (momentum and
  mass), particle data read by `load_advanced_indexing`. 1,048,576 particles on a 64^3 grid (4 a
  cell on average; the repository's sweeps stop at 100,000 particles). Positions are integers in
  grid units spread uniformly over the grid (`index:64`) with inv_dx = dx = 1, so the stencils
  land as the launcher's (inv_dx = G, positions in [0, 1)) would on a filled box; dt 1e-4,
  volume and mass 0.125. v1.py imports its package's common.py by absolute name
  (`mpm_jax.p2g.cutile.common`): the stand-in holds the checkout's own common.py, loaded from the
  same checkout; JAX is stood in (the host wrapper's `jnp`). The cell-owned v3 kernel is left out:
  its per-cell particle ranges (a sorted particle order) have no initialiser here.
- Da1sypetals/cuTile2Numpy (`--repo cut2np=DIR`, 2080e87, `src/sinkhorn.py`): mHC's
  Sinkhorn-Knopp projection of 4 x 4 matrices (n = 4 streams), float32, with the file's tile of
  32 matrices a block and its 20 iterations (its `<typecheck>` directives), on 32 sequences of
  8,192 tokens (grid (32, 256), the demo's grid rule):
  - `sinkhorn_knopp`: exp, then 20 alternating row and column normalisations (the loop count a
    runtime argument);
  - `sinkhorn_knopp_bwd_implicit_cg`: the backward by implicit differentiation, 8 conjugate-
    gradient steps on the 8 x 8 system [[I, R], [R^T, I]] by batched `ct.matmul`s of 4 x 4 and
    4 x 1 tiles, in `ct.function`s.
  The file runs a NumPy-transpiler demo after its kernels, past a `# cutile-typeviz: end`
  marker, with a function definition at its very end (so `definitions_only` would run the demo):
  the checkout holds the file through that marker.

Each kernel is built dynamically shaped (`validate-x`) and as tilescope's launch builds it
(`validate-x-launch`), as sets M-W. Every case built (tileiras from the venv, sm_90), and on the
CPU executor at small sizes each kernel agreed with a NumPy reference with no bounds report:
1e-7 to 3e-7 relative in float32 (Sinkhorn forward, the LayerNorm backward, both float32 GEMMs,
the MPM scatter, the split-K projection and its sums of squares), 2e-3 to 4e-3 in bfloat16 (the
mixing, the aggregate backward, the grad_x/grad_W kernel), 3e-4 for the conjugate-gradient
backward (8 steps against an exact solve).

Considered and left out: caolong-whu/cutile (the same files as Along-whu/cutile, sets P-S);
dsl-learn/cutile-learn and uwm-se/CuTile (copies of cutile-python's samples and TileGym's ops);
leosciortino/cutile-kernels (BLAS-1 kernels, a 3-view 1-D stencil whose views the cases cannot
share, single-block contractions; its GEMM, MoE, FFT and LayerNorm are cutile-python's samples);
trungnt13/cutile-rtx3090-benchmark (its kernels are built inside a factory function); the
TensorRT-LLM fork's mhc_cutile.py (moved from TileGym); Megatron-LM's other mHC kernels (the
Sinkhorn ones move a few megabytes at real sizes; the reduce/compute_h and scalar-gradient
kernels are small epilogues).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import List

from costval_case import A, Case, K, S

MHC = "megatron:megatron/core/fusions/fused_mhc_kernels.py"
MLP = "mlplab:cutile_kernels/"
MPM = "mpm:src/mpm_jax/p2g/cutile/"
SINK = "cut2np:src/sinkhorn.py"
COMMITS = {"megatron": "NVIDIA/Megatron-LM d48bd6be0a85cc0d6d3cc71e8750cf357cc6bdb1 (branch dev)",
           "mlplab": "Virusoid1/MLP-Kernel-Lab c247cd3c96933265bf90448a68a768bf436d25d9",
           "mpm": "philipnickel/MPM-CudaJax 599aaedb31185d157d4ff8cb223717ecd89ee1a2 (v1.py), "
                  "85c193b993fedca9ddca1128a4f6e25ac89156d2 (common.py)",
           "cut2np": "Da1sypetals/cuTile2Numpy 2080e87f776ed1bd6cb29f72bb5b9cb948578813"}

# The names v1.py imports from its package's common.py (an absolute import of the checkout's own
# package, `mpm_jax.p2g.cutile.common`)
_MPM_COMMON_NAMES = ("GRID_CHANNELS", "MAT_USED", "STENCIL_LANES", "STENCIL_NODES", "_atomic_add_grid_channels",
                     "_channel_tile", "_load_particle_columns", "_stencil_contribution_columns")


class _CheckoutModule(Mapping):
    """The attributes of a module of a --repo checkout, read when the stand-in for its absolute
    import is built (after the command line has named the checkout): the checkout's own
    `mpm_jax.p2g.cutile.common`, which v1.py imports by its package name."""

    def __init__(self, repo: str, rel: str, names):
        self.repo, self.rel, self.names = repo, rel, tuple(names)

    def _module(self):
        import sys
        from cost_setm import load_checkout
        package = sys.modules.get("costval_" + self.repo)     # the checkout load_checkout is importing from
        if package is None:
            raise SystemExit(f"set X needs --repo {self.repo}=DIR (a checkout with {self.rel})")
        return load_checkout(self.repo, package.__path__[0], self.rel)

    def __getitem__(self, name):
        if name not in self.names:
            raise KeyError(name)
        return getattr(self._module(), name)

    def __iter__(self):
        return iter(self.names)

    def __len__(self):
        return len(self.names)


def _arch_params():
    """MLP-Kernel-Lab's triton_kernels.gpu_utils.get_arch_params() on compute capability 9.0 (its
    "ada_loom" branch, cc >= 8.9): the tiles its cuTile launchers take."""
    return {"max_block_m": 128, "max_block_n": 128, "max_block_k": 64, "max_stages": 4, "max_warps": 8,
            "elementwise_block": 4096, "cutile_matmul_tile": (32, 32, 32), "cutile_elementwise_tile": 512,
            "cutile_layernorm_tile": 256}


# Host modules the checkouts' files import, stood in while a kernel module loads
HOST_MODULES = {"megatron": {"megatron": {}, "megatron.core": {},
                             "megatron.core._rank_utils": {"log_single_rank": lambda *a, **k: None,
                                                           "safe_get_rank": lambda: 0},
                             "megatron.core.transformer": {}, "megatron.core.transformer.hyper_connection": {}},
                "mlplab": {"triton_kernels": {}, "triton_kernels.gpu_utils": {"get_arch_params": _arch_params}},
                "mpm": {"jax": {}, "jax.numpy": {},
                        "mpm_jax": {}, "mpm_jax.p2g": {}, "mpm_jax.p2g.cutile": {},
                        "mpm_jax.p2g.cutile.common": _CheckoutModule("mpm", "src/mpm_jax/p2g/cutile/common.py",
                                                                     _MPM_COMMON_NAMES)}}


def setx_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    k = "validate-x"
    bf16 = "bfloat16"

    # -- NVIDIA/Megatron-LM: the fused mHC kernels' cuTile path, bfloat16 (the unit tests' dtype)
    m, kk, n = 16384 // d, 16384, 24              # tokens (4,096 x 4), n * C (4 x 4,096), n * n + 2 n
    split = 16                                    # the launcher's default for K >= 16,384
    add(Case("X_megatron_mhc_proj_rms_splitk16_bf16_16384x16384x24", k, MHC, "_ct_proj_rms_fwd_kernel",
             [A((m, kk), bf16), A((n, kk), bf16), A((split * m, n), init="zeros"), A((split * m, 1), init="zeros"),
              A((split * m, 1), init="zeros"), S(m, "int32"), S(n, "int32"), S(kk, "int32"), S(1e-6),
              K(128), K(32), K(128), K(split)], (m // 128, split)))
    add(Case("X_megatron_mhc_grad_x_weight_bf16_16384x16384x24", k, MHC, "_ct_fused_grad_x_weight_kernel",
             [A((m, kk), bf16), A((n, kk), bf16), A((m, 32)), A((m, 1)), A((m, 1), bf16),
              A((m, kk), bf16, "zeros"), A((n, kk), bf16, "zeros"), S(m, "int32"), S(n, "int32"), S(kk, "int32"),
              K(128), K(32), K(128)], (kk // 128,)))
    sb, hc, c = 16384 // d, 4, 4096
    add(Case("X_megatron_mhc_h_post_bda_fwd_bf16_16384x4x4096", k, MHC, "_ct_hpb_fwd_kernel",
             [A((sb, hc, hc), bf16), A((sb, hc, c), bf16), A((sb, hc), bf16), A((sb, c), bf16),
              A((sb, hc, c), bf16, "zeros"), K(hc), K(1024), K(1)], (sb,)))
    add(Case("X_megatron_mhc_h_aggregate_bwd_bf16_16384x4x4096", k, MHC, "_ct_h_agg_bwd_kernel",
             [A((sb, c), bf16), A((sb, hc, c), bf16), A((sb, hc), bf16), A((sb, hc, c), bf16, "zeros"),
              A((sb, hc), bf16, "zeros"), K(hc), K(4), K(1024)], (sb // 4,)))

    # -- Virusoid1/MLP-Kernel-Lab: float32 MLP training kernels, the 32 x 32 x 32 tiles of sm_90
    rows, hid, ffn = 8192 // d, 768, 3072
    add(Case("X_mlplab_mlp_first_layer_gelu_f32_8192x768x3072", k, MLP + "mlp_cutile.py", "mlp_first_layer_kernel",
             [A((rows, hid)), A((hid, ffn)), A((ffn,)), A((rows, ffn), init="zeros"),
              K(rows), K(ffn), K(hid), K(32), K(32), K(32)], (rows // 32, ffn // 32)))
    add(Case("X_mlplab_matmul_backward_b_f32_8192x768x3072", k, MLP + "backward.py", "matmul_backward_b_kernel",
             [A((rows, hid)), A((rows, ffn)), A((hid, ffn), init="zeros"),
              K(rows), K(ffn), K(hid), K(32), K(32), K(32)], (hid // 32, ffn // 32)))
    lnr, lnn = 8192 // d, 1024
    add(Case("X_mlplab_layernorm_bwd_atomic_f32_8192x1024", k, MLP + "layernorm.py", "layernorm_backward_kernel",
             [A((lnr, lnn)), A((lnr, lnn)), A((lnn,)), A((lnr,)), A((lnr,)), A((lnr, lnn), init="zeros"),
              A((lnn,), init="zeros"), A((lnn,), init="zeros"), K(lnr), K(lnn), K(256)], (lnr,)))

    # -- philipnickel/MPM-CudaJax: MLS-MPM particle-to-grid scatter by atomic_add
    parts, g = (1 << 20) // d, 64
    add(Case("X_mpm_p2g_v1_atomic_scatter_1M_particles_g64", k, MPM + "v1.py", "cutile_v1_p2g_kernel",
             [A((parts, 3), init=f"index:{g}"), A((parts, 3)), A((parts, 9)), A((parts, 9)),
              A((g, g, g, 4), init="zeros"), K(parts), K(g), K(1e-4), K(0.125), K(0.125), K(1.0), K(1.0), K(4)],
             (parts // 4,)))

    # -- Da1sypetals/cuTile2Numpy: mHC's Sinkhorn-Knopp, forward and implicit (conjugate-gradient) backward
    bt, sq = 32 // d, 8192
    add(Case("X_cut2np_sinkhorn_fwd_f32_32x8192x4x4_20it", k, SINK, "sinkhorn_knopp",
             [A((bt, sq, 4, 4)), A((bt, sq, 4, 4), init="zeros"), S(20, "int32"), K(32)], (bt, sq // 32)))
    add(Case("X_cut2np_sinkhorn_bwd_cg_f32_32x8192x4x4", k, SINK, "sinkhorn_knopp_bwd_implicit_cg",
             [A((bt, sq, 4, 4)), A((bt, sq, 4, 4)), A((bt, sq, 4, 4), init="zeros")], (bt, sq // 32)))

    for x in list(out):
        add(x.launched("validate-x-launch"))
    return out
