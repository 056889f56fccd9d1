"""Triton counterparts of the cuTile kernels in ``examples/``, used by ``bench/triton_interp.py``.

Each kernel keeps the tiling of its cuTile twin (1024-element vector-add blocks, one row per
program for softmax and layer norm, 64x64x32 matmul tiles, 64x64 attention and transpose tiles),
so that one Triton program instance does the work of one cuTile block.  All kernels index with
``tl.program_id`` only (never ``tl.num_programs``), so launching a smaller grid runs exactly the
first programs of the full grid: that is how the benchmark samples the interpreter.

Inputs are contiguous row-major tensors; strides are passed anyway, as a Triton kernel would.
``TRITON_INTERPRET=1`` must be set before this module is imported to run them on the CPU.
"""
from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def vector_add(a_ptr, b_ptr, c_ptr, n, TILE: tl.constexpr):
    offs = tl.program_id(0) * TILE + tl.arange(0, TILE)
    mask = offs < n
    x = tl.load(a_ptr + offs, mask=mask)
    y = tl.load(b_ptr + offs, mask=mask)
    tl.store(c_ptr + offs, x + y, mask=mask)


@triton.jit
def softmax(x_ptr, y_ptr, n_cols, stride_x, stride_y, TILE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, TILE)
    mask = cols < n_cols
    t = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=-float("inf"))
    t = t - tl.max(t, axis=0)
    e = tl.exp(t)
    tl.store(y_ptr + row * stride_y + cols, e / tl.sum(e, axis=0), mask=mask)


@triton.jit
def layernorm(x_ptr, w_ptr, b_ptr, y_ptr, n_cols, stride_x, stride_y, eps, TN: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_x
    y_row = y_ptr + row * stride_y
    total = tl.zeros((TN,), dtype=tl.float32)
    for j in range(0, n_cols, TN):
        cols = j + tl.arange(0, TN)
        total += tl.load(x_row + cols, mask=cols < n_cols, other=0.0)
    mean = tl.sum(total, axis=0) / n_cols
    sq = tl.zeros((TN,), dtype=tl.float32)
    for j in range(0, n_cols, TN):
        cols = j + tl.arange(0, TN)
        t = tl.load(x_row + cols, mask=cols < n_cols, other=0.0)
        d = tl.where(cols < n_cols, t - mean, 0.0)
        sq += d * d
    rstd = tl.rsqrt(tl.sum(sq, axis=0) / n_cols + eps)
    for j in range(0, n_cols, TN):
        cols = j + tl.arange(0, TN)
        mask = cols < n_cols
        t = tl.load(x_row + cols, mask=mask, other=0.0)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0)
        b = tl.load(b_ptr + cols, mask=mask, other=0.0)
        tl.store(y_row + cols, (t - mean) * rstd * w + b, mask=mask)


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K,
           stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
           TM: tl.constexpr, TN: tl.constexpr, TK: tl.constexpr):
    bm, bn = tl.program_id(0), tl.program_id(1)
    rm = bm * TM + tl.arange(0, TM)
    rn = bn * TN + tl.arange(0, TN)
    rk = tl.arange(0, TK)
    acc = tl.zeros((TM, TN), dtype=tl.float32)
    for k in range(0, K, TK):
        ka = k + rk
        ta = tl.load(a_ptr + rm[:, None] * stride_am + ka[None, :] * stride_ak,
                     mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        tb = tl.load(b_ptr + ka[:, None] * stride_bk + rn[None, :] * stride_bn,
                     mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(ta, tb, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn,
             acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def batch_matmul(a_ptr, b_ptr, c_ptr, M, N, K,
                 stride_ab, stride_am, stride_ak, stride_bb, stride_bk, stride_bn,
                 stride_cb, stride_cm, stride_cn,
                 TM: tl.constexpr, TN: tl.constexpr, TK: tl.constexpr):
    bm, bn, batch = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    a_ptr += batch * stride_ab
    b_ptr += batch * stride_bb
    c_ptr += batch * stride_cb
    rm = bm * TM + tl.arange(0, TM)
    rn = bn * TN + tl.arange(0, TN)
    rk = tl.arange(0, TK)
    acc = tl.zeros((TM, TN), dtype=tl.float32)
    for k in range(0, K, TK):
        ka = k + rk
        ta = tl.load(a_ptr + rm[:, None] * stride_am + ka[None, :] * stride_ak,
                     mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        tb = tl.load(b_ptr + ka[:, None] * stride_bk + rn[None, :] * stride_bn,
                     mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(ta, tb, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn,
             acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def attention(q_ptr, k_ptr, v_ptr, o_ptr, scale, S, stride_b, stride_s,
              TQ: tl.constexpr, TKV: tl.constexpr, D: tl.constexpr):
    """Online-softmax attention, one program per (query tile, batch*head); S must be a multiple
    of TQ and TKV (as in the cuTile example, whose loads are unpadded)."""
    qi, bh = tl.program_id(0), tl.program_id(1)
    base = bh * stride_b
    rq = qi * TQ + tl.arange(0, TQ)
    rd = tl.arange(0, D)
    tq = tl.load(q_ptr + base + rq[:, None] * stride_s + rd[None, :])
    m_i = tl.full((TQ, 1), -float("inf"), dtype=tl.float32)
    l_i = tl.zeros((TQ, 1), dtype=tl.float32)
    acc = tl.zeros((TQ, D), dtype=tl.float32)
    for j in range(0, S, TKV):
        rkv = j + tl.arange(0, TKV)
        tk = tl.load(k_ptr + base + rkv[:, None] * stride_s + rd[None, :])
        tv = tl.load(v_ptr + base + rkv[:, None] * stride_s + rd[None, :])
        s = tl.dot(tq, tl.trans(tk), tl.zeros((TQ, TKV), dtype=tl.float32)) * scale
        m_new = tl.maximum(m_i, tl.max(s, axis=1, keep_dims=True))
        p = tl.exp(s - m_new)
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1, keep_dims=True)
        acc = tl.dot(p.to(tl.float16), tv, acc * alpha)
        m_i = m_new
    out = (acc / l_i).to(o_ptr.dtype.element_ty)
    tl.store(o_ptr + base + rq[:, None] * stride_s + rd[None, :], out)


@triton.jit
def transpose(x_ptr, y_ptr, M, N, stride_x, stride_y, TM: tl.constexpr, TN: tl.constexpr):
    """Program (i, j) reads the TMxTN tile (i, j) of x[M, N] and writes it transposed at (j, i)
    of y[N, M]."""
    i, j = tl.program_id(0), tl.program_id(1)
    rm = i * TM + tl.arange(0, TM)
    rn = j * TN + tl.arange(0, TN)
    t = tl.load(x_ptr + rm[:, None] * stride_x + rn[None, :],
                mask=(rm[:, None] < M) & (rn[None, :] < N))
    tl.store(y_ptr + rn[:, None] * stride_y + rm[None, :], tl.trans(t),
             mask=(rn[:, None] < N) & (rm[None, :] < M))
