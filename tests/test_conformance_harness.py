"""The conformance harness itself, on the tiny fake upstream tree in tests/fixtures/fake_upstream/.

Needs neither the real cutile-python checkout nor a GPU; the parts that run kernels need torch
(CPU build) and are skipped without it.
"""
import importlib.util
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAKE = os.path.join(ROOT, "tests", "fixtures", "fake_upstream")
sys.path.insert(0, ROOT)

from conformance import categories, doctests, report  # noqa: E402
from conformance.common import Result, gpu_only_reason  # noqa: E402

needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")


def test_parse_docstring_pairs_code_and_output():
    with open(os.path.join(FAKE, "src", "cuda", "tile", "_stub.py")) as f:
        examples = doctests._static_docstrings(f.name)
    parsed = [e for name, doc in examples for e in doctests.parse_docstring(doc, name)]
    assert [e.name for e in parsed] == ["arange#0", "arange#1"]
    assert parsed[0].template == "setup_only.py"
    assert parsed[0].want == "[0, 1, 2, 3]\n"
    assert "ct.arange(4, dtype=ct.int32)" in parsed[0].code


def test_template_expansion_indents_body():
    code = doctests.expand_template("def f():\n    {{body}}\n", "a = 1\nb = 2")
    assert code == "def f():\n    a = 1\n    b = 2\n"


def test_categories_and_gpu_only_markers():
    assert categories.categorize("E   Failed: DID NOT RAISE <class 'TileTypeError'>")[0].startswith("negative")
    assert categories.categorize("AssertionError: Tensor-likes are not close!")[0] == "wrong result"
    assert gpu_only_reason("import torch.distributed as dist").startswith("multi-GPU")
    assert gpu_only_reason("import torch") is None


def test_report_has_totals_and_categories():
    results = [Result("tests", "test/test_a.py", "t1", "passed"),
               Result("tests", "test/test_a.py", "t2", "failed", "wrong result", "AssertionError"),
               Result("tests", "test/test_b.py", "t3", "skipped", "GPU-only feature", "GPU-only: CUDA graphs")]
    text = report.render(results, FAKE)
    assert "| tests | 1 | 1 | 0 | 1 | 1/2 = 50.0% |" in text
    assert "| tests | wrong result | 1 |" in text
    assert "`test/test_b.py`" in text


@needs_torch
def test_samples_run_and_gpu_only_sample_is_skipped():
    from conformance import samples
    by_name = {r.case: r for r in samples.run(FAKE, jobs=2)}
    assert by_name["TinyAdd.py"].outcome == "passed", by_name["TinyAdd.py"]
    assert by_name["MultiGpu.py"].outcome == "skipped"


@needs_torch
def test_value_and_negative_tests():
    from conformance import tests_runner
    results = {r.case: r for r in tests_runner.run(FAKE, "all", jobs=1)}
    for dt in ("f16", "bf16", "f32"):
        assert results[f"test_copy[{dt}]"].outcome == "passed", results[f"test_copy[{dt}]"]
    assert results["test_wrong_on_purpose"].outcome == "failed"
    assert results["test_wrong_on_purpose"].category == "wrong result"
    assert results["test_rejects_string_tile"].kind == "negative"
    assert results["test_rejects_string_tile"].outcome == "passed", results["test_rejects_string_tile"]
    assert results["test_uses_internal"].outcome == "skipped"
    assert results["test_graph"].category == "GPU-only feature"


@needs_torch
def test_doc_examples_compare_printed_output():
    results = {r.case: r for r in doctests.run(FAKE, jobs=1)}
    assert results["arange#0"].outcome == "passed", results["arange#0"]
    assert results["arange#1"].outcome == "failed"
    assert results["arange#1"].category == "printed output differs"


@needs_torch
def test_cli_writes_report(tmp_path):
    from conformance.__main__ import main
    out = tmp_path / "conformance.md"
    main(["--upstream", FAKE, "--jobs", "1", "--report", str(out), "--only", "samples", "--only", "doctests"])
    text = out.read_text()
    assert "## Totals" in text and "samples/TinyAdd.py" in text
