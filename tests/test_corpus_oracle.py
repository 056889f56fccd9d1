"""Corpus directives vs. recorded (and, when available, live) upstream cuTile verdicts."""
from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from tests.oracle.corpus import load_corpus  # noqa: E402
from tests.oracle.record import (RESULTS_PATH, build_document, dumps,  # noqa: E402
                                 run_worker, upstream_version)

CASES = load_corpus()


def _recorded() -> dict:
    return json.loads(RESULTS_PATH.read_text())["cases"]


def test_corpus_size():
    neg = [c for c in CASES if not c.expect.ok]
    assert len(CASES) >= 250
    assert len(neg) >= 60


@pytest.mark.parametrize("case", CASES, ids=[c.key for c in CASES])
def test_expectation_matches_recorded_upstream(case):
    rec = _recorded().get(case.key)
    assert rec is not None, f"no recorded upstream result for {case.key}; run tests/oracle/record.py"
    exp = case.expect
    if exp.ok:
        assert rec["accepted"], (f"upstream rejected: {rec['error']} @ {rec['line']}: "
                                 f"{rec['message']}")
        return
    assert not rec["accepted"], f"upstream accepted, expected {exp.describe()}"
    assert rec["error"] == exp.error, rec["message"]
    assert rec["line"] == exp.line, rec["message"]
    if exp.match:
        assert re.search(exp.match, rec["message"]), rec["message"]


def test_recorded_results_cover_exactly_the_corpus():
    assert sorted(_recorded()) == sorted(c.key for c in CASES)


def _upstream_available() -> bool:
    try:
        return importlib.util.find_spec("cuda.tile.compilation") is not None
    except (ImportError, ValueError):
        return False


@pytest.mark.skipif(not _upstream_available(),
                    reason="cuda-tile (cuda.tile.compilation) not installed; "
                           "live upstream re-check skipped, recorded JSON used instead")
def test_recorded_results_up_to_date():
    live = run_worker(CASES, sys.executable)
    text = dumps(build_document(live, upstream_version(sys.executable)))
    if text != RESULTS_PATH.read_text():
        old = _recorded()
        stale = sorted(k for k in live if old.get(k) != live[k])
        pytest.fail(f"{RESULTS_PATH.name} is stale ({len(stale)} cases differ, e.g. "
                    f"{stale[:5]}); regenerate with: .venv/bin/python -m tests.oracle.record")
