"""The IR parser: it reads what the printer writes (every corpus kernel is round-tripped in
tests/test_frontend_corpus.py) and says where text is not IR."""
import pytest

import tilescope
import tilescope.lang as ct
from tilescope.ir.parse import ParseError, parse_function
from tilescope.ir.printer import print_function
from tilescope.ir.verify import verify


@ct.kernel
def scaled_sum(a, b, n: ct.Constant[int], scale):
    x = ct.load(a, index=(ct.bid(0),), shape=(16,), padding_mode=ct.PaddingMode.ZERO)
    total = ct.full((16,), 0.0, ct.float32)
    for i in range(n):
        if i % 2 == 0:
            total = total + x * scale
        else:
            total = total - ct.exp(x)
    ct.store(b, index=(ct.bid(0),), tile=ct.sum(total, axis=0, keepdims=True))


def test_round_trip_keeps_ops_attributes_and_blocks():
    compiled = tilescope.compile(scaled_sum, "f32[?], f32[?], 4, f32")
    text = compiled.final_text()
    fn = parse_function(text)
    verify(fn, types=False)
    assert print_function(fn) == text
    ops = {op.name: op for op in fn.walk()}
    assert ops["load_tile"].attrs["padding_mode"] is ct.PaddingMode.ZERO      # an enum, read by its schema
    assert ops["load_tile"].attrs["check_bounds"] is True
    assert len(ops["if"].blocks) == 2 and ops["for"].blocks[0].args[0].type.dtype.name == "int32"


@pytest.mark.parametrize("text, message", [
    ("kernel @k() {\n  %x: Tile[float32,()] = frobnicate\n}\n", "unknown op 'frobnicate'"),
    ("kernel @k() {\n  %x: Tile[float32,()] = unary %y {fn='neg'}\n}\n", "%y is used before it is defined"),
    ("kernel @k(%y: Tile[float32,()]) {\n  %x: Tile[float32,()] = unary %y {colour=1}\n}\n",
     "op 'unary' has no attribute 'colour'"),
    ("kernel @k(%y: Tile[floaty,()]) {\n}\n", "unknown dtype 'floaty'"),
    ("kernel @k(%y: Tile[float32,()]) {\n  %x: Tile[float32,()] = load_tile %y {padding_mode=SOMETIMES}\n}\n",
     "unknown name 'SOMETIMES'"),
    ("kernel @k() {\n", "unexpected end of text"),
])
def test_bad_text_is_located(text, message):
    with pytest.raises(ParseError, match=message) as e:
        parse_function(text)
    assert str(e.value).startswith("line ")
