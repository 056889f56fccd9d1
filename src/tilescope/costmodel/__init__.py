"""Static cost model: bytes, FLOPs, occupancy and a predicted time for a kernel launch on a
given GPU, from the final typed IR and argument metadata only (see docs/cost-model.md).

    report = tilescope.cost(kernel, "f16[4096,4096], f16[4096,4096], f32[4096,4096], 64, 64, 32",
                            grid=(64, 64), gpu="h200")
    report.predicted_us, report.bound, report.to_json(), print(report.text())
"""
from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence, Union

from ..compiler import _constants_by_annotation, normalize_args, resolve_kernel
from ..compiler import compile as ts_compile
from ..errors import TileError
from ..launch_args import normalize_grid
from ..arraylike import c_strides, launch_facts
from ..meta import MetaTensor, parse_args
from ..spec_syntax import parse_values
from .advice import advise
from .calibration import H200, Calibration
from .counts import count
from .cubin_facts import CubinFacts, CubinFactsError, cubin_arch, read_cubin_facts
from .estimated_facts import occupancy_hint
from .gpus import GPUS, GPU, MEASURED_ARCH, gpu_named
from .grid import infer_grid
from .model import predict
from .report import CostReport
from .scalars import checked_values

__all__ = ["cost", "cost_of_compiled", "as_launched", "CostReport", "GPUS", "GPU", "gpu_named", "Calibration", "H200",
           "CubinFacts", "read_cubin_facts"]

CubinChoice = Union[None, bool, str, bytes]
LAUNCH_ALIGNMENT = 256               # allocators hand out at least 256-byte aligned blocks


def cost(kernel: Any, args: Any, grid: Any, gpu: str = "h200", *, aligned: bool = True,
         cubin: CubinChoice = None, values: Optional[Mapping[str, Any]] = None) -> CostReport:
    """The cost report of launching `kernel` over `grid` with arguments described by `args`
    (a spec string such as "f32[1024], f32[1024], 256", or a list of MetaTensors/values).

    By default (`aligned=True`) an array whose metadata says nothing of its layout (known sizes,
    C-contiguous, no alignment or divisibility facts: what a spec string gives) is taken as a
    launch sees an ordinary allocation of that size (`as_launched`: aligned, unit last stride,
    divisible extents), so the IR and the cubin are those of a real launch, which often differ
    from a dynamically shaped build by vector loads and TMA copies. `aligned=False` keeps the
    metadata exactly as written (what `tilescope compile` of the same spec shows).

    `cubin`: None or False — the schedule (block size, registers, spills) is estimated from the
    IR; "auto" — tileiras builds the kernel's cubin for the GPU when it is installed, and the
    model reads the schedule from it (else the estimate, with a note saying why); True — the
    same, but a missing or failing tileiras is an error; bytes — a cubin built already.

    `values`: the values a launch passes to runtime scalar parameters, by name (e.g.
    `{"window_size": 4096}`). They stay runtime arguments in the build; the model uses them for
    loop bounds and tile indices, which metadata alone cannot give. A name may also be that of a
    one-element value the kernel reads from memory (`{"n_routed": 2}`): the loops and branches it
    decides are counted at that value."""
    # the arguments as the compiler takes them, data arrays (NumPy, torch, ...) as the metadata of their
    # sizes: costed as the spec text is, since a host buffer's address says nothing of a launch's
    specs = normalize_args(_constants_by_annotation(resolve_kernel(kernel)[0], args))
    used = as_launched(specs) if aligned else specs
    return cost_of_compiled(ts_compile(kernel, used), grid, gpu, cubin=cubin, launched=used != specs, values=values)


def as_launched(specs: Sequence[Any]) -> list:
    """The argument metadata a launch derives from ordinary contiguous GPU allocations of these
    sizes (MetaTensor.like: 16-byte aligned base, unit last stride as a constant, divisible extents
    and strides), so the IR and the cubin are those of a real launch. Arrays whose sizes are not
    all known, whose strides are not C order, or whose metadata states layout facts of its own
    are left as they are."""
    out = []
    for s in specs:
        if isinstance(s, MetaTensor) and all(d is not None for d in s.shape) and s.strides == c_strides(s.shape) \
                and _says_nothing_of_layout(s):
            s = MetaTensor(s.shape, s.dtype, None, **launch_facts(LAUNCH_ALIGNMENT, s.shape, None, s.dtype))
        out.append(s)
    return out


def _says_nothing_of_layout(t: MetaTensor) -> bool:
    return (t.base_addr_divisible_by == 1 and not any(t.static_strides)
            and all(d == 1 for d in t.shape_divisible_by + t.stride_divisible_by))


LAUNCHED_NOTE = ("arrays taken as a launch allocates them: 16-byte aligned, contiguous, sizes as given "
                 "(`--as-written` / aligned=False keeps the metadata as written)")


def cost_of_compiled(compiled, grid: Any, gpu: str = "h200", *, aligned: bool = False,
                     cubin: CubinChoice = None, launched: bool = False,
                     values: Optional[Mapping[str, Any]] = None) -> CostReport:
    """The report for a kernel compiled already. `aligned=True` recompiles it as a launch of these
    sizes builds it (`as_launched`); `launched` says its metadata was made so already (a note);
    `values` as for `cost`."""
    target = gpu if isinstance(gpu, GPU) else gpu_named(gpu)
    grid3 = normalize_grid(grid)
    if aligned:          # the IR and the cubin of a real launch of these sizes
        as_launch = as_launched(compiled.args)
        if as_launch != list(compiled.args):
            compiled, launched = ts_compile(compiled.pyfunc, as_launch), True
    counts = count(compiled.final, grid3, checked_values(compiled.final, values))
    counts.occupancy = occupancy_hint(getattr(compiled, "options", {}) or {}, target.arch)
    _mark_layouts(counts, compiled)
    facts, why_not = _cubin_facts(compiled, target, cubin)
    prediction = predict(counts, target, tma=_aligned_by_metadata(compiled.args), facts=facts)
    if launched:
        prediction.notes.append(LAUNCHED_NOTE)
    if why_not:
        prediction.notes.append(why_not)
    return CostReport(compiled.final.name, grid3, counts, prediction, advise(counts, prediction))


def _cubin_facts(compiled, target: GPU, cubin: CubinChoice):
    """(facts, note): what the cubin says, or None and why there is none ("auto" only). The cubin
    is always the sm_90 build (MEASURED_ARCH): the model's per-block mechanisms read sm_90 code and
    were measured on Hopper; another GPU gets its schedule and its own peaks (`predict`)."""
    if cubin is None or cubin is False:
        return None, ""
    if isinstance(cubin, (bytes, bytearray)):
        arch = cubin_arch(bytes(cubin))
        if arch != MEASURED_ARCH:
            return None, (f"schedule estimated from the IR: the cubin given is {arch} code, and the model "
                          f"reads {MEASURED_ARCH} code")
        return read_cubin_facts(bytes(cubin)), ""
    try:
        data = compiled.cubin(MEASURED_ARCH)
    except Exception as e:       # tileiras missing, or failing on this kernel: "auto" falls back
        if cubin is True:
            raise
        return None, f"schedule estimated from the IR: no cubin ({str(e).splitlines()[0][:160]})"
    try:
        return read_cubin_facts(data), ""
    except CubinFactsError as e:
        if cubin is True:
            raise
        return None, f"schedule estimated from the IR: the cubin could not be read ({e})"


def _aligned_by_metadata(specs: Sequence[Any]) -> bool:
    """Every array 16-byte aligned with a static unit last stride (and at least one array)."""
    arrays = [s for s in specs if isinstance(s, MetaTensor)]
    return bool(arrays) and all(s.base_addr_divisible_by % 16 == 0 and s.ndim and s.static_strides[-1]
                                and s.strides[-1] == 1 for s in arrays)


def copy_layout(t: MetaTensor) -> bool:
    """Whether the tensor memory accelerator can copy tiles of this array as far as its strides
    go: each stride but the last a known multiple of 16 bytes (a copy's descriptor needs that,
    and tileiras uses copies only where the metadata proves it: for a 1001-wide float16 matrix,
    rows 2,002 bytes apart, it loads element by element even with an aligned base)."""
    bits = t.dtype.bitwidth
    for stride, static, divisor in list(zip(t.strides, t.static_strides, t.stride_divisible_by))[:-1]:
        known = stride if static and stride is not None else divisor
        if known * bits % 128:
            return False
    return True


def vector_layout(t: MetaTensor) -> bool:
    """Whether the build knows the array's last extent to be a multiple of a 16-byte vector (as a
    constant, or by `shape_divisible_by`): tileiras loads rows of other lengths element by element,
    even aligned ones (a launch of 1,000 float32 columns: 4-byte LDGs; of 1,008: 16-byte)."""
    if not t.ndim:
        return False
    extent = t.shape[-1] if t.static_shape[-1] and t.shape[-1] is not None else t.shape_divisible_by[-1]
    return extent * t.dtype.bitwidth % 128 == 0


def _mark_layouts(counts, compiled) -> None:
    """Marks the accesses of arrays whose metadata rules out accelerator copies (`copy_layout`)
    or vector loads (`vector_layout`)."""
    specs = {p.name: s for p, s in zip(compiled.final.params, compiled.args) if isinstance(s, MetaTensor)}
    for a in counts.accesses:
        spec = specs.get(a.array)
        if spec is not None:
            a.copy_layout, a.vector_layout = copy_layout(spec), vector_layout(spec)


def kernel_hover(kernel, specs, gpu: str = "h200", values: Optional[str] = None) -> Optional[str]:
    """Markdown for an editor hover on a kernel's name: the cost of one launch over the grid its
    tiling implies (a note when the grid cannot be told; None when the kernel does not compile). `values`:
    the text of its `# tilescope: values` directive; one the kernel cannot take is said instead."""
    try:
        specs = parse_args(specs) if isinstance(specs, str) else list(specs)
        launch_specs = as_launched(specs)
        compiled = ts_compile(kernel, launch_specs)
    except (TileError, ValueError, TypeError):
        return None
    grid = infer_grid(compiled.final)
    if grid is None:        # (said, so that a missing cost is not taken for a slow analysis)
        return ("**cost**: the grid cannot be told from the kernel's tiles (each `ct.bid` axis it reads "
                "must index a tile directly); `tilescope cost --grid` gives it")
    note = ""
    try:
        given = parse_values(values) if values else None
        report = cost_of_compiled(compiled, grid, gpu, launched=launch_specs != specs, values=given)
    except ValueError as e:       # a `values` directive the kernel cannot take: the cost without it
        report = cost_of_compiled(compiled, grid, gpu, launched=launch_specs != specs)
        note = f" — `# tilescope: values` not used: {e}"
    return report.hover() + " — grid inferred from the tiles indexed by `ct.bid`" + note
