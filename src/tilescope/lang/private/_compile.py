"""`cuda.tile._compile`: the target architecture and bytecode version, as public code asks them."""
from ._bytecode import SUPPORTED_VERSIONS as _SUPPORTED_VERSIONS  # noqa: F401
from ._bytecode import BytecodeVersion, emulated_version
from ._cext import get_compute_capability


def format_sm_arch(capability) -> str:
    return f"sm_{capability[0]}{capability[1]}"


def get_sm_arch(*args, **kwargs) -> str:
    return format_sm_arch(get_compute_capability())


def _get_max_supported_bytecode_version(*args, **kwargs) -> BytecodeVersion:
    return emulated_version()


def parse_bytecode_version(text: str) -> BytecodeVersion:
    major, minor = (int(p) for p in str(text).split(".")[:2])
    return BytecodeVersion(major * 10000 + minor * 100)
