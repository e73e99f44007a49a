"""The table of pruning rules: one id each, and every function it names exists."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

import pyramid_widget.solver as solver_package
from pyramid_widget.solver.prune import PRUNING_RULES, RULES_BY_ID


def resolve(dotted: str) -> object:
    """The object a dotted name names: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            target = getattr(target, name)
        return target
    raise AssertionError(f"no module in {dotted}")


def test_ids_are_unique_and_every_rule_says_what_and_when() -> None:
    assert len(RULES_BY_ID) == len(PRUNING_RULES)
    for rule in PRUNING_RULES:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.id)
        assert rule.statement and rule.precondition and rule.where


@pytest.mark.parametrize("rule", PRUNING_RULES, ids=lambda r: r.id)
def test_every_rule_names_real_functions(rule: object) -> None:
    for dotted in rule.where:  # type: ignore[attr-defined]
        target = resolve(dotted)
        assert inspect.isfunction(target) or inspect.isclass(target), dotted


def test_docstrings_cite_only_ids_of_the_table() -> None:
    root = Path(solver_package.__file__).parent
    cited: set[str] = set()
    for path in root.rglob("*.py"):
        cited |= set(re.findall(r"rules? ``([a-z0-9-]+)``", path.read_text(encoding="utf-8")))
    assert cited, "no docstring cites a rule"
    assert cited <= set(RULES_BY_ID), cited - set(RULES_BY_ID)
