"""Kernels written the way public cuTile code writes them (matmuls in K loops, swizzled and
persistent grids, split-K, attention, ragged-row normalisations, element-wise activations,
scans, pooling, atomics, a spin lock). Used by bench/realworld.py and tests."""
import cuda.tile as ct

ConstInt = ct.Constant[int]
ZERO = ct.PaddingMode.ZERO


# ---- matrix products ------------------------------------------------------------------------

@ct.kernel
def matmul_at(A, B, C, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """`@` in the K loop, 2-D grid."""
    m, n = ct.bid(0), ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(TM, TK))):
        a = ct.load(A, index=(m, k), shape=(TM, TK), padding_mode=ZERO)
        b = ct.load(B, index=(k, n), shape=(TK, TN), padding_mode=ZERO)
        acc = acc + a @ b
    ct.store(C, index=(m, n), tile=acc.astype(C.dtype))


@ct.kernel
def matmul_mma(A, B, C, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """ct.mma into a float32 accumulator, 2-D grid; tf32 operands for float32 inputs."""
    m, n = ct.bid(0), ct.bid(1)
    dt = ct.tfloat32 if A.dtype == ct.float32 else A.dtype
    acc = ct.full((TM, TN), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(TM, TK))):
        a = ct.load(A, index=(m, k), shape=(TM, TK), padding_mode=ZERO).astype(dt)
        b = ct.load(B, index=(k, n), shape=(TK, TN), padding_mode=ZERO).astype(dt)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(m, n), tile=acc.astype(C.dtype))


def _swizzle(M, N, TM, TN, GROUP, pid):
    grid_m = ct.cdiv(M, TM)
    grid_n = ct.cdiv(N, TN)
    per_group = GROUP * grid_n
    first_m = (pid // per_group) * GROUP
    rows = min(grid_m - first_m, GROUP)
    return first_m + (pid % rows), (pid % per_group) // rows


@ct.kernel
def matmul_swizzled(A, B, C, TM: ConstInt, TN: ConstInt, TK: ConstInt, GROUP: ConstInt):
    """1-D grid with the GROUP_SIZE_M swizzle."""
    m, n = _swizzle(A.shape[0], B.shape[1], TM, TN, GROUP, ct.bid(0))
    acc = ct.full((TM, TN), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(TM, TK))):
        a = ct.load(A, index=(m, k), shape=(TM, TK), padding_mode=ZERO)
        b = ct.load(B, index=(k, n), shape=(TK, TN), padding_mode=ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(m, n), tile=acc.astype(C.dtype))


@ct.kernel
def matmul_persistent(A, B, C, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """A grid smaller than the tile count: each block loops over output tiles."""
    grid_n = ct.cdiv(B.shape[1], TN)
    tiles = ct.cdiv(A.shape[0], TM) * grid_n
    for t in range(ct.bid(0), tiles, ct.num_blocks(0)):
        m, n = t // grid_n, t % grid_n
        acc = ct.full((TM, TN), 0, dtype=ct.float32)
        for k in range(ct.num_tiles(A, axis=1, shape=(TM, TK))):
            a = ct.load(A, index=(m, k), shape=(TM, TK), padding_mode=ZERO)
            b = ct.load(B, index=(k, n), shape=(TK, TN), padding_mode=ZERO)
            acc = ct.mma(a, b, acc)
        ct.store(C, index=(m, n), tile=acc.astype(C.dtype))


@ct.kernel
def matmul_split_k(A, B, C, TM: ConstInt, TN: ConstInt, TK: ConstInt, SPLIT: ConstInt):
    """Split-K: blocks along grid axis 2 sum parts of K into C with atomic adds."""
    m, n, s = ct.bid(0), ct.bid(1), ct.bid(2)
    acc = ct.full((TM, TN), 0, dtype=ct.float32)
    for k in range(s, ct.num_tiles(A, axis=1, shape=(TM, TK)), SPLIT):
        a = ct.load(A, index=(m, k), shape=(TM, TK), padding_mode=ZERO)
        b = ct.load(B, index=(k, n), shape=(TK, TN), padding_mode=ZERO)
        acc = ct.mma(a, b, acc)
    rows = m * TM + ct.arange(TM, dtype=ct.int32)
    cols = n * TN + ct.arange(TN, dtype=ct.int32)
    ct.atomic_add(C, (rows[:, None], cols[None, :]), acc)


@ct.kernel
def batch_matmul(A, B, C, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """(batch, M, K) @ (batch, K, N) on a 3-D grid."""
    m, n, z = ct.bid(0), ct.bid(1), ct.bid(2)
    acc = ct.full((TM, TN), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=2, shape=(1, TM, TK))):
        a = ct.load(A, index=(z, m, k), shape=(1, TM, TK), padding_mode=ZERO).reshape((TM, TK))
        b = ct.load(B, index=(z, k, n), shape=(1, TK, TN), padding_mode=ZERO).reshape((TK, TN))
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(z, m, n), tile=acc.reshape((1, TM, TN)).astype(C.dtype))


# ---- attention --------------------------------------------------------------------------------

@ct.kernel
def attention(Q, K, V, O, scale: float, TQ: ConstInt, TKV: ConstInt, D: ConstInt, CAUSAL: ConstInt):
    """Flash attention forward over (heads, S, D); causal masks keys after the query."""
    qb, h = ct.bid(0), ct.bid(1)
    q = ct.load(Q, index=(h, qb, 0), shape=(1, TQ, D)).reshape((TQ, D))
    m_i = ct.full((TQ, 1), -float("inf"), dtype=ct.float32)
    l_i = ct.full((TQ, 1), 0, dtype=ct.float32)
    acc = ct.full((TQ, D), 0, dtype=ct.float32)
    n_kv = ct.num_tiles(K, axis=1, shape=(1, TKV, D))
    if CAUSAL:
        n_kv = min(n_kv, ct.cdiv((qb + 1) * TQ, TKV))
    rows = qb * TQ + ct.arange(TQ, dtype=ct.int32)
    for j in range(n_kv):
        k = ct.load(K, index=(h, j, 0), shape=(1, TKV, D)).reshape((TKV, D))
        s = ct.mma(q, ct.transpose(k), ct.full((TQ, TKV), 0, dtype=ct.float32)) * scale
        if CAUSAL:
            cols = j * TKV + ct.arange(TKV, dtype=ct.int32)
            s = ct.where(rows[:, None] >= cols[None, :], s, -float("inf"))
        m_new = ct.maximum(m_i, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m_i - m_new)
        l_i = l_i * alpha + ct.sum(p, axis=1, keepdims=True)
        v = ct.load(V, index=(h, j, 0), shape=(1, TKV, D)).reshape((TKV, D))
        acc = ct.mma(p.astype(V.dtype), v, acc * alpha)
        m_i = m_new
    ct.store(O, index=(h, qb, 0), tile=(acc / l_i).reshape((1, TQ, D)).astype(O.dtype))


# ---- normalisations on rows ------------------------------------------------------------------

@ct.kernel
def softmax_gather(X, Y, N: int, BLOCK: ConstInt):
    """Triton-style row softmax: gather the row with a column mask (rows of any length)."""
    row = ct.bid(0)
    cols = ct.arange(BLOCK, dtype=ct.int32)
    x = ct.gather(X, (row, cols), mask=cols < N, padding_value=-float("inf"))
    x = x - ct.max(x, axis=0)
    e = ct.exp(x)
    ct.scatter(Y, (row, cols), e / ct.sum(e, axis=0), mask=cols < N)


@ct.kernel
def layernorm_gather(X, W, B, Y, N: int, eps: float, BLOCK: ConstInt):
    """Layer norm of one row per block through masked gathers."""
    row = ct.bid(0)
    cols = ct.arange(BLOCK, dtype=ct.int32)
    mask = cols < N
    x = ct.gather(X, (row, cols), mask=mask, padding_value=0)
    mean = ct.sum(x, axis=0) / N
    d = ct.where(mask, x - mean, 0)
    rstd = 1 / ct.sqrt(ct.sum(d * d, axis=0) / N + eps)
    w = ct.gather(W, cols, mask=mask, padding_value=0)
    b = ct.gather(B, cols, mask=mask, padding_value=0)
    ct.scatter(Y, (row, cols), d * rstd * w + b, mask=mask)


@ct.kernel
def rmsnorm(X, W, Y, eps: float, TN: ConstInt):
    """RMS norm, one row per block, tiles along the row."""
    row = ct.bid(0)
    n = X.shape[1]
    sq = ct.full((1, TN), 0, dtype=ct.float32)
    for j in range(ct.num_tiles(X, axis=1, shape=(1, TN))):
        x = ct.load(X, index=(row, j), shape=(1, TN), padding_mode=ZERO).astype(ct.float32)
        sq += x * x
    rstd = ct.rsqrt(ct.sum(sq, axis=1, keepdims=True) / n + eps)
    for j in range(ct.num_tiles(X, axis=1, shape=(1, TN))):
        x = ct.load(X, index=(row, j), shape=(1, TN), padding_mode=ZERO).astype(ct.float32)
        w = ct.load(W, index=(j,), shape=(TN,), padding_mode=ZERO).astype(ct.float32)
        ct.store(Y, index=(row, j), tile=(x * rstd * w).astype(Y.dtype))


# ---- element-wise ------------------------------------------------------------------------------

@ct.kernel
def rope(X, COS, SIN, Y, TS: ConstInt, HALF: ConstInt):
    """Rotary embedding on (tokens, heads, 2*HALF): rotate the two halves of each head."""
    t, h = ct.bid(0), ct.bid(1)
    x1 = ct.load(X, index=(t, h, 0), shape=(TS, 1, HALF)).reshape((TS, HALF))
    x2 = ct.load(X, index=(t, h, 1), shape=(TS, 1, HALF)).reshape((TS, HALF))
    c = ct.load(COS, index=(t, 0), shape=(TS, HALF))
    s = ct.load(SIN, index=(t, 0), shape=(TS, HALF))
    ct.store(Y, index=(t, h, 0), tile=(x1 * c - x2 * s).reshape((TS, 1, HALF)))
    ct.store(Y, index=(t, h, 1), tile=(x2 * c + x1 * s).reshape((TS, 1, HALF)))


@ct.kernel
def swiglu(G, U, Y, T: ConstInt):
    """silu(gate) * up on rows of f16, computed in float32."""
    r, c = ct.bid(0), ct.bid(1)
    g = ct.load(G, index=(r, c), shape=(1, T)).astype(ct.float32)
    u = ct.load(U, index=(r, c), shape=(1, T)).astype(ct.float32)
    ct.store(Y, index=(r, c), tile=(g / (1 + ct.exp(-g)) * u).astype(Y.dtype))


@ct.kernel
def gelu_tanh(X, Y, T: ConstInt):
    """GELU, tanh approximation."""
    i = ct.bid(0)
    x = ct.load(X, index=(i,), shape=(T,))
    inner = 0.7978845608 * (x + 0.044715 * x * x * x)
    ct.store(Y, index=(i,), tile=0.5 * x * (1 + ct.tanh(inner)))


@ct.kernel
def dropout(X, Y, seed: int, p: float, T: ConstInt):
    """Dropout with a counter-based hash of (seed, element index)."""
    i = ct.bid(0)
    idx = (i * T + ct.arange(T, dtype=ct.int32)).astype(ct.uint32)
    h = idx * 0x9E3779B1 + seed.astype(ct.uint32)
    h = (h ^ (h >> 16)) * 0x85EBCA6B
    h = (h ^ (h >> 13)) * 0xC2B2AE35
    h = h ^ (h >> 16)
    u = (h >> 8).astype(ct.float32) * (1.0 / 16777216.0)
    x = ct.load(X, index=(i,), shape=(T,))
    ct.store(Y, index=(i,), tile=ct.where(u >= p, x / (1 - p), 0))


@ct.kernel
def vector_add_f16(A, B, C, T: ConstInt):
    i = ct.bid(0)
    ct.store(C, index=(i,), tile=ct.load(A, index=(i,), shape=(T,)) + ct.load(B, index=(i,), shape=(T,)))


# ---- scans, pooling, data movement -----------------------------------------------------------

@ct.kernel
def cumsum_rows(X, Y, T: ConstInt):
    """Inclusive prefix sum of each row (one tile per row)."""
    r = ct.bid(0)
    x = ct.load(X, index=(r, 0), shape=(1, T))
    ct.store(Y, index=(r, 0), tile=ct.cumsum(x, axis=1))


@ct.kernel
def avg_pool2x2(X, Y, TH: ConstInt, TW: ConstInt):
    """2x2 average pooling of (H, W) planes, stride 2: one output tile per block."""
    i, j, c = ct.bid(0), ct.bid(1), ct.bid(2)
    x = ct.load(X, index=(c, i, j), shape=(1, 2 * TH, 2 * TW)).reshape((TH, 2, TW, 2))
    ct.store(Y, index=(c, i, j), tile=(ct.sum(ct.sum(x, axis=3), axis=1) * 0.25).reshape((1, TH, TW)))


@ct.kernel
def transpose(X, Y, TM: ConstInt, TN: ConstInt):
    i, j = ct.bid(0), ct.bid(1)
    ct.store(Y, index=(j, i), tile=ct.transpose(ct.load(X, index=(i, j), shape=(TM, TN))))


# ---- atomics -----------------------------------------------------------------------------------

@ct.kernel
def histogram(X, H, NBINS: ConstInt, T: ConstInt):
    """Counts of X's values in [0, 1) over NBINS bins, with integer atomic adds."""
    i = ct.bid(0)
    x = ct.load(X, index=(i,), shape=(T,), padding_mode=ct.PaddingMode.NEG_INF)
    b = (x * NBINS).astype(ct.int32)
    ct.atomic_add(H, b, ct.full((T,), 1, dtype=ct.int32))


@ct.kernel
def spinlock_sum(X, OUT, LOCK, T: ConstInt):
    """Each block adds its row into OUT under a CAS spin lock (LayerNorm-backward style)."""
    r = ct.bid(0)
    x = ct.load(X, index=(r, 0), shape=(1, T))
    while ct.atomic_cas(LOCK, 0, 0, 1, memory_order=ct.MemoryOrder.ACQUIRE) == 1:
        pass
    acc = ct.load(OUT, index=(0, 0), shape=(1, T))
    ct.store(OUT, index=(0, 0), tile=acc + x)
    ct.atomic_xchg(LOCK, 0, 0, memory_order=ct.MemoryOrder.RELEASE)
