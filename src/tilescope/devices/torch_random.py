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

import torch

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

_REMEMBERED = 256                   # recent draws whose start can be returned to


class _Philox:
    seed = GENERATOR.initial_seed()
    offset = 0
    starts: "OrderedDict[int, torch.Tensor]" = OrderedDict()     # offset -> CPU generator state


def draws(func, kwargs: dict) -> bool:
    """Whether calling `func` with `kwargs` draws from the device generator."""
    return func in _RANDOM and kwargs.get("generator") is None


def device_draw(call, kwargs: dict):
    """`call(kwargs)` drawing from the device generator (`draws` said so): the draw's start is
    remembered and the offset moved past it."""
    _Philox.starts[_Philox.offset] = GENERATOR.get_state()
    _Philox.starts.move_to_end(_Philox.offset)
    while len(_Philox.starts) > _REMEMBERED:
        _Philox.starts.popitem(last=False)
    ret = call(dict(kwargs, generator=GENERATOR))
    numel = ret.numel() if isinstance(ret, torch.Tensor) else 1
    _Philox.offset += offset_increment(numel)
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
