"""Attention with online softmax (flash-attention style): one block per (query tile, batch·head)."""
import cuda.tile as ct

NEG_INF = ct.PaddingMode.NEG_INF


# tilescope: args f16[16,1024,64], f16[16,1024,64], f16[16,1024,64], f16[16,1024,64], f32, 64, 64, 64
@ct.kernel
def attention(q, k, v, o, scale, TQ: ct.Constant[int], TKV: ct.Constant[int], D: ct.Constant[int]):
    qi, bh = ct.bid(0), ct.bid(1)
    tq = ct.load(q, index=(bh, qi, 0), shape=(1, TQ, D)).reshape((TQ, D))
    m_i = ct.full((TQ, 1), -float("inf"), dtype=ct.float32)
    l_i = ct.zeros((TQ, 1), dtype=ct.float32)
    acc = ct.zeros((TQ, D), dtype=ct.float32)
    for j in range(ct.num_tiles(k, axis=1, shape=(1, TKV, D))):
        tk = ct.load(k, index=(bh, j, 0), shape=(1, TKV, D)).reshape((TKV, D))
        tv = ct.load(v, index=(bh, j, 0), shape=(1, TKV, D)).reshape((TKV, D))
        s = ct.mma(tq, ct.transpose(tk), ct.zeros((TQ, TKV), dtype=ct.float32)) * scale
        m_new = ct.maximum(m_i, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m_i - m_new)
        l_i = l_i * alpha + ct.sum(p, axis=1, keepdims=True)
        acc = ct.mma(p.astype(ct.float16), tv, acc * alpha)
        m_i = m_new
    out = (acc / l_i).astype(o.dtype).reshape((1, TQ, D))
    ct.store(o, index=(bh, qi, 0), tile=out)


if __name__ == "__main__":
    import numpy as np

    bh, s, d = 2, 256, 64
    q, k, v = (np.random.randn(bh, s, d).astype(np.float16) for _ in range(3))
    o = np.empty_like(q)
    ct.launch(None, (s // 64, bh), attention, (q, k, v, o, 1 / np.sqrt(d), 64, 64, 64))
    sc = q.astype(np.float64) @ k.astype(np.float64).transpose(0, 2, 1) / np.sqrt(d)
    p = np.exp(sc - sc.max(-1, keepdims=True))
    ref = (p / p.sum(-1, keepdims=True)) @ v.astype(np.float64)
    print("max error:", float(np.abs(o - ref).max()))
