"""The device's own random generator, as on a GPU: CUDA random numbers come from a generator
of their own, so drawing on the device never shifts the host's stream (and vice versa).
`torch.manual_seed` seeds both; `torch.cuda.manual_seed` only the device's.

Its state reads as CUDA's Philox generator's does (`torch.cuda.get_rng_state()`: 16 bytes, the
seed and the offset as little-endian 64-bit integers), because code saves, edits and restores
those bytes (rewinding the offset to draw a tensor again). Every draw moves the offset as CUDA's
distribution kernels move it on the emulated GPU; setting the state back to the offset a recent
draw started from replays that draw. The numbers themselves are the CPU generator's, not CUDA's."""
from __future__ import annotations

from collections import OrderedDict
from typing import Optional

import torch
from torch._ops import OpOverload

from .target import current

GENERATOR = torch.Generator(device="cpu")
GENERATOR.manual_seed(torch.initial_seed())

# torch functions and Tensor methods that draw random numbers and take `generator=`.
_RANDOM = {getattr(torch, n) for n in ("rand", "randn", "randint", "randperm", "normal", "bernoulli",
                                      "multinomial", "poisson", "rand_like", "randn_like", "randint_like")
           if hasattr(torch, n)}
_RANDOM |= {getattr(torch.Tensor, n) for n in ("uniform_", "normal_", "bernoulli_", "random_", "exponential_",
                                               "geometric_", "log_normal_", "cauchy_", "bernoulli",
                                               "multinomial") if hasattr(torch.Tensor, n)}

# ... and those that take none and draw from torch's default generator: on device tensors they draw
# from the device's instead (torch.nn.Dropout on a CUDA tensor uses CUDA's generator)
_DEFAULT_DRAWS = {getattr(torch.nn.functional, n) for n in ("dropout", "dropout1d", "dropout2d", "dropout3d",
                                                            "alpha_dropout", "feature_alpha_dropout", "rrelu",
                                                            "gumbel_softmax") if hasattr(torch.nn.functional, n)}
_DEFAULT_DRAWS |= {getattr(torch, n) for n in ("dropout", "native_dropout", "alpha_dropout", "feature_dropout",
                                               "rrelu") if hasattr(torch, n)}
_OVERLOADS: dict = {}               # ATen overload -> how it draws (`_draw_kind`)
_REMEMBERED = 256                   # recent draws whose start can be returned to


class _Philox:
    seed = GENERATOR.initial_seed()
    offset = 0
    starts: "OrderedDict[int, torch.Tensor]" = OrderedDict()     # offset -> CPU generator state


def draws(func, kwargs: dict) -> Optional[str]:
    """How calling `func` with `kwargs` on the device draws random numbers: "generator" (it takes
    `generator=` and names none), "default" (it draws from torch's default generator), or None."""
    if kwargs.get("generator") is not None:
        return None
    if func in _RANDOM:
        return "generator"
    if func in _DEFAULT_DRAWS:
        return "default"
    return _draw_kind(func) if isinstance(func, OpOverload) else None


def _draw_kind(op: OpOverload) -> Optional[str]:
    """An ATen overload's way of drawing (`torch.ops.aten.rand.default`: torch's default generator)."""
    if op not in _OVERLOADS:
        seeded = torch.Tag.nondeterministic_seeded in op.tags
        takes = any(a.name == "generator" for a in op._schema.arguments)
        _OVERLOADS[op] = ("generator" if takes else "default") if seeded else None
    return _OVERLOADS[op]


def device_draw(call, kwargs: dict, kind: str = "generator"):
    """`call(kwargs)` drawing from the device generator (`draws` said how): the draw's start is
    remembered and the offset moved past it."""
    _Philox.starts[_Philox.offset] = GENERATOR.get_state()
    _Philox.starts.move_to_end(_Philox.offset)
    while len(_Philox.starts) > _REMEMBERED:
        _Philox.starts.popitem(last=False)
    if kind == "generator":
        ret = call(dict(kwargs, generator=GENERATOR))
    else:                               # the device generator lent to torch's default for the call
        host = torch.default_generator.get_state()
        torch.default_generator.set_state(GENERATOR.get_state())
        try:
            ret = call(kwargs)
        finally:
            GENERATOR.set_state(torch.default_generator.get_state())
            torch.default_generator.set_state(host)
    first = ret[0] if isinstance(ret, (tuple, list)) and ret else ret
    _Philox.offset += offset_increment(first.numel() if isinstance(first, torch.Tensor) else 1)
    return ret


def offset_increment(numel: int) -> int:
    """How far a draw of `numel` numbers moves CUDA's Philox offset: 4 for each element a thread
    of the grid-stride kernel makes (256-thread blocks, as many as fill the GPU, 4 numbers per
    Philox call)."""
    t = current()
    blocks = min(-(-max(numel, 1) // 256), t.multi_processor_count * (t.max_threads_per_multi_processor // 256))
    return ((max(numel, 1) - 1) // (256 * blocks * 4) + 1) * 4


def manual_seed(seed) -> None:
    GENERATOR.manual_seed(int(seed))
    _Philox.seed, _Philox.offset = GENERATOR.initial_seed(), 0
    _Philox.starts.clear()


def seed() -> None:
    manual_seed(torch.Generator().seed())


def initial_seed() -> int:
    return _Philox.seed


def get_state() -> torch.Tensor:
    """The state as `torch.cuda.get_rng_state()` gives it: seed and offset, 16 bytes."""
    data = (_Philox.seed % (1 << 64)).to_bytes(8, "little") + (_Philox.offset % (1 << 64)).to_bytes(8, "little")
    return torch.tensor(list(data), dtype=torch.uint8)


def set_state(state) -> None:
    """`torch.cuda.set_rng_state(state)`: a state `get_state` gave, its bytes edited or not."""
    if not isinstance(state, torch.Tensor) or state.dtype != torch.uint8 or state.numel() != 16:
        raise RuntimeError("torch.cuda.set_rng_state: the state must be a torch.uint8 tensor of 16 bytes "
                           "(the seed and the offset, as torch.cuda.get_rng_state() gives them)")
    data = bytes(state.reshape(-1).tolist())
    seed_, offset = int.from_bytes(data[:8], "little"), int.from_bytes(data[8:], "little")
    if seed_ == _Philox.seed and offset in _Philox.starts:
        GENERATOR.set_state(_Philox.starts[offset])
    else:
        # a state no recent draw started from: numbers of its own, the same each time it is set
        GENERATOR.manual_seed((seed_ * 0x9E3779B97F4A7C15 + offset) % (1 << 64))
        if seed_ != _Philox.seed:
            _Philox.starts.clear()
    _Philox.seed, _Philox.offset = seed_, offset
