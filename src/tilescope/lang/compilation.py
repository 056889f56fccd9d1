"""`cuda.tile.compilation`: ahead-of-time compilation from any OS.

Signatures describe kernel parameters as upstream's do (`ArrayConstraint`, `ScalarConstraint`,
...); `export_kernel` compiles the kernel for each with tilescope's front end and writes
tilescope's own TileIR bytecode (or, where NVIDIA's `tileiras` is installed, a cubin). No GPU,
driver or CUDA toolkit is needed for bytecode.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any, Sequence, Tuple

from ..backends.numpy.launcher import _param_specs
from ..backends.tileir import find_toolchain, write_bytecode
from ..backends.tileir.ir import TModule
from ..compiler import compile as compile_kernel
from ..frontend.source import unwrap_tile_function
from .constraints import (ArrayConstraint, CallingConvention, ConstantConstraint, ConstantValue,  # noqa: F401
                          ListConstraint, ParameterConstraint, ScalarConstraint, TupleConstraint,
                          constraint_of_spec, to_constraint)
from .mangling import demangled_parts, mangle_kernel_name


@dataclass(frozen=True, init=False)
class KernelSignature:
    """The parameters a kernel is compiled for, its calling convention and its symbol."""
    parameters: Tuple[Any, ...]
    calling_convention: CallingConvention
    symbol: Any

    def __init__(self, parameters: Sequence[Any], calling_convention: CallingConvention, symbol=None):
        if symbol is not None and not isinstance(symbol, str):
            raise TypeError(f"`symbol` must be a string, got {type(symbol)}")
        if not isinstance(calling_convention, CallingConvention):
            raise TypeError(f"Unsupported calling convention {calling_convention}")
        object.__setattr__(self, "parameters", tuple(to_constraint(c) for c in parameters))
        object.__setattr__(self, "calling_convention", calling_convention)
        object.__setattr__(self, "symbol", symbol)

    def with_symbol(self, symbol) -> "KernelSignature":
        return replace(self, symbol=symbol)

    def with_mangled_symbol(self, function_name: str) -> "KernelSignature":
        return self.with_symbol(mangle_kernel_name(function_name, self))

    @staticmethod
    def from_kernel_args(kernel, kernel_args: Sequence[Any], calling_convention: CallingConvention, *,
                         symbol=None) -> "KernelSignature":
        """The signature a launch with these arguments compiles for (no GPU needed here)."""
        fn = unwrap_tile_function(kernel) or kernel
        specs, _ = _param_specs(fn, list(kernel_args))
        sig = KernelSignature([constraint_of_spec(s) for s in specs], calling_convention, symbol)
        return sig if symbol is not None else sig.with_mangled_symbol(fn.__name__)

    def to_specs(self) -> list:
        return [p.to_spec() for p in self.parameters]


def demangle_kernel_name(symbol: str) -> Tuple[str, KernelSignature]:
    """(function name, KernelSignature) of a mangled symbol; alias groups are named group0, group1..."""
    name, parameters, convention = demangled_parts(symbol)
    return name, KernelSignature(parameters, convention, symbol)


def export_kernel(kernel, signatures: Sequence[KernelSignature], output_file, *, gpu_code=None,
                  output_format: str, bytecode_version=None) -> None:
    """Compile `kernel` for each signature and write one TileIR bytecode module (or a cubin,
    through NVIDIA's tileiras, which must be installed) to `output_file` (a path or a binary file)."""
    if output_format not in ("cubin", "tileir_bytecode"):
        raise ValueError(f"Unknown output format '{output_format}'")
    if gpu_code is None and output_format != "tileir_bytecode":
        raise ValueError(f"gpu_code is required when output_format is '{output_format}'.")
    signatures = list(signatures)
    if not signatures:
        raise ValueError("export_kernel needs at least one signature")
    version = bytecode_version or "13.3"
    module = None
    for sig in signatures:
        if not isinstance(sig, KernelSignature):
            raise TypeError(f"Expected a KernelSignature, got {type(sig).__name__}")
        compiled = compile_kernel(kernel, sig.to_specs())
        part = compiled.tileir_module()
        if sig.symbol is not None:
            for fn in part.funcs:
                if fn.entry:
                    fn.name = sig.symbol
        module = part if module is None else TModule(module.name, module.funcs + part.funcs)
    data = write_bytecode(module, version)
    if output_format == "cubin":
        data = find_toolchain().assemble(data, gpu_code, where=getattr(kernel, "__name__", "kernel"))
    if isinstance(output_file, (str, bytes, os.PathLike)):
        with open(output_file, "wb") as f:
            f.write(data)
    else:
        output_file.write(data)


__all__ = ["ScalarConstraint", "ArrayConstraint", "ListConstraint", "TupleConstraint", "ConstantConstraint",
           "ParameterConstraint", "ConstantValue", "KernelSignature", "CallingConvention", "export_kernel",
           "mangle_kernel_name", "demangle_kernel_name"]
