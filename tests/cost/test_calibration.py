"""The stored H200 calibration is what the stored microbenchmark times give."""
import dataclasses
import json
import os

import pytest

from tilescope.costmodel.calibration import H200, MICRO_FILES, derive

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _flat(x):
    if isinstance(x, (tuple, list)):
        return [v for item in x for v in _flat(item)]
    return [x]


def test_h200_constants_come_from_the_stored_microbenchmarks():
    cases = {}
    for name in MICRO_FILES:
        with open(os.path.join(ROOT, "bench", "results", name)) as f:
            cases.update(json.load(f)["cases"])
    derived = derive(cases)
    for field in dataclasses.fields(H200):
        want, got = _flat(getattr(H200, field.name)), _flat(getattr(derived, field.name))
        assert [w for w in want if isinstance(w, str)] == [g for g in got if isinstance(g, str)], field.name
        assert [g for g in got if not isinstance(g, str)] == \
            pytest.approx([w for w in want if not isinstance(w, str)], rel=2e-3), field.name


def test_a_missing_microbenchmark_is_named():
    with pytest.raises(ValueError, match="empty_1"):
        derive({})
