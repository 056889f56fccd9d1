"""`cuda.tile._cext`: the names public code imports from upstream's C extension."""
from ...devices.target import current
from ..compilation import CallingConvention  # noqa: F401
from ..kernel import launch  # noqa: F401


def get_compute_capability(device_id: int = 0):
    """The emulated GPU's (see tilescope.devices.target; TILESCOPE_GPU)."""
    return current().capability


def get_driver_version() -> int:
    return 13000


def _get_max_grid_size(device_id=0, /):
    return (2 ** 31 - 1, 65535, 65535)


def dev_features_enabled() -> bool:
    return False


def cconv_v3_enabled() -> bool:
    return False
