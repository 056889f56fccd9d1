"""The token-routing data a mixture-of-experts permutation's kernels read (set AF): what the
pipeline's earlier passes hand each one, for `tokens` tokens each routed to `topk` of `experts`
experts at random. An array's init names it: "moe:<what>:<tokens>:<experts>:<topk>[:<block>]".

- route_et / route_te: the routing map, 1 where a token goes to an expert ([E, T] or [T, E]);
- local: pass 1's row ids ([E * T]): within each block of `block` tokens, the running count of
  the expert's tokens, 0 where the token does not go to it;
- counts: pass 1's counts of an expert's tokens in each block ([E * T / block], expert-major);
- global: pass 2's row ids ([E * T]): a token's row among all the routed tokens, expert-major, or -1;
- rows / rows_local: the global / pass 1's row ids laid out a token at a time ([T, 2E + 1], the first E
  columns; the rest 0);
- map: pass 3's map ([T, 2E + 1]): a token's rows in descending order (-1 after), the experts in
  the same order, and how many it goes to;
- splits: `experts` chunk sizes summing to `tokens` (cut at random places);
- order: a random permutation of range(size of the array).

The shape of the array given is filled in order (extra elements 0), so a flat array of any size
can hold the layout."""
from __future__ import annotations

from functools import lru_cache
from typing import Tuple

import numpy as np


def moe_values(init: str, shape: Tuple[int, ...]) -> np.ndarray:
    """The int64 values of an array whose init is "moe:...", in `shape`."""
    parts = init.split(":")
    what, (tokens, experts, topk) = parts[1], map(int, parts[2:5])
    block = int(parts[5]) if len(parts) > 5 else 256
    rng = np.random.default_rng(7)
    size = int(np.prod(shape))
    if what == "order":
        return rng.permutation(size).reshape(shape)
    if what == "splits":
        cuts = np.sort(rng.choice(np.arange(1, tokens), experts - 1, replace=False))
        flat = np.diff(np.concatenate(([0], cuts, [tokens])))
    else:
        flat = _routing(what, tokens, experts, topk, block)
    out = np.zeros(size, np.int64)
    out[:min(size, flat.size)] = flat[:size]
    return out.reshape(shape)


@lru_cache(maxsize=None)        # (the cases of a run share their routing)
def _routing(what: str, tokens: int, experts: int, topk: int, block: int) -> np.ndarray:
    rng = np.random.default_rng(7)
    route = np.zeros((experts, tokens), np.int64)
    for t in range(tokens):
        route[rng.choice(experts, topk, replace=False), t] = 1
    if what == "route_et":
        return route.ravel()
    if what == "route_te":
        return route.T.ravel()
    blocks = -(-tokens // block)
    padded = np.zeros((experts, blocks * block), np.int64)
    padded[:, :tokens] = route
    per_block = padded.reshape(experts, blocks, block)
    local = (np.cumsum(per_block, axis=2) * per_block).reshape(experts, -1)[:, :tokens]
    counts = per_block.sum(axis=2)
    if what == "local":
        return local.ravel()
    table = np.zeros((tokens, 2 * experts + 1), np.int64)
    if what == "rows_local":
        table[:, :experts] = local.T
        return table.ravel()
    if what == "counts":
        return counts.ravel()
    before = np.concatenate(([0], np.cumsum(counts.ravel())[:-1])).reshape(experts, blocks)
    glob = np.where(route == 1, np.repeat(before, block, axis=1)[:, :tokens] + local - 1, -1)
    if what == "global":
        return glob.ravel()
    if what == "rows":
        table[:, :experts] = glob.T
        return table.ravel()
    if what != "map":
        raise ValueError(f"unknown routing data {what!r}")
    for t in range(tokens):
        order = np.argsort(-glob[:, t], kind="stable")
        table[t, :experts] = glob[order, t]
        table[t, experts:2 * experts] = order
        table[t, 2 * experts] = int(route[:, t].sum())
    return table.ravel()
