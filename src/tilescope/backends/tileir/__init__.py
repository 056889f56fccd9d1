"""TileIR backend: lower tilescope's typed IR to the `cuda_tile` dialect (text, bytecode, cubin)."""
from .bytecode import BytecodeError, write_bytecode
from .bytecode_read import read_bytecode
from .hints import entry_hints, opt_level
from .lower import lower_function
from .symbols import mangle
from .text import normalize_names, print_module
from .toolchain import AssemblerError, ToolchainError, find_toolchain
from .versions import installed_version

__all__ = ["lower_function", "mangle", "print_module", "normalize_names", "write_bytecode", "read_bytecode",
           "find_toolchain", "installed_version", "assemble_module", "entry_hints", "opt_level", "BytecodeError",
           "ToolchainError", "AssemblerError", "compile_cubin"]


def compile_cubin(fn, gpu: str = "sm_90", version: str = "13.4", specs=None) -> bytes:
    """Typed-IR function -> cubin through tileiras (raises ToolchainError / AssemblerError)."""
    return assemble_module(lower_function(fn, specs=specs), fn, gpu, version)


def assemble_module(module, fn, gpu: str = "sm_90", version: str = "13.4", level: int = 3) -> bytes:
    """A lowered kernel -> bytecode -> cubin, with the flags upstream's launch passes tileiras."""
    bc = write_bytecode(module, version)
    where = f"{fn.loc.filename}:{fn.loc.line}: kernel '{fn.name}'" if fn.loc is not None else fn.name
    return find_toolchain().assemble(bc, gpu, where=where, opt_level=level)
