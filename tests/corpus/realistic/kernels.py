import cuda.tile as ct

ConstInt = ct.Constant[int]


# tilescope: args f32[?], f32[?], f32[?], 1024
# expect: ok
# tilescope: args f16[?], f16[?], f16[?], 256
# expect: ok
@ct.kernel
def vector_add(a, b, c, TILE: ConstInt):
    i = ct.bid(0)
    x = ct.load(a, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    y = ct.load(b, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(c, index=(i,), tile=x + y)


# tilescope: args f32[?,?], f32[?,?], 1024
# expect: ok
# tilescope: args f16[?,?], f16[?,?], 512
# expect: ok
@ct.kernel
def row_softmax(x, y, N: ConstInt):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.NEG_INF)
    t = t.astype(ct.float32)
    m = ct.max(t, axis=1, keepdims=True)
    e = ct.exp(t - m)
    s = ct.sum(e, axis=1, keepdims=True)
    ct.store(y, index=(row, 0), tile=(e / s).astype(y.dtype))


# tilescope: args f32[?,?], f32[?], f32[?], f32[?,?], f32[?], f32[?], f32, 256
# expect: ok
@ct.kernel
def layernorm_fwd(x, w, b, y, mean_out, rstd_out, eps, TN: ConstInt):
    row = ct.bid(0)
    n = x.shape[1]
    acc = ct.zeros((1, TN), dtype=ct.float32)
    for j in range(ct.cdiv(n, TN)):
        acc += ct.load(x, index=(row, j), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    mean = ct.sum(acc, axis=1) / n
    var_acc = ct.zeros((1, TN), dtype=ct.float32)
    for j in range(ct.cdiv(n, TN)):
        t = ct.load(x, index=(row, j), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
        cols = ct.arange(TN, dtype=ct.int32) + j * TN
        d = ct.where(cols < n, t - mean, 0.0)
        var_acc += d * d
    rstd = ct.rsqrt(ct.sum(var_acc, axis=1) / n + eps)
    ct.store(mean_out, index=(row,), tile=mean)
    ct.store(rstd_out, index=(row,), tile=rstd)
    for j in range(ct.cdiv(n, TN)):
        t = ct.load(x, index=(row, j), shape=(1, TN))
        wt = ct.load(w, index=(j,), shape=(TN,))
        bt = ct.load(b, index=(j,), shape=(TN,))
        ct.store(y, index=(row, j), tile=(t - mean) * rstd * wt + bt)


# tilescope: args f32[?,?], f32[?,?], f32[?], f32[?], f32[?], f32[?,?], f32[?,?], i32[?], i32[?], 8, 256
# expect: ok
@ct.kernel
def layernorm_bwd_dx_partial_dw(dy, x, w, mean, rstd, dx, dw_partial, locks, counts,
                                GROUPS: ConstInt, TN: ConstInt):
    row = ct.bid(0)
    n = x.shape[1]
    t = ct.load(x, index=(row, 0), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    g = ct.load(dy, index=(row, 0), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    wt = ct.load(w, index=(0,), shape=(TN,), padding_mode=ct.PaddingMode.ZERO)
    mu = ct.load(mean, index=(row,), shape=())
    rs = ct.load(rstd, index=(row,), shape=())
    xhat = (t - mu) * rs
    wdy = wt * g
    c1 = ct.sum(xhat * wdy, axis=1, keepdims=True) / n
    c2 = ct.sum(wdy, axis=1, keepdims=True) / n
    ct.store(dx, index=(row, 0), tile=(wdy - (xhat * c1 + c2)) * rs)
    # accumulate the partial dW of this row group under a spin lock
    grp = row % GROUPS
    while ct.atomic_cas(locks, grp, 0, 1, memory_order=ct.MemoryOrder.ACQUIRE) == 1:
        pass
    seen = ct.load(counts, index=(grp,), shape=())
    part = g * xhat
    if seen == 0:
        ct.atomic_xchg(counts, grp, 1)
    else:
        part = part + ct.load(dw_partial, index=(grp, 0), shape=(1, TN))
    ct.store(dw_partial, index=(grp, 0), tile=part)
    ct.atomic_xchg(locks, grp, 0, memory_order=ct.MemoryOrder.RELEASE)


# tilescope: args bf16[?,?], bf16[?], bf16[?,?], f32, 1024
# expect: ok
@ct.kernel
def rmsnorm(x, w, y, eps, N: ConstInt):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    ms = ct.sum(t * t, axis=1, keepdims=True) / x.shape[1]
    wt = ct.load(w, index=(0,), shape=(N,)).astype(ct.float32)
    ct.store(y, index=(row, 0), tile=(t * ct.rsqrt(ms + eps) * wt).astype(ct.bfloat16))


def _swizzle(pid, num_m, num_n, GROUP):
    per_group = GROUP * num_n
    gid = pid // per_group
    first_m = gid * GROUP
    gsize = min(num_m - first_m, GROUP)
    pm = first_m + (pid % per_group) % gsize
    pn = (pid % per_group) // gsize
    return pm, pn


# tilescope: args f16[?,?], f16[?,?], f16[?,?], 128, 128, 32, 8
# expect: ok
# tilescope: args bf16[?,?], bf16[?,?], f32[?,?], 64, 64, 64, 4
# expect: ok
# tilescope: args f32[?,?], f32[?,?], f32[?,?], 64, 64, 32, 8
# expect: ok
@ct.kernel
def matmul_swizzled(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt, GROUP: ConstInt):
    num_m = ct.cdiv(a.shape[0], TM)
    num_n = ct.cdiv(b.shape[1], TN)
    pm, pn = _swizzle(ct.bid(0), num_m, num_n, GROUP)
    acc = ct.full((TM, TN), 0, dtype=ct.float32)
    zero = ct.PaddingMode.ZERO
    mma_dtype = ct.tfloat32 if a.dtype == ct.float32 else a.dtype
    for k in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
        x = ct.load(a, index=(pm, k), shape=(TM, TK), padding_mode=zero).astype(mma_dtype)
        y = ct.load(b, index=(k, pn), shape=(TK, TN), padding_mode=zero).astype(mma_dtype)
        acc = ct.mma(x, y, acc)
    ct.store(c, index=(pm, pn), tile=ct.astype(acc, c.dtype))


# tilescope: args f16[?,?], f16[?,?], f16[?,?], 128, 128, 64
# expect: ok
@ct.kernel
def matmul_persistent(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    num_m = ct.cdiv(a.shape[0], TM)
    num_n = ct.cdiv(b.shape[1], TN)
    nk = ct.cdiv(a.shape[1], TK)
    for tile_id in range(ct.bid(0), num_m * num_n, ct.num_blocks(0)):
        pm = tile_id // num_n
        pn = tile_id % num_n
        acc = ct.zeros((TM, TN), dtype=ct.float32)
        for k in range(nk):
            x = ct.load(a, index=(pm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
            y = ct.load(b, index=(k, pn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
            acc = ct.mma(x, y, acc)
        ct.store(c, index=(pm, pn), tile=acc.astype(c.dtype))


# tilescope: args f16[?,?,?], f16[?,?,?], f32[?,?,?], 64, 64, 32
# expect: ok
@ct.kernel
def batch_matmul(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    bz = ct.bid(2)
    pm = ct.bid(0)
    pn = ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=2, shape=(1, TM, TK))):
        x = ct.load(a, index=(bz, pm, k), shape=(1, TM, TK), padding_mode=ct.PaddingMode.ZERO)
        y = ct.load(b, index=(bz, k, pn), shape=(1, TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(x.reshape((TM, TK)), y.reshape((TK, TN)), acc)
    ct.store(c, index=(bz, pm, pn), tile=acc.reshape((1, TM, TN)))


# tilescope: args f32[?,?], f32[?,?], 32, 64
# expect: ok
@ct.kernel
def transpose_tiles(x, y, TM: ConstInt, TN: ConstInt):
    pm = ct.bid(0)
    pn = ct.bid(1)
    t = ct.load(x, index=(pm, pn), shape=(TM, TN))
    ct.store(y, index=(pn, pm), tile=ct.transpose(t))


# tilescope: args f16[?,?,?,?], f16[?,?,?,?], f16[?,?,?,?], f16[?,?,?,?], f32, 64, 64, 64
# expect: ok
@ct.kernel
def attention_online_softmax(q, k, v, o, scale, TQ: ConstInt, TKV: ConstInt, D: ConstInt):
    bh = ct.bid(1)
    b = bh // q.shape[1]
    h = bh % q.shape[1]
    qi = ct.bid(0)
    qt = ct.load(q, index=(b, h, qi, 0), shape=(1, 1, TQ, D)).reshape((TQ, D))
    m_i = ct.full((TQ, 1), -3.0e38, dtype=ct.float32)
    l_i = ct.zeros((TQ, 1), dtype=ct.float32)
    acc = ct.zeros((TQ, D), dtype=ct.float32)
    qk_scale = scale * 1.4426950408889634
    for j in range(ct.cdiv(k.shape[2], TKV)):
        kt = ct.load(k, index=(b, h, 0, j), shape=(1, 1, D, TKV), order=(0, 1, 3, 2))
        kt = kt.reshape((D, TKV))
        s = ct.mma(qt, kt, ct.zeros((TQ, TKV), dtype=ct.float32)) * qk_scale
        m_new = ct.maximum(m_i, ct.max(s, axis=1, keepdims=True))
        p = ct.exp2(s - m_new)
        alpha = ct.exp2(m_i - m_new)
        l_i = l_i * alpha + ct.sum(p, axis=1, keepdims=True)
        vt = ct.load(v, index=(b, h, j, 0), shape=(1, 1, TKV, D)).reshape((TKV, D))
        acc = ct.mma(p.astype(ct.float16), vt, acc * alpha)
        m_i = m_new
    out = (acc / l_i).astype(o.dtype).reshape((1, 1, TQ, D))
    ct.store(o, index=(b, h, qi, 0), tile=out)


# tilescope: args u8[?], i32[256], 1024
# expect: ok
@ct.kernel
def histogram_atomic(data, hist, TILE: ConstInt):
    vals = ct.load(data, index=(ct.bid(0),), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    bins = vals.astype(ct.int32)
    ones = ct.ones((TILE,), dtype=ct.int32)
    ct.atomic_add(hist, bins, ones, memory_order=ct.MemoryOrder.RELAXED)


# tilescope: args f32[?,?,?], f32[?,?,?], f32[?,?,?], f32[?,?,?], 64, 8, 8
# expect: ok
@ct.kernel
def fft_radix_stage(x_re, x_im, y_re, y_im, N: ConstInt, F1: ConstInt, F2: ConstInt):
    # one Cooley-Tukey step expressed with reshape/permute: view N = F1*F2 as a
    # (F1, F2) grid, combine along F1 with precomputed twiddles, then transpose
    bid = ct.bid(0)
    re = ct.load(x_re, index=(bid, 0, 0), shape=(1, N, 1)).reshape((F1, F2))
    im = ct.load(x_im, index=(bid, 0, 0), shape=(1, N, 1)).reshape((F1, F2))
    kk = ct.arange(F1, dtype=ct.int32).astype(ct.float32)[:, None]
    nn = ct.arange(F2, dtype=ct.int32).astype(ct.float32)[None, :]
    ang = kk * nn * (-6.283185307179586 / N)
    c = ct.cos(ang)
    s = ct.sin(ang)
    out_re = re * c - im * s
    out_im = re * s + im * c
    out_re = ct.permute(out_re, (1, 0)).reshape((1, N, 1))
    out_im = ct.permute(out_im, (1, 0)).reshape((1, N, 1))
    ct.store(y_re, index=(bid, 0, 0), tile=out_re)
    ct.store(y_im, index=(bid, 0, 0), tile=out_im)
