"""The device's own random generator, as on a GPU: CUDA random numbers come from a generator
of their own, so drawing on the device never shifts the host's stream (and vice versa).
`torch.manual_seed` seeds both; `torch.cuda.manual_seed` only the device's."""
from __future__ import annotations

import torch

GENERATOR = torch.Generator(device="cpu")
GENERATOR.manual_seed(torch.initial_seed())

# torch functions and Tensor methods that draw random numbers and take `generator=`.
_RANDOM = {getattr(torch, n) for n in ("rand", "randn", "randint", "randperm", "normal", "bernoulli",
                                      "multinomial", "poisson", "rand_like", "randn_like", "randint_like")
           if hasattr(torch, n)}
_RANDOM |= {getattr(torch.Tensor, n) for n in ("uniform_", "normal_", "bernoulli_", "random_", "exponential_",
                                               "geometric_", "log_normal_", "cauchy_", "bernoulli",
                                               "multinomial") if hasattr(torch.Tensor, n)}


def with_device_generator(func, kwargs: dict) -> dict:
    """`kwargs` with the device generator added to a random draw that names none."""
    if func in _RANDOM and kwargs.get("generator") is None:
        return dict(kwargs, generator=GENERATOR)
    return kwargs


def manual_seed(seed) -> None:
    GENERATOR.manual_seed(int(seed))
