"""`tilescope cost FILE --kernel K --args SPEC --grid G --gpu NAME`: the static cost model."""
from __future__ import annotations

import json
import re
import sys
from typing import Dict, Tuple, Union

from ..errors import TileError
from ..spec_syntax import parse_values as values_syntax
from .session import UsageError


def add_parser(sub) -> None:
    c = sub.add_parser("cost", help="predict a launch's time, bytes and FLOPs on a GPU from metadata alone")
    c.add_argument("file")
    c.add_argument("--kernel", help="the kernel (default: the only one, or the first)")
    c.add_argument("--args", help="argument metadata with the real sizes (default: the kernel's directive)")
    c.add_argument("--grid", help='the launch grid, e.g. "64,64" or "4096" (default: one block per tile of '
                                   'the arrays the kernel indexes with ct.bid)')
    c.add_argument("--values", metavar="NAME=V,...",
                   help="what the launch passes to runtime scalar parameters, e.g. \"seq_len=16384,window=4096\": "
                        "they stay runtime arguments in the build, and the model counts the loops they bound exactly; "
                        "also a value the kernel reads from memory, by its name in the source (\"n_routed=2\"): the "
                        "loops and branches it decides are counted at that value")
    c.add_argument("--gpu", default="h200", help="h100, h200, b200, a100, l40s or rtx4090 (default h200)")
    layout = c.add_mutually_exclusive_group()
    layout.add_argument("--aligned", action="store_true",
                        help="(the default) arrays whose metadata says nothing of their layout are taken as a "
                             "launch allocates them: 16-byte aligned, unit last stride, divisible sizes; tileiras "
                             "then builds vector loads and TMA copies, as for a real launch")
    layout.add_argument("--as-written", action="store_true",
                        help="keep the argument metadata exactly as written (the dynamically shaped build "
                             "`tilescope compile` shows for the same --args)")
    c.add_argument("--no-cubin", action="store_true",
                   help="estimate the block schedule from the IR even when tileiras is installed (by default "
                        "tileiras builds the cubin and the model reads threads, registers and spills from it)")
    c.add_argument("--format", choices=("text", "json"), default="text")


def parse_grid(text: str) -> Tuple[int, ...]:
    """"64,64", "64x64", "(4096,)": every axis given, none left empty ("4,x" is an error)."""
    body = text.strip().removeprefix("(").removesuffix(")").strip()
    body = body[:-1] if body.endswith(",") else body        # a one-axis tuple's trailing comma
    parts = re.split(r"[,x×]", body)
    try:
        grid = tuple(int(p) for p in parts)
    except ValueError:
        raise UsageError(f"bad --grid {text!r}: give 1 to 3 positive integers, e.g. 64,64") from None
    if not 1 <= len(grid) <= 3 or any(g < 1 for g in grid):
        raise UsageError(f"bad --grid {text!r}: give 1 to 3 positive integers, e.g. 64,64")
    return grid


def parse_values(text: str, what: str = "--values") -> Dict[str, Union[int, float, bool]]:
    """`--values` (or a `values` directive, `what`): comma-separated NAME=NUMBER pairs."""
    try:
        return values_syntax(text)
    except ValueError as e:
        raise UsageError(f"bad {what} {text!r}: {e}") from None


def _launchable(grid: Tuple[int, ...], what: str, normalize_grid) -> Tuple[int, ...]:
    """The grid, if a launch accepts it (CUDA's per-axis limits)."""
    try:
        normalize_grid(grid)
    except ValueError as e:
        raise UsageError(f"{what}: {e}") from None
    return grid


def cmd_cost(args, load_and_compile, failed) -> int:
    # start-up time: the CLI's parser imports this module
    from ..costmodel import cost_of_compiled, gpu_named, normalize_grid
    grid = _launchable(parse_grid(args.grid), f"bad --grid {args.grid!r}", normalize_grid) \
        if args.grid is not None else None
    try:
        gpu_named(args.gpu)
    except ValueError as e:
        raise UsageError(str(e)) from None
    values = parse_values(args.values) if args.values is not None else None
    try:
        _, site, signature, compiled = load_and_compile(args)
    except failed:
        return 1
    if values is None and args.args is None and site.values is not None:
        # the kernel's `# tilescope: values` line goes with its `args` directives
        values = parse_values(site.values, f"`# tilescope: values` directive (line {site.values_line})")
    if grid is None:
        from ..costmodel.grid import infer_grid          # start-up time (as above)
        grid = infer_grid(compiled.final)
        if grid is None:
            raise UsageError("cannot tell the grid from the kernel's tiles (each ct.bid axis it reads must "
                             "index a tile directly): pass --grid")
        if min(grid) < 1:
            raise UsageError(f"the grid inferred from the tiles indexed by ct.bid is {','.join(map(str, grid))} "
                             f"(an array the kernel tiles is empty), so nothing would run: pass --grid")
        _launchable(grid, f"the grid inferred from the tiles indexed by ct.bid ({','.join(map(str, grid))})",
                    normalize_grid)
        inferred = f"grid inferred from the tiles indexed by ct.bid: {','.join(map(str, grid))}"
    else:
        inferred = None
    try:
        report = cost_of_compiled(compiled, grid, args.gpu, aligned=not args.as_written,
                                  cubin=None if args.no_cubin else "auto", values=values)
    except ValueError as e:       # a --values name the kernel has no runtime scalar of
        raise UsageError(str(e)) from None
    except TileError as e:        # the build a launch of these sizes makes (aligned metadata) is rejected
        print(e.format(), file=sys.stderr)
        return 1
    # which metadata was costed, where --args did not say it (a directive, a recorded signature)
    where = {"directive": f"the directive on line {signature.line}", "recorded": "the latest recorded signature",
             "launch": "the launch site"}.get(signature.source)
    if args.format == "json":
        print(json.dumps({"args": signature.text, "args_from": signature.source, **report.to_json()}, indent=2))
    else:
        if where:
            print(f"args from {where}: {signature.text}")
        if inferred:          # (said after the report is made: an error goes out alone)
            print(inferred)
        print(report.text())
    return 0
