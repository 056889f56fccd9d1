"""float16 tiles that only matrix products read, kept in float32.

`p.astype(ct.float16)` feeding `ct.mma` is how kernels run a product at half precision
(attention's probabilities). NumPy converts to float16 and back one element at a time (~2.5 ns
per element each way), while `mma` widens its operands anyway. When a float32 → float16
astype (round to nearest) is read only as an `mma` operand, the executor rounds the values to
float16's precision and range but keeps them in a float32 array (`numerics.f16_values`): the
same numbers, so every product is unchanged. The debugger shows such values in their declared
dtype.
"""
from __future__ import annotations

from typing import Set

from ... import dtypes as D
from ...ir.core import Function, per_function
from ...semantics.numerics import RN, mode_name


@per_function
def sites(fn: Function) -> Set[int]:
    """ids of the astype ops of `fn` whose float16 result may be kept in float32."""
    readers = fn.body.readers()
    found: Set[int] = set()
    for op in fn.walk():
        if op.name != "astype" or op.attrs["dtype"] is not D.float16 or op.operands[0].type.dtype is not D.float32 \
                or mode_name(op.attrs.get("rounding_mode")) != RN:
            continue
        v = op.results[0]
        users = readers.get(v.id, ())
        if users and all(u.name == "mma" and v not in u.operands[2:] for u in users):
            found.add(id(op))
    return found
