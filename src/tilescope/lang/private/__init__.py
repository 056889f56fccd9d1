"""Modules standing for the private `cuda.tile._*` modules that public cuTile code imports.

Kernel libraries and test suites reach into upstream's private modules for host-side
helpers: dtype predicates (`_datatype`), enums (`_numeric_semantics`, `_memory_model`),
exception classes under their internal names (`_exception`), the device's compute
capability (`_cext`), the bytecode version (`_bytecode`). Each module here answers those
names with tilescope's objects; the shim maps the upstream names to them. Upstream's
compiler internals (`_ir`, `_passes`, `compile_tile`) have no counterpart on purpose.
"""
