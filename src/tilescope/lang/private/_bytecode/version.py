"""`cuda.tile._bytecode.version`."""
from . import SUPPORTED_VERSIONS, BytecodeVersion, emulated_version  # noqa: F401
