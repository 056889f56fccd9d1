"""What the NumPy executor's launcher calls (it finds this module by name, so that the
executor does not import the backend built on it): the fast path for a launch like an
earlier compiled one, and the compiled run of a launch the executor has prepared."""
from .engine import launch
from .runner import fast_launch

__all__ = ["launch", "fast_launch"]
