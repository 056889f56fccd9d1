"""C source shared by every compiled kernel: storage types, bit casts and exact conversions.

Every function reproduces, bit for bit, what the NumPy executor computes for the same
values (semantics/numerics.py with NumPy's and ml_dtypes' own conversions); tests compare them on
every float16 and bfloat16 bit pattern and on large random samples of the others.
"""

SOURCE = r"""
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <stdlib.h>
#include <sched.h>

#define TS_INLINE static inline __attribute__((always_inline))
#define TS_LIKELY(x) __builtin_expect(!!(x), 1)
#define TS_UNLIKELY(x) __builtin_expect(!!(x), 0)

typedef uint16_t ts_f16;   /* float16 bits */
typedef uint16_t ts_bf16;  /* bfloat16 bits */
typedef uint8_t ts_f8;     /* float8 bits */

TS_INLINE uint32_t ts_f2u(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
TS_INLINE float ts_u2f(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }
TS_INLINE uint64_t ts_d2u(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }
TS_INLINE double ts_u2d(uint64_t u) { double x; memcpy(&x, &u, 8); return x; }

/* Arithmetic NaNs as the GPU makes them: positive, all-ones payload. */
#define TS_NAN32 0x7FFFFFFFu
#define TS_NAN64 0x7FFFFFFFFFFFFFFFull
/* (masks instead of branches: element loops stay vectorisable) */
TS_INLINE float ts_canon32(float x) {
    uint32_t u = ts_f2u(x), nan = 0u - (uint32_t)((u & 0x7FFFFFFFu) > 0x7F800000u);
    return ts_u2f((u & ~nan) | (TS_NAN32 & nan));
}
TS_INLINE double ts_canon64(double x) {
    uint64_t u = ts_d2u(x), nan = 0ull - (uint64_t)((u & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull);
    return ts_u2d((u & ~nan) | (TS_NAN64 & nan));
}
/* flush_to_zero: a float32 subnormal becomes the zero of its sign. */
TS_INLINE float ts_ftz32(float x) {
    uint32_t u = ts_f2u(x), sub = 0u - (uint32_t)((u & 0x7FFFFFFFu) < 0x00800000u);
    return ts_u2f(u & ~(sub & 0x7FFFFFFFu));
}
TS_INLINE ts_f16 ts_canon16(ts_f16 h) { return ((h & 0x7C00) == 0x7C00 && (h & 0x3FF)) ? 0x7FFF : h; }
TS_INLINE ts_bf16 ts_canonbf(ts_bf16 h) { return ((h & 0x7F80) == 0x7F80 && (h & 0x7F)) ? 0x7FFF : h; }

/* ---- float16 (NumPy's software conversions: NaN payloads kept, never quieted) ----
   Written with masks and selects on integers, no branches: loops over them vectorise. */
TS_INLINE float ts_h2f(ts_f16 h) {
    uint32_t em = h & 0x7FFFu, s = (uint32_t)(h & 0x8000u) << 16;
    uint32_t v = ts_f2u(ts_u2f(em << 13) * 0x1p112f);          /* exact: rebiases, normalises subnormals */
    uint32_t special = 0u - (uint32_t)(em >= 0x7C00u);          /* infinities and NaNs */
    v = (v & ~special) | ((0x7F800000u | ((em & 0x3FFu) << 13)) & special);
    return ts_u2f(v | s);
}
TS_INLINE double ts_h2d(ts_f16 h) {
    uint64_t nan = (uint64_t)(h & 0x8000u) << 48 | 0x7FF0000000000000ull | (uint64_t)(h & 0x3FFu) << 42;
    uint64_t is_nan = 0ull - (uint64_t)((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu));
    uint64_t v = ts_d2u((double)ts_h2f(h));
    return ts_u2d((v & ~is_nan) | (nan & is_nan));
}
TS_INLINE ts_f16 ts_f2h(float f) {
    uint32_t x = ts_f2u(f), sign = (x >> 16) & 0x8000u, a = x & 0x7FFFFFFFu;
    uint32_t normal = (a + 0xC8000FFFu + ((a >> 13) & 1u)) >> 13;        /* rebias (-112 << 23), round to even */
    uint32_t sub = ts_f2u(ts_u2f(a) + 0.5f) - 0x3F000000u;              /* below 2^-14: rounds at 2^-24 */
    uint32_t nan = 0x7C00u + ((a & 0x7FFFFFu) >> 13);
    nan = nan == 0x7C00u ? 0x7C01u : nan;
    uint32_t r = a < 0x38800000u ? sub : normal;
    r = a >= 0x47800000u ? 0x7C00u : r;                                  /* >= 2^16: overflow */
    r = a > 0x7F800000u ? nan : r;
    return (ts_f16)(sign | r);
}
/* double -> float rounded to odd (exact when representable; otherwise the odd neighbour). */
TS_INLINE float ts_d2f_odd(double d) {
    float r = (float)d;
    if ((double)r == d || d != d) return r;
    uint32_t u = ts_f2u(r);
    if (u & 1u) return r;
    if ((u & 0x7FFFFFFFu) == 0x7F800000u) return ts_u2f(u - 1u);       /* overflowed: largest finite */
    return ts_u2f(fabs((double)r) > fabs(d) ? u - 1u : u + 1u);
}
TS_INLINE ts_f16 ts_d2h(double d) {
    uint64_t x = ts_d2u(d);
    if ((x & 0x7FF0000000000000ull) == 0x7FF0000000000000ull && (x & 0xFFFFFFFFFFFFFull)) {
        uint32_t r = 0x7C00u + (uint32_t)((x & 0xFFFFFFFFFFFFFull) >> 42);
        return (ts_f16)(((x >> 48) & 0x8000u) | (r == 0x7C00u ? 0x7C01u : r));
    }
    return ts_f2h(ts_d2f_odd(d));
}

/* ---- bfloat16 (ml_dtypes: round to nearest even; NaN -> quiet 0x7FC0 with the sign) ---- */
TS_INLINE float ts_bf2f(ts_bf16 h) { return ts_u2f((uint32_t)h << 16); }
TS_INLINE ts_bf16 ts_f2bf(float f) {
    uint32_t x = ts_f2u(f);
    uint32_t r = (x + 0x7FFFu + ((x >> 16) & 1u)) >> 16;
    return (ts_bf16)((x & 0x7FFFFFFFu) > 0x7F800000u ? (((x >> 16) & 0x8000u) | 0x7FC0u) : r);
}
TS_INLINE ts_bf16 ts_d2bf(double d) { return ts_f2bf(ts_d2f_odd(d)); }

/* ---- tfloat32: float32 storage rounded to 10 mantissa bits (nearest even) ---- */
TS_INLINE float ts_tf32(float f) {
    uint32_t b = ts_f2u(f);
    if ((b & 0x7F800000u) == 0x7F800000u) return f;
    return ts_u2f((b + 0x0FFFu + ((b >> 13) & 1u)) & 0xFFFFE000u);
}

/* ---- float8 (ml_dtypes): e4m3fn (bias 7, no inf, 0x7F NaN) and e5m2 (bias 15, IEEE-like) ---- */
TS_INLINE float ts_e4m3_to_f(ts_f8 b) {
    uint32_t s = (uint32_t)(b & 0x80u) << 24, e = (b >> 3) & 0xFu, m = b & 7u;
    uint32_t normal = ((e + 120u) << 23) | (m << 20);
    uint32_t sub = ts_f2u((float)m * 0x1p-9f);
    uint32_t v = e == 0 ? sub : normal;
    v = (e == 0xF && m == 7) ? 0x7FC00000u : v;
    return ts_u2f(s | v);
}
TS_INLINE float ts_e5m2_to_f(ts_f8 b) {
    uint32_t nan = ((b & 0x7Fu) > 0x7Cu) ? 0xFFFFFFFFu : 0u;         /* NaNs come out quiet, payload-free */
    uint32_t v = ts_f2u(ts_h2f((ts_f16)((uint32_t)b << 8)));
    return ts_u2f((v & ~nan) | ((((uint32_t)(b & 0x80u) << 24) | 0x7FC00000u) & nan));
}
/* Round |f| (bits a, finite) to a format with `mb` mantissa bits and smallest normal exponent
   `emin` (unbiased): the encoding of the magnitude, possibly past the largest finite value. */
TS_INLINE uint32_t ts_small_float(uint32_t a, int mb, int emin, int bias) {
    uint32_t min_normal = (uint32_t)(emin + 127) << 23;
    float magic = ts_u2f((uint32_t)(emin - mb + 23 + 127) << 23);      /* its ulp is the subnormal quantum */
    uint32_t sub = ts_f2u(ts_u2f(a) + magic) - ts_f2u(magic);
    int sh = 23 - mb;
    uint32_t normal = ((a + ((1u << (sh - 1)) - 1u) + ((a >> sh) & 1u)) >> sh) - ((uint32_t)(127 - bias) << mb);
    return a < min_normal ? sub : normal;
}
TS_INLINE ts_f8 ts_f_to_e4m3(float f) {
    uint32_t x = ts_f2u(f), s = (x >> 24) & 0x80u, a = x & 0x7FFFFFFFu;
    uint32_t r = ts_small_float(a < 0x7F800000u ? a : 0u, 3, -6, 7);
    r = (a >= 0x7F800000u || r > 0x7Eu) ? 0x7Fu : r;                  /* NaN, infinity, overflow: NaN */
    return (ts_f8)(s | r);
}
TS_INLINE ts_f8 ts_f_to_e5m2(float f) {
    uint32_t x = ts_f2u(f), s = (x >> 24) & 0x80u, a = x & 0x7FFFFFFFu;
    uint32_t r = ts_small_float(a < 0x7F800000u ? a : 0u, 2, -14, 15);
    r = r > 0x7Cu ? 0x7Cu : r;                                         /* overflow: infinity */
    r = a == 0x7F800000u ? 0x7Cu : r;
    r = a > 0x7F800000u ? 0x7Eu : r;
    return (ts_f8)(s | r);
}

/* ---- integers and floats ---- */
/* float -> int: truncate toward zero, saturate, NaN -> 0 (the executor's float_to_int). */
#define TS_FTOI(NAME, T, LO, HI) \
TS_INLINE T NAME(double v) { \
    if (v != v) return 0; \
    double t = trunc(v); \
    if (t >= (double)(HI)) return (T)(HI); \
    if (t <= (double)(LO)) return (T)(LO); \
    return (T)t; }
TS_FTOI(ts_ftoi8, int8_t, INT8_MIN, INT8_MAX)
TS_FTOI(ts_ftoi16, int16_t, INT16_MIN, INT16_MAX)
TS_FTOI(ts_ftoi32, int32_t, INT32_MIN, INT32_MAX)
TS_FTOI(ts_ftoi64, int64_t, INT64_MIN, INT64_MAX)
TS_FTOI(ts_ftou8, uint8_t, 0, UINT8_MAX)
TS_FTOI(ts_ftou16, uint16_t, 0, UINT16_MAX)
TS_FTOI(ts_ftou32, uint32_t, 0, UINT32_MAX)
TS_FTOI(ts_ftou64, uint64_t, 0, UINT64_MAX)

/* 64-bit integers to double rounded to odd (then any narrower format rounds once, correctly). */
TS_INLINE double ts_u64_odd(uint64_t x) {
    if (x < (1ull << 53)) return (double)x;
    int lz = __builtin_clzll(x), drop = 11 - lz;
    uint64_t kept = x >> drop, rest = x & ((1ull << drop) - 1);
    return ldexp((double)(kept | (rest != 0)), drop);
}
TS_INLINE double ts_i64_odd(int64_t x) {
    return x < 0 ? -ts_u64_odd(0 - (uint64_t)x) : ts_u64_odd((uint64_t)x);
}
"""
