"""C printf on tile values, as the GPU's device-side print formats them.

`print`/`printf` become one op whose `pieces` are text and `(operand, conversion)` pairs;
`printed_lines` turns them into one line of text per block. Standalone (NumPy and the
standard library): the executor's print rule uses it and transpiled modules carry it whole.
"""
from __future__ import annotations

import math
import re

import numpy as np

from .numerics import to_float64


_CONV_PARTS = re.compile(r"%([-+ #0]*)([0-9]*)(?:\.([0-9]*))?(hh|h|ll|l|L|j|z|t)?([diouxXeEfFgGaA])")
# Bits a C vararg of each length modifier is read with (LP64, as on the GPU host side).
_LENGTH_BITS = {"hh": 8, "h": 16, None: 32, "l": 64, "ll": 64, "L": 64, "j": 64, "z": 64, "t": 64}


class CConversion:
    """One parsed printf conversion (`%-+08.3lld`) that formats Python numbers as C's printf does."""

    def __init__(self, spec: str):
        m = _CONV_PARTS.fullmatch(spec)
        if m is None:
            raise ValueError(f"not a printf conversion: {spec!r}")
        self.flags = m.group(1)
        self.width = int(m.group(2)) if m.group(2) else 0
        self.precision = None if m.group(3) is None else int(m.group(3) or 0)
        self.bits = _LENGTH_BITS[m.group(4)]
        self.conv = m.group(5)

    def __call__(self, value) -> str:
        if self.conv in "diouxX":
            return self._pad(*self._integer(int(value)))
        return self._pad(*self._floating(float(value)))

    # Returns (sign, prefix, digits, zero_pad_allowed) for _pad.
    def _integer(self, v: int):
        mask = (1 << self.bits) - 1
        v &= mask                           # the argument is read as a `bits`-wide integer
        if self.conv in "di" and v >> (self.bits - 1):
            v -= 1 << self.bits
        sign = "-" if v < 0 else ("+" if "+" in self.flags and self.conv in "di" else
                                  (" " if " " in self.flags and self.conv in "di" else ""))
        a = abs(v)
        digits = {"o": "o", "x": "x", "X": "X"}.get(self.conv)
        digits = format(a, digits) if digits else str(a)
        if self.precision is not None:
            digits = "" if (self.precision == 0 and a == 0) else digits.zfill(self.precision)
        prefix = ""
        if "#" in self.flags:
            if self.conv == "o" and not digits.startswith("0"):
                digits = "0" + digits
            elif self.conv in "xX" and a != 0:
                prefix = "0" + self.conv
        return sign, prefix, digits, self.precision is None

    def _floating(self, f: float):
        upper = self.conv in "EFGA"
        neg = math.copysign(1.0, f) < 0 and not math.isnan(f)   # NaN prints unsigned, as on the GPU
        sign = "-" if neg else ("+" if "+" in self.flags else (" " if " " in self.flags else ""))
        a = abs(f)
        if not math.isfinite(a):
            text = "nan" if math.isnan(a) else "inf"
            return sign, "", text.upper() if upper else text, False
        if self.conv in "aA":
            prefix, digits = _hex_float(a, self.precision, "#" in self.flags)
            return sign, (prefix.upper() if upper else prefix), (digits.upper() if upper else digits), True
        spec = "%" + ("#" if "#" in self.flags else "") + \
            ("" if self.precision is None else f".{self.precision}") + self.conv
        return sign, "", spec % a, True

    def _pad(self, sign: str, prefix: str, digits: str, zero_ok: bool) -> str:
        body = sign + prefix + digits
        if len(body) >= self.width:
            return body
        if "-" in self.flags:
            return body.ljust(self.width)
        if "0" in self.flags and zero_ok:
            return sign + prefix + digits.rjust(self.width - len(sign) - len(prefix), "0")
        return body.rjust(self.width)


def _hex_float(a: float, precision, alt: bool):
    """C's %a of a non-negative finite double: ('0x', '1.8p+1'); glibc's shortest form without precision."""
    if a == 0:
        lead, frac, exp = 0, 0, 0
    else:
        mant, exp = math.frexp(a)                 # a = mant * 2**exp, 0.5 <= mant < 1
        if exp < -1021:                            # subnormal: 0x0.xxxp-1022
            lead, frac, exp = 0, int(math.ldexp(a, 1074)), -1022
        else:
            bits = int(math.ldexp(mant, 53))          # 53 significant bits, the top one is the leading 1
            lead, frac, exp = 1, bits - (1 << 52), exp - 1
    hexdigits = f"{frac:013x}"
    if precision is None:
        hexdigits = hexdigits.rstrip("0")
    elif precision < 13:
        shift = 4 * (13 - precision)
        q, r = divmod((lead << 52) | frac, 1 << shift)   # ties to even, the leading digit included
        half = 1 << (shift - 1)
        if r > half or (r == half and q & 1):
            q += 1
        lead, q = q >> (4 * precision), q & ((1 << (4 * precision)) - 1)   # a carry may make it 2
        hexdigits = f"{q:0{precision}x}" if precision else ""
    else:
        hexdigits = hexdigits + "0" * (precision - 13)
    point = "." if hexdigits or alt else ""
    return "0x", f"{lead}{point}{hexdigits}p{exp:+d}"


def format_tile(values, conversion: CConversion) -> str:
    """A tile as cuTile prints it: nested lists, elements formatted by `conversion`, ', ' between."""
    if isinstance(values, list):
        return "[" + ", ".join(format_tile(v, conversion) for v in values) + "]"
    return conversion(values)


def printf_values(x, dtype):
    """Element values as printf receives them: bools and ints as integers, floats widened to double."""
    if dtype.is_bool:
        return x.astype(np.int64)
    if dtype.is_float:
        return to_float64(x, dtype)
    return x


def printed_lines(pieces, operands, dtypes, rows):
    """(row, text) per block row in `rows`: the pieces (text, or (operand index, printf spec))
    with each operand's tile for that block formatted."""
    convs = {i: CConversion(spec) for p in pieces if not isinstance(p, str) for i, spec in [p]}
    vals = [printf_values(x, dt) for x, dt in zip(operands, dtypes)]
    for b in rows:
        out = []
        for p in pieces:
            if isinstance(p, str):
                out.append(p)
            else:
                x = vals[p[0]]
                out.append(format_tile(x[b if x.shape[0] > 1 else 0].tolist(), convs[p[0]]))
        yield b, "".join(out)
