"""docs/architecture.md stays true: the files it names exist, it names every rule column and
trait, and its figures are the ones tests/test_architecture.py holds the code to."""
import pathlib
import re

from tests import test_architecture as arch
from tilescope.ir.primitive import COLUMNS, TRAITS

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "architecture.md").read_text()


def test_the_files_it_names_exist():
    named = set(re.findall(r"`((?:[a-z_]+/)*[a-z_]+\.py)`", DOC))
    assert len(named) > 15
    src = ROOT / "src" / "tilescope"
    missing = [p for p in named
               if not any((base / p).exists() for base in (src, src / "backends" / "numpy", ROOT))
               and not list(src.rglob(p))]
    assert not missing


def test_it_names_every_rule_column_and_trait():
    assert all(f"`{c}`" in DOC for c in COLUMNS)
    assert all(f"`{t}`" in DOC for t in TRAITS)


def test_its_figures_are_the_tested_ones():
    assert f"{arch.MAX_IN_CYCLES} modules in import cycles" in DOC
    assert f"{arch.MAX_FUNCTION_IMPORTS} imports sit inside functions" in DOC


def unary_row_example() -> str:
    """The function-table row the page's "How to add an op" shows (the test-only family adds it)."""
    block = DOC.split("**A unary function**", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    return block.strip().rstrip(",")
