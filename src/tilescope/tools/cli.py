"""The `tilescope` command line.

Each command has a parser entry in `_parser()` and a handler in `COMMANDS`. Commands that
read a kernel file (`READING_COMMANDS`) read it from source unless asked to import it, and
then run in a separate limited process (tools/isolation.py). User errors leave as exit 2
(`UsageError`, one line) or 1 (diagnostics).
"""
from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import sys
from typing import List, Optional

from ..devices import activate as activate_device_layer    # (import hooks only: nothing heavy)
from ..errors import Loc, TileError
from ..targets import KNOWN_TARGETS
from .session import (Diagnostic, LocatedUsageError, Signature, SourceFile, UsageError, check_source_path,
                      compile_site, import_failure)

STAGES = ("ast", "hir", "ir", "passes", "final", "tileir", "all")
# Commands that read a kernel file: by default from its source, nothing executed.
READING_COMMANDS = ("check", "ir", "transpile", "compile", "cost")
ENV_TRUST = "TILESCOPE_TRUST"


def _reading_options(p: argparse.ArgumentParser) -> None:
    from .isolation import DEFAULT_MEMORY_MB, DEFAULT_SECONDS  # start-up time: each command loads what it runs
    g = p.add_argument_group("reading the file (by default from its source: nothing of it runs)")
    g.add_argument("--import", dest="import_module", action="store_true",
                   help="import the module instead, running its top-level code (for kernels that only exist "
                        "once it has run), in a separate process limited by --time-limit and --memory-limit")
    g.add_argument("--trust", action="store_true",
                   help="also evaluate compile-time Python (static_eval...) as ordinary Python (implies --import)")
    g.add_argument("--time-limit", type=_positive_number, default=DEFAULT_SECONDS, metavar="SECONDS",
                   help=f"with --import/--trust: stop after this long (default {DEFAULT_SECONDS:g})")
    g.add_argument("--memory-limit", type=_positive_number, default=DEFAULT_MEMORY_MB, metavar="MIB",
                   help=f"with --import/--trust: address-space limit of the process (default {DEFAULT_MEMORY_MB})")
    g.add_argument("--isolated", action="store_true", help=argparse.SUPPRESS)


def _positive_number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number, got '{text}'") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number, got '{text}'")
    return value


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
                   help="run-time checks: comma-separated bounds, races, poison (UNDETERMINED padding "
                        "reaching a store or an atomic), uninit (elements of written arrays no block wrote), "
                        "strict (stop at the first report), all or none (default: bounds,races)")
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
    r.add_argument("--trust", action="store_true",
                   help="evaluate the kernels' compile-time Python (static_eval...) as ordinary Python rather than "
                        "with tilescope's restricted evaluator (sets TILESCOPE_TRUST=1)")
    r.add_argument("--bundle", metavar="DIR",
                   help="with --device gpu: take cubins from this artifact bundle instead of compiling "
                        "(python -m tilescope.gpu.bundle build)")
    r.add_argument("-m", dest="module", metavar="MODULE",
                   help="run a library module as a script, like python -m (e.g. -m pytest tests/); "
                        "the arguments after it are the module's")
    r.add_argument("script", nargs="?")
    r.add_argument("script_args", nargs=argparse.REMAINDER)
    k = sub.add_parser("compile", help="compile a kernel to TileIR text, bytecode or a cubin (via tileiras)")
    k.add_argument("file")
    k.add_argument("--kernel", help="the kernel (default: the only one, or the first)")
    k.add_argument("--args", help="argument metadata (default: the kernel's directive)")
    k.add_argument("--emit", choices=("tileir", "bytecode", "cubin"), default="tileir")
    k.add_argument("--gpu", default="sm_90", help="target for --emit cubin (default sm_90)")
    k.add_argument("--bytecode-version", help="13.1 .. 13.4: the target tileiras version, which gates features "
                                              "(default: the newest the installed tileiras reads, else 13.4)")
    k.add_argument("-o", "--output", help="output file (default: standard output for tileir)")
    sub.add_parser("lsp", help="start the language server over stdio (needs the 'lsp' extra: pygls)")
    o = sub.add_parser("ops", help="print every IR op and which backends have a rule for it")
    o.add_argument("--format", choices=("text", "json"), default="text")
    from .cost_cmd import add_parser as add_cost  # start-up time: each command loads what it runs
    add_cost(sub)
    for parser in (c, i, t, k, sub.choices["cost"]):
        _reading_options(parser)
    return p


def _split_run_module(argv: List[str]):
    """`run [OPTIONS] -m MODULE ARGS...`: everything after MODULE belongs to the module."""
    if argv[:1] != ["run"]:
        return argv, None
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        if argv[i] == "-m":
            return argv[:i + 2], argv[i + 2:]
        if argv[i] in _RUN_VALUE_OPTIONS:
            i += 1
        i += 1
    return argv, None               # a script comes first: any later -m is the script's


_RUN_VALUE_OPTIONS = ("--check", "--numerics", "--block", "--device", "--bundle", "--trace")


def main(argv: Optional[List[str]] = None) -> int:
    parser = _parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    parsed_argv, module_args = _split_run_module(argv)
    try:
        args = parser.parse_args(parsed_argv)
    except SystemExit as e:          # argparse: bad usage (2) or --help (0)
        return e.code if isinstance(e.code, int) else 2
    if module_args is not None:
        args.script_args = module_args
    if args.command is None:
        parser.print_help(sys.stderr)
        print("tilescope: error: a command is needed", file=sys.stderr)
        return 2
    if args.command in READING_COMMANDS and (args.import_module or args.trust):
        args.import_module = True
        if not args.isolated:
            return _run_isolated(args, argv)
        # The module's GPU host code (`import cupy`, `device="cuda"` tensors at module level) imports as
        # under `tilescope run`; only metadata is read from it.
        activate_device_layer()
    try:
        return _dispatch(args)
    except LocatedUsageError as e:
        print(e, file=sys.stderr)
        return 2
    except UsageError as e:
        print(f"tilescope {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"tilescope {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:          # `tilescope ir ... | head`
        return 0


def _dispatch(args) -> int:
    handler = COMMANDS.get(args.command)
    if handler is None:
        raise UsageError(f"unknown command '{args.command}'")
    return handler(args)


def cmd_cost(args) -> int:
    from .cost_cmd import cmd_cost as cost  # start-up time: each command loads what it runs
    _validate_args_text(args.args)
    return cost(args, _load_and_compile, _Failed)


def cmd_ops(args) -> int:
    from . import ops_table  # start-up time: each command loads what it runs
    sys.stdout.write(ops_table.render_json() if args.format == "json" else ops_table.render_text())
    return 0


def cmd_lsp(args) -> int:
    try:
        from .lsp.server import main as lsp_main  # start-up time: each command loads what it runs
    except ImportError as e:
        raise UsageError(f"the language server needs pygls and lsprotocol "
                         f"(pip install 'tilescope[lsp]'): {e}") from None
    return lsp_main()


def _run_isolated(args, argv: List[str]) -> int:
    """--import/--trust: the same command in a separate, time- and memory-limited process."""
    from .isolation import describe, run_isolated  # start-up time: each command loads what it runs
    try:
        outcome = run_isolated(argv + ["--isolated"], seconds=args.time_limit, memory_mb=int(args.memory_limit))
    except KeyboardInterrupt:
        print(f"tilescope {args.command}: interrupted", file=sys.stderr)
        return 130
    problem = describe(outcome, f"importing {args.file}", args.time_limit, int(args.memory_limit))
    if problem is not None:
        print(f"{args.file}:1:1: error: {problem}", file=sys.stderr)
        return 1
    return outcome.returncode


def cmd_run(args) -> int:
    if (args.module is None) == (args.script is None):
        raise UsageError("give a SCRIPT or -m MODULE")
    if args.module is None:
        _check_script(args.script)
    if args.trace is not None and args.device == "gpu":
        raise UsageError("--trace records the CPU executor's accesses: leave out --device gpu")
    if args.trace is not None:
        _check_trace_folder(args.trace)
    from .run_script import run_script  # start-up time: each command loads what it runs
    if args.device == "gpu":
        import importlib.util
        if importlib.util.find_spec("cupy") is None:
            raise UsageError("--device gpu needs CuPy (pip install 'tilescope[gpu]')")
        from ..gpu.launcher import use_for_ct_launch  # start-up time: each command loads what it runs
        use_for_ct_launch(args.bundle)
    elif args.bundle:
        raise UsageError("--bundle needs --device gpu")
    if args.trust:
        os.environ[ENV_TRUST] = "1"
    try:
        return run_script(args.module or args.script, args.script_args, record=args.record, block=args.block,
                          pdb=args.pdb, check=args.check, numerics=args.numerics, trace=args.trace,
                          module=args.module is not None, devices=args.device == "cpu")
    except (UsageError, KeyboardInterrupt):
        raise
    except Exception as e:       # the script's own error: its traceback, as Python shows it
        from .run_script import _print_user_traceback  # start-up time: each command loads what it runs
        _print_user_traceback(e)
        print(f"{type(e).__name__}: {e}" if str(e) else type(e).__name__, file=sys.stderr)
        return 1


def _check_trace_folder(folder: str) -> None:
    """--trace DIR: a folder that exists or can be made, and can be written (checked before the script runs)."""
    if not folder.strip():
        raise UsageError("--trace needs a folder to write the pages to")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise UsageError(f"--trace {folder}: exists and is not a folder")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise UsageError(f"--trace {folder}: cannot make the folder: {e.strerror or e}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"--trace {folder}: permission denied")


def _check_script(path: str) -> None:
    """A script `run` can start: an existing, readable Python source file that compiles."""
    check_source_path(path, "a Python script")
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise UsageError(f"{path}: {e.strerror}") from None
    if b"\x00" in raw:
        raise UsageError(f"{path}: not a Python script (it contains NUL bytes)")
    try:
        compile(raw, path, "exec", dont_inherit=True)     # parses only; nothing runs
    except SyntaxError as e:
        raise UsageError(f"{path}:{e.lineno or 1}:{e.offset or 1}: SyntaxError: {e.msg}") from None
    except (ValueError, RecursionError, MemoryError) as e:
        raise UsageError(f"{path}: cannot be parsed: {e}") from None


def _validate_args_text(text: Optional[str]) -> None:
    if text is None:
        return
    from ..meta import parse_args  # start-up time: each command loads what it runs
    try:
        parse_args(text)
    except ValueError as e:
        raise UsageError(f"bad --args: {e}") from None
    except (RecursionError, MemoryError):
        raise UsageError("bad --args: nested too deeply") from None


def cmd_check(args) -> int:
    _validate_args_text(args.args)
    sf = SourceFile.read(args.file)
    diags: List[Diagnostic] = []
    checked = unchecked = 0
    if sf.syntax_error is not None:
        e = sf.syntax_error
        diags.append(Diagnostic("error", e.kind, e.message, e.loc, error=e))
    else:
        sites = [s for s in sf.kernels if args.kernel in (None, s.name)]
        if args.kernel and not sites and not args.import_module:
            raise UsageError(_no_kernel(sf, args))
        loaded = _load(sf, args, diags)
        sites = [s for s in sf.kernels if args.kernel in (None, s.name)] if loaded else []
        if loaded and args.kernel and not sites:
            raise UsageError(_no_kernel(sf, args))
        for site in sites:
            signatures = [Signature(args.args, args.args)] if args.args else sf.signatures(site)
            if not signatures:
                diags.extend(_generic_check(sf, site))
                continue
            for sig in signatures:
                _, d = compile_site(sf, site, sig, trust=args.trust)
                diags.extend(d)
                if any(x.kind == "unknown" for x in d):
                    unchecked += 1
                else:
                    checked += 1
    errors = [d for d in diags if d.severity == "error"]
    if args.format == "json":
        print(json.dumps({"file": args.file, "signatures_checked": checked, "signatures_unchecked": unchecked,
                          "diagnostics": [d.to_json(args.file) for d in diags]}, indent=2))
    else:
        for d in diags:
            same = os.path.abspath(d.loc.filename) == os.path.abspath(args.file)
            print(d.format(context=not args.no_context, display_path=args.file if same else None))
        if not errors:
            more = f"; {unchecked} need --import" if unchecked else ""
            print(f"{args.file}: ok ({checked} kernel signature{'s' if checked != 1 else ''} checked{more})")
    return 1 if errors else 0


def _no_kernel(sf: SourceFile, args) -> str:
    names = ", ".join(s.name for s in sf.kernels) or "none"
    plain = [n for n in (sf.tree.body if sf.tree is not None else [])
             if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == args.kernel]
    if plain:        # a helper or a @ct.function: say so rather than "no such name"
        return (f"{args.file}:{plain[0].lineno}: '{args.kernel}' is not a @ct.kernel function; only kernels "
                f"are launched (kernels: {names})")
    hint = "" if args.import_module else " (a kernel made when the module runs needs --import)"
    return f"no kernel named '{args.kernel}' in {args.file} (kernels: {names}){hint}"


def _load(sf: SourceFile, args, diags: List[Diagnostic]) -> bool:
    """Read (or with --import, import) the file; a failure becomes a diagnostic."""
    try:
        sf.load(import_module=args.import_module)
        return True
    except TileError as e:
        diags.append(Diagnostic("error", e.kind, e.message, e.loc or Loc(sf.path, 1, 1), error=e))
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # the user's module failed while it was imported (SystemExit included)
        diags.append(import_failure(sf.path, e))
    return False


def _generic_check(sf: SourceFile, site) -> List[Diagnostic]:
    """Without argument metadata: syntax and supported-subset checks, and a note that types are unknown."""
    from ..frontend.source import function_hir  # start-up time: each command loads what it runs
    from ..lang.kernel import unwrap_tile_function  # start-up time: each command loads what it runs
    out = []
    kernel = sf.kernel(site.name, site.line)
    if kernel is None:           # a kernel a factory function makes: it exists once that function runs
        return [Diagnostic("note", "info", f"kernel '{site.name}' is defined inside a function: tilescope reads "
                           f"kernels defined at module level, so it was not checked",
                           Loc(sf.path, site.line, site.col), site.name)]
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
        raise LocatedUsageError(sf.syntax_error.format(context=False))
    sites = sf.kernels
    if args.kernel:
        sites = [s for s in sites if s.name == args.kernel]
        if not sites:
            raise UsageError(_no_kernel(sf, args))
    if not sites:
        hint = "" if args.import_module else " (a kernel made when the module runs needs --import)"
        raise UsageError(f"no @ct.kernel function in {args.file}{hint}")
    site = sites[0]
    if args.args:
        return site, Signature(args.args, args.args)
    found = sf.signatures(site)
    if not found:
        raise UsageError(f"kernel '{site.name}' needs argument metadata: pass --args or add a "
                         f"'# tilescope: args ...' directive above it")
    # The first directive, else the most recent recorded signature, else the first launch site.
    return site, found[-1] if found[0].source == "recorded" else found[0]


class _Failed(Exception):
    """The kernel could not be loaded or compiled; the diagnostics are already printed."""


def _load_and_compile(args, *, stage: Optional[str] = None, tileiras_version: Optional[str] = None):
    """(SourceFile, KernelSite, Signature, Compiled) for the kernel and signature the arguments
    pick; with `stage` "ast" or "hir", Compiled is None (nothing is typed)."""
    sf = SourceFile.read(args.file)
    if sf.syntax_error is not None:
        raise LocatedUsageError(sf.syntax_error.format(context=False))
    diags: List[Diagnostic] = []
    if not _load(sf, args, diags):
        for d in diags:
            print(d.format(), file=sys.stderr)
        raise _Failed()
    site, sig = _pick_signature(sf, args)
    if stage in ("ast", "hir"):
        return sf, site, sig, None
    compiled, diags = compile_site(sf, site, sig, trust=args.trust, tileiras_version=tileiras_version)
    if compiled is None:
        for d in diags:
            print(d.format(), file=sys.stderr)
        raise _Failed()
    return sf, site, sig, compiled


def cmd_ir(args) -> int:
    _validate_args_text(args.args)
    if args.stage == "all" and not args.output:
        raise UsageError("--stage all needs -o DIR")
    try:
        sf, site, sig, compiled = _load_and_compile(args, stage=args.stage)
    except _Failed:
        return 1
    if args.stage in ("ast", "hir"):
        from ..frontend.source import function_ast, function_hir  # start-up time: each command loads what it runs
        from ..lang.kernel import unwrap_tile_function  # start-up time: each command loads what it runs
        kernel = sf.kernel(site.name, site.line)
        fn = unwrap_tile_function(kernel) or kernel
        try:
            if args.stage == "ast":
                import ast as _ast
                text = _ast.dump(function_ast(fn)[0], indent=2) + "\n"
            else:
                from ..frontend.hir_printer import print_hir  # start-up time: each command loads what it runs
                text = print_hir(function_hir(fn, is_entry=True), lines=args.locations)
        except TileError as e:
            print(e.format(), file=sys.stderr)
            return 1
        _write(args.output, text)
        return 0
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
        _write_stages(args.output, texts)
        return 0
    if args.stage == "passes":
        stages = [(n, t) for n, t in texts if n not in ("ast", "hir")]
        prev = None
        out = []
        for name, text in stages:
            out.append(f"// ---- {name} ----\n")
            if args.diff and prev is not None:
                diff = difflib.unified_diff(prev[1].splitlines(True), text.splitlines(True),
                                            f"before {name}", f"after {name}")
                out.append(("".join(diff) or "(no change)") + "\n")
            else:
                out.append(text)
            prev = (name, text)
        _write(args.output, "".join(out))
        return 0
    _write(args.output, dict(texts)[args.stage])
    return 0


def _write_stages(directory: str, texts) -> None:
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise UsageError(f"-o {directory}: exists and is not a directory")
    try:
        os.makedirs(directory, exist_ok=True)
        for i, (name, text) in enumerate(texts):
            path = os.path.join(directory, f"{i:02d}-{name}.txt")
            with open(path, "w") as f:
                f.write(text)
            print(path)
    except OSError as e:
        raise UsageError(f"cannot write to {directory}: {e.strerror or e}") from None


def cmd_transpile(args) -> int:
    _validate_args_text(args.args)
    try:
        sf, site, sig, compiled = _load_and_compile(args)
    except _Failed:
        return 1
    from ..backends.numpy.transpile import transpile  # start-up time: each command loads what it runs
    try:
        text = transpile(compiled, os.path.basename(args.file), sig)
    except TileError as e:
        print(e.format(), file=sys.stderr)
        return 1
    _write(args.output, text)
    return 0


def _stage_texts(compiled, locations: bool):
    from ..ir.printer import print_function  # start-up time: each command loads what it runs
    texts = [("ast", compiled.ast_text() + "\n"), ("hir", compiled.hir_text(lines=locations))]
    texts.append(("ir", print_function(compiled.ir, locations=locations) if locations else compiled.stages[0][1]))
    for name, text in compiled.stages[1:]:
        texts.append((name, text))
    texts.append(("final", compiled.final_text(locations=locations)))
    return texts


def cmd_compile(args) -> int:
    _validate_args_text(args.args)
    version = _bytecode_version(args.bytecode_version)
    # start-up time: each command loads what it runs
    from ..backends.tileir import AssemblerError, BytecodeError, ToolchainError
    if args.emit != "tileir" and not args.output:
        raise UsageError(f"--emit {args.emit} needs -o FILE")
    _check_writable(args.output)
    try:
        sf, site, sig, compiled = _load_and_compile(args, tileiras_version=version)
    except _Failed:
        return 1
    try:
        if args.emit == "tileir":
            _write(args.output, compiled.tileir_text())
            return 0
        data = compiled.tileir_bytecode(version) if args.emit == "bytecode" else \
            compiled.cubin(args.gpu, version)
    except TileError as e:
        print(e.format(), file=sys.stderr)
        return 1
    except (BytecodeError, ToolchainError, AssemblerError) as e:
        print(f"tilescope compile: error: {e}", file=sys.stderr)
        return 1
    _write(args.output, data)
    return 0


def _bytecode_version(text: Optional[str]) -> str:
    """`--bytecode-version` (the target, which gates features), else the newest version the installed
    tileiras reads, else the newest tilescope knows."""
    if text is None:
        from ..backends.tileir import installed_version  # start-up time: each command loads what it runs
        return installed_version() or "%d.%d" % KNOWN_TARGETS[-1]
    supported = [f"{a}.{b}" for a, b in KNOWN_TARGETS]
    if text not in supported:
        raise UsageError(f"--bytecode-version must be one of {', '.join(supported)}, got '{text}'")
    return text


def _check_writable(path: Optional[str]) -> None:
    """Fail before compiling when -o cannot be written (missing folder, a directory, no permission)."""
    if not path:
        return
    if os.path.isdir(path):
        raise UsageError(f"-o {path}: is a directory")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"-o {path}: no such directory {folder}")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise UsageError(f"-o {path}: permission denied")


def _write(path: Optional[str], data) -> None:
    """Write text or bytes to `path`, or text to standard output; an unwritable path is a usage error."""
    if not path:
        print(data, end="")
        return
    _check_writable(path)
    try:
        with open(path, "wb" if isinstance(data, bytes) else "w") as f:
            f.write(data)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}") from None


COMMANDS = {"check": cmd_check, "ir": cmd_ir, "transpile": cmd_transpile, "compile": cmd_compile,
            "cost": cmd_cost, "run": cmd_run, "lsp": cmd_lsp, "ops": cmd_ops}
