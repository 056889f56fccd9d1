"""C source of the compiled kernels' arithmetic: exact fma and rounding helpers, integer edge
cases, NaN-aware max/min, and transcendentals that agree with the NumPy executor bit for bit.

Transcendentals. The executor rounds NumPy's float64 function to float32 (semantics.arithmetic.unary).
The C code evaluates the function in float64 to within a few units in the last place and
rounds it the same way; the two float32 results can only differ where the float64 value lies
within those few units of a point halfway between two float32 values. Such elements (about
one in ten million) are recomputed by the executor's own rule through a callback, so the
result is the executor's in every bit.
"""

from math import factorial


def _horner(x: str, denominators) -> str:
    """C statements leaving in `p` the polynomial in `x` whose coefficients, highest degree
    first, are 1/d for each d of `denominators`: Horner's rule with fused multiply-adds."""
    coefficients = ["0.5" if d == 2 else f"1.0 / {d}.0" for d in denominators]
    return "\n".join([f"    double p = {coefficients[0]};"]
                     + [f"    p = fma(p, {x}, {c});" for c in coefficients[1:]])


SOURCE = r"""
/* ---- the launch context shared with Python ---- */
typedef void (*ts_callback_t)(int64_t code, int64_t dtype, int64_t n, const void *a, const void *b, void *out);
typedef struct ts_ctx {
    ts_callback_t numpy_rule;      /* recompute elements with the executor's rule */
    void *gemm[2];                 /* cblas sgemm / dgemm (ILP64 or LP64, see blas_int) */
    int64_t blas_ilp64;
    int64_t *reports;              /* per report site: [block, details...] (TS_REPORT_WIDTH each) */
    int64_t nreports;
    volatile int32_t report_lock;
    volatile int64_t failed;       /* set by a block that stops the launch */
    volatile int64_t ticket;       /* the block whose ordered part may run now (order.py) */
    void (*print)(int64_t site, int64_t lin, void **operands);    /* rules_debug.py */
    int64_t **shadow;              /* per tracked array: [writers, readers] of each tile (ts_track) */
    volatile int64_t conflict;     /* set when two blocks touched one tile, one writing it */
    int32_t *log;                  /* a launch trace's accesses, in chunks (ts_log) */
    int64_t log_cap;               /* entries `log` holds (whole chunks) */
    volatile int64_t log_n;        /* entries handed out to threads, TS_LOG_CHUNK at a time */
    volatile int64_t log_lost;     /* entries made past log_cap (counted, not kept) */
} ts_ctx;
#define TS_REPORT_WIDTH 16
#define TS_NO_BLOCK INT64_MAX

/* Record a report for site `site` from block `blk` (the smallest block id wins, as in block order). */
static void ts_report(ts_ctx *ctx, int64_t site, int64_t blk, int n, const int64_t *details) {
    while (__atomic_exchange_n(&ctx->report_lock, 1, __ATOMIC_ACQUIRE)) {}
    int64_t *r = ctx->reports + site * TS_REPORT_WIDTH;
    if (blk < r[0]) {
        r[0] = blk;
        for (int i = 0; i < n && i < TS_REPORT_WIDTH - 1; i++) r[1 + i] = details[i];
    }
    __atomic_store_n(&ctx->report_lock, 0, __ATOMIC_RELEASE);
}

/* Wait until every earlier block has passed its turn; 1 when the launch is failing instead. */
static int ts_wait_turn(ts_ctx *ctx, int64_t lin) {
    for (int64_t spins = 0; __atomic_load_n(&ctx->ticket, __ATOMIC_ACQUIRE) != lin; spins++) {
        if (ctx->failed) return 1;
        if (spins > 64) sched_yield();
    }
    return 0;
}
static void ts_pass_turn(ts_ctx *ctx, int64_t lin) { __atomic_store_n(&ctx->ticket, lin + 1, __ATOMIC_RELEASE); }

/* Record that block `blk` reads or writes tile `t` of tracked array `slot`; two blocks touching
   one tile with a write among them set ctx->conflict. (Sequentially consistent: of two
   conflicting accesses, the later one always sees the earlier.) */
static void ts_track(ts_ctx *ctx, int64_t slot, int64_t t, int64_t blk, int write) {
    int64_t *wr = ctx->shadow[2 * slot], *rd = ctx->shadow[2 * slot + 1], prev = -1;
    if (write) {
        if (!__atomic_compare_exchange_n(&wr[t], &prev, blk, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) && prev != blk)
            ctx->conflict = 1;
        int64_t r = __atomic_load_n(&rd[t], __ATOMIC_SEQ_CST);
        if (r != -1 && r != blk) ctx->conflict = 1;
    } else {
        if (!__atomic_compare_exchange_n(&rd[t], &prev, blk, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) && prev != blk)
            __atomic_store_n(&rd[t], (int64_t)-2, __ATOMIC_SEQ_CST);       /* read by several blocks */
        int64_t w = __atomic_load_n(&wr[t], __ATOMIC_SEQ_CST);
        if (w != -1 && w != blk) ctx->conflict = 1;
    }
}

/* Append block `blk`'s `occ`-th access through log site `site` (an op and its array) at tile
   index `idx` (n <= TS_LOG_WIDTH - 3 values) to the launch's trace log. The log is made of
   chunks of TS_LOG_CHUNK entries, each of one site and one thread, column by column (site,
   block, occurrence, index...: TS_LOG_CHUNK int32 each), so that a site's entries come out of
   the log without sorting them. A thread takes a chunk per site as it needs one (one shared
   counter per chunk, not per entry: threads would contend for it); ts_log_close marks what its
   chunks left unused (site -1). A thread closes its chunks before each range of blocks it
   takes, so a chunk holds blocks of one range, in order: a site's entries are in block order
   when its chunks are sorted by their first block. TS_LOG_SITES: the kernel's log sites. */
#define TS_LOG_WIDTH 8
#define TS_LOG_CHUNK 64
#ifndef TS_LOG_SITES
#define TS_LOG_SITES 1
#endif
static __thread int32_t *ts_log_chunk[TS_LOG_SITES];    /* a thread's open chunk per site, or 0 */
static __thread int32_t ts_log_used[TS_LOG_SITES];      /* its entries made */
TS_INLINE void ts_log(ts_ctx *ctx, int32_t site, int64_t blk, int32_t occ, int n, const int64_t *idx) {
    int32_t *c = ts_log_chunk[site], k = ts_log_used[site];
    if (c == 0 || k == TS_LOG_CHUNK) {
        int64_t s = __atomic_fetch_add(&ctx->log_n, TS_LOG_CHUNK, __ATOMIC_RELAXED);
        if (s + TS_LOG_CHUNK > ctx->log_cap) {
            ts_log_chunk[site] = 0;
            __atomic_fetch_add(&ctx->log_lost, 1, __ATOMIC_RELAXED);
            return;
        }
        c = ts_log_chunk[site] = ctx->log + s * TS_LOG_WIDTH;
        k = 0;
    }
    c[k] = site; c[TS_LOG_CHUNK + k] = (int32_t)blk; c[2 * TS_LOG_CHUNK + k] = occ;
    for (int i = 0; i < n; i++) c[(3 + i) * TS_LOG_CHUNK + k] = (int32_t)idx[i];
    ts_log_used[site] = k + 1;
}
static void ts_log_close(void) {
    for (int s = 0; s < TS_LOG_SITES; s++) {
        if (ts_log_chunk[s])
            for (int k = ts_log_used[s]; k < TS_LOG_CHUNK; k++) ts_log_chunk[s][k] = -1;
        ts_log_chunk[s] = 0;
        ts_log_used[s] = 0;
    }
}

/* ---- exact float arithmetic ---- */
TS_INLINE double ts_two_sum(double a, double b, double *err) {
    double s = a + b, bb = s - a;
    *err = (a - (s - bb)) + (b - bb);
    return s;
}
/* hi + lo rounded to odd in float64 (hi is already the nearest double). */
TS_INLINE double ts_odd64(double hi, double lo) {
    uint64_t u = ts_d2u(hi);
    if (lo == 0 || (u & 1) || !isfinite(hi)) return hi;
    return ts_u2d((lo > 0) == (hi > 0) ? u + 1 : u - 1);
}
/* a*b + c of float16/bfloat16 values, exact in float64 up to the final sum, rounded to odd. */
TS_INLINE double ts_fma_narrow(double a, double b, double c) {
    double err, s = ts_two_sum(a * b, c, &err);
    return isfinite(s) ? ts_odd64(s, err) : s;
}
/* A NaN made quiet, as converting through float64 does (masks, not branches: loops vectorise) */
/* float64 fma as numerics._fma64 computes it: IEEE's, except that an exact zero is +0 wherever its
   error-free emulation applies (every magnitude 0 or within [2^-900, 2^995]). */
TS_INLINE int ts_fma64_range(double x) {
    double a = fabs(x);
    return a == 0 || (a >= 0x1p-900 && a <= 0x1p995);
}
TS_INLINE double ts_fma64(double a, double b, double c) {
    double r = fma(a, b, c);
    int emulated = ts_fma64_range(a) & ts_fma64_range(b) & ts_fma64_range(c) & ts_fma64_range(a * b);
    return (r == 0 && emulated) ? 0.0 : r;
}
TS_INLINE float ts_quiet32(float x) {
    uint32_t u = ts_f2u(x), nan = 0u - (uint32_t)((u & 0x7FFFFFFFu) > 0x7F800000u);
    return ts_u2f(u | (nan & 0x400000u));
}
TS_INLINE double ts_quiet64(double x) { return x != x ? ts_u2d(ts_d2u(x) | 0x8000000000000ull) : x; }

/* max/min picking one operand's bits: -0 < +0; NaN ignored unless propagate (numerics.float_minmax). */
TS_INLINE int ts_pick_max(double x, double y, int propagate) {
    int xn = x != x, yn = y != y;
    int pick = (x > y) || (x == y && !signbit(x));
    return propagate ? ((pick && !yn) || xn) : ((pick || yn) && !(xn && !yn));
}
TS_INLINE int ts_pick_min(double x, double y, int propagate) {
    int xn = x != x, yn = y != y;
    int pick = (x < y) || (x == y && signbit(x));
    return propagate ? ((pick && !yn) || xn) : ((pick || yn) && !(xn && !yn));
}
/* The same choices on float32 operands (comparisons of float32 values are exact). */
TS_INLINE int ts_pick_max32(float x, float y, int propagate) {
    int xn = x != x, yn = y != y;
    int pick = (x > y) | ((x == y) & !(ts_f2u(x) >> 31));
    return propagate ? ((pick & !yn) | xn) : ((pick | yn) & !(xn & !yn));
}
TS_INLINE int ts_pick_min32(float x, float y, int propagate) {
    int xn = x != x, yn = y != y;
    int pick = (x < y) | ((x == y) & (int)(ts_f2u(x) >> 31));
    return propagate ? ((pick & !yn) | xn) : ((pick | yn) & !(xn & !yn));
}

/* float `%` (numerics._float_binary 'mod'): C's fmod (exact), then + y where the signs differ */
TS_INLINE float ts_fmod_f32(float x, float y) {
    double r = fmod((double)x, (double)y);
    float rf = (float)r;
    return ((r < 0) != ((double)y < 0) && r != 0) ? rf + y : rf;
}
TS_INLINE double ts_fmod_f64(double x, double y) {
    double r = fmod(x, y);
    return ((r < 0) != (y < 0) && r != 0) ? r + y : r;
}
TS_INLINE ts_f16 ts_fmod_f16(ts_f16 x, ts_f16 y) {
    double yd = ts_h2d(y), r = fmod(ts_h2d(x), yd);
    ts_f16 rh = ts_d2h(r);
    return ((r < 0) != (yd < 0) && r != 0) ? ts_f2h(ts_h2f(rh) + ts_h2f(y)) : rh;
}
TS_INLINE ts_bf16 ts_fmod_bf16(ts_bf16 x, ts_bf16 y) {
    double yd = (double)ts_bf2f(y), r = fmod((double)ts_bf2f(x), yd);
    ts_bf16 rb = ts_d2bf(r);
    return ((r < 0) != (yd < 0) && r != 0) ? ts_f2bf(ts_bf2f(rb) + ts_bf2f(y)) : rb;
}

/* ---- integers: wrapping, floor division, Python modulo, shifts (numerics.int_*) ---- */
#define TS_INT_OPS(S, T, U, BITS, SIGNED, MIN) \
TS_INLINE T ts_floordiv_##S(T x, T y) { \
    if (y == 0) return (T)-1; \
    if (SIGNED && x == (T)MIN && y == (T)-1) return x; \
    T q = x / y; \
    if (SIGNED && (x % y != 0) && ((x < 0) != (y < 0))) q -= 1; \
    return q; } \
TS_INLINE T ts_cdiv_##S(T x, T y) { \
    if (y == 0) return (T)-1; \
    if (SIGNED && x == (T)MIN && y == (T)-1) return x; \
    T q = ts_floordiv_##S(x, y); \
    return (T)((U)q + (U)((U)((U)q * (U)y) != (U)x)); } \
TS_INLINE T ts_mod_##S(T x, T y) { \
    if (y == 0) return x; \
    if (SIGNED && y == (T)-1) return 0; \
    T r = x % y; \
    if (SIGNED && r != 0 && ((r < 0) != (y < 0))) r += y; \
    return r; } \
TS_INLINE T ts_shl_##S(T x, uint64_t n) { return n >= BITS ? (T)0 : (T)((U)x << n); } \
TS_INLINE T ts_shr_##S(T x, uint64_t n) { \
    if (SIGNED) return (T)(x >> (n >= BITS - 1 ? BITS - 1 : n)); \
    return n >= BITS ? (T)0 : (T)(x >> n); } \
TS_INLINE T ts_pow_##S(T x, T y) { \
    if (SIGNED && y < 0) return x == 1 ? (T)1 : (x == (T)-1 ? ((y & 1) ? (T)-1 : (T)1) : (T)0); \
    U r = 1, b = (U)x; uint64_t e = (uint64_t)y; \
    while (e) { if (e & 1) r = (U)(r * b); b = (U)(b * b); e >>= 1; } \
    return (T)r; }
TS_INT_OPS(i8, int8_t, uint32_t, 8, 1, INT8_MIN)
TS_INT_OPS(i16, int16_t, uint32_t, 16, 1, INT16_MIN)
TS_INT_OPS(i32, int32_t, uint32_t, 32, 1, INT32_MIN)
TS_INT_OPS(i64, int64_t, uint64_t, 64, 1, INT64_MIN)
TS_INT_OPS(u8, uint8_t, uint32_t, 8, 0, 0)
TS_INT_OPS(u16, uint16_t, uint32_t, 16, 0, 0)
TS_INT_OPS(u32, uint32_t, uint32_t, 32, 0, 0)
TS_INT_OPS(u64, uint64_t, uint64_t, 64, 0, 0)

/* ---- transcendentals ---- */
/* exp in float64 to about one ulp (NaN and ±inf pass); branch-free, so loops over it vectorise. */
TS_INLINE double ts_exp64(double x) {
    double xc = x < -760.0 ? -760.0 : (x > 710.0 ? 710.0 : x);
    double z = xc * 0x1.71547652b82fep0;
    double kd = (z + 0x1.8p52) - 0x1.8p52;                       /* round to nearest integer */
    double r = xc - kd * 0x1.62e42feep-1;                        /* exact: the constant has 32 bits */
    r = r - kd * 0x1.a39ef35793c76p-33;
    /* Taylor polynomial of exp(r) - 1 - r, |r| <= ln2/2, by Horner with fused multiply-adds */
""" + _horner("r", [factorial(k) for k in range(13, 1, -1)]) + r"""
    p = fma(p * r, r, r);
    p = p + 1.0;
    int64_t k = (int64_t)kd;                                     /* in [-1097, 1025] */
    int64_t k1 = k >> 1, k2 = k - k1;                            /* two scalings: no overflow of the exponent */
    double s1 = ts_u2d((uint64_t)(k1 + 1023) << 52), s2 = ts_u2d((uint64_t)(k2 + 1023) << 52);
    return p * s1 * s2;                                          /* NaN in, NaN out */
}
/* exp(y) - 1 for |y| <= 1.1, Taylor to degree 20 (error below 2^-58 relative). */
TS_INLINE double ts_expm1_small(double y) {
""" + _horner("y", [factorial(k) for k in range(20, 1, -1)]) + r"""
    return fma(p * y, y, y);
}
/* tanh to a few ulps: expm1(2|x|) / (expm1(2|x|) + 2) near 0, 1 - 2 / (exp(2|x|) + 1) beyond. */
TS_INLINE double ts_tanh64(double x) {
    double a = fabs(x);
    double em1 = ts_expm1_small(2.0 * (a < 0.55 ? a : 0.55));
    double small = em1 / (em1 + 2.0);
    double big = 1.0 - 2.0 / (ts_exp64(2.0 * a) + 1.0);
    double t = a < 0.55 ? small : big;
    t = a != a ? x : t;
    return copysign(t, x);
}
/* log to a few ulps for positive finite arguments: e ln2 + 2 atanh((m - 1) / (m + 1)), m in
   [sqrt(1/2), sqrt(2)); 0 -> -inf, negative -> NaN, inf and NaN pass. */
TS_INLINE double ts_log64(double x) {
    uint64_t u = ts_d2u(x);
    int64_t e = (int64_t)((u >> 52) & 0x7FF) - 1023;
    uint64_t mbits = (u & 0xFFFFFFFFFFFFFull) | 0x3FF0000000000000ull;
    double m = ts_u2d(mbits);
    int64_t up = m > 1.4142135623730951;
    m = up ? m * 0.5 : m;
    e += up;
    double s = (m - 1.0) / (m + 1.0), s2 = s * s;
""" + _horner("s2", range(23, 1, -2)) + r"""
    double lm = 2.0 * s + 2.0 * s * s2 * p;
    double ed = (double)e;
    double r = fma(ed, 0x1.62e42fefa39efp-1, lm);
    r = fma(ed, 0x1.abc9e3b39803fp-56, r);
    /* (arguments a float32 has are normal doubles; subnormal doubles only come from float64) */
    r = x == 0 ? -INFINITY : r;
    r = x < 0 ? NAN : r;
    r = (x != x || x == INFINITY) ? x : r;
    return r;
}
/* Whether a float64 result could round to float32 differently from another value within `ulps`
   units of it (it is near a halfway point, or float32 subnormal). */
TS_INLINE int64_t ts_near_half32(double d, uint64_t ulps) {
    uint64_t u = ts_d2u(d), a = u & 0x7FFFFFFFFFFFFFFFull;
    uint64_t low = (u & 0x1FFFFFFFull) - 0x10000000ull + ulps;
    int64_t tiny = (a < 0x3810000000000000ull) & (a >= 0x3690000000000000ull);   /* in [2^-150, 2^-126) */
    int64_t mid = (a >= 0x3810000000000000ull) & (low <= 2 * ulps);
    return tiny | mid;
}
"""

GEMM = r"""
/* ---- matrix products in the summation order of NumPy's BLAS ----
   Each element of C = A @ B is a sequential fused multiply-add chain from 0 over each block
   of K, the blocks' sums added in order; K is cut as OpenBLAS's level-3 driver cuts it
   (blocks of Q while at least 2Q remain, a remainder between Q and 2Q in two halves rounded
   up to U). blas.sequential_rule finds (Q, U) for a shape by comparing with np.matmul; shapes
   it finds none for call the BLAS itself (below). Blocks of RB rows by CB columns keep their
   sums in vector registers. */
static inline int64_t ts_kblock(int64_t rem, int64_t Q, int64_t U) {
    if (rem >= 2 * Q) return Q;
    if (rem > Q) return ((rem / 2 + U - 1) / U) * U;
    return rem;
}
#define TS_SEQ_GEMM(NAME, T, FMA, CB, RB)                                                            \
__attribute__((optimize("O3"))) static void NAME(int64_t M, int64_t N, int64_t K, const T *restrict A, \
        int64_t lda, const T *restrict B, int64_t ldb, T *restrict C, int64_t Q, int64_t U) {        \
    for (int64_t i0 = 0; i0 < M; i0 += RB) for (int64_t j0 = 0; j0 < N; j0 += CB) {                \
        const int64_t ri = M - i0 < RB ? M - i0 : RB, cj = N - j0 < CB ? N - j0 : CB;               \
        T tot[RB][CB];                                                                              \
        for (int64_t k0 = 0; k0 < K;) {                                                            \
            const int64_t kb = ts_kblock(K - k0, Q, U);                                            \
            T acc[RB][CB];                                                                          \
            memset(acc, 0, sizeof acc);                                                            \
            if (ri == RB && cj == CB) {                                                             \
                for (int64_t k = k0; k < k0 + kb; k++) {                                           \
                    const T *b = B + k * ldb + j0;                                                 \
                    for (int r = 0; r < RB; r++) {                                                  \
                        const T a = A[(i0 + r) * lda + k];                                         \
                        for (int c = 0; c < CB; c++) acc[r][c] = FMA(a, b[c], acc[r][c]);          \
                    }                                                                              \
                }                                                                                  \
            } else {                                                                               \
                for (int64_t k = k0; k < k0 + kb; k++) for (int r = 0; r < ri; r++) {             \
                    const T a = A[(i0 + r) * lda + k];                                             \
                    for (int c = 0; c < cj; c++) acc[r][c] = FMA(a, B[k * ldb + j0 + c], acc[r][c]); \
                }                                                                                  \
            }                                                                                      \
            for (int r = 0; r < RB; r++) for (int c = 0; c < CB; c++)                               \
                tot[r][c] = k0 == 0 ? acc[r][c] : tot[r][c] + acc[r][c];                           \
            k0 += kb;                                                                              \
        }                                                                                          \
        if (K == 0) memset(tot, 0, sizeof tot);                                                    \
        for (int r = 0; r < ri; r++) for (int c = 0; c < cj; c++) C[(i0 + r) * N + j0 + c] = tot[r][c]; \
    }                                                                                              \
}
TS_SEQ_GEMM(ts_sgemm_seq, float, fmaf, 32, 8)
/* (doubles in blocks of 4 rows: with 8, GCC vectorises across the rows, 10-20x slower) */
TS_SEQ_GEMM(ts_dgemm_seq, double, fma, 32, 4)

/* ---- matrix products through NumPy's own BLAS, called as np.matmul calls it ---- */
typedef void (*ts_sgemm64_t)(int, int, int, int64_t, int64_t, int64_t, float, const float *, int64_t,
                             const float *, int64_t, float, float *, int64_t);
typedef void (*ts_dgemm64_t)(int, int, int, int64_t, int64_t, int64_t, double, const double *, int64_t,
                             const double *, int64_t, double, double *, int64_t);
typedef void (*ts_sgemm32_t)(int, int, int, int, int, int, float, const float *, int, const float *, int,
                             float, float *, int);
typedef void (*ts_dgemm32_t)(int, int, int, int, int, int, double, const double *, int, const double *, int,
                             double, double *, int);
/* C[M×N] = A[M×K] (row stride lda) @ B[K×N] (row stride ldb), C contiguous: cblas_?gemm(RowMajor,
   NoTrans, NoTrans, M, N, K, 1, A, lda, B, ldb, 0, C, N). */
static void ts_sgemm(ts_ctx *ctx, int64_t M, int64_t N, int64_t K, const float *A, int64_t lda, const float *B,
                     int64_t ldb, float *C) {
    if (ctx->blas_ilp64) ((ts_sgemm64_t)ctx->gemm[0])(101, 111, 111, M, N, K, 1.0f, A, lda, B, ldb, 0.0f, C, N);
    else ((ts_sgemm32_t)ctx->gemm[0])(101, 111, 111, (int)M, (int)N, (int)K, 1.0f, A, (int)lda, B, (int)ldb,
                                      0.0f, C, (int)N);
}
static void ts_dgemm(ts_ctx *ctx, int64_t M, int64_t N, int64_t K, const double *A, int64_t lda, const double *B,
                     int64_t ldb, double *C) {
    if (ctx->blas_ilp64) ((ts_dgemm64_t)ctx->gemm[1])(101, 111, 111, M, N, K, 1.0, A, lda, B, ldb, 0.0, C, N);
    else ((ts_dgemm32_t)ctx->gemm[1])(101, 111, 111, (int)M, (int)N, (int)K, 1.0, A, (int)lda, B, (int)ldb,
                                      0.0, C, (int)N);
}
"""
