"""Typing rules use only what `RuleContext` declares of their `ctx`, and inference provides all of it."""
import ast
import pathlib
import typing

import tilescope.ops
from tilescope.ops.context import RuleContext
from tilescope.passes.infer import Inference

OPS = pathlib.Path(tilescope.ops.__file__).parent


def _declared() -> set:
    names = set(typing.get_type_hints(RuleContext)) if hasattr(RuleContext, "__annotations__") else set()
    return names | {n for n, v in vars(RuleContext).items() if callable(v) and not n.startswith("_")}


def _used_by_rules() -> dict:
    """`ctx.<name>` (and getattr(ctx, "<name>")) in every op family -> where."""
    used = {}
    for path in sorted(OPS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            name = None
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "ctx":
                name = node.attr
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("getattr", "hasattr") \
                    and node.args and getattr(node.args[0], "id", None) == "ctx":
                name = "getattr(ctx, ...)"
            if name is not None:
                used.setdefault(name, f"{path.name}:{node.lineno}")
    return used


def test_rules_use_only_the_declared_context():
    used = _used_by_rules()
    assert len(used) > 10                      # the scan sees the rules
    undeclared = {n: where for n, where in used.items() if n not in _declared()}
    assert not undeclared, f"typing rules use ctx members RuleContext does not declare: {undeclared}"


def test_inference_provides_the_whole_context():
    ctx = Inference()
    missing = [n for n in _declared() if not hasattr(ctx, n)]
    assert not missing
