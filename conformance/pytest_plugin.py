"""pytest plugin (`-p conformance.pytest_plugin`) for running upstream's test/ on tilescope's CPU executor.

- installs the redirection before any test module is imported (`cuda.tile` is tilescope,
  CUDA tensors/streams/queries are the CPU);
- sorts tests into value tests and negative tests (`pytest.raises(Tile…Error, …)`) and keeps
  the kind asked for;
- skips, with the reason, tests of GPU-only features and tests that inspect upstream's
  bytecode or internals;
- bounds each test's time and writes every outcome to a JSON file for the report.
"""
from __future__ import annotations

import ast
import inspect
import json
import re
import signal
import textwrap

import pytest

from . import boot

boot.install()

NEGATIVE_RAISES = re.compile(
    r"(pytest\.raises|raises_if)\(\s*[^,)]*?\b(Tile\w*Error|TypeCheckingError|StaticAssertionError|"
    r"UnsupportedCallError|InvalidValueError|UnsupportedSyntaxError|UnsupportedFeatureError)\b")

# Whole upstream test files whose subject only exists on a GPU.
GPU_ONLY_FILES = {
    "test_stream.py": "CUDA streams semantics",
    "test_concurrent_launch.py": "CUDA streams semantics (concurrent launches)",
    "test_cudagraph.py": "CUDA graphs",
    "test_pdl.py": "programmatic dependent launch (PDL)",
    "test_tune.py": "autotuning (cuda.tile.tune)",
    "test_jax.py": "JAX FFI",
}

# Source markers inside a test function (or its module) → skip reason.
FUNCTION_MARKERS = [
    (r"\bget_bytecode\(|\bfilecheck\(", "not applicable: checks upstream's TileIR bytecode (FileCheck)"),
    (r"\bcompile_tile\(|\bcompile_cubin\(", "not applicable: calls upstream's internal compiler"),
    (r"CUDA_TILE_LOGS|CUDA_TILE_DUMP|CUDA_TILE_TEMP_DIR", "not applicable: upstream compiler logs/dumps"),
    (r"torch\.cuda\.Stream\(|torch\.cuda\.stream\(", "GPU-only: CUDA streams semantics"),
    (r"torch\.cuda\.graph|CUDAGraph", "GPU-only: CUDA graphs"),
    (r"programmatic_dependent_launch\s*=\s*True", "GPU-only: programmatic dependent launch (PDL)"),
    (r"nvshmem|torch\.distributed", "GPU-only: multi-GPU (nvshmem / torch.distributed)"),
    (r"cuda\.tile\.tune|\bexhaustive_search\b", "GPU-only: autotuning"),
    # upstream's own CI may exclude these (-k "not int64_index"); on the CPU executor the 4-GiB
    # arrays they fill and check element by element exhaust the machine and take the chunk down
    (r"requires a very large allocation", "GPU-only: multi-GiB arrays (int64 indexing beyond 2**32 elements)"),
]


class HarnessTimeout(Exception):
    """The test ran past the harness's per-test limit."""


def pytest_addoption(parser):
    group = parser.getgroup("conformance")
    group.addoption("--conformance-select", default="all", choices=["all", "value", "negative"])
    group.addoption("--conformance-results", default=None)
    group.addoption("--conformance-timeout", type=float, default=120.0)


def _function_source(item) -> str:
    fn = getattr(item, "function", None)
    if fn is None:
        return ""
    try:
        return textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return ""


def _helpers_source(item, source: str) -> str:
    """Source of module-level functions the test calls (one level), so markers in helpers count."""
    module = getattr(item, "module", None)
    if module is None or not source:
        return ""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ""
    names = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    parts = []
    for name in names:
        obj = getattr(module, name, None)
        if inspect.isfunction(obj) and obj.__module__ == module.__name__:
            try:
                parts.append(inspect.getsource(obj))
            except (OSError, TypeError):
                pass
    return "\n".join(parts)


def is_negative(source: str) -> bool:
    return bool(NEGATIVE_RAISES.search(source))


def pytest_collection_modifyitems(session, config, items):
    select = config.getoption("conformance_select")
    keep, drop = [], []
    for item in items:
        source = _function_source(item)
        item.user_properties.append(("negative", is_negative(source)))
        file_name = item.path.name
        reason = GPU_ONLY_FILES.get(file_name)
        if reason:
            reason = "GPU-only: " + reason
        else:
            full = source + "\n" + _helpers_source(item, source)
            for pattern, why in FUNCTION_MARKERS:
                if re.search(pattern, full):
                    reason = why
                    break
        if reason:
            item.add_marker(pytest.mark.skip(reason=reason))
        negative = is_negative(source)
        if select == "all" or (select == "negative") == negative:
            keep.append(item)
        else:
            drop.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def _on_alarm(signum, frame):
    raise HarnessTimeout("test ran past the harness time limit")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    limit = item.config.getoption("conformance_timeout")
    old = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


_results = {}


def _text(report) -> str:
    if report.skipped and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2])
    text = getattr(report, "longreprtext", "") or str(report.longrepr or "")
    return text[-4000:]


def pytest_runtest_logreport(report):
    props = dict(report.user_properties)
    entry = _results.get(report.nodeid)
    if report.when == "call" or report.outcome != "passed":
        if entry is not None and entry["outcome"] != "passed":
            return                     # keep the first non-pass (e.g. setup error over teardown)
        _results[report.nodeid] = {"nodeid": report.nodeid, "outcome": report.outcome, "when": report.when,
                                   "negative": bool(props.get("negative")), "text": _text(report)}


def pytest_collectreport(report):
    if report.failed or (report.skipped and report.nodeid.endswith(".py")):
        _results[report.nodeid + "::<collect>"] = {
            "nodeid": report.nodeid + "::<collect>", "outcome": "error" if report.failed else "skipped",
            "when": "collect", "negative": False, "text": _text(report)}


def pytest_sessionfinish(session, exitstatus):
    path = session.config.getoption("conformance_results")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(list(_results.values()), f)
