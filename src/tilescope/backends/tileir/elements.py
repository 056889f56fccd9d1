"""Element-type facts for TileIR: bit widths, constant bytes, and MLIR's float spelling."""
from __future__ import annotations

import math
import struct

import ml_dtypes
import numpy as np

from .ir import Scalar

FLOAT_NUMPY = {
    "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64,
    "f8E4M3FN": ml_dtypes.float8_e4m3fn, "f8E5M2": ml_dtypes.float8_e5m2,
    "f8E8M0FNU": ml_dtypes.float8_e8m0fnu, "f4E2M1FN": ml_dtypes.float4_e2m1fn,
}
INT_BITS = {"i1": 1, "i4": 4, "i8": 8, "i16": 16, "i32": 32, "i64": 64}
FLOAT_BITS = {"f16": 16, "bf16": 16, "f32": 32, "tf32": 19, "f64": 64, "f8E4M3FN": 8, "f8E5M2": 8,
              "f8E8M0FNU": 8, "f4E2M1FN": 4}


def is_float(elem: Scalar) -> bool:
    return elem.name in FLOAT_BITS


def bitwidth(elem: Scalar) -> int:
    return INT_BITS.get(elem.name) or FLOAT_BITS[elem.name]


def storage_bytes(elem: Scalar) -> int:
    return (bitwidth(elem) + 7) // 8


def float_bits(value: float, elem: Scalar) -> int:
    """The bit pattern of `value` rounded to the float type `elem`."""
    if elem.name == "tf32":
        f32 = struct.unpack("<I", struct.pack("<f", float(value)))[0]
        # keep the top 19 bits (sign, 8 exponent, 10 mantissa), round to nearest even
        rnd = ((f32 >> 13) & 1) + 0xFFF
        return ((f32 + rnd) >> 13) & 0x7FFFF if not math.isnan(value) else 0x7FFFF
    arr = np.array([value], dtype=FLOAT_NUMPY[elem.name])
    raw = arr.view(np.uint8).tobytes()
    return int.from_bytes(raw, "little")


def bits_to_float(bits: int, elem: Scalar) -> float:
    if elem.name == "tf32":
        return struct.unpack("<f", struct.pack("<I", bits << 13))[0]
    nbytes = storage_bytes(elem)
    return float(np.frombuffer(bits.to_bytes(nbytes, "little"), dtype=FLOAT_NUMPY[elem.name])[0])


def int_bytes(value: int, elem: Scalar) -> bytes:
    if elem.name == "i1":
        return b"\xff" if value else b"\x00"
    n = storage_bytes(elem)
    return (value & ((1 << (8 * n)) - 1)).to_bytes(n, "little")


def signed_value(raw: int, bits: int) -> int:
    raw &= (1 << bits) - 1
    return raw - (1 << bits) if raw >> (bits - 1) else raw


def format_float(bits: int, elem: Scalar) -> str:
    """A float the way MLIR prints an attribute: `%e` when that round-trips, else hex."""
    value = bits_to_float(bits, elem)
    if math.isfinite(value):
        # MLIR: six significant digits when they give back the same value, shown as "%.6e"
        if float_bits(float("%.5e" % value), elem) == bits:
            return "%.6e" % value
        return _apfloat_text(value, elem)
    width = max(1, (bitwidth(elem) + 3) // 4)
    return "0x" + format(bits, f"0{width}X")


_PRECISION = {"f16": 11, "bf16": 8, "f32": 24, "tf32": 11, "f64": 53, "f8E4M3FN": 4, "f8E5M2": 3}


def _apfloat_text(value: float, elem: Scalar) -> str:
    """LLVM APFloat::toString(): p*59/196+2 digits, from the exact binary value first cut
    (truncating) to about that many decimal digits, then rounded half up."""
    import fractions
    digits = _PRECISION.get(elem.name, 24) * 59 // 196 + 2
    frac = fractions.Fraction(abs(value))
    num, den = frac.numerator, frac.denominator          # den is a power of two
    texp = den.bit_length() - 1
    n, exp10 = num * 5 ** texp, -texp                  # value = n * 10**exp10
    bits_required = (digits * 196 + 58) // 59
    if n.bit_length() > bits_required:
        tens = (n.bit_length() - bits_required) * 59 // 196
        n //= 10 ** tens
        exp10 += tens
    text = str(n)
    if len(text) > digits:
        cut = len(text) - digits
        head, first_dropped = int(text[:digits]), int(text[digits])
        n = head + (first_dropped >= 5)
        exp10 += cut
        text = str(n)
        if len(text) > digits:                            # carried into a new digit
            text, exp10 = text[:-1], exp10 + 1
    stripped = text.rstrip("0") or "0"
    exp10 += len(text) - len(stripped)
    text = stripped
    lead = exp10 + len(text) - 1                          # decimal exponent of the first digit
    if -4 <= lead < digits:
        if exp10 >= 0:
            out = text + "0" * exp10 + ".0"
        elif lead >= 0:
            out = text[:lead + 1] + "." + text[lead + 1:]
        else:
            out = "0." + "0" * (-lead - 1) + text
    else:
        out = text[0] + "." + (text[1:] or "0") + "E" + ("+" if lead >= 0 else "-") + str(abs(lead))
    return ("-" if value < 0 else "") + out


def format_int(raw_or_value: int, elem: Scalar) -> str:
    if elem.name == "i1":
        return "true" if raw_or_value else "false"
    return str(signed_value(raw_or_value, bitwidth(elem)))
