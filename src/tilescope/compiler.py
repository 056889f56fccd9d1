"""`tilescope.compile`: kernel + argument metadata → every compiler stage."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

from .annotations import array_annotation, is_constant_annotation, scalar_annotation
from .backends.tileir import assemble_module, entry_hints, lower_function, opt_level, print_module, write_bytecode
from .errors import TileError, TileInternalError, TileRecursionError
from .frontend.hir_printer import print_hir
from .frontend.source import SourceFunction, function_ast, unwrap_tile_function
from .ir.core import Function, clone_function
from .ir.primitive import PRIMITIVES
from .ir.printer import print_function
from .ir.verify import VerifyError, verify
from .kernel_hints import kernel_options
from .meta import ConstantSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec, arg_spec_of, parse_args
from .ops import load_all
from .ops.bridge import translate
from .passes.dce import dce
from .passes.fma import fma
from .passes.infer import Inference
from .pyeval import annotation_value
from .targets import DEFAULT_TARGET, KNOWN_TARGETS

PASSES: List[Tuple[str, Callable[[Function], Function]]] = [("fma", fma), ("dce", dce)]

# Verify the IR after inference and after every pass (ir/verify.py). The test suite turns it on
# (tests/conftest.py); it is off otherwise, as it adds about a quarter to compile time.
VERIFY_STAGES = False



@dataclass
class Compiled:
    """A kernel compiled for one argument signature, with every stage kept for inspection."""
    name: str
    pyfunc: Any
    args: List[Any]
    hir: Any
    ir: Function                              # typed IR straight out of inference
    stages: List[Tuple[str, str]] = field(default_factory=list)   # (stage name, text) after each pass
    final: Optional[Function] = None
    bindings: list = field(default_factory=list)
    target: Tuple[int, int] = (13, 4)         # the tileiras version its features were checked for
    options: dict = field(default_factory=dict)   # @ct.kernel compiler hints (num_ctas, occupancy, ...)

    def ast_text(self) -> str:
        node, _ = function_ast(self.pyfunc)
        return ast.dump(node, indent=2)

    def hir_text(self, *, lines: bool = False) -> str:
        return print_hir(self.hir, lines=lines)

    def ir_text(self, *, locations: bool = False) -> str:
        return self.stages[0][1] if not locations else print_function(self.ir, locations=True)

    def final_text(self, *, locations: bool = False) -> str:
        return print_function(self.final, locations=locations)

    def tileir_module(self, version: Optional[str] = None, gpu: Optional[str] = None):
        """The kernel lowered to TileIR for bytecode `version` (default: the one it was checked
        for) and, when given, one GPU (raises a located TileUnsupportedFeatureError if it cannot be)."""
        hints = entry_hints(self.options, version or self.target_text, gpu, self.final.loc)
        return lower_function(self.final, specs=self.args, hints=hints)

    def tileir_text(self) -> str:
        """TileIR as MLIR text, in the syntax `tileirdisasm` prints."""
        return print_module(self.tileir_module())

    def tileir_bytecode(self, version: Optional[str] = None) -> bytes:
        """TileIR bytecode (13.1-13.4; default: the version the kernel was checked for)."""
        version = version or self.target_text
        return write_bytecode(self.tileir_module(version), version)

    def cubin(self, gpu: str = "sm_90", version: Optional[str] = None) -> bytes:
        """A cubin from NVIDIA's tileiras (must be installed; see docs/tileir.md)."""
        version = version or self.target_text
        return assemble_module(self.tileir_module(version, gpu), self.final, gpu, version,
                               opt_level(self.options, gpu))

    @property
    def target_text(self) -> str:
        return f"{self.target[0]}.{self.target[1]}"

    def stored_types(self) -> List[str]:
        """Types of the stored values of every store-like op, in program order."""
        out = []
        for op in self.final.walk():
            if "stored_operand" not in PRIMITIVES[op.name].attrs:
                continue                 # not a store-like op
            stored = op.attrs["stored_operand"]
            if stored == "all":          # print: every operand is printed
                out.extend(str(v.type) for v in op.operands)
            elif op.operands:
                out.append(str(op.operands[stored].type))
        return out


def resolve_kernel(kernel) -> Tuple[Any, str]:
    """The Python function of a kernel object (ours, upstream's, or a plain function)."""
    if isinstance(kernel, SourceFunction):
        return kernel, kernel.__name__
    fn = unwrap_tile_function(kernel)
    if fn is None:
        fn = kernel
    if not callable(fn) or not hasattr(fn, "__code__"):
        raise TypeError(f"expected a cuTile kernel or Python function, got {type(kernel).__name__}")
    return fn, fn.__name__


def normalize_args(args: Union[str, Sequence[Any]]) -> List[Any]:
    """Argument metadata from a spec string, MetaTensors/specs, or real arrays and numbers."""
    if isinstance(args, str):
        return parse_args(args)
    out = []
    for a in args:
        if isinstance(a, (MetaTensor, ScalarSpec, ConstantSpec, TupleSpec, ListSpec)):
            out.append(a)
        elif isinstance(a, str):
            # In a list, a string is the spec of one argument ("f32[16]", "i32", "64").
            parsed = parse_args(a)
            if len(parsed) != 1:
                raise ValueError(f"argument spec {a!r} describes {len(parsed)} arguments, expected one")
            out.append(parsed[0])
        else:
            out.append(arg_spec_of(a))
    return out


def compile(kernel, args, *, tileiras_version: Optional[str] = None, trust: bool = False) -> Compiled:
    """Compile `kernel` for `args` (a spec string like "f32[1024], i32, 16", specs, or real values).

    `tileiras_version` ("13.3", "13.4") is the assembler version whose features are allowed, as
    upstream gates them on its target's; default TILESCOPE_TILEIRAS_VERSION, else the newest
    version tilescope knows (a type check and a CPU run need no assembler).
    `trust=True` evaluates compile-time Python (static_eval...) as ordinary Python, running the
    user's code; by default tilescope.pyeval evaluates it without running any.
    Raises a located `TileError` for problems in the kernel.
    """
    load_all()
    fn, name = resolve_kernel(kernel)
    if getattr(fn, "hint_error", None) is not None:
        raise fn.hint_error           # a bad `@ct.kernel(...)` hint, read from source
    specs = _apply_annotations(fn, normalize_args(_constants_by_annotation(fn, args)))
    bindings: list = []
    target = _parse_version(tileiras_version)
    inference = Inference(bindings=bindings, target_version=target)
    inference.trust = trust
    try:
        ir = inference.infer_kernel(fn, specs, name)
    except TileError:
        raise
    except RecursionError:
        raise TileRecursionError("Maximum recursion depth reached while compiling", inference.loc) from None
    except Exception as ex:
        # A bug in tilescope: report it located, naming what failed, never as a bare traceback.
        raise TileInternalError(f"internal error while compiling '{name}': {type(ex).__name__}: {ex}",
                                inference.loc) from ex
    hir = ir.hir
    compiled = Compiled(name, fn, specs, hir, ir, bindings=bindings, target=target or DEFAULT_TARGET,
                        options=kernel_options(kernel))
    _verified(ir, "inference")
    compiled.stages.append(("ir", print_function(ir)))
    current = clone_function(ir)
    for pass_name, pass_fn in PASSES:
        current = _verified(pass_fn(current), f"the {pass_name} pass")
        compiled.stages.append((pass_name, print_function(current)))
    compiled.final = current
    _raise_missing_lowering(current)
    return compiled


def _verified(fn: Function, stage: str) -> Function:
    """`fn` once the verifier accepts it (when VERIFY_STAGES): broken IR out of a stage is a bug
    in tilescope."""
    if not VERIFY_STAGES:
        return fn
    try:
        verify(fn)
    except VerifyError as e:
        raise TileInternalError(f"internal error: {stage} made invalid IR for '{fn.name}': {e}",
                                e.op.loc if e.op is not None else fn.loc) from e
    return fn


def _raise_missing_lowering(fn: Function) -> None:
    """Live ops that upstream types but cannot lower (attr `no_lowering`) fail as upstream does."""
    for op in fn.walk():
        message = op.attrs.get("no_lowering")
        if message:
            raise TileInternalError(message, op.loc)


def _parse_version(text: Optional[str]):
    import os
    text = text or os.environ.get("TILESCOPE_TILEIRAS_VERSION")
    if not text:
        return None
    try:
        major, minor = (int(p) for p in str(text).split("."))
    except ValueError:
        raise ValueError(f"tileiras version must look like '13.4', got {text!r}") from None
    if (major, minor) not in KNOWN_TARGETS:
        known = ", ".join(f"{a}.{b}" for a, b in KNOWN_TARGETS)
        raise ValueError(f"tileiras version {text!r} is not one tilescope knows ({known})")
    return major, minor


def parameter_names(fn) -> Optional[List[str]]:
    """The parameter names of a kernel's Python function (or of one read from source), in order;
    None where Python cannot tell them."""
    if isinstance(fn, SourceFunction):
        return [a.arg for a in fn.node.args.args]
    import inspect
    try:
        return list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return None


def _constants_by_annotation(fn, args):
    """In a list of real values, arguments of `ct.Constant` parameters are compile-time constants
    (as at launch); other Python numbers are run-time scalars. Spec strings are left alone."""
    if isinstance(args, str):
        return args
    names = parameter_names(fn)
    if names is None:
        return args
    hints = getattr(fn, "__annotations__", {}) or {}
    out = []
    for i, a in enumerate(args):
        ann = hints.get(names[i]) if i < len(names) else None
        if isinstance(ann, str):
            ann = _annotation(fn, ann)
        spec_like = isinstance(a, (MetaTensor, ScalarSpec, ConstantSpec, TupleSpec, ListSpec, str))
        if not spec_like and is_constant_annotation(ann):
            a = ConstantSpec(a)
        out.append(a)
    return out


def _annotation(fn, text: str) -> Any:
    """A string annotation's value, by the restricted evaluator (None when it needs running code)."""
    code = getattr(fn, "__code__", None)
    filename = code.co_filename if code is not None else getattr(fn, "filename", "<annotation>")
    return annotation_value(text, getattr(fn, "__globals__", {}), filename)


def _apply_annotations(fn, specs: List[Any]) -> List[Any]:
    """Constant-annotated parameters given as run-time scalars from real values become constants."""
    import inspect
    if isinstance(fn, SourceFunction):
        return specs
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return specs
    hints = getattr(fn, "__annotations__", {}) or {}
    out = []
    for i, spec in enumerate(specs):
        p = params[i] if i < len(params) else None
        ann = hints.get(p.name) if p is not None else None
        if isinstance(ann, str):
            ann = _annotation(fn, ann)
        if isinstance(spec, ScalarSpec) and getattr(spec, "value", None) is not None and is_constant_annotation(ann):
            spec = ConstantSpec(spec.value)
        sa = scalar_annotation(ann)
        if isinstance(spec, ScalarSpec) and sa is not None:
            spec = ScalarSpec(translate(sa.dtype))
        aa = array_annotation(ann)
        if isinstance(spec, MetaTensor) and aa is not None:
            spec = spec.replace(index_dtype=translate(aa.index_dtype))
        out.append(spec)
    return out
