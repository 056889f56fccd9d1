"""Structured control flow: `if`, `for`, `loop` (while) and the terminators of their blocks.

Inference emits these ops itself (from Python `if`/`for`/`while`/`break`/`continue`/`return`);
no `cuda.tile` function does. Running them is each backend walker's own business (masks and
frames on the CPU, regions in TileIR), so their rules hand the op to the walker.
"""
from __future__ import annotations

from ..ir.primitive import TypingError
from .common import no_results
from .registry import no_rule, primitive

IF = primitive("if", "Run block 0 where the bool scalar operand holds, else block 1; each block ends in "
                     "`yield` of the results.", operands=("cond",), results="*", blocks=2,
               traits=("structured", "side_effects"))
FOR = primitive("for", "for iv in range(start, stop, step): the block takes (iv, *carried) and ends in "
                       "`continue` (next iteration's carried values) or `break`; results: the carried "
                       "values at exit.", operands=("start", "stop", "step", "*init"), results="*", blocks=1,
                traits=("structured", "side_effects"))
LOOP = primitive("loop", "A while loop: the block takes the carried values and ends in `continue` or "
                         "`break` (whose values are the results).", operands=("*init",), results="*",
                 blocks=1, traits=("structured", "side_effects"))
YIELD = primitive("yield", "End an `if` branch (or a combiner block) with its values.", operands=("*values",),
                  results=0, traits=("terminator", "side_effects"))
CONTINUE = primitive("continue", "Next iteration of the innermost loop, with its carried values.",
                     operands=("*values",), results=0, traits=("terminator", "side_effects"))
BREAK = primitive("break", "Leave the innermost loop, with its results.", operands=("*values",), results=0,
                  traits=("terminator", "side_effects"))
RETURN = primitive("return", "Leave the kernel (for this block).", operands=("*values",), results=0,
                   traits=("terminator", "side_effects"))


# The walkers' own methods (Executor and KernelWriter) run these ops.
IF.numpy(lambda ex, op: ex.run_if(op))
FOR.numpy(lambda ex, op: ex.run_for(op))
LOOP.numpy(lambda ex, op: ex.run_loop(op))
YIELD.numpy(lambda ex, op: ex.read_yield(op))
CONTINUE.numpy(lambda ex, op: ex.leave_loop(op))
BREAK.numpy(lambda ex, op: ex.leave_loop(op))
RETURN.numpy(lambda ex, op: ex.return_(op))

IF.transpile(lambda w, op: w.if_(op))
FOR.transpile(lambda w, op: w.for_(op))
LOOP.transpile(lambda w, op: w.while_(op))
YIELD.transpile(lambda w, op: w.yield_(op))
CONTINUE.transpile(lambda w, op: w.loop_exit(op))
BREAK.transpile(lambda w, op: w.loop_exit(op))
RETURN.transpile(lambda w, op: w.return_(op))

no_rule("fold", "control flow", IF, FOR, LOOP, YIELD, CONTINUE, BREAK, RETURN)


# ---- typing (the verifier's rules) -----------------------------------------------------

def _types(values):
    return [v.type for v in values]


def _expect_types(got, want, what: str) -> None:
    if got != want:
        raise TypingError(f"{what}: {[str(t) for t in got]}, expected {[str(t) for t in want]}")


@IF.typing
def _(op):
    results = _types(op.results)
    for block in op.blocks:
        last = block.ops[-1] if block.ops else None
        if last is not None and last.name == "yield":
            _expect_types(_types(last.operands), results, "a branch yields")
    return results


@FOR.typing
def _(op):
    carried = _types(op.operands[3:])
    _expect_types(_types(op.blocks[0].args[1:]), carried, "the body takes")
    return carried


@LOOP.typing
def _(op):
    carried = _types(op.operands)
    _expect_types(_types(op.blocks[0].args), carried, "the body takes")
    _expect_types(_types(op.results[:len(carried)]), carried, "the loop gives")
    return _types(op.results)


for _p in (YIELD, CONTINUE, BREAK, RETURN):
    _p.typing(no_results)
