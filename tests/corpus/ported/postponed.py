# Kernels in a module with postponed evaluation of annotations (PEP 563).
# Semantics ported from upstream test_posponed_const_annotation.py.
from __future__ import annotations

import cuda.tile as ct

ConstInt = ct.Constant[int]


# tilescope: args i32[8], 8
# expect: ok
@ct.kernel
def arange_with_alias_annotation(out, N: ConstInt):
    ct.store(out, 0, tile=ct.arange(N, dtype=ct.int32))


# tilescope: args i32[8], 8
# expect: ok
@ct.kernel
def arange_with_constant_int_annotation(out, N: ct.Constant[int]):
    ct.store(out, 0, tile=ct.arange(N, dtype=ct.int32))


# tilescope: args i32[8], True
# expect: ok
@ct.kernel
def constant_bool_annotation(out, flag: ct.Constant[bool]):
    if flag:
        ct.store(out, 0, tile=ct.arange(8, dtype=ct.int32))


# tilescope: args f32[8], 2.5
# expect: ok
@ct.kernel
def constant_bare_annotation(out, c: ct.Constant):
    print(ct.load(out, (0,), (8,)) * c)


# tilescope: args i32[8], i32
# expect: TileTypeError @ 43
@ct.kernel
def runtime_int_annotation_is_not_constant(out, N: int):
    ct.store(out, 0, tile=ct.arange(N, dtype=ct.int32))
