"""The `tilescope` command: check, ir (and the tools built on them)."""
from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from typing import List, Optional

from ..errors import Loc, TileError
from .session import Diagnostic, SourceFile, UsageError, compile_site, import_failure

STAGES = ("ast", "hir", "ir", "passes", "final", "tileir", "all")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tilescope", description="The cuTile toolchain in pure Python.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    c = sub.add_parser("check", help="type-check the kernels of a file")
    c.add_argument("file")
    c.add_argument("--kernel", help="check only this kernel")
    c.add_argument("--args", help='argument metadata, e.g. "f32[1024,?], i32, 64" (overrides directives)')
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.add_argument("--no-context", action="store_true", help="do not show the source line and caret")

    i = sub.add_parser("ir", help="print a compiler stage of a kernel")
    i.add_argument("file")
    i.add_argument("--kernel", help="the kernel (default: the only one, or the first)")
    i.add_argument("--args", help="argument metadata (default: the kernel's directive)")
    i.add_argument("--stage", choices=STAGES, default="final")
    i.add_argument("-o", "--output", help="with --stage all: a directory for one file per stage")
    i.add_argument("--diff", action="store_true", help="with --stage passes: show each pass as a diff")
    i.add_argument("--locations", action="store_true", help="annotate ops with source lines")
    t = sub.add_parser("transpile", help="write a kernel as a readable, standalone NumPy module")
    t.add_argument("file")
    t.add_argument("--kernel", help="the kernel (default: the only one, or the first)")
    t.add_argument("--args", help="argument metadata (default: the kernel's directive)")
    t.add_argument("-o", "--output", help="the module to write (default: standard output)")
    r = sub.add_parser("run", help="run a cuTile script with kernels executing on the CPU")
    r.add_argument("--check", default=None, metavar="LIST",
                   help="run-time checks: comma-separated bounds, races, poison (UNDETERMINED padding reaching a store), "
                        "uninit (elements of written arrays no block wrote), strict (stop at the first report), "
                        "all or none (default: bounds,races)")
    r.add_argument("--numerics", choices=("exact", "fast"), default=None,
                   help="exact: the GPU's rounding (default); fast: NumPy's own float32 arithmetic where exact "
                        "rounding is slow (fma, exp/log/…, half-precision matrix products), results may differ "
                        "in the last bits (sets TILESCOPE_NUMERICS)")
    r.add_argument("--record", action="store_true",
                   help="record every launch's argument metadata in .tilescope/signatures.json next to the kernel")
    r.add_argument("--block", metavar="X,Y,Z",
                   help="run only this block of every launch (sets TILESCOPE_BLOCK); breakpoint() "
                        "in a kernel then shows this block's variables")
    r.add_argument("--pdb", action="store_true",
                   help="open pdb at the first op of every kernel launch, with the kernel's "
                        "parameters in scope as NumPy values (sets TILESCOPE_PDB=1)")
    r.add_argument("--trace", metavar="DIR",
                   help="write DIR/NN-kernel/index.html per launch (and PNGs): which block read and wrote each "
                        "element, padding, out-of-bounds attempts, races, never-written elements")
    r.add_argument("--device", choices=("cpu", "gpu"), default="cpu",
                   help="gpu: launch tilescope-built cubins with CuPy (needs the 'gpu' extra; NumPy arrays are "
                        "copied to the device and back)")
    r.add_argument("--bundle", metavar="DIR",
                   help="with --device gpu: take cubins from this artifact bundle instead of compiling "
                        "(python -m tilescope.gpu.bundle build)")
    r.add_argument("script")
    r.add_argument("script_args", nargs=argparse.REMAINDER)
    k = sub.add_parser("compile", help="compile a kernel to TileIR text, bytecode or a cubin (via tileiras)")
    k.add_argument("file")
    k.add_argument("--kernel", help="the kernel (default: the only one, or the first)")
    k.add_argument("--args", help="argument metadata (default: the kernel's directive)")
    k.add_argument("--emit", choices=("tileir", "bytecode", "cubin"), default="tileir")
    k.add_argument("--gpu", default="sm_90", help="target for --emit cubin (default sm_90)")
    k.add_argument("--bytecode-version", default="13.3", help="13.1 .. 13.4 (default 13.3)")
    k.add_argument("-o", "--output", help="output file (default: standard output for tileir)")
    sub.add_parser("lsp", help="start the language server over stdio (needs the 'lsp' extra: pygls)")
    from .cost_cmd import add_parser as add_cost
    add_cost(sub)
    return p


def main(argv: Optional[List[str]] = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        if args.command == "check":
            return cmd_check(args)
        if args.command == "ir":
            return cmd_ir(args)
        if args.command == "transpile":
            return cmd_transpile(args)
        if args.command == "compile":
            return cmd_compile(args)
        if args.command == "cost":
            from .cost_cmd import cmd_cost
            _validate_args_text(args.args)
            return cmd_cost(args, _load_and_compile, _Failed)
        if args.command == "lsp":
            try:
                from .lsp.server import main as lsp_main
            except ImportError as e:
                raise UsageError(f"the language server needs pygls and lsprotocol "
                                 f"(pip install 'tilescope[lsp]'): {e}") from None
            return lsp_main()
        if args.command == "run":
            from .run_script import run_script
            if args.device == "gpu":
                from ..gpu.launcher import use_for_ct_launch
                use_for_ct_launch(args.bundle)
            elif args.bundle:
                raise UsageError("--bundle needs --device gpu")
            if args.trace is not None and args.device == "gpu":
                raise UsageError("--trace records the CPU executor's accesses: leave out --device gpu")
            return run_script(args.script, args.script_args, record=args.record, block=args.block,
                              pdb=args.pdb, check=args.check, numerics=args.numerics, trace=args.trace)
    except UsageError as e:
        print(f"tilescope {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    parser.print_help()
    return 2


def _validate_args_text(text: Optional[str]) -> None:
    if text is None:
        return
    from ..meta import parse_args
    try:
        parse_args(text)
    except ValueError as e:
        raise UsageError(f"bad --args: {e}") from None


def cmd_check(args) -> int:
    _validate_args_text(args.args)
    sf = SourceFile.read(args.file)
    diags: List[Diagnostic] = []
    checked = 0
    if sf.syntax_error is not None:
        e = sf.syntax_error
        diags.append(Diagnostic("error", e.kind, e.message, e.loc, error=e))
    else:
        sites = [s for s in sf.kernels if args.kernel in (None, s.name)]
        if args.kernel and not sites:
            raise UsageError(f"no kernel named '{args.kernel}' in {args.file} "
                             f"(kernels: {', '.join(s.name for s in sf.kernels) or 'none'})")
        try:
            sf.load()
        except TileError as e:
            diags.append(Diagnostic("error", e.kind, e.message, e.loc or Loc(sf.path, 1, 1), error=e))
            sites = []
        except BaseException as e:  # the user's module failed at import time
            if isinstance(e, (KeyboardInterrupt, SystemExit)) and not isinstance(e, SystemExit):
                raise
            diags.append(import_failure(sf.path, e))
            sites = []
        for site in sites:
            signatures = [args.args] if args.args else (site.signatures or _recorded(sf.path, site.name))
            if not signatures:
                diags.extend(_generic_check(sf, site))
                continue
            for sig in signatures:
                checked += 1
                _, d = compile_site(sf, site, sig)
                diags.extend(d)
    errors = [d for d in diags if d.severity == "error"]
    if args.format == "json":
        print(json.dumps({"file": args.file, "signatures_checked": checked,
                          "diagnostics": [d.to_json(args.file) for d in diags]}, indent=2))
    else:
        for d in diags:
            same = os.path.abspath(d.loc.filename) == os.path.abspath(args.file)
            print(d.format(context=not args.no_context, display_path=args.file if same else None))
        if not errors:
            print(f"{args.file}: ok ({checked} kernel signature{'s' if checked != 1 else ''} checked)")
    return 1 if errors else 0


def _recorded(path: str, kernel: str) -> List[str]:
    from ..signatures import recorded
    return recorded(path, kernel)


def _generic_check(sf: SourceFile, site) -> List[Diagnostic]:
    """Without argument metadata: syntax and supported-subset checks, and a note that types are unknown."""
    from ..frontend.source import function_hir
    from ..lang.kernel import unwrap_tile_function
    out = []
    kernel = getattr(sf.module, site.name, None)
    fn = unwrap_tile_function(kernel) or kernel
    try:
        function_hir(fn, is_entry=True)
    except TileError as e:
        out.append(Diagnostic("error", e.kind, e.message, e.loc, site.name, error=e))
        return out
    out.append(Diagnostic("note", "info", f"kernel '{site.name}' has no argument metadata: only syntax was "
                          f"checked; types are unknown (add '# tilescope: args ...' above it or pass --args)",
                          Loc(sf.path, site.line, site.col), site.name))
    return out


def _pick_signature(sf: SourceFile, args) -> tuple:
    if sf.syntax_error is not None:
        raise UsageError(sf.syntax_error.format(context=False))
    sites = sf.kernels
    if args.kernel:
        sites = [s for s in sites if s.name == args.kernel]
        if not sites:
            raise UsageError(f"no kernel named '{args.kernel}' in {args.file} "
                             f"(kernels: {', '.join(s.name for s in sf.kernels) or 'none'})")
    if not sites:
        raise UsageError(f"no @ct.kernel function in {args.file}")
    site = sites[0]
    recorded = _recorded(sf.path, site.name)
    sig = args.args or (site.signatures[0] if site.signatures else (recorded[-1] if recorded else None))
    if sig is None:
        raise UsageError(f"kernel '{site.name}' needs argument metadata: pass --args or add a "
                         f"'# tilescope: args ...' directive above it")
    return site, sig


def cmd_ir(args) -> int:
    _validate_args_text(args.args)
    sf = SourceFile.read(args.file)
    site, sig = _pick_signature(sf, args)
    try:
        sf.load()
    except TileError as e:
        print(e.format(), file=sys.stderr)
        return 1
    except Exception as e:
        print(import_failure(sf.path, e).format(), file=sys.stderr)
        return 1
    if args.stage in ("ast", "hir"):
        from ..frontend.source import function_ast, function_hir
        from ..lang.kernel import unwrap_tile_function
        kernel = getattr(sf.module, site.name)
        fn = unwrap_tile_function(kernel) or kernel
        try:
            if args.stage == "ast":
                import ast as _ast
                print(_ast.dump(function_ast(fn)[0], indent=2))
            else:
                from ..frontend.hir_printer import print_hir
                print(print_hir(function_hir(fn, is_entry=True), lines=args.locations), end="")
        except TileError as e:
            print(e.format(), file=sys.stderr)
            return 1
        return 0
    compiled, diags = compile_site(sf, site, sig)
    if compiled is None:
        for d in diags:
            print(d.format(), file=sys.stderr)
        return 1
    if args.stage == "tileir":
        try:
            text = compiled.tileir_text()
        except TileError as e:
            print(e.format(), file=sys.stderr)
            return 1
        _write(args.output, text)
        return 0
    texts = _stage_texts(compiled, args.locations)
    if args.stage == "all":
        if not args.output:
            raise UsageError("--stage all needs -o DIR")
        os.makedirs(args.output, exist_ok=True)
        for i, (name, text) in enumerate(texts):
            path = os.path.join(args.output, f"{i:02d}-{name}.txt")
            with open(path, "w") as f:
                f.write(text)
            print(path)
        return 0
    if args.stage == "passes":
        stages = [(n, t) for n, t in texts if n not in ("ast", "hir")]
        prev = None
        for name, text in stages:
            if args.diff and prev is not None:
                diff = difflib.unified_diff(prev[1].splitlines(True), text.splitlines(True),
                                            f"before {name}", f"after {name}")
                print(f"// ---- {name} ----")
                print("".join(diff) or "(no change)")
            else:
                print(f"// ---- {name} ----")
                print(text, end="")
            prev = (name, text)
        return 0
    text = dict(texts)[args.stage]
    _write(args.output, text)
    return 0


class _Failed(Exception):
    """The kernel could not be loaded or compiled; the diagnostics are already printed."""


def _load_and_compile(args):
    """(SourceFile, KernelSite, signature, Compiled) for the kernel and signature the arguments pick."""
    sf = SourceFile.read(args.file)
    site, sig = _pick_signature(sf, args)
    try:
        sf.load()
    except TileError as e:
        print(e.format(), file=sys.stderr)
        raise _Failed() from None
    except Exception as e:
        print(import_failure(sf.path, e).format(), file=sys.stderr)
        raise _Failed() from None
    compiled, diags = compile_site(sf, site, sig)
    if compiled is None:
        for d in diags:
            print(d.format(), file=sys.stderr)
        raise _Failed()
    return sf, site, sig, compiled


def cmd_transpile(args) -> int:
    _validate_args_text(args.args)
    try:
        sf, site, sig, compiled = _load_and_compile(args)
    except _Failed:
        return 1
    from ..backends.numpy.transpile import transpile
    try:
        text = transpile(compiled, os.path.basename(args.file), sig)
    except TileError as e:
        print(e.format(), file=sys.stderr)
        return 1
    try:
        _write(args.output, text)
    except OSError as e:
        raise UsageError(f"cannot write {args.output}: {e.strerror}") from None
    return 0


def _stage_texts(compiled, locations: bool):
    from ..ir.printer import print_function
    texts = [("ast", compiled.ast_text() + "\n"), ("hir", compiled.hir_text(lines=locations))]
    texts.append(("ir", print_function(compiled.ir, locations=locations) if locations else compiled.stages[0][1]))
    for name, text in compiled.stages[1:]:
        texts.append((name, text))
    texts.append(("final", compiled.final_text(locations=locations)))
    return texts


def cmd_compile(args) -> int:
    _validate_args_text(args.args)
    from ..backends.tileir import AssemblerError, BytecodeError, ToolchainError
    try:
        sf, site, sig, compiled = _load_and_compile(args)
    except _Failed:
        return 1
    try:
        if args.emit == "tileir":
            _write(args.output, compiled.tileir_text())
            return 0
        if not args.output:
            raise UsageError(f"--emit {args.emit} needs -o FILE")
        data = compiled.tileir_bytecode(args.bytecode_version) if args.emit == "bytecode" else \
            compiled.cubin(args.gpu, args.bytecode_version)
    except TileError as e:
        print(e.format(), file=sys.stderr)
        return 1
    except (BytecodeError, ToolchainError, AssemblerError) as e:
        print(f"tilescope compile: error: {e}", file=sys.stderr)
        return 1
    with open(args.output, "wb") as f:
        f.write(data)
    return 0


def _write(path: Optional[str], text: str) -> None:
    if path:
        with open(path, "w") as f:
            f.write(text)
    else:
        print(text, end="")
