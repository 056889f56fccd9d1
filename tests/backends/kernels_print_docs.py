"""Kernels of the printed doc examples of cuTile's public API (the `kernel_wrapper` ones).

Each runs on a (1,) grid without arguments; the expected output is in test_print_docs.py.
"""
import tilescope.lang as ct


@ct.kernel
def doc_bid_1():
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    bidz = ct.bid(2)
    print(f"Hello from block ({bidx}, {bidy}, {bidz})")


@ct.kernel
def doc_assume_divisible_by_1():
    n = ct.bid(0) + 128
    n = ct.assume_divisible_by(n, 128)
    print(n)


@ct.kernel
def doc_arange_1():
    tile_0 = ct.arange(4, dtype=ct.int32)
    print(tile_0)
    tile_1 = ct.arange(8, start=2, dtype=ct.int32)
    print(tile_1)
    tile_2 = ct.arange(4, start=2, step=2, dtype=ct.int32)
    print(tile_2)
    tile_3 = ct.arange(8, start=7, step=-1, dtype=ct.int32)
    print(tile_3)


@ct.kernel
def doc_full_1():
    tile = ct.full((2, 2), 3, dtype=ct.int32)
    print(tile)


@ct.kernel
def doc_ones_1():
    tile = ct.ones((2, 2), dtype=ct.int32)
    print(tile)


@ct.kernel
def doc_zeros_1():
    tile = ct.zeros((2, 2), dtype=ct.int32)
    print(tile)


@ct.kernel
def doc_astile_1():
    x = ct.astile(((1, 2), (3, 4)), dtype=ct.int32)
    print(x)


@ct.kernel
def doc_mma_1():
    x = ct.ones((2, 4), dtype=ct.float32)
    y = ct.ones((4, 2), dtype=ct.float32)
    acc = ct.full((2, 2), 10.0, dtype=ct.float32)
    # (x @ y) + acc: each element = 1*4 + 10 = 14
    print(f"{ct.mma(x, y, acc):.1f}")


@ct.kernel
def doc_mma_2():
    x = ct.ones((2, 2, 4), dtype=ct.float32)
    y = ct.ones((4, 2), dtype=ct.float32)
    acc = ct.zeros((2, 2, 2), dtype=ct.float32)
    print(f"{ct.mma(x, y, acc):.1f}")


@ct.kernel
def doc_matmul_1():
    x = ct.ones((2, 4), dtype=ct.float32)
    y = ct.ones((4, 2), dtype=ct.float32)
    print(f"{x @ y:.1f}")


@ct.kernel
def doc_matmul_2():
    x = ct.ones(4, dtype=ct.float32)
    y = ct.ones(4, dtype=ct.float32)
    print(f"{x @ y:.1f}")


@ct.kernel
def doc_matmul_3():
    x = ct.ones((2, 2, 4), dtype=ct.float32)
    y = ct.ones((4, 2), dtype=ct.float32)
    print(f"{x @ y:.1f}")


@ct.kernel
def doc_expand_dims_1():
    tx = ct.arange(4, dtype=ct.int32)
    print(ct.expand_dims(tx, 0))
    print(tx[:, None])


@ct.kernel
def doc_cat_1():
    tx = ct.full((2, 2), 3, dtype=ct.int32)
    ty = ct.full((2, 2), 7, dtype=ct.int32)
    print(ct.cat((tx, ty), 0))
    print(ct.cat((tx, ty), 1))


@ct.kernel
def doc_broadcast_to_1():
    tx = ct.arange(4, dtype=ct.int32)
    ty = ct.broadcast_to(tx, (2, 4))
    print(ty)


@ct.kernel
def doc_reshape_1():
    tx = ct.arange(8, dtype=ct.int32)
    ty = ct.reshape(tx, (2, 4))
    print(ty)


@ct.kernel
def doc_permute_1():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 2, 2))
    ty = ct.permute(tx, (2, 0, 1))
    print(ty)


@ct.kernel
def doc_transpose_1():
    tx = ct.arange(8, dtype=ct.int32)
    tx = ct.reshape(tx, (2, 4))
    ty = ct.transpose(tx)
    print(ty)


@ct.kernel
def doc_astype_1():
    tx = ct.arange(4, dtype=ct.int32)
    ty = ct.astype(tx, ct.float32)
    print(f"{ty:.1f}")


@ct.kernel
def doc_bitcast_1():
    ty = ct.bitcast(1.0, ct.uint32)
    print(f"{ty:#x}")


@ct.kernel
def doc_pack_to_bytes_1():
    tx = ct.full(1, 0x04030201, dtype=ct.int32)
    ty = ct.pack_to_bytes(tx)
    print(ty)


@ct.kernel
def doc_unpack_from_bytes_1():
    tx = ct.arange(4, dtype=ct.uint8) + 1
    ty = ct.unpack_from_bytes(tx, ct.int32)
    print(f"{ty:#x}")


@ct.kernel
def doc_sum_1():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 4))
    print("input:", tx)
    print("reduced:", ct.sum(tx, None))


@ct.kernel
def doc_sum_2():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 4))
    print("input:", tx)
    print("reduced:", ct.sum(tx, 1, keepdims=True))


@ct.kernel
def doc_sum_3():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 2, 2))
    print("input:", tx)
    print("reduced:", ct.sum(tx, (1, 2)))


@ct.kernel
def doc_max_1():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 4))
    print("input:", tx)
    print("reduced:", ct.max(tx, None))


@ct.kernel
def doc_max_2():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 4))
    print("input:", tx)
    print("reduced:", ct.max(tx, 1, keepdims=True))


@ct.kernel
def doc_max_3():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 2, 2))
    print("input:", tx)
    print("reduced:", ct.max(tx, (1, 2)))


@ct.kernel
def doc_min_1():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 4))
    print("input:", tx)
    print("reduced:", ct.min(tx, None))


@ct.kernel
def doc_min_2():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 4))
    print("input:", tx)
    print("reduced:", ct.min(tx, 1, keepdims=True))


@ct.kernel
def doc_min_3():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 2, 2))
    print("input:", tx)
    print("reduced:", ct.min(tx, (1, 2)))


@ct.kernel
def doc_prod_1():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 4))
    print("input:", tx)
    print("reduced:", ct.prod(tx, None))


@ct.kernel
def doc_prod_2():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 4))
    print("input:", tx)
    print("reduced:", ct.prod(tx, 1, keepdims=True))


@ct.kernel
def doc_argmax_1():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 4))
    print("input:", tx)
    print("reduced:", ct.argmax(tx, None))


@ct.kernel
def doc_argmax_2():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 4))
    print("input:", tx)
    print("reduced:", ct.argmax(tx, 1, keepdims=True))


@ct.kernel
def doc_argmax_3():
    tx = ct.zeros(4, dtype=ct.int32)
    tx = ct.cat((tx, tx + 1), axis=0)
    print("input:", tx)
    print("reduced:", ct.argmax(tx, 0))


@ct.kernel
def doc_argmin_1():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 4))
    print("input:", tx)
    print("reduced:", ct.argmin(tx, None))


@ct.kernel
def doc_argmin_2():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 4))
    print("input:", tx)
    print("reduced:", ct.argmin(tx, 1, keepdims=True))


@ct.kernel
def doc_argmin_3():
    tx = ct.zeros(4, dtype=ct.int32)
    tx = ct.cat((tx + 1, tx), axis=0)
    print("input:", tx)
    print("reduced:", ct.argmin(tx, 0))


@ct.kernel
def doc_cumsum_1():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 4))
    print("input:", tx)
    print("cumsum:", ct.cumsum(tx, 1))


@ct.kernel
def doc_cumsum_2():
    tx = ct.arange(8, dtype=ct.int32).reshape((2, 4))
    print("input:", tx)
    print("reverse:", ct.cumsum(tx, 1, reverse=True))


@ct.kernel
def doc_cumprod_1():
    tx = ct.full((2, 4), 2, dtype=ct.int32)
    print("input:", tx)
    print("cumprod:", ct.cumprod(tx, 1))


@ct.kernel
def doc_add_1():
    tx = ct.arange(4, dtype=ct.int32)
    print(tx + 10)


@ct.kernel
def doc_sub_1():
    tx = ct.arange(4, dtype=ct.int32)
    print(tx - 1)


@ct.kernel
def doc_mul_1():
    tx = ct.arange(4, dtype=ct.int32)
    print(tx * 3)


@ct.kernel
def doc_truediv_1():
    tx = ct.arange(4, dtype=ct.int32)
    ty = ct.full((4,), 2, dtype=ct.int32)
    print(f"{tx / ty:.1f}")


@ct.kernel
def doc_floordiv_1():
    tx = ct.full((4,), 7, dtype=ct.int32)
    ty = ct.full((4,), 3, dtype=ct.int32)
    tz = tx // ty
    print(tz)


@ct.kernel
def doc_pow_1():
    tx = ct.full((4,), 2.0, dtype=ct.float32)
    ty = ct.arange(4, dtype=ct.float32)
    print(f"{tx ** ty:.1f}")


@ct.kernel
def doc_atan2_1():
    y = ct.full((4,), 1.0, dtype=ct.float32)
    x = ct.full((4,), 0.0, dtype=ct.float32)
    print(f"{ct.atan2(y, x):.4f}")


@ct.kernel
def doc_mod_1():
    tx = ct.arange(4, dtype=ct.int32)
    print(tx % 3)


@ct.kernel
def doc_divmod_1():
    tx = ct.arange(4, dtype=ct.int32)
    print(divmod(tx, 3))


@ct.kernel
def doc_bitwise_and_1():
    tx = ct.full((4,), 7, dtype=ct.int32)
    ty = ct.full((4,), 3, dtype=ct.int32)
    print(tx & ty)


@ct.kernel
def doc_bitwise_or_1():
    tx = ct.full((4,), 5, dtype=ct.int32)
    ty = ct.full((4,), 3, dtype=ct.int32)
    print(tx | ty)


@ct.kernel
def doc_bitwise_xor_1():
    tx = ct.full((4,), 7, dtype=ct.int32)
    ty = ct.full((4,), 3, dtype=ct.int32)
    print(tx ^ ty)


@ct.kernel
def doc_bitwise_lshift_1():
    tx = ct.arange(4, dtype=ct.int32)
    print(tx << 2)


@ct.kernel
def doc_bitwise_rshift_1():
    tx = ct.full((4,), 8, dtype=ct.int32)
    ty = ct.arange(4, dtype=ct.int32)
    print(tx >> ty)


@ct.kernel
def doc_bitwise_not_1():
    tx = ct.full((4,), 0, dtype=ct.int32)
    ty = ~tx
    print(ty)


@ct.kernel
def doc_minimum_1():
    tx = ct.arange(4, dtype=ct.int32)
    ty = ct.full((4,), 2, dtype=ct.int32)
    print(min(tx, ty))


@ct.kernel
def doc_maximum_1():
    tx = ct.arange(4, dtype=ct.int32)
    ty = ct.full((4,), 2, dtype=ct.int32)
    print(max(tx, ty))


@ct.kernel
def doc_greater_1():
    tx = ct.arange(4, dtype=ct.int32)
    print(tx > 2)


@ct.kernel
def doc_greater_equal_1():
    tx = ct.arange(4, dtype=ct.int32)
    print(tx >= 2)


@ct.kernel
def doc_less_1():
    tx = ct.arange(4, dtype=ct.int32)
    print(tx < 2)


@ct.kernel
def doc_less_equal_1():
    tx = ct.arange(4, dtype=ct.int32)
    print(tx <= 2)


@ct.kernel
def doc_equal_1():
    tx = ct.arange(4, dtype=ct.int32)
    print(tx == 2)


@ct.kernel
def doc_not_equal_1():
    tx = ct.arange(4, dtype=ct.int32)
    print(tx != 2)


@ct.kernel
def doc_exp_1():
    tx = ct.full((4,), 0.0, dtype=ct.float32)
    print(f"{ct.exp(tx):.1f}")


@ct.kernel
def doc_exp2_1():
    tx = ct.full((4,), 3.0, dtype=ct.float32)
    print(f"{ct.exp2(tx):.1f}")


@ct.kernel
def doc_log_1():
    tx = ct.full((4,), 1.0, dtype=ct.float32)
    print(f"{ct.log(tx):.1f}")


@ct.kernel
def doc_log2_1():
    tx = ct.full((4,), 8.0, dtype=ct.float32)
    print(f"{ct.log2(tx):.1f}")


@ct.kernel
def doc_sqrt_1():
    tx = ct.full((4,), 4.0, dtype=ct.float32)
    print(f"{ct.sqrt(tx):.1f}")


@ct.kernel
def doc_rsqrt_1():
    tx = ct.full((4,), 4.0, dtype=ct.float32)
    print(f"{ct.rsqrt(tx):.1f}")


@ct.kernel
def doc_sin_1():
    tx = ct.full((4,), 0.0, dtype=ct.float32)
    print(f"{ct.sin(tx):.1f}")


@ct.kernel
def doc_cos_1():
    tx = ct.full((4,), 0.0, dtype=ct.float32)
    print(f"{ct.cos(tx):.1f}")


@ct.kernel
def doc_tan_1():
    tx = ct.full((4,), 0.0, dtype=ct.float32)
    print(f"{ct.tan(tx):.1f}")


@ct.kernel
def doc_sinh_1():
    tx = ct.full((4,), 0.0, dtype=ct.float32)
    print(f"{ct.sinh(tx):.1f}")


@ct.kernel
def doc_cosh_1():
    tx = ct.full((4,), 0.0, dtype=ct.float32)
    print(f"{ct.cosh(tx):.1f}")


@ct.kernel
def doc_tanh_1():
    tx = ct.full((4,), 0.0, dtype=ct.float32)
    print(f"{ct.tanh(tx):.1f}")


@ct.kernel
def doc_floor_1():
    tx = ct.full((4,), 3.7, dtype=ct.float32)
    print(f"{ct.floor(tx):.1f}")


@ct.kernel
def doc_ceil_1():
    tx = ct.full((4,), 3.2, dtype=ct.float32)
    print(f"{ct.ceil(tx):.1f}")


@ct.kernel
def doc_abs_1():
    tx = ct.arange(4, dtype=ct.int32) - 2
    print("input:", tx)
    print("abs:", ct.abs(tx))


@ct.kernel
def doc_negative_1():
    tx = ct.arange(4, dtype=ct.int32)
    ty = -tx
    print(ty)


@ct.kernel
def doc_isnan_1():
    tx = ct.full((4,), 1.0, dtype=ct.float32)
    print(ct.isnan(tx))


@ct.kernel
def doc_where_1():
    cond = ct.arange(4, dtype=ct.int32) >= 2
    x_true = ct.full((4,), 1, dtype=ct.int32)
    x_false = ct.full((4,), -1, dtype=ct.int32)
    y = ct.where(cond, x_true, x_false)
    print(y)


@ct.kernel
def doc_extract_1():
    tile = ct.arange(8, dtype=ct.int32)
    sub = ct.extract(tile, (0,), shape=(4,))
    print(f'(0,): {sub}')
    sub = ct.extract(tile, (1,), shape=(4,))
    print(f'(1,): {sub}')


@ct.kernel
def doc_extract_2():
    tile = ct.arange(16, dtype=ct.int32).reshape((4, 4))
    sub = ct.extract(tile, (0, 0), shape=(2, 2))
    print(f'(0, 0): {sub}')
    sub = ct.extract(tile, (0, 1), shape=(2, 2))
    print(f'(0, 1): {sub}')


@ct.kernel
def doc_insert_1():
    tile = ct.arange(8, dtype=ct.int32)
    sub = ct.full((4,), 99, dtype=ct.int32)
    print(f'(0,): {ct.insert(tile, (0,), sub)}')
    print(f'(1,): {ct.insert(tile, (1,), sub)}')


@ct.kernel
def doc_insert_2():
    tile = ct.arange(16, dtype=ct.int32).reshape((4, 4))
    sub = ct.full((2, 2), 99, dtype=ct.int32)
    print(f'(0, 0): {ct.insert(tile, (0, 0), sub)}')
    print(f'(0, 1): {ct.insert(tile, (0, 1), sub)}')


@ct.kernel
def doc_printf_1():
    tile = ct.full((), 42, dtype=ct.int32)
    ct.printf("value: %d\n", tile)


@ct.kernel
def doc_print_1():
    tile = ct.full((), 42, dtype=ct.int32)
    ct.print(f"value={tile}")
    print(f"value={tile}")


@ct.kernel
def doc_assert_1():
    tile = ct.full((4,), 5, dtype=ct.int32)
    ct.assert_(tile > 0)
    print("assertion passed")


@ct.kernel
def doc_static_iter_1():
    tile = ct.zeros(4, dtype=ct.int32)
    size = 4

    states = ()
    for i in ct.static_iter(range(size)):
        states += (tile + i,)
    print(states)

    new_states = ()
    for i in ct.static_iter(range(size)):
        new_states += (states[(i + 1) % size] + states[i], )
    print(new_states)


@ct.kernel
def doc_ensure_constant_1():
    if ct.ensure_constant(2 > 1):
         print("Two is greater than one.")
    else:
         ct.static_assert(False)  # This branch will be discarded


# ---- doc examples that launch with arguments (`setup_only`) --------------------

@ct.kernel
def doc_num_blocks_1():
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    bidz = ct.bid(2)
    nx = ct.num_blocks(0)
    ny = ct.num_blocks(1)
    nz = ct.num_blocks(2)
    master_block = (bidx == 0 and bidy == 0 and bidz == 0)
    if master_block:
        print(f"Number of tile blocks: {(nx, ny, nz)}")


@ct.kernel
def doc_num_tiles_1(x):
    tile_shape = (4, 8)
    num_tiles_row = ct.num_tiles(x, 0, shape=tile_shape)
    num_tiles_col = ct.num_tiles(x, 1, shape=tile_shape)
    print(f"The tile space has {num_tiles_row} rows and {num_tiles_col} columns.")


@ct.kernel
def doc_load_1(x):
    zero_pad = ct.PaddingMode.ZERO
    print(ct.load(x, (0,), shape=4))
    print(ct.load(x, (1,), shape=4))
    print(ct.load(x, (2,), shape=4, padding_mode=zero_pad))


@ct.kernel
def doc_load_2(x):
    print(ct.load(x, (0, 0), shape=(1, 4), order='F'))
    print(ct.load(x, (1, 0), shape=(1, 4), order='F'))
    print(ct.load(x, (2, 0), shape=(1, 4), order='F'))
    print(ct.load(x, (3, 0), shape=(1, 4), order='F'))


@ct.kernel
def doc_load_3(x):
    print(ct.load(x, (0, 0, 0), shape=(1, 2, 2), order=(0, 2, 1)))
    print(ct.load(x, (1, 0, 0), shape=(1, 2, 2), order=(0, 2, 1)))


@ct.kernel
def doc_load_4(x):
    for i in range(10):
        tile = ct.load(x, (i,), shape=())
        print(tile, end=" ")
    print()


@ct.kernel
def doc_atomic_cas_1(x):
    indices = ct.arange(4, dtype=ct.int32)
    expected = ct.full((4,), 0, dtype=ct.int32)
    desired = ct.full((4,), 42, dtype=ct.int32)
    old = ct.atomic_cas(x, indices, expected, desired)
    print(old)


@ct.kernel
def doc_slice_1(x):
    sub = x.slice(axis=0, start=1, stop=3)
    print(ct.load(sub, (0, 0), shape=(2, 4)))


@ct.kernel
def doc_slice_2(x, offset, length):
    sub = x.slice(axis=0, start=offset, stop=offset+length)
    print(ct.load(sub, (0,), shape=(4,)))
    print(ct.load(sub, (1,), shape=(4,)))


@ct.kernel
def doc_tiled_view_1(x):
    tv = x.tiled_view((2, 4))
    print(tv.load((0, 0)))
    print(tv.load((1, 0)))
    tv2 = x.tiled_view((2, 4), traversal_steps=(1, 4))
    print(tv2.load((0, 0)))
    print(tv2.load((1, 0)))


@ct.kernel
def doc_foreign_pointer_1(x):
    pointer = x.foreign_pointer
    view = ct.Array.from_foreign(pointer, x.shape, x.strides)
    print(ct.load(view, (0,), shape=(4,)))


@ct.kernel
def doc_atomic_cas_offset_1(x):
    offset = ct.arange(4, dtype=ct.int32)
    expected = ct.full((4,), 0, dtype=ct.int32)
    desired = ct.full((4,), 42, dtype=ct.int32)
    raw_mem = x.get_raw_memory()
    old = raw_mem.atomic_cas_offset(offset, expected, desired)
    print(old)


@ct.kernel
def doc_item_1(x):
    idx = ct.full((1,), 2, dtype=ct.int32).item()
    tile = ct.load(x, (idx,), shape=(4,))
    print(tile)


@ct.kernel
def doc_tiled_view_load_1(x):
    tv = x.tiled_view(4)
    tile = tv.load(0)
    print(tile)
