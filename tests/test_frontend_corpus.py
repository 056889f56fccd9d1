"""Differential test: tilescope's front end against upstream cuTile 1.7.0 on the whole corpus.

The upstream verdicts are recorded in tests/corpus/upstream_results.json (refreshed by
`python -m tests.oracle.record`), so this runs without cuda-tile installed.
"""
import json
import os

import pytest

from tests.oracle.corpus import CORPUS_DIR, ORACLE_TILEIRAS, load_corpus
from tilescope.errors import TileError
from tilescope.ir.parse import parse_function
from tilescope.ir.printer import print_function
from tilescope.ir.verify import verify
from tilescope.lang.shim import load_file

RESULTS = json.loads((CORPUS_DIR / "upstream_results.json").read_text())["cases"]
CASES = load_corpus()
_modules = {}


def _module(path):
    if path not in _modules:
        _modules[path] = load_file(str(path))
    return _modules[path]


def compile_case(case):
    import tilescope
    mod = _module(case.path)
    return tilescope.compile(getattr(mod, case.kernel), case.args, tileiras_version=ORACLE_TILEIRAS)


@pytest.mark.parametrize("case", CASES, ids=[c.key for c in CASES])
def test_matches_upstream(case):
    up = RESULTS[case.key]
    try:
        compiled = compile_case(case)
    except TileError as e:
        got = ("reject", e.kind, e.loc.line if e.loc else None, e.message)
    else:
        got = ("accept", compiled.stored_types())
        for fn in (compiled.ir, compiled.final):
            _assert_round_trip(fn)
    if up["accepted"]:
        assert got[0] == "accept", f"upstream accepts, tilescope rejects: {got[1]} line {got[2]}: {got[3]}"
        assert got[1] == up["stored_types"], "stored tile types differ from upstream"
    else:
        assert got[0] == "reject", f"upstream rejects ({up['error']} line {up['line']}: {up['message']}), " \
                                   f"tilescope accepts"
        expected_kind = up["error"]
        kinds = {expected_kind}
        if expected_kind == "StaticException":
            kinds.add("TileStaticEvalError")
        assert got[1] in kinds or (expected_kind == "TileInternalError"), \
            f"error class {got[1]} ({got[3]}) != upstream {expected_kind} ({up['message']})"
        if up.get("error_file") is None and expected_kind != "TileInternalError":
            assert got[2] == up["line"], f"error line {got[2]} != upstream {up['line']} ({got[3]})"


def _assert_round_trip(fn):
    """The printed IR reads back (the parser is generated from the op schemas) into IR that
    prints the same and passes the schema checks."""
    text = print_function(fn)
    parsed = parse_function(text)
    verify(parsed, types=False)
    assert print_function(parsed) == text
