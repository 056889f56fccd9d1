"""The cases of bench/cost_validate.py: the microbenchmarks that calibrate the cost model (group
`micro`), validation sets A and B (tilescope's examples and realistic kernels), the sets C-AB read
from checkouts of other repositories (bench/cost_setc.py ... cost_setab.py), and the variants built as
a launch builds them (`_launch`, `_tma`)."""
from __future__ import annotations

import importlib
from typing import List, Sequence

from cost_setc import setc_cases      # set C: upstream cuTile's kernels
from cost_setd import setd_cases      # set D: TileGym's kernels
from cost_sete import sete_cases      # set E: TileGym's streaming kernels
from cost_setf import setf_cases      # set F: TileBench's kernels
from cost_setg import setg_cases      # set G: more TileBench kernels
from cost_seth import seth_cases      # set H: other authors' TileBench kernels
from cost_seti import seti_cases      # set I: TileBench kernels of other authors
from cost_setj import setj_cases      # set J: TileBench files no set used
from cost_setk import setk_cases      # set K: four repositories' kernels
from cost_setl import setl_cases      # set L: TileGym's and cutileGPT's kernels
from cost_setm import setm_cases      # set M: three repositories no set used
from cost_setn import setn_cases      # set N: three more repositories no set used
from cost_seto import seto_cases      # set O: two more repositories no set used
from cost_setp import setp_cases      # set P: two more repositories no set used
from cost_setq import setq_cases      # set Q: TileGym files no set used
from cost_setr import setr_cases      # set R: Along-whu's exercises no set used
from cost_sets import sets_cases      # set S: mHC kernels and TileGym's suites no set used
from cost_sett import sett_cases      # set T: four more repositories no set used
from cost_setu import setu_cases      # set U: a course, a TileGym fork and TileGym's skill examples
from cost_setv import setv_cases      # set V: a stencil DSL's solver kernels and a book's
from cost_setw import setw_cases      # set W: Inductor ports, a course's FlashAttention, vLLM's FP8 GEMM
from cost_setx import setx_cases      # set X: Megatron's mHC, an MLP lab, an MPM scatter, Sinkhorn-Knopp
from cost_sety import sety_cases      # set Y: thirteen more of better-benchmark's Inductor ports, drawn at random
from cost_setz import setz_cases      # set Z: a Qwen3 training patch set, a kernels repository, an IR-dump demo
from cost_setaa import setaa_cases    # set AA: one TileBench kernel of each operator no earlier set used, drawn at random
from cost_setab import setab_cases    # set AB: versions of two of set AA's operators, to order them
from cost_setac import setac_cases    # set AC: another TileBench kernel of each operator sets F-K read, at random
from cost_setad import setad_cases    # set AD: another TileBench kernel of each operator with a file left, at random
from cost_setae import setae_cases    # set AE: another, of a kernel no set timed, at random
from cost_setaf import setaf_cases    # set AF: a MoE token permutation's kernels (a TransformerEngine fork)
from cost_bbench_draw import SEEDS as BBENCH_SEEDS   # sets AG on: drawn from better-benchmark
from costval_case import A, Case, K, S, cdiv

REALISTIC = "tests/corpus/realistic/kernels.py"
KERNELS = "bench/cost_kernels.py"
WAITS = "bench/cost_kernels_waits.py"
FETCH = "bench/cost_kernels_fetch.py"
DIVIDE = "bench/cost_kernels_divide.py"
STRIDED = "bench/cost_kernels_strided.py"
PICKED = "bench/cost_kernels_picked.py"
SLIM = "bench/cost_kernels_slim.py"
CHANNELS = "bench/cost_kernels_channels.py"
THIN = "bench/cost_kernels_thin.py"
CHAIN = "bench/cost_kernels_chain.py"
VECTOR = "bench/cost_kernels_vector.py"
STEPPED = "bench/cost_kernels_stepped.py"
SMS = 132


# Tile shapes of the load → mma microbenchmark: none of them is a validation kernel's shape.
STREAM_SHAPES = [("float16", 64, 64, 16), ("float16", 128, 64, 32), ("float16", 64, 256, 32),
                 ("float16", 128, 128, 16), ("float16", 32, 64, 64), ("bfloat16", 128, 64, 16),
                 ("float32", 64, 64, 16), ("float32", 32, 64, 32)]


# Shapes of the operand-layout microbenchmarks (model version 3): none is a validation kernel's.
ORIENTATION_SHAPES = [("float16", 64, 64, 16), ("float16", 128, 64, 32), ("float16", 64, 256, 32),
                      ("float16", 32, 64, 64), ("float16", 64, 32, 64), ("bfloat16", 128, 64, 16)]


# Shapes of the operand path's occupancy microbenchmarks (docs history 60)
OCCUPANCY_SHAPES = [("float16", 32, 64, 64), ("float16", 64, 256, 32), ("float16", 64, 128, 128),
                    ("float16", 64, 64, 16), ("float32", 64, 64, 16), ("float32", 4, 256, 4)]


# float32 product shapes (TM, TN, TK) of docs history 61: rows, then depth, then width
FLOAT32_PRODUCT_SHAPES = [(4, 64, 32), (16, 64, 32), (32, 64, 32), (64, 64, 32), (32, 64, 8), (32, 64, 16),
                          (32, 32, 32), (32, 128, 32)]


# Microbenchmarks also built as tilescope's launch builds them (vector loads, TMA copies)
LAUNCH_MICRO = ("copy_f32_t1024", "copy_f32_t4096", "copy_f16_t1024", "copy_f16_t4096", "copy_2d_f32_64x64",
                "copy_2d_f32_32x128", "load_chain_t1024_g132", "load_chain_t4096_g132", "load_chain_t1024_g1056",
                "gather_copy_f16_t1024", "gather_copy_f16_t4096", "reduce_loop_t1024_g132",
                "copy_loop_f16_t1024_k1", "copy_loop_f16_t1024_k4", "copy_loop_f16_t1024_k16",
                "copy_loop_f32_t1024_k1", "copy_loop_f32_t1024_k4", "copy_loop_f32_t1024_k16",
                "mma_stream_float16_64x64x16", "mma_stream_float16_128x64x32", "mma_stream_float16_64x256x32",
                "mma_stream_float16_128x128x16", "mma_stream_bfloat16_128x64x16", "mma_stream_float32_64x64x16",
                "mma_float16_64x64x32_g132", "mma_float16_128x128x32_g2112", "row_scale_by_sum_f32_t1024",
                "row_scale_by_sum_f32_t4096", "chunk_sum_loop_f32_t256_n16", "chunk_sum_loop_f32_t512_n32")


# mma loops that wait for all their tensor-core work each iteration, with pipelined twins
# (bench/cost_kernels.py mw_*): kernel, operand dtype, K tiles, built as a launch builds it or not
MMA_WAIT_SHAPES = ([(k, "float16", tk, True) for k in ("mw_chained", "mw_summed", "mw_chained_occ2", "mw_summed_occ2")
                    for tk in (32, 64, 128)]
                   + [(k, "float8_e4m3fn", tk, True) for k in ("mw_chained", "mw_summed") for tk in (64, 128)]
                   + [("mw_chained_occ2", "float8_e4m3fn", 64, True)]
                   + [(k, "float16", 64, False) for k in ("mw_chained", "mw_summed")])


def mma_wait_cases(d: int) -> List[Case]:
    """128x128 output tiles, float32 accumulator, operands cycling through 8 L2-resident K tiles;
    a grid of 1 and 4 blocks per SM, the trip count such that the tensor-core work alone would take
    about 0.7 ms (float16) or 0.35 ms (float8) on the H200 (an eighth of that in the dynamic builds,
    whose operands are loaded element by element)."""
    out = []
    tm = tn = 128
    r = 8
    for kern, dt, tk, launch in MMA_WAIT_SHAPES:
        for k in (1, 4):
            grid, iters = SMS * k, max(1, (1 << 17) // tk // k // d // (1 if launch else 8))
            short = {"float16": "f16", "float8_e4m3fn": "e4m3"}[dt]
            out.append(Case(f"{kern}_{short}_{tm}x{tn}x{tk}_g{grid}" + ("_launch" if launch else ""),
                            "micro-launch" if launch else "micro", KERNELS, kern,
                            [A((tm, r * tk), dt), A((r * tk, tn), dt), A((grid * tm, tn), init="zeros"),
                             K(iters), K(r), K(tm), K(tn), K(tk)], (grid,), launch=launch))
    # smaller output tiles (smaller mma groups to drain), launched, one block an SM: the drain's
    # dependence on the group's size (version 18)
    for kern in ("mw_summed", "mw_chained_occ2"):
        for sm, sn in ((64, 64), (64, 128), (128, 64)):
            for tk in (32, 64):
                iters = max(1, (1 << 17) // tk // d * (tm * tn) // (sm * sn))
                out.append(Case(f"{kern}_f16_{sm}x{sn}x{tk}_g{SMS}_launch", "micro-launch", KERNELS, kern,
                                [A((sm, r * tk), "float16"), A((r * tk, sn), "float16"), A((SMS * sm, sn), init="zeros"),
                                 K(iters), K(r), K(sm), K(sn), K(tk)], (SMS,), launch=True))
    return out


def odd_row_cases(d: int) -> List[Case]:
    """Launch builds of arrays whose rows are not a multiple of 16 bytes (version 56): tileiras
    cannot copy their tiles with the accelerator and loads them element by element, as upstream's
    aligned table (history 87). GEMMs of 4,097 float16 (rows of 8,194 bytes) at seven tile shapes,
    one bfloat16, two other sizes and 4,100 (8,200 bytes: 8-byte aligned rows); a row softmax of
    1,023 float32, a layer norm of 4,095 and a transpose of 8,191."""
    out: List[Case] = []
    add = out.append
    mm = "examples/matmul.py"
    for n, dt, tiles in ((4097, "float16", ((64, 64, 32), (64, 128, 64), (128, 64, 64), (128, 128, 32),
                                            (128, 128, 64), (128, 256, 64), (256, 128, 64))),
                         (4097, "bfloat16", ((128, 128, 64),)), (2049, "float16", ((128, 128, 64),)),
                         (8193, "float16", ((128, 128, 64), (64, 64, 32))), (4100, "float16", ((128, 128, 64),))):
        n //= d
        for tm, tn, tk in tiles:
            add(Case(f"odd_matmul_{dt[0]}{dt[-2:]}_{n}_{tm}x{tn}x{tk}_launch", "micro", mm, "matmul",
                     [A((n, n), dt), A((n, n), dt), A((n, n), init="zeros"), K(tm), K(tn), K(tk)],
                     (cdiv(n, tm), cdiv(n, tn)), launch=True))
    rows = 65536 // d
    add(Case("odd_softmax_f32_65536x1023_launch", "micro", "examples/softmax.py", "softmax",
             [A((rows, 1023)), A((rows, 1023), init="zeros"), K(1024)], (rows,), launch=True))
    lr = 16384 // d
    add(Case("odd_layernorm_f32_16384x4095_launch", "micro", "examples/layernorm.py", "layernorm",
             [A((lr, 4095)), A((4095,)), A((4095,)), A((lr, 4095), init="zeros"), S(1e-5), K(256)], (lr,),
             launch=True))
    t = 8191 // d
    add(Case("odd_transpose_f32_8191_launch", "micro", "examples/transpose.py", "transpose",
             [A((t, t)), A((t, t), init="zeros"), K(64), K(64)], (cdiv(t, 64), cdiv(t, 64)), launch=True))
    return out


def serial_copy_cases(d: int) -> List[Case]:
    """Launch builds of a split-K GEMV whose weight tiles the accelerator copies (version 58):
    with its tile atomic in acquire-release order tileiras's producer waits for each copy before
    the next; relaxed, the copies run ahead (history 90). The GEMV of set M's shape (29,568 x 8,192,
    split 8) and a longer K (8,192 x 32,768, split 4)."""
    out: List[Case] = []
    for n, kd, split in ((29568, 8192, 8), (8192, 32768, 4)):
        n, kd = n // d, kd // d
        for relaxed in (False, True):
            out.append(Case(f"serial_split_k_rows_f16_{n}x{kd}_s{split}_{'relaxed' if relaxed else 'ordered'}_launch",
                            "micro", KERNELS, "split_k_rows",
                            [A((16, kd), "float16"), A((n, kd), "float16"), A((n,), init="zeros"), K(32), K(64),
                             K(split), K(relaxed)], (n // 32, split), launch=True))
    return out


def attention_variant_cases(d: int) -> List[Case]:
    """Dynamic builds of examples/attention.py's loop with one change at a time (the key tile
    through `order=`, the value tile loaded after the softmax, exp2), and all three: the sizes of
    `attention_f16_64x64` (history 90). Then the key tile's two layouts with a head dimension of
    128, and both head dimensions over 2-D arrays (`attention_rows`)."""
    bh, s = 32 // d, 4096 // d
    out: List[Case] = []
    for name, flags in (("base", (False, False, False)), ("korder", (True, False, False)),
                        ("vlate", (False, True, False)), ("exp2", (False, False, True)), ("all", (True, True, True))):
        out.append(Case(f"attn_variant_{name}_f16_64x64", "micro", KERNELS, "attention_variant",
                        [A((bh, s, 64), "float16"), A((bh, s, 64), "float16"), A((bh, s, 64), "float16"),
                         A((bh, s, 64), "float16", "zeros"), K(64), K(64), K(64)] + [K(f) for f in flags],
                        (s // 64, bh)))
    for dd in (64, 128):
        for k_order in (False, True):
            way = "order" if k_order else "transpose"
            if dd == 128:
                out.append(Case(f"attn_variant_{way}_f16_64x64_d128", "micro", KERNELS, "attention_variant",
                                [A((bh, s, dd), "float16"), A((bh, s, dd), "float16"), A((bh, s, dd), "float16"),
                                 A((bh, s, dd), "float16", "zeros"), K(64), K(64), K(dd), K(k_order), K(False),
                                 K(False)], (s // 64, bh)))
            out.append(Case(f"attn_rows_{way}_f16_64x64_d{dd}", "micro", KERNELS, "attention_rows",
                            [A((bh * s, dd), "float16"), A((bh * s, dd), "float16"), A((bh * s, dd), "float16"),
                             A((bh * s, dd), "float16", "zeros"), K(s), K(64), K(64), K(dd), K(k_order)],
                            (s // 64, bh)))
    return out


def row_walk_cases(d: int) -> List[Case]:
    """Set W's head-layout permute (dynamic build: a thread walks a row of the tile element by
    element) at 32, 64 and 128 rows a tile, bfloat16 and float32, its rows 12 heads apart or
    back to back (one head), with dst laid out as src, and dst's rows filled without reading src
    (history 91). Then set L's TileGym cross-entropy as launched (its constant chunk loops unrolled
    whole into the row loop) over the same bytes with 4, 16 and 64 chunks of 4,096 a row, one block
    and four blocks an SM."""
    out: List[Case] = []
    b, s = 32 // d, 1024
    modes = ("permute", "copy", "fill")
    for dt, r, h, mode in (("bfloat16", 32, 12, 0), ("bfloat16", 64, 12, 0), ("bfloat16", 128, 12, 0),
                           ("bfloat16", 128, 1, 0), ("bfloat16", 128, 12, 1), ("bfloat16", 32, 12, 2),
                           ("bfloat16", 128, 12, 2), ("float32", 64, 12, 0), ("float32", 128, 12, 0)):
        shape = (b, s, h, 64) if h > 1 else (b * 12, s, 1, 64)
        dst = shape if mode == 1 else (shape[0], shape[2], shape[1], 64)
        tag = "bf16" if dt == "bfloat16" else "f32"
        out.append(Case(f"row_walk_{modes[mode]}_{tag}_r{r}_h{h}", "micro", KERNELS, "permute_rows",
                        [A(shape, dt), A(dst, dt, "zeros"), K(r), K(64), K(mode)], (shape[0], h, s // r)))
    total = (1 << 28) // d                       # 256 Mi bfloat16 logits: 512 MB
    for vocab in (16384, 65536, 262144):
        for grid in (SMS, 4 * SMS):
            rows = total // vocab
            out.append(Case(f"ce_unrolled_bf16_v{vocab}_g{grid}_launch", "micro",
                            "tilegym:experimental/fused_linear_cross_entropy.py", "_ce_online_kernel",
                            [A((rows, vocab), "bfloat16"), A((rows,), init="zeros"), A((rows,)), K(rows), K(vocab),
                             K(4096)], (grid,), launch=True))
    return out


def _load_chain(prefix: str, t: int, grid: int, d: int, aligned: bool = False) -> Case:
    """`load_chain` of `t` float32 elements a step, 256 // d steps, on `grid` blocks (the aligned
    build: `_tma`)."""
    iters = 256 // d
    chain = [A((grid * iters * t,)), A((grid * t,), init="zeros"), K(iters), K(t)]
    return Case(f"{prefix}_t{t}_g{grid}" + ("_tma" if aligned else ""), "micro", KERNELS, "load_chain", chain,
                (grid,), aligned=aligned)


def lone_block_cases(d: int) -> List[Case]:
    """What a block draws when few share the GPU (history 142; the load laws of calibration.py were
    measured with a block on every SM): `load_chain` on 1 to 132 blocks, 4, 16 and 64 KiB a step,
    dynamic and aligned (coalesced LDGs); a one-tile column sum, dynamic and launched (the
    accelerator copies the tile)."""
    out: List[Case] = []
    for t in (1024, 4096, 16384):
        for grid in (1, 2, 4, 8, 16, 33, 66, SMS):
            out += [_load_chain("lone_chain", t, grid, d), _load_chain("lone_chain", t, grid, d, aligned=True)]
    for tm in (1024, 4096, 8192):
        for grid in (1, 4, 16, 66, SMS):
            case = Case(f"lone_column_sum_f32_{tm}x64_g{grid}", "micro", KERNELS, "column_sum_tile",
                        [A((grid * tm // d, 64)), A((grid * 64,), init="zeros"), K(tm // d), K(64)], (grid,))
            out += [case, case.launched("micro")]
    return out


def loop_wait_cases(d: int) -> List[Case]:
    """Loops whose IR carries nothing their loads bring, though the cubin's loop waits for them
    (history 94): a persistent softmax by gathers on a grid of 128 (one block an SM, as iori's
    kernel launches it) and of three blocks an SM; a count of 1,024 keys a block into a counts row
    that stays in L1; lookups at loaded keys into a 4 KB table (L1) and a 1 GB one (DRAM)."""
    out: List[Case] = []
    rows = 32768 // d
    for grid in (128, 3 * SMS):
        out.append(Case(f"loop_wait_softmax_bf16_32768x2048_g{grid}", "micro", WAITS, "softmax_rows_by_gathers",
                        [A((rows, 2048), "bfloat16"), A((rows, 2048), "bfloat16", "zeros"), K(rows), K(2048)],
                        (grid,)))
    keys, blocks = 65536 // d, 64
    out.append(Case("loop_wait_count_i32_64x1024", "micro", WAITS, "count_by_key",
                    [A((keys,), "int32", f"index:{blocks}"), A(((blocks + 1) * blocks,), "int32", "zeros"),
                     K(blocks), K(keys // blocks)], (blocks,)))
    per = 1024 // d
    for tag, table in (("4k", 1024), ("1g", (1 << 28) // d)):
        out.append(Case(f"loop_wait_lookup_f32_t{tag}", "micro", WAITS, "look_up_by_key",
                        [A((SMS * per,), "int32", f"index:{table}"), A((table,)), A((SMS * per,), init="zeros"),
                         K(per)], (SMS,)))
    return out


def fetch_cases(d: int) -> List[Case]:
    """Loop bodies of 4,100 and 32,800 instructions (64 KB and 525 KB of code) on one and four
    blocks an SM: multiply-adds only (version 16's `long_body_loop`), with a block-wide max every
    64 of them, and with a loaded tile every 64; with both every 256; with a max every 64 of smaller
    tiles (history 95)."""
    out: List[Case] = []
    for u in (128, 1024):
        for k in (1, 4):
            grid, n = SMS * k, max(1, 8192 // u // d)
            x, o = A((grid * 4096,)), A((grid * 4096,), init="zeros")
            out.append(Case(f"fetch_plain_u{u}_g{grid}", "micro", KERNELS, "long_body_loop",
                            [x, o, K(n), K(u), K(4096)], (grid,)))
            out.append(Case(f"fetch_synced_u{u}_g{grid}", "micro", FETCH, "long_body_synced",
                            [x, o, K(n), K(u), K(4096)], (grid,)))
            out.append(Case(f"fetch_loaded_u{u}_g{grid}", "micro", FETCH, "long_body_loaded",
                            [x, A((80 * 4096,)), o, K(n), K(u), K(4096)], (grid,)))
    # a load and a block-wide max every 256 multiply-adds of 1,024-element tiles: 4,100 and 32,800
    # instructions again, the loads few enough not to spill
    for u in (512, 4096):
        for k in (1, 4):
            grid, n = SMS * k, max(1, 32768 // u // d)
            out.append(Case(f"fetch_waiting_u{u}_g{grid}", "micro", FETCH, "long_body_waiting",
                            [A((grid * 1024,)), A((80 * 1024,)), A((grid * 1024,), init="zeros"), K(n), K(u),
                             K(1024)], (grid,)))
            # a block-wide max every 64 multiply-adds of the same tiles: shared-memory operations as
            # dense as a cross entropy's, no loads
            out.append(Case(f"fetch_reduced_u{u}_g{grid}", "micro", FETCH, "long_body_reduced",
                            [A((grid * 1024,)), A((grid * 1024,), init="zeros"), K(n), K(u), K(1024)], (grid,)))
    return out


def strided_cases(d: int) -> List[Case]:
    """One int32 element every S, for S = 1 (contiguous) to 32 (a line a lane), read and written, read
    alone, written alone; 4M lanes (from DRAM) and 128K lanes (arrays of at most 16 MB: back-to-back
    launches find them in L2) (history 119). Dynamic builds (a gather's lanes: element by element)."""
    out: List[Case] = []
    tile = 256
    for lanes, size in (((1 << 22) // d, "4m"), ((1 << 17) // d, "128k")):
        for s in (1, 2, 4, 8, 17, 32):
            n, grid = lanes * s, (lanes // tile,)
            out += [Case(f"strided_copy_i32_{size}_s{s}", "micro", STRIDED, "strided_copy",
                         [A((n,), "int32", "bytes"), A((n,), "int32", "zeros"), K(s), K(tile)], grid),
                    Case(f"strided_read_i32_{size}_s{s}", "micro", STRIDED, "strided_read",
                         [A((n,), "int32", "bytes"), A((lanes,), "int32", "zeros"), K(s), K(tile)], grid),
                    Case(f"strided_write_i32_{size}_s{s}", "micro", STRIDED, "strided_write",
                         [A((lanes,), "int32", "bytes"), A((n,), "int32", "zeros"), K(s), K(tile)], grid)]
    return out


def strided_tile_cases(d: int) -> List[Case]:
    """Tile loads and stores of float32 arrays whose elements lie S apart (a strided view; the
    stride stated, `f32[N]:[S]`), S = 2 to 32, 4M elements (from DRAM) and 256K (in L2); the
    read alone, the write alone, and a vector add with one strided operand (history 180)."""
    out: List[Case] = []
    tile = 1024
    for n, size in (((1 << 22) // d, "4m"), ((1 << 18) // d, "256k")):
        grid = (n // tile,)
        for s in (2, 4, 8, 32):
            out += [Case(f"strided_tile_read_f32_{size}_s{s}", "micro", STRIDED, "strided_tile_read",
                         [A((n,), step=s), A((n,), init="zeros"), K(tile)], grid),
                    Case(f"strided_tile_write_f32_{size}_s{s}", "micro", STRIDED, "strided_tile_write",
                         [A((n,)), A((n,), init="zeros", step=s), K(tile)], grid),
                    Case(f"strided_tile_add_f32_{size}_s{s}", "micro", STRIDED, "strided_tile_add",
                         [A((n,), step=s), A((n,)), A((n,), init="zeros"), K(tile)], grid)]
    return out


def picked_cases(d: int) -> List[Case]:
    """One bfloat16 element a lane at random indices (`index:N`) over arrays of 2 MB to 256 MB, 2^24
    lanes (history 160): one array, or two at the same indices; dynamic builds and launched ones."""
    out: List[Case] = []
    tile, lanes = 256, (1 << 24) // d
    for bits in (20, 22, 23, 24, 25, 27):
        size = f"{(2 << bits) >> 20}m"
        one = Case(f"picked_one_bf16_{size}", "micro", PICKED, "gather_picked",
                   [A((1 << bits,), "bfloat16"), A((lanes,), "int32", f"index:{1 << bits}"),
                    A((lanes,), "bfloat16", "zeros"), K(tile)], (lanes // tile,))
        two = Case(f"picked_two_bf16_{size}", "micro", PICKED, "gather_picked_two",
                   [A((1 << bits,), "bfloat16"), A((1 << bits,), "bfloat16"),
                    A((lanes,), "int32", f"index:{1 << bits}"), A((lanes,), "bfloat16", "zeros"), K(tile)],
                   (lanes // tile,))
        out += [one, one.launched("micro"), two, two.launched("micro")]
    return out


def slim_cases(d: int) -> List[Case]:
    """Stores of (TR, TC) bfloat16 tiles with rows of 16 to 128 bytes (history 162): into eight arrays of
    1024 or 2048 squared (16 MB or 64 MB in all), blocks down the rows first or along them; into one
    array of 4096 squared; the (8, 8) tiles of 1024 squared as launched too."""
    out: List[Case] = []
    for n, tiles in ((1024 // d, ((8, 8), (8, 16), (8, 64), (16, 8))), (2048 // d, ((8, 8), (8, 16), (8, 64)))):
        for tr, tc in tiles:
            for kern, grid in (("slim_store8", (n // tr, n // tc)), ("slim_store8_across", (n // tc, n // tr))):
                case = Case(f"{kern}_bf16_{n}_t{tr}x{tc}", "micro", SLIM, kern,
                            [A((n, n), "bfloat16", "zeros") for _ in range(8)] + [K(tr), K(tc)], grid)
                out += [case, case.launched("micro")] if (n, tr, tc) == (1024 // d, 8, 8) else [case]
    for tr, tc in ((8, 8), (8, 16), (8, 64)):
        n = 4096 // d
        out.append(Case(f"slim_store_bf16_{n}_t{tr}x{tc}", "micro", SLIM, "slim_store",
                        [A((n, n), "bfloat16", "zeros"), K(tr), K(tc)], (n // tr, n // tc)))
    return out


def channels_cases(d: int) -> List[Case]:
    """One element a lane of a channels-last array in logical NCHW order (history 167): read, written
    or both, bfloat16 and float32, channel rows of 232 and 384 elements over 14 x 14 positions, 128
    images (from DRAM) and 16 (arrays L2 keeps); dynamic builds and, for the bfloat16 ones, launched.
    Sizes stay whole blocks: `d` only drops the 128 images. And a channel's sum a block."""
    out: List[Case] = []
    hw, tile = 196, 512
    for images in ((128, 16) if d == 1 else (16,)):
        for dt in ("bfloat16", "float32"):
            for c in (232, 384):
                n = images * c * hw
                grid = (n // tile,)
                for kern in ("channels_read", "channels_write", "channels_copy"):
                    case = Case(f"{kern}_{dt[0]}{dt[-2:]}_c{c}_n{images}", "micro", CHANNELS, kern,
                                [A((n,), dt), A((n,), dt, "zeros"), K(c), K(hw), K(tile)], grid)
                    out += [case, case.launched("micro")] if dt == "bfloat16" else [case]
    # a reduction a block a channel, 8192 positions (as set BE's): few blocks, each walking many lines
    for c in (232, 384):
        n = 8192 // hw * hw if d == 1 else 16 * hw
        out.append(Case(f"channels_sum_b16_c{c}_p{n}", "micro", CHANNELS, "channels_sum",
                        [A((n * c,), "bfloat16"), A((c,), "float32", "zeros"), K(c), K(hw), K(8192 if d == 1 else 4096)],
                        (c,)))
    return out


def thin_cases(d: int) -> List[Case]:
    """Tile copies with 32-byte rows (history 167): bfloat16 (TR, 16) tiles for TR = 64 to 512 over
    arrays of 432 columns (BH's copy's pitch) and 512; float32 (512, 8) tiles; and, for contrast,
    bfloat16 (512, 32) and (512, 64) tiles of 448 columns; 32768 rows. Then (history 169) arrays of
    8,192 to 131,072 rows (7 to 113 MB), which L2 holds or not: (512, 16) and (256, 16) tiles, and
    (512, 8) bfloat16 tiles, 16-byte rows."""
    out: List[Case] = []
    for dt, tr, tc, cols, rows in (("bfloat16", 512, 16, 432, 32768), ("bfloat16", 256, 16, 432, 32768),
                                   ("bfloat16", 128, 16, 432, 32768), ("bfloat16", 64, 16, 432, 32768),
                                   ("bfloat16", 512, 16, 512, 32768), ("float32", 512, 8, 432, 32768),
                                   ("bfloat16", 512, 32, 448, 32768), ("bfloat16", 512, 64, 448, 32768),
                                   ("bfloat16", 512, 16, 432, 8192), ("bfloat16", 512, 16, 432, 16384),
                                   ("bfloat16", 512, 16, 432, 65536), ("bfloat16", 512, 16, 432, 131072),
                                   ("bfloat16", 256, 16, 432, 8192), ("bfloat16", 256, 16, 432, 131072),
                                   ("bfloat16", 512, 8, 432, 32768), ("bfloat16", 512, 8, 432, 131072)):
        n = rows // d
        out.append(Case(f"thin_copy_{dt[0]}{dt[-2:]}_{cols}_t{tr}x{tc}" + ("" if rows == 32768 else f"_r{rows}"),
                        "micro", THIN, "thin_copy", [A((n, cols), dt), A((n, cols), dt, "zeros"), K(tr), K(tc)],
                        (n // tr, -(-cols // tc))))
    return out


def pair_cases(d: int) -> List[Case]:
    """Tile copies whose rows hold a sector or less, a pair of sectors or more apart, over arrays
    beyond L2 (history 171), built as launched and, for the (1024, 16) tiles, dynamically: blocks down
    the rows first (a row's column tiles far apart, as set AR's epilogue) or along them; bfloat16
    rows of 16 and 32 bytes, 64-byte rows for contrast, float32 rows of 32 bytes."""
    out: List[Case] = []
    for dt, tr, tc, cols, rows, first in (("bfloat16", 1024, 16, 96, 1605632, "rows"),
                                          ("bfloat16", 1024, 16, 96, 1605632, "cols"),
                                          ("bfloat16", 512, 16, 432, 131072, "rows"),
                                          ("bfloat16", 512, 16, 432, 131072, "cols"),
                                          ("bfloat16", 1024, 8, 96, 1605632, "rows"),
                                          ("bfloat16", 1024, 32, 96, 1605632, "rows"),
                                          ("float32", 1024, 8, 48, 1605632, "rows")):
        n = rows // d
        grid = (n // tr, cols // tc)
        case = Case(f"pair_copy_{dt[0]}{dt[-2:]}_{cols}_t{tr}x{tc}_{first}", "micro", THIN,
                    "thin_copy" if first == "rows" else "thin_copy_columns_first",
                    [A((n, cols), dt), A((n, cols), dt, "zeros"), K(tr), K(tc)], grid if first == "rows" else grid[::-1])
        out.extend((case, case.launched("micro")) if (tr, tc, cols) == (1024, 16, 96) else (case.launched("micro"),))
    return out


def chain_cases(d: int) -> List[Case]:
    """Column sums whose blocks each walk a column of tiles (history 172), dynamic and as launched:
    set BH's (512, 16) bfloat16 tiles on 27 blocks and (256, 16) ones over the same array; (128, 32)
    bfloat16, (64, 64) and (32, 128) float32 tiles and set BJ's (4, 8) float32 ones on 32-64 blocks;
    for contrast, (512, 16) bfloat16 tiles on four blocks an SM and (256, 8) float32 on one; and set
    AT's (64, 128) bfloat16 tiles of 256-byte rows on its 32 blocks and on 132."""
    out: List[Case] = []
    for dt, tr, tc, cols, steps in (("bfloat16", 512, 16, 432, 256), ("bfloat16", 256, 16, 432, 512),
                                    ("bfloat16", 128, 32, 1024, 512), ("float32", 64, 64, 4096, 128),
                                    ("float32", 32, 128, 8192, 128), ("float32", 4, 8, 512, 1024),
                                    ("bfloat16", 512, 16, 8448, 16), ("float32", 256, 8, 1056, 64),
                                    ("bfloat16", 64, 128, 4096, 128), ("bfloat16", 64, 128, 16896, 32)):
        n = steps // d
        case = Case(f"chain_col_sum_{dt[0]}{dt[-2:]}_{cols}_t{tr}x{tc}_s{n}", "micro", CHAIN, "column_sum",
                    [A((tr * n, cols), dt), A((cols,), "float32", "zeros"), K(tr), K(tc), K(n)], (cols // tc,))
        out += [case, case.launched("micro")]
    return out


def vector_cases(d: int) -> List[Case]:
    """Load -> mma loops of operand tiles loaded without the accelerator (history 174): the six
    float16 and bfloat16 shapes of the load -> mma microbenchmark, B as stored and B along K, on two
    blocks an SM; dynamic (one element a lane a load) and as launched (16-byte loads)."""
    out: List[Case] = []
    iters, grid = 256 // d, 2 * SMS
    for dt, tm, tn, tk in STREAM_SHAPES:
        if dt == "float32":
            continue
        for kern, b in (("mma_stream_no_tma", A((iters * tk, tn), dt)),
                        ("mma_stream_no_tma_kmajor", A((tn, iters * tk), dt))):
            case = Case(f"vecop_{kern.removeprefix('mma_stream_')}_{dt}_{tm}x{tn}x{tk}", "micro", VECTOR, kern,
                        [A((grid * tm, iters * tk), dt), b, A((grid * tm, tn), init="zeros"), K(iters), K(tm), K(tn),
                         K(tk)], (grid,))
            out += [case, case.launched("micro")]
    return out


def stepped_cases(d: int) -> List[Case]:
    """Loops of short row tiles that tileiras unrolls into passes of several steps (history 178): a
    block's sum of 128 (1, T) rows, float32 T = 32, 64, 128 and bfloat16 T = 64, 128, on 1,182 and
    264 blocks; the same with each row also stored (float32 T = 32, bfloat16 T = 64); dynamic and
    as launched."""
    out: List[Case] = []
    steps = 128 // d
    for kern, shapes in (("row_steps_sum", (("float32", 32), ("float32", 64), ("float32", 128), ("bfloat16", 64),
                                            ("bfloat16", 128))),
                         ("row_steps_sum_copy", (("float32", 32), ("bfloat16", 64)))):
        for dt, t in shapes:
            for rows in (1182, 2 * SMS):
                x = A((rows * steps, t), dt)
                copy = [A((rows * steps, t), dt, "zeros")] if kern.endswith("copy") else []
                case = Case(f"stepped_{kern.removeprefix('row_steps_')}_{dt[0]}{dt[-2:]}_t{t}_g{rows}", "micro",
                            STEPPED, kern, [x] + copy + [A((rows, t), init="zeros"), K(t), K(steps)], (rows,))
                out += [case, case.launched("micro")]
    return out


def stepped_footprint_cases(d: int) -> List[Case]:
    """The same sum of (1, T) rows on 1,182 blocks with more or fewer steps, so that what a launch
    reads is a third of L2 to one and a half times it: float32 T = 32 and 64, bfloat16 T = 64, each
    over 9.7 to 77 MB; dynamic and as launched (history 182: a loop that waits for each step's load
    finds in L2 the share of the data L2 kept from the launch before)."""
    out: List[Case] = []
    rows = 1182
    for dt, t, all_steps in (("float32", 32, (64, 256, 512)), ("float32", 64, (32, 64, 256)),
                             ("bfloat16", 64, (64, 256, 512))):
        for steps in all_steps:
            steps //= d
            x = A((rows * steps, t), dt)
            case = Case(f"stepped_fp_{dt[0]}{dt[-2:]}_t{t}_s{steps}_g{rows}", "micro", STEPPED, "row_steps_sum",
                        [x, A((rows, t), init="zeros"), K(t), K(steps)], (rows,))
            out += [case, case.launched("micro")]
    return out


def divide_cases(d: int) -> List[Case]:
    """A whole-row float16 softmax, one tile a block, dividing each element by the row's sum, multiplying
    it by the sum's reciprocal, or dividing with approximate rounding; rows of 10,240 in a 16,384 tile
    (sets AC's and AD's) and of 4,096; dynamic and as launched (history 109). History 110 adds rows
    filling the tile, the padding read as zeros, and an element-wise division of two arrays."""
    out: List[Case] = []
    rows = 8192 // d
    for how in ("divided", "reciprocal", "approx"):
        for cols, tile in ((10240, 16384), (4096, 4096)):
            c = Case(f"divide_{how}_f16_{rows}x{cols}_t{tile}", "micro", DIVIDE, f"row_softmax_{how}",
                     [A((rows, cols), "float16"), A((rows, cols), "float16", "zeros"), K(tile)], (rows,))
            out += [c, c.launched("micro")]
    # history 110: rows filling the tile (no padding), the padding read as zeros, and an element-wise
    # division whose dividend is all zeros or not, at two tile sizes
    more = [Case(f"divide_divided_f16_{rows}x16384_t16384", "micro", DIVIDE, "row_softmax_divided",
                 [A((rows, 16384), "float16"), A((rows, 16384), "float16", "zeros"), K(16384)], (rows,)),
            Case(f"divide_reciprocal_f16_{rows}x16384_t16384", "micro", DIVIDE, "row_softmax_reciprocal",
                 [A((rows, 16384), "float16"), A((rows, 16384), "float16", "zeros"), K(16384)], (rows,)),
            Case(f"divide_zero_padded_f16_{rows}x10240_t16384", "micro", DIVIDE, "row_softmax_divided_zero_padded",
                 [A((rows, 10240), "float16"), A((rows, 10240), "float16", "zeros"), K(16384)], (rows,))]
    n = 8192 // d
    for tm, tn in ((64, 64), (128, 128)):
        for dividend in ("normal", "zeros"):
            more.append(Case(f"divide_tiles_{dividend}_f32_{n}x{n}_t{tm}x{tn}", "micro", DIVIDE, "divide_tiles",
                             [A((n, n), "float32", dividend), A((n, n)), A((n, n), "float32", "zeros"),
                              K(tm), K(tn)], (n // tm, n // tn)))
    for c in more:
        out += [c, c.launched("micro")]
    return out


# The sets read from checkouts, in the order they join the list (a letter: its cases' prefix).
CHECKOUT_SETS = (("C", setc_cases), ("D", setd_cases), ("E", sete_cases), ("F", setf_cases), ("G", setg_cases),
                 ("H", seth_cases), ("I", seti_cases), ("J", setj_cases), ("K", setk_cases), ("L", setl_cases),
                 ("M", setm_cases), ("N", setn_cases), ("O", seto_cases), ("P", setp_cases),
                 ("Q", setq_cases), ("R", setr_cases), ("S", sets_cases), ("T", sett_cases),
                 ("U", setu_cases), ("V", setv_cases), ("W", setw_cases), ("X", setx_cases),
                 ("Y", sety_cases), ("Z", setz_cases), ("AA", setaa_cases),
                 ("AB", setab_cases), ("AC", setac_cases), ("AD", setad_cases),
                 ("AE", setae_cases), ("AF", setaf_cases),
                 *((letter, getattr(importlib.import_module(f"cost_set{letter.lower()}"), f"set{letter.lower()}_cases"))
                   for letter in BBENCH_SEEDS))     # each drawn set's cases: cost_set<letter>.set<letter>_cases
ALL_SETS = tuple(letters for letters, _ in CHECKOUT_SETS)


def all_cases(d: int, sets: Sequence[str]) -> List[Case]:
    """Every case, the big dimensions divided by `d` (tile shapes unchanged), with the checkout
    sets named in `sets` (their letters, as CHECKOUT_SETS names them)."""
    out = micro_cases(d) + seta_cases(d) + held_out(d)
    add = out.append
    for letter, set_cases in CHECKOUT_SETS:
        if letter in sets:
            out.extend(set_cases(d))

    # -- what a launch builds (version 7): tilescope's own bytecode for contiguous device arrays
    # (aligned, unit last stride, divisible extents), for the microbenchmarks and sets A-F
    for c in list(out):
        if c.group in ("validate", "validate-b", "validate-c", "validate-d", "validate-e", "validate-f") or (
                c.group == "micro" and c.name in LAUNCH_MICRO):
            add(c.launched("micro-launch" if c.group == "micro" else "validate-launch"))

    # -- validation, upstream launch-like cubins (aligned, unit last stride: TMA)
    for c in list(out):
        if c.name in ("vector_add_f32", "softmax_f32", "layernorm_f32", "matmul_f16_64x64x32",
                      "matmul_f16_128x128x64", "attention_f16_64x64", "attention_f16_128x128", "transpose_f32"):
            add(Case(c.name + "_tma", "validate-tma", c.file, c.kernel, c.args, c.grid, c.note, aligned=True))
    return out


def micro_cases(d: int) -> List[Case]:
    """Launch overhead, bandwidth, latency per load iteration, compute rates (bench/cost_kernels.py)."""
    out: List[Case] = []
    add = out.append
    add(Case("empty_1", "micro", KERNELS, "empty", [A((1,), init="zeros")], (1,)))
    nb = (1 << 20) // d
    add(Case("empty_many", "micro", KERNELS, "empty", [A((nb,), init="zeros")], (nb,)))
    n = (1 << 26) // d // d
    for t in (256, 1024, 4096):
        add(Case(f"copy_f32_t{t}", "micro", KERNELS, "copy_1d", [A((n,)), A((n,), init="zeros"), K(t)], (n // t,)))
    for grid, t in ((SMS, 256), (SMS, 1024), (SMS, 4096), (SMS * 8, 1024)):
        add(_load_chain("load_chain", t, grid, d))
        if grid == SMS and t != 256:
            add(_load_chain("load_chain", t, grid, d, aligned=True))
    add(Case("copy_f32_t1024_tma", "micro", KERNELS, "copy_1d", [A((n,)), A((n,), init="zeros"), K(1024)],
             (n // 1024,), aligned=True))
    mma_shapes = [("float16", 64, 64, 32), ("float16", 64, 64, 64), ("float16", 128, 128, 32),
                  ("float16", 64, 256, 64), ("bfloat16", 128, 64, 32), ("float32", 64, 64, 32),
                  ("float32", 32, 32, 32)]
    for dt, tm, tn, tk in mma_shapes:
        for grid in (SMS, SMS * 16):
            iters = 1024 // d
            add(Case(f"mma_{dt}_{tm}x{tn}x{tk}_g{grid}", "micro", KERNELS, "mma_loop",
                     [A((tm, tk), dt), A((tk, tn), dt), A((grid * tm, tn), init="zeros"), K(iters), K(tm), K(tn), K(tk)],
                     (grid,)))
    for dt, tm, tn, tk in STREAM_SHAPES:
        for aligned in (False, True):
            iters = 256 // d
            grid = 2 * SMS
            add(Case(f"mma_stream_{dt}_{tm}x{tn}x{tk}" + ("_tma" if aligned else ""), "micro", KERNELS, "mma_stream",
                     [A((grid * tm, iters * tk), dt), A((iters * tk, tn), dt), A((grid * tm, tn), init="zeros"),
                      K(iters), K(tm), K(tn), K(tk)], (grid,), aligned=aligned))
    # which operand streams, and in which layout: B contiguous along the contraction axis
    # (`order=`), B transposed in registers, B alone (A resident), B alone through `order=`
    for dt, tm, tn, tk in ORIENTATION_SHAPES:
        iters, grid = 256 // d, 2 * SMS
        a = A((grid * tm, iters * tk), dt)
        bt = A((tn, iters * tk), dt)
        for kern, b in (("mma_stream", A((iters * tk, tn), dt)), ("mma_stream_b_kmajor", bt),
                        ("mma_stream_b_permuted", bt), ("mma_stream_b_only", A((iters * tk, tn), dt)),
                        ("mma_stream_b_only_kmajor", bt)):
            add(Case(f"{kern}_{dt}_{tm}x{tn}x{tk}_v3", "micro", KERNELS, kern,
                     [a, b, A((grid * tm, tn), init="zeros"), K(iters), K(tm), K(tn), K(tk)], (grid,)))
    add(Case(f"exp2_loop_g{SMS * 16}", "micro", KERNELS, "exp2_loop",
             [A((64, 64)), A((SMS * 16 * 64, 64), init="zeros"), K(1024 // d), K(64), K(64)], (SMS * 16,)))
    t2 = 8192 // d
    for tm, tn in ((64, 64), (32, 128)):
        add(Case(f"copy_2d_f32_{tm}x{tn}", "micro", KERNELS, "copy_2d", [A((t2, t2)), A((t2, t2), init="zeros"),
                 K(tm), K(tn)], (t2 // tm, t2 // tn)))
    add(Case("copy_f32_t2048", "micro", KERNELS, "copy_1d", [A((n,)), A((n,), init="zeros"), K(2048)], (n // 2048,)))
    for t in (1024, 4096):
        add(Case(f"copy_f16_t{t}", "micro", KERNELS, "copy_1d", [A((n,), "float16"), A((n,), "float16", "zeros"),
                 K(t)], (n // t,)))
    for dt, t in (("float32", 1024), ("float16", 1024), ("float16", 4096)):
        for kern in ("gather_copy_1d", "gather_copy_1d_unchecked"):
            add(Case(f"gather_copy{kern[14:]}_{dt[0]}{dt[-2:]}_t{t}", "micro", KERNELS, kern,
                     [A((n,), dt), A((n,), dt, "zeros"), K(t)], (n // t,)))
    na = (1 << 24) // d
    for spread in (1, 64, 1024):
        add(Case(f"atomic_spread{spread}", "micro", KERNELS, "atomic_ones", [A((1024,), "int32", "zeros"),
                 K(1024), K(spread)], (na // 1024,)))
    # 1,024 and 16,384 bins; then how contention on few addresses scales (model version 22): bins from
    # 16 to 65,536, tiles of 1,024 and 4,096 lanes
    for bins in (1024, 16384, 16, 64, 256, 4096, 65536):
        add(Case(f"atomic_random_{bins}", "micro", KERNELS, "atomic_random",
                 [A((na,), "uint16", "bytes"), A((bins,), "int32", "zeros"), K(1024), K(bins)], (na // 1024,)))
    for bins in (256, 1024):
        add(Case(f"atomic_random_{bins}_t4096", "micro", KERNELS, "atomic_random",
                 [A((na,), "uint16", "bytes"), A((bins,), "int32", "zeros"), K(4096), K(bins)], (na // 4096,)))
    for tn, grid in ((1024, SMS), (256, SMS), (1024, SMS * 8)):
        add(Case(f"reduce_loop_t{tn}_g{grid}", "micro", KERNELS, "reduce_loop",
                 [A((grid, tn)), A((grid, tn), init="zeros"), K(256 // d), K(tn)], (grid,)))
    for kern in ("fma_loop", "exp_loop"):
        iters = 1024 // d
        add(Case(f"{kern}_g{SMS * 16}", "micro", KERNELS, kern,
                 [A((64, 64)), A((SMS * 16 * 64, 64), init="zeros"), K(iters), K(64), K(64)], (SMS * 16,)))

    out.extend(mma_wait_cases(d))
    out.extend(odd_row_cases(d))
    out.extend(serial_copy_cases(d))
    out.extend(attention_variant_cases(d))
    out.extend(row_walk_cases(d))
    out.extend(loop_wait_cases(d))
    out.extend(lone_block_cases(d))
    out.extend(fetch_cases(d))
    out.extend(divide_cases(d))
    out.extend(strided_cases(d))
    out.extend(strided_tile_cases(d))
    out.extend(picked_cases(d))
    out.extend(slim_cases(d))
    out.extend(channels_cases(d))
    out.extend(thin_cases(d))
    out.extend(pair_cases(d))
    out.extend(chain_cases(d))
    out.extend(vector_cases(d))
    out.extend(stepped_cases(d))
    out.extend(stepped_footprint_cases(d))

    # streaming rate against resident warps (version 6): persistent copies over 132·k blocks
    for dt, t in (("float32", 1024), ("float16", 1024), ("float16", 4096)):
        for k in (1, 2, 4, 8, 16):
            grid = SMS * k
            iters = max(1, (1 << 26) // d // d // t // grid)
            add(Case(f"copy_loop_{dt[0]}{dt[-2:]}_t{t}_k{k}", "micro", KERNELS, "copy_loop",
                     [A((grid * iters * t,), dt), A((grid * iters * t,), dt, "zeros"), K(iters), K(t)], (grid,)))
            if dt == "float16":
                for kern in ("gather_copy_loop", "gather_copy_loop_unchecked"):
                    add(Case(f"{kern}_f16_t{t}_k{k}", "micro", KERNELS, kern,
                             [A((grid * iters * t,), dt), A((grid * iters * t,), dt, "zeros"), K(iters), K(t)],
                             (grid,)))

    # one-row blocks ending in a reduction and a store; loops of reduced tiles (version 13: cost_micro13_h200.json)
    r13 = 16384 // d
    for tn in (1024, 4096):
        add(Case(f"row_scale_by_sum_f32_t{tn}", "micro", KERNELS, "row_scale_by_sum",
                 [A((r13, tn)), A((r13, tn), init="zeros"), K(tn)], (r13,)))
    for tn, iters in ((256, 16), (512, 32)):
        add(Case(f"chunk_sum_loop_f32_t{tn}_n{iters}", "micro", KERNELS, "chunk_sum_loop",
                 [A((r13, tn * iters)), A((r13, 1), init="zeros"), K(iters), K(tn)], (r13,)))

    # pointer chases through arrays in L1, L2 and DRAM; loop bodies past the instruction cache (version 16)
    for name, size, step, iters in (("l1", 1 << 11, 32 * 33, 4096), ("l2", 1 << 22, 32 * 129, 4096),
                                    ("dram", 1 << 28, 32 * 4097, 4096)):
        add(Case(f"chase_{name}_g{SMS}", "micro", KERNELS, "chase_loop",
                 [A((size // d,), "int32", f"chase:{step}"), A((SMS * 32,), "int32", "zeros"), K(iters // d), K(32)],
                 (SMS,)))
    # the same L2 chase with 4 to 64 warps an SM, each lane one dependent load at a time: L2's round
    # trip as the warps waiting on it grow, what spill reloads beyond L1 wait (version 22)
    for k in (1, 4, 8, 16):
        add(Case(f"chase_l2_l128_g{SMS * k}", "micro", KERNELS, "chase_loop",
                 [A(((1 << 22) // d,), "int32", f"chase:{32 * 129}"), A((SMS * k * 128,), "int32", "zeros"),
                  K(4096 // d), K(128)], (SMS * k,)))
    for u, k in ((128, 16), (512, 16), (1024, 16), (128, 1), (1024, 1)):   # bodies of 4,100 to 32,800 instructions
        add(Case(f"long_body_u{u}_g{SMS * k}", "micro", KERNELS, "long_body_loop",
                 [A((SMS * k * 4096,)), A((SMS * k * 4096,), init="zeros"), K(max(1, 8192 // u // d)), K(u),
                  K(4096)], (SMS * k,)))
    # tiles every block reads at the same step, from L2, as a launch builds them (version 17)
    for stagger, k, rows in ((0, 2, 1 << 15), (7, 2, 1 << 15), (0, 1, 1 << 15), (0, 2, 1 << 12)):
        add(Case(f"shared_tile_s{stagger}_r{rows}_g{SMS * k}_launch", "micro", KERNELS, "shared_tile_loop",
                 [A((rows, 128), "float16"), A((16, 128), "float16"), A((SMS * k * 16, 64), init="zeros"),
                  K(512 // d), K(stagger)], (SMS * k,), launch=True))
    add(Case(f"shared_tile_store_g{SMS * 2}_launch", "micro", KERNELS, "shared_tile_store_loop",
             [A((1 << 15, 128), "float16"), A((16, 128), "float16"), A((SMS * 2 * 16, 512 // d * 64), init="zeros"),
              K(512 // d)], (SMS * 2,), launch=True))
    add(Case(f"shared_tile_convert_g{SMS * 2}_launch", "micro", KERNELS, "shared_tile_convert_loop",
             [A((1 << 15, 128), "int8", "index:2"), A((16, 128), "float16"), A((SMS * 2 * 16, 64), init="zeros"),
              K(512 // d)], (SMS * 2,), launch=True))
    # 2-D tiles of fewer rows than a warp's lanes, copied and stored transposed (version 17)
    t2 = 8192 // d
    for kern, shapes in (("copy_2d", ((16, 16), (8, 64), (16, 64), (4, 256))),
                         ("transpose_2d", ((16, 16), (8, 64), (64, 8), (32, 32), (64, 64)))):
        for tm, tn in shapes:
            add(Case(f"{kern}_f32_{tm}x{tn}_v17", "micro", KERNELS, kern, [A((t2, t2)), A((t2, t2), init="zeros"),
                     K(tm), K(tn)], (t2 // tm, t2 // tn)))
    # one f32 copy at footprints of 256 MB to 12 GB moved (read + write): DRAM rate against footprint (after set N)
    for mb in (256, 1024, 2048, 4096, 8192, 12288):
        nf = (mb << 17) // d // d          # mb MiB moved = 8 bytes an element
        add(Case(f"copy_footprint_f32_{mb}mb", "micro", KERNELS, "copy_1d", [A((nf,)), A((nf,), init="zeros"),
                 K(1024)], (nf // 1024,)))
    for mb, extra in ((768, 0), (3072, 0), (12288, 0), (12288, 123)):      # three streams: x + y -> z
        nf = mb * (1 << 20) // 12 // d // d + extra
        add(Case(f"add_footprint_f32_{mb}mb" + ("_odd" if extra else ""), "micro", KERNELS, "add_1d",
                 [A((nf,)), A((nf,)), A((nf,), init="zeros"), K(1024)], (-(-nf // 1024),)))
    # 768 MiB moved by one to three input streams at tiles of 256 to 4,096: the loaded round trip
    # against loads in flight and streams (version 18)
    for tile in (256, 1024, 4096):
        for kern, ins in (("copy_1d", 1), ("add_1d", 2), ("add3_1d", 3)):
            nf = 768 * (1 << 20) // 4 // (ins + 1)
            add(Case(f"rt_{kern}_f32_t{tile}", "micro", KERNELS, kern,
                     [A((nf,)) for _ in range(ins)] + [A((nf,), init="zeros"), K(tile)], (nf // tile,)))
    # rows read and written in runs shorter than their pitch, each run its own tile, full rows for
    # comparison: 256 MiB in, 256 MiB out, dynamic and as launched (after set T)
    rows = (1 << 28) // d // d
    for dt, size in (("bfloat16", 2), ("float32", 4)):
        nr = rows // 128 // size
        full, half = [A((nr, 128), dt), A((nr, 128), dt, "zeros")], [A((nr, 128), dt), A((nr, 64), dt, "zeros")]
        for kern, args, tm, tn in (("copy_2d", full, 32, 128), ("copy_halves", full, 32, 64),
                                   ("copy_halves", full, 16, 64), ("copy_quarters", full, 32, 32),
                                   ("copy_first_half", half, 32, 64)):
            grid = (nr // tm, 1) if kern == "copy_2d" else (nr // tm,)
            for launch in (False, True):
                add(Case(f"split_{kern}_{dt[0]}{dt[-2:]}_{tm}x{tn}" + ("_launch" if launch else ""), "micro",
                         KERNELS, kern, args + [K(tm), K(tn)], grid, launch=launch))
    # 32x64 tiles copied element by element from arrays of rows 128 to 8,192 elements long, 256 MiB
    # each, of 1-, 2- and 4-byte elements; and the same tiles walked along a block's rows in a loop
    for dt, size, tag in (("uint8", 1, "u8"), ("bfloat16", 2, "b16"), ("float32", 4, "f32")):
        for cols in (128, 1024, 8192):
            if size == 1 and cols != 1024:
                continue
            nr = (1 << 28) // size // cols // d // d
            args = [A((nr, cols), dt), A((nr, cols), dt, "zeros")]
            add(Case(f"pitch_copy_2d_{tag}_c{cols}", "micro", KERNELS, "copy_2d", args + [K(32), K(64)],
                     (nr // 32, cols // 64)))
            if cols == 1024 and size > 1:
                add(Case(f"pitch_copy_row_chunks_{tag}_c{cols}", "micro", KERNELS, "copy_row_chunks",
                         args + [K(cols // 64), K(32), K(64)], (nr // 32,)))
    # float32 mma loops that spill every iteration (7 KB a thread for 128x128x64 tiles, 3.5 KB for
    # 128x128x32), one or two blocks per SM, on grids of 8 to 264 blocks: the spill areas of the
    # blocks that run together go from a quarter of L2 to four times its size (docs history 59)
    for tk, grids in ((64, (8, 16, 33, 66, 132)), (32, (16, 66, 132, 264))):
        for grid in grids:
            add(Case(f"spill_mw_chained_f32_128x128x{tk}_g{grid}_launch", "micro-launch", KERNELS, "mw_chained",
                     [A((128, 8 * tk)), A((8 * tk, 128)), A((grid * 128, 128), init="zeros"),
                      K(max(1, 2048 // tk // d)), K(8), K(128), K(128), K(tk)], (grid,), launch=True))
    # the element-by-element operand path against the blocks an SM runs (docs history 60): B
    # streamed alone (A loaded once) or with A, by 1 to 8 blocks an SM; a 4x4 float32 product
    # (a residual mix's) among them
    for kern, shapes in (("mma_stream_b_only", OCCUPANCY_SHAPES), ("mma_stream", OCCUPANCY_SHAPES[-3:])):
        for dt, tm, tn, tk in shapes:
            for k in (1, 2, 4, 8):
                iters, grid = 256 // d, SMS * k
                add(Case(f"occ_{kern}_{dt}_{tm}x{tn}x{tk}_g{grid}", "micro", KERNELS, kern,
                         [A((grid * tm, iters * tk), dt), A((iters * tk, tn), dt), A((grid * tm, tn), init="zeros"),
                          K(iters), K(tm), K(tn), K(tk)], (grid,)))
    # float32 products on the CUDA cores: the product's rows, depth and width varied one at a time
    # (docs history 61)
    for kern in ("mma_stream_b_only", "mma_stream"):
        for tm, tn, tk in FLOAT32_PRODUCT_SHAPES:
            for k in (1, 2):
                iters, grid = 256 // d, SMS * k
                add(Case(f"f32prod_{kern}_{tm}x{tn}x{tk}_g{grid}", "micro", KERNELS, kern,
                         [A((grid * tm, iters * tk)), A((iters * tk, tn)), A((grid * tm, tn), init="zeros"),
                          K(iters), K(tm), K(tn), K(tk)], (grid,)))
    # atomics and row gathers over arrays from L2-sized to several times L2, as launched (docs
    # history 64): single random addresses, relaxed and fenced; R rows of W elements a block at
    # random rows of a table (a scatter-add by relaxed or fenced tile atomics; a gather)
    def index_args(bits):            # 2^24 indices over 2^bits float32 elements
        return [A((na,), "int32", f"index:{1 << bits}"), A((1 << bits,), init="zeros"), K(1024)]

    rows, r = (1 << 19) // d, 64

    def rows_args(w, bits):          # 2^19 rows of w gradients into a table of 2^bits rows
        return [A((rows, w)), A((rows,), "int32", f"index:{1 << bits}"), A((1 << bits, w), init="zeros"), K(r), K(w)]

    for bits in (12, 16, 20, 22, 24, 26, 28):
        for kern in ("atomic_index", "atomic_index_fenced"):
            add(Case(f"{kern}_2e{bits}", "micro-launch", KERNELS, kern, index_args(bits), (na // 1024,), launch=True))
    for kern, widths, table_bits in (("scatter_add_rows", (256,), (10, 12, 14, 16, 18)),
                                     ("scatter_add_rows_fenced", (256,), (10, 12, 14, 16, 18)),
                                     ("scatter_add_rows", (64,), (16, 18, 20))):
        for w in widths:
            for bits in table_bits:
                add(Case(f"{kern}_{r}x{w}_2e{bits}", "micro-launch", KERNELS, kern, rows_args(w, bits), (rows // r,),
                         launch=True))
    # dynamic builds (runtime strides): the fenced scatter-add first, then (docs history 66) the
    # relaxed one and the single-lane atomics
    for kern, bits in (("scatter_add_rows_fenced", 16), ("scatter_add_rows", 12), ("scatter_add_rows", 16)):
        add(Case(f"{kern}_64x256_2e{bits}_dyn", "micro", KERNELS, kern, rows_args(256, bits), (rows // r,)))
    for kern in ("atomic_index", "atomic_index_fenced"):
        add(Case(f"{kern}_2e20_dyn", "micro", KERNELS, kern, index_args(20), (na // 1024,)))
    for dt in ("float64", "float32"):
        for t in (256, 1024):
            n = (1 << 26) // d
            for launch in (True, False):
                add(Case(f"sum_atomic_{dt[0]}{dt[-2:]}_t{t}" + ("_launch" if launch else ""),
                         "micro-launch" if launch else "micro", KERNELS, "sum_atomic",
                         [A((n,), dt), A((1,), dt, "zeros"), K(t)], (n // t,), launch=launch))
    for w in (32, 64, 128, 256, 1024):
        for table, init in (((1 << 28) // w, "index"), ((1 << 22) // w, "index"), ((1 << 24) // w, "index"),
                            ((1 << 28) // w, "ramp")):
            if w not in (32, 256) and (init == "ramp" or table < (1 << 28) // w):
                continue
            n = (1 << 26) // w // d
            idx = f"index:{table}" if init == "index" else "ramp:1"
            add(Case(f"gather_rows_{r}x{w}_{table * w * 4 >> 20}M_{init}", "micro-launch", KERNELS, "gather_rows",
                     [A((table, w)), A((n,), "int32", idx), A((n, w), init="zeros"), K(r), K(w)], (n // r,),
                     launch=True))
    # a loop the accelerator feeds, without mma: each block sums its own row, 2048 steps of 1, 4
    # or 16 KiB, on 1 to 264 blocks (docs history 67); the dynamic build beside two of them; then
    # 1 to 32 steps a block over 8,192 blocks (and one wave of 132), for what a block spends
    # outside its steps
    def segment_args(grid, steps, t):
        return [A((grid, steps * t)), A((grid, 1), init="zeros"), K(t)]

    for t in (256, 1024, 4096):
        for grid in (1, 4, 16, 66, SMS, 2 * SMS):
            args = segment_args(grid, 2048 // d, t)
            add(Case(f"segment_sum_t{t}_g{grid}_launch", "micro-launch", KERNELS, "segment_sum", args, (grid,),
                     launch=True))
            if t == 1024 and grid in (1, SMS):
                add(Case(f"segment_sum_t{t}_g{grid}", "micro", KERNELS, "segment_sum", args, (grid,)))
        for steps in (1, 2, 4, 8, 16, 32):
            for grid in (8192 // d, SMS) if t == 1024 else (8192 // d,):
                add(Case(f"segment_sum_t{t}_s{steps}_g{grid}_launch", "micro-launch", KERNELS, "segment_sum",
                         segment_args(grid, steps, t), (grid,), launch=True))
    # element-by-element tile copies (dynamic builds) whose lanes run down 32 or 128 rows of 128
    # bytes: a 4-D head permute against 2-D copies of the same rows at pitches of 128 and 1,536
    # bytes (docs history 74)
    b, s, h = 32 // d, 1024, 12
    for ts in (32, 128):
        add(Case(f"lanes_swap_axes_b16_{ts}x64", "micro", KERNELS, "swap_axes_1_2",
                 [A((b, s, h, 64), "bfloat16"), A((b, h, s, 64), "bfloat16", "zeros"), K(ts), K(64)],
                 (b, h, s // ts)))
        for cols in (64, 768):
            nr = b * s * h * 64 // cols
            add(Case(f"lanes_copy_2d_b16_{ts}x64_c{cols}", "micro", KERNELS, "copy_2d",
                     [A((nr, cols), "bfloat16"), A((nr, cols), "bfloat16", "zeros"), K(ts), K(64)],
                     (nr // ts, cols // 64)))
    # the rows a block's lanes walk together, 16 to 128, bfloat16 and float32 (the same bytes)
    add(Case("lanes_swap_axes_b16_64x64", "micro", KERNELS, "swap_axes_1_2",
             [A((b, s, h, 64), "bfloat16"), A((b, h, s, 64), "bfloat16", "zeros"), K(64), K(64)], (b, h, s // 64)))
    for dt, cols, heights in (("bfloat16", 64, (16, 64)), ("float32", 32, (32, 64, 128)), ("float32", 64, (16, 32, 64))):
        nr = b * s * h * 64 // cols // (2 if dt == "float32" else 1)
        for ts in heights:
            add(Case(f"lanes_copy_2d_{dt[0]}{dt[-2:]}_{ts}x{cols}_c{cols}", "micro", KERNELS, "copy_2d",
                     [A((nr, cols), dt), A((nr, cols), dt, "zeros"), K(ts), K(cols)], (nr // ts, 1)))
    # block order: the permute's grid along S first; 2-D copies of 64-wide rows whose row tiles are
    # taken in order or with consecutive blocks a 32nd of the array apart (the permute's batch-first
    # grid spreads its blocks so)
    add(Case("lanes_swap_axes_rows_first_b16_128x64", "micro", KERNELS, "swap_axes_1_2_rows_first",
             [A((b, s, h, 64), "bfloat16"), A((b, h, s, 64), "bfloat16", "zeros"), K(128), K(64)],
             (s // 128, h, b)))
    nr = b * s * h
    for spread in (1, 32):
        for ts in (32, 128):
            add(Case(f"lanes_copy_rows_spread{spread}_b16_{ts}x64", "micro", KERNELS, "copy_rows_spread",
                     [A((nr, 64), "bfloat16"), A((nr, 64), "bfloat16", "zeros"), K(ts), K(64), K(spread)],
                     (nr // ts,)))
    # one-row tiles of 256 and 1,024 float32 added by tile atomics into rows of a table of 512 or
    # 16,384 rows, relaxed and fenced, dynamic and as launched (version 44)
    sources = (1 << 14) // d
    for w in (256, 1024):
        for bits in (9, 14):
            args = [A((sources, 1024)), A((sources,), "int32", f"index:{1 << bits}"), A((1 << bits, 1024), init="zeros"),
                    K(1), K(w)]
            for kern in ("scatter_add_rows", "scatter_add_rows_fenced"):
                for launch in (False, True):
                    add(Case(f"row1_{kern}_1x{w}_2e{bits}" + ("_launch" if launch else ""), "micro", KERNELS, kern,
                             args, (sources,), launch=launch))
    # element-by-element gathers and a scatter of TM x TN blocks of index tiles, 32 to 2 rows (and
    # one) of float32 and bfloat16, bounds-checked or not, some summing four shifted taps, dynamic
    # and a few as launched: the L1 lines a warp's request touches (version 46)
    gr, gc = 4096 // d, 4096
    shapes = [("float32", tm, 1024 // tm, 1, True) for tm in (64, 32, 16, 8, 4, 2, 1)]
    shapes += [("bfloat16", tm, 2048 // tm, 1, True) for tm in (64, 32, 16, 8, 4)]
    shapes += [("float32", 32, 32, 1, False), ("float32", 8, 128, 1, False),
               ("float32", 32, 32, 4, True), ("float32", 16, 64, 4, True), ("bfloat16", 16, 128, 4, True)]
    for dt, tm, tn, taps, check in shapes:
        args = [A((gr, gc), dt), A((gr, gc), dt, "zeros"), K(tm), K(tn), K(taps), K(check)]
        name = f"rowgather_{dt[0]}{dt[-2:]}_{tm}x{tn}" + (f"_taps{taps}" if taps > 1 else "") + ("" if check else "_nocheck")
        add(Case(name, "micro", KERNELS, "gather_copy_2d", args, (gr // tm, gc // tn)))
        if taps == 1 and check and tm in (32, 8):
            add(Case(name + "_launch", "micro", KERNELS, "gather_copy_2d", args, (gr // tm, gc // tn), launch=True))
    # the two halves of those copies apart: gathers alone (1 to 8 taps, shifted along the row or
    # down the rows), scatters alone
    for dt, per in (("float32", 1024), ("bfloat16", 2048)):
        for tm in (32, 16, 8, 4):
            tn, tag = per // tm, f"{dt[0]}{dt[-2:]}_{tm}x{per // tm}"
            for taps, down in ((1, False), (4, False), (4, True), (8, True)):
                if taps > 1 and tm not in (32, 16):
                    continue
                add(Case(f"rowgather_only_{tag}_taps{taps}" + ("_down" if down else ""), "micro", KERNELS,
                         "gather_sum_2d", [A((gr, gc), dt), A((gr // tm, gc // tn), init="zeros"), K(tm), K(tn),
                                           K(taps), K(down)], (gr // tm, gc // tn)))
            add(Case(f"rowscatter_only_{tag}", "micro", KERNELS, "scatter_fill_2d",
                     [A((gr, gc), dt, "zeros"), K(tm), K(tn)], (gr // tm, gc // tn)))
    # element-by-element 2-D copies converting between float32, bfloat16 and the 1-byte types (version 46)
    tags = {"bfloat16": "b16", "float32": "f32", "float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2", "uint8": "u8",
            "int8": "i8"}
    for src, dst in (("bfloat16", "bfloat16"), ("bfloat16", "float8_e4m3fn"), ("bfloat16", "float32"),
                     ("float32", "bfloat16"), ("float32", "float8_e4m3fn"), ("float8_e4m3fn", "bfloat16"),
                     ("float32", "float32"), ("uint8", "uint8"), ("bfloat16", "int8"), ("float32", "uint8"),
                     ("bfloat16", "float8_e5m2"), ("int8", "bfloat16")):
        for tm in (32, 16):
            add(Case(f"cast_{tags[src]}_{tags[dst]}_{tm}x64", "micro", KERNELS, "copy_cast_2d",
                     [A((gr * 2, gc), src), A((gr * 2, gc), dst, "zeros"), K(tm), K(64)], (gr * 2 // tm, gc // 64)))
    # float32 matmuls (products on the CUDA cores) with each operand stored either way (version 50)
    mm, kk = 2048 // d, 1024
    for tm, tn, tk in ((32, 32, 32), (64, 64, 32)):
        for a_t in (False, True):
            for b_t in (False, True):
                args = [A((kk, mm) if a_t else (mm, kk)), A((mm, kk) if b_t else (kk, mm)), A((mm, mm), init="zeros"),
                        K(tm), K(tn), K(tk), K(a_t), K(b_t)]
                name = f"f32mma_{'T' if a_t else 'N'}{'T' if b_t else 'N'}_{tm}x{tn}x{tk}"
                for launch in (False, True):
                    add(Case(name + ("_launch" if launch else ""), "micro", KERNELS, "matmul_f32_layouts", args,
                             (mm // tm, mm // tn), launch=launch))
    for a_t in (False, True):            # 8 times the steps a block, a quarter of the blocks
        kl, ml = 8192, 1024 // d
        args = [A((kl, ml) if a_t else (ml, kl)), A((kl, ml)), A((ml, ml), init="zeros"), K(32), K(32), K(32), K(a_t),
                K(False)]
        add(Case(f"f32mma_{'T' if a_t else 'N'}N_32x32x32_k8192_launch", "micro", KERNELS, "matmul_f32_layouts", args,
                 (ml // 32, ml // 32), launch=True))
    # tiles of bytes narrower than a warp: its lanes reach two or four rows an instruction (version 47)
    for src, dst in (("uint8", "uint8"), ("int8", "int8"), ("bfloat16", "uint8"), ("uint8", "float32")):
        for tm, tn in ((64, 16), (128, 8), (32, 32)):
            add(Case(f"narrow_{tags[src]}_{tags[dst]}_{tm}x{tn}", "micro", KERNELS, "copy_cast_2d",
                     [A((gr * 2, gc), src), A((gr * 2, gc), dst, "zeros"), K(tm), K(tn)], (gr * 2 // tm, gc // tn)))
    # fenced scalar atomics: one address shared by every block, or one per block (version 17)
    for kern, tag in (("atomic_scalar_loop", ""), ("atomic_scalar_loop_relaxed", "_relaxed")):
        for k in (1, 8):
            for spread, name in ((1, "same"), (SMS * k, "own")):
                add(Case(f"atomic_scalar_{name}{tag}_g{SMS * k}", "micro", KERNELS, kern,
                         [A((SMS * 8,), init="zeros"), K(256 // d), K(spread)], (SMS * k,)))
    return out


def seta_cases(d: int) -> List[Case]:
    """Validation set A: tilescope's examples and realistic kernels, through tilescope's cubins."""
    out: List[Case] = []
    add = out.append
    n = (1 << 26) // d // d
    add(Case("vector_add_f32", "validate", "examples/vector_add.py", "vector_add",
             [A((n,)), A((n,)), A((n,), init="zeros"), K(1024)], (cdiv(n, 1024),)))
    add(Case("vector_add_f16", "validate", REALISTIC, "vector_add",
             [A((n,), "float16"), A((n,), "float16"), A((n,), "float16", "zeros"), K(256)], (cdiv(n, 256),)))
    small_n = (1 << 20) // d
    add(Case("vector_add_f32_1M", "validate", "examples/vector_add.py", "vector_add",
             [A((small_n,)), A((small_n,)), A((small_n,), init="zeros"), K(1024)], (cdiv(small_n, 1024),),
             "1,024 blocks: fewer than the GPU holds at once"))
    add(Case("scale_f16", "validate", KERNELS, "scale",
             [A((n,), "float16"), A((n,), "float16", "zeros"), S(0.5), K(2048)], (cdiv(n, 2048),)))
    rows = 65536 // d
    add(Case("softmax_f32", "validate", "examples/softmax.py", "softmax",
             [A((rows, 1024)), A((rows, 1024), init="zeros"), K(1024)], (rows,)))
    add(Case("row_softmax_f16", "validate", REALISTIC, "row_softmax",
             [A((2 * rows, 512), "float16"), A((2 * rows, 512), "float16", "zeros"), K(512)], (2 * rows,)))
    lr = 16384 // d
    add(Case("layernorm_f32", "validate", "examples/layernorm.py", "layernorm",
             [A((lr, 4096)), A((4096,)), A((4096,)), A((lr, 4096), init="zeros"), S(1e-5), K(256)], (lr,)))
    add(Case("layernorm_fwd_f32", "validate", REALISTIC, "layernorm_fwd",
             [A((lr, 2048)), A((2048,)), A((2048,)), A((lr, 2048), init="zeros"), A((lr,), init="zeros"),
              A((lr,), init="zeros"), S(1e-5), K(512)], (lr,)))
    add(Case("rmsnorm_bf16", "validate", REALISTIC, "rmsnorm",
             [A((rows, 1024), "bfloat16"), A((1024,), "bfloat16"), A((rows, 1024), "bfloat16", "zeros"), S(1e-6),
              K(1024)], (rows,)))
    add(Case("row_sum_f32", "validate", KERNELS, "row_sum", [A((lr, 4096)), A((lr,), init="zeros"), K(512)], (lr,)))
    t = 8192 // d
    add(Case("transpose_f32", "validate", "examples/transpose.py", "transpose",
             [A((t, t)), A((t, t), init="zeros"), K(64), K(64)], (t // 64, t // 64)))
    add(Case("transpose_tiles_f32", "validate", REALISTIC, "transpose_tiles",
             [A((t, t)), A((t, t), init="zeros"), K(32), K(64)], (t // 32, t // 64)))
    add(Case("histogram_atomic", "validate", REALISTIC, "histogram_atomic",
             [A((n,), "uint8", "bytes"), A((256,), "int32", "zeros"), K(1024)], (cdiv(n, 1024),)))
    m = 4096 // d
    for tm, tn, tk in ((64, 64, 32), (128, 128, 32), (128, 128, 64), (64, 128, 64)):
        add(Case(f"matmul_f16_{tm}x{tn}x{tk}", "validate", "examples/matmul.py", "matmul",
                 [A((m, m), "float16"), A((m, m), "float16"), A((m, m), init="zeros"), K(tm), K(tn), K(tk)],
                 (m // tm, m // tn)))
    add(Case("matmul_f16_64x64x32_512", "validate", "examples/matmul.py", "matmul",
             [A((512, 512), "float16"), A((512, 512), "float16"), A((512, 512), init="zeros"), K(64), K(64), K(32)],
             (8, 8), "64 blocks: fewer than the GPU's 132 SMs"))
    m2 = 2048 // d
    add(Case("matmul_f32_64x64x32", "validate", "examples/matmul.py", "matmul",
             [A((m2, m2)), A((m2, m2)), A((m2, m2), init="zeros"), K(64), K(64), K(32)], (m2 // 64, m2 // 64)))
    add(Case("matmul_swizzled_f16", "validate", REALISTIC, "matmul_swizzled",
             [A((m, m), "float16"), A((m, m), "float16"), A((m, m), "float16", "zeros"), K(128), K(128), K(32), K(8)],
             ((m // 128) ** 2,)))
    add(Case("matmul_swizzled_bf16", "validate", REALISTIC, "matmul_swizzled",
             [A((m, m), "bfloat16"), A((m, m), "bfloat16"), A((m, m), init="zeros"), K(64), K(64), K(64), K(4)],
             ((m // 64) ** 2,)))
    bt = 32 // d
    add(Case("batch_matmul_f16", "validate", "examples/matmul.py", "batch_matmul",
             [A((bt, 1024, 1024), "float16"), A((bt, 1024, 1024), "float16"), A((bt, 1024, 1024), init="zeros"),
              K(64), K(64), K(32)], (16, 16, bt)))
    add(Case("matmul_persistent_f16", "validate", REALISTIC, "matmul_persistent",
             [A((m, m), "float16"), A((m, m), "float16"), A((m, m), "float16", "zeros"), K(128), K(128), K(64)],
             (SMS,), "one block per SM, looping over output tiles"))
    bh, s = 32 // d, 4096 // d
    for tq, tkv in ((64, 64), (128, 64), (128, 128)):
        add(Case(f"attention_f16_{tq}x{tkv}", "validate", "examples/attention.py", "attention",
                 [A((bh, s, 64), "float16"), A((bh, s, 64), "float16"), A((bh, s, 64), "float16"),
                  A((bh, s, 64), "float16", "zeros"), S(0.125), K(tq), K(tkv), K(64)], (s // tq, bh)))
    add(Case("attention_4d_f16", "validate", REALISTIC, "attention_online_softmax",
             [A((4, 8, s, 64), "float16"), A((4, 8, s, 64), "float16"), A((4, 8, s, 64), "float16"),
              A((4, 8, s, 64), "float16", "zeros"), S(0.125), K(64), K(64), K(64)], (s // 64, 32 // d)))
    return out


def held_out(d: int) -> List[Case]:
    """Validation set B: other sizes and tile shapes, measured after the model's second version
    was fixed (docs/cost-model.md)."""
    out: List[Case] = []
    add = out.append
    n = (1 << 25) // d // d
    add(Case("B_vector_add_f16_t1024", "validate-b", REALISTIC, "vector_add",
             [A((n,), "float16"), A((n,), "float16"), A((n,), "float16", "zeros"), K(1024)], (n // 1024,)))
    add(Case("B_scale_f32_t1024", "validate-b", KERNELS, "scale",
             [A((2 * n,)), A((2 * n,), init="zeros"), S(0.5), K(1024)], (2 * n // 1024,)))
    r = 32768 // d
    add(Case("B_rmsnorm_bf16_2048", "validate-b", REALISTIC, "rmsnorm",
             [A((r, 2048), "bfloat16"), A((2048,), "bfloat16"), A((r, 2048), "bfloat16", "zeros"), S(1e-6),
              K(2048)], (r,)))
    add(Case("B_row_softmax_f16_1024", "validate-b", REALISTIC, "row_softmax",
             [A((2 * r, 1024), "float16"), A((2 * r, 1024), "float16", "zeros"), K(1024)], (2 * r,)))
    add(Case("B_softmax_f32_2048", "validate-b", "examples/softmax.py", "softmax",
             [A((r, 2048)), A((r, 2048), init="zeros"), K(2048)], (r,)))
    q = 8192 // d
    add(Case("B_layernorm_f32_8192_t512", "validate-b", "examples/layernorm.py", "layernorm",
             [A((q, 8192)), A((8192,)), A((8192,)), A((q, 8192), init="zeros"), S(1e-5), K(512)], (q,)))
    add(Case("B_row_sum_f32_t1024", "validate-b", KERNELS, "row_sum", [A((q, 8192)), A((q,), init="zeros"), K(1024)],
             (q,)))
    add(Case("B_transpose_f32_16384x4096", "validate-b", "examples/transpose.py", "transpose",
             [A((2 * q, q // 2)), A((q // 2, 2 * q), init="zeros"), K(64), K(64)], (2 * q // 64, q // 128)))
    add(Case("B_transpose_tiles_32x32", "validate-b", REALISTIC, "transpose_tiles",
             [A((q, q)), A((q, q), init="zeros"), K(32), K(32)], (q // 32, q // 32)))
    add(Case("B_histogram_t4096", "validate-b", REALISTIC, "histogram_atomic",
             [A((n // 2,), "uint8", "bytes"), A((256,), "int32", "zeros"), K(4096)], (n // 2 // 4096,)))
    m = 2048 // d
    add(Case("B_matmul_f16_2048_64x64x64", "validate-b", "examples/matmul.py", "matmul",
             [A((m, m), "float16"), A((m, m), "float16"), A((m, m), init="zeros"), K(64), K(64), K(64)],
             (m // 64, m // 64)))
    mb, kb = 8192 // d, 2048 // d
    add(Case("B_matmul_f16_8192x8192x2048_128x128x32", "validate-b", "examples/matmul.py", "matmul",
             [A((mb, kb), "float16"), A((kb, mb), "float16"), A((mb, mb), init="zeros"), K(128), K(128), K(32)],
             (mb // 128, mb // 128)))
    m4 = 4096 // d
    add(Case("B_matmul_bf16_4096_64x128x32", "validate-b", "examples/matmul.py", "matmul",
             [A((m4, m4), "bfloat16"), A((m4, m4), "bfloat16"), A((m4, m4), init="zeros"), K(64), K(128), K(32)],
             (m4 // 64, m4 // 128)))
    add(Case("B_matmul_f32_1024_32x32x32", "validate-b", "examples/matmul.py", "matmul",
             [A((1024 // d, 1024 // d)), A((1024 // d, 1024 // d)), A((1024 // d, 1024 // d), init="zeros"),
              K(32), K(32), K(32)], (32 // d, 32 // d)))
    add(Case("B_matmul_f16_256_64x64x32", "validate-b", "examples/matmul.py", "matmul",
             [A((256, 1024), "float16"), A((1024, 256), "float16"), A((256, 256), init="zeros"), K(64), K(64), K(32)],
             (4, 4), "16 blocks"))
    add(Case("B_batch_matmul_f16_16x2048x512x2048", "validate-b", "examples/matmul.py", "batch_matmul",
             [A((16 // d, 2048, 512), "float16"), A((16 // d, 512, 2048), "float16"),
              A((16 // d, 2048, 2048), init="zeros"), K(64), K(64), K(32)], (32, 32, 16 // d)))
    add(Case("B_matmul_swizzled_f16_8192_128x128x64", "validate-b", REALISTIC, "matmul_swizzled",
             [A((mb, kb), "float16"), A((kb, mb), "float16"), A((mb, mb), "float16", "zeros"), K(128), K(128), K(64),
              K(8)], ((mb // 128) ** 2,)))
    add(Case("B_matmul_persistent_f16_2048", "validate-b", REALISTIC, "matmul_persistent",
             [A((m, m), "float16"), A((m, m), "float16"), A((m, m), "float16", "zeros"), K(128), K(128), K(64)],
             (SMS,)))
    bh, s2 = 64 // d, 2048 // d
    add(Case("B_attention_f16_S2048_64x128", "validate-b", "examples/attention.py", "attention",
             [A((bh, s2, 64), "float16"), A((bh, s2, 64), "float16"), A((bh, s2, 64), "float16"),
              A((bh, s2, 64), "float16", "zeros"), S(0.125), K(64), K(128), K(64)], (s2 // 64, bh)))
    add(Case("B_attention_4d_f16_S8192", "validate-b", REALISTIC, "attention_online_softmax",
             [A((2, 8, 4 * s2, 64), "float16"), A((2, 8, 4 * s2, 64), "float16"), A((2, 8, 4 * s2, 64), "float16"),
              A((2, 8, 4 * s2, 64), "float16", "zeros"), S(0.125), K(128), K(64), K(64)], (4 * s2 // 128, 16)))
    return out
