"""`cuda.tile._numeric_semantics`: padding and rounding modes."""
from ...enums import PaddingMode, RoundingMode  # noqa: F401
