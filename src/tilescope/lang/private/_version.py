"""`cuda.tile._version`: the cuda.tile release whose surface tilescope implements."""
from .. import __version__  # noqa: F401
