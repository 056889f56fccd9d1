import cuda.tile as ct


# tilescope: args bool[1]
# expect: ok
@ct.kernel
def invert_typed_bool_constant(out):
    v = ct.zeros((), dtype=ct.bool_)
    ct.store(out, index=(0,), tile=~v)


# tilescope: args bool[1]
# expect: TileTypeError @ 16
@ct.kernel
def invert_loose_bool_constant(out):
    ct.store(out, index=(0,), tile=~True)
