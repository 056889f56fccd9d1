"""`cuda.tile.compilation` names, so scripts that import them still load under tilescope."""
from ..meta import ConstantSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec  # noqa: F401


def ArrayConstraint(dtype, ndim, **facts):
    """A MetaTensor with `ndim` dynamic dimensions (upstream's ArrayConstraint equivalent)."""
    index_dtype = facts.get("index_dtype")
    kw = {"index_dtype": index_dtype} if index_dtype is not None else {}
    return MetaTensor((None,) * ndim, dtype, **kw)


def ScalarConstraint(dtype):
    return ScalarSpec(dtype)
