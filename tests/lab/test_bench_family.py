"""The family benchmark (``benchmarks/bench_family.py``): its cache resumes where a run
stopped, the table states each rule set and counts each cell's deals, the eight classic
variants are the rule sets the issue asks for, and the README's table agrees with the rows
kept in ``benchmarks/results/``."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

from pyramid_widget.engine.rules import PRESETS, get_rules

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_family.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_family", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_family", module)
    spec.loader.exec_module(module)
    return module


def test_a_second_run_plays_only_the_missing_deals(tmp_path: Path) -> None:
    bench = load_bench()
    cache = tmp_path / "rows.jsonl"
    rules = get_rules("medium")
    have = bench.run_cell(rules, "greedy", 5, cache, chunk=2, max_seconds=1.0, budget=None)
    assert have == 5
    with cache.open("a") as handle:
        handle.write('{"rules": "medium", "strat')  # a run stopped in the middle of a line
    have = bench.run_cell(rules, "greedy", 8, cache, chunk=2, max_seconds=1.0, budget=None)
    assert have == 8
    lines = cache.read_text().splitlines()
    assert lines[5] == '{"rules": "medium", "strat'  # the torn line stays on its own
    rows = [json.loads(line) for i, line in enumerate(lines) if i != 5]
    assert sorted(row["deal"] for row in rows) == list(range(8))  # no deal played twice
    assert len(bench.load(cache)[("medium", "greedy")]) == 8


def test_two_ranges_in_two_caches_join_into_one_cell(tmp_path: Path) -> None:
    bench = load_bench()
    rules = get_rules("medium")
    low, high = tmp_path / "low.jsonl", tmp_path / "high.jsonl"
    assert bench.run_cell(rules, "greedy", 3, low, chunk=2, max_seconds=1.0, budget=None) == 3
    have = bench.run_cell(rules, "greedy", 7, high, chunk=2, max_seconds=1.0, budget=None, first=3)
    assert have == 4  # deals 3..6 only
    assert sorted(bench.load(high)[("medium", "greedy")]) == [3, 4, 5, 6]
    with low.open("a") as handle:
        handle.write(high.read_text())
    assert sorted(bench.load(low)[("medium", "greedy")]) == list(range(7))
    assert "(n=7)" in bench.table([rules], low, 7)


def test_retry_unknown_plays_only_the_unknown_deals_again(tmp_path: Path) -> None:
    bench = load_bench()
    cache = tmp_path / "rows.jsonl"
    rules = get_rules("hard")
    stale = [
        {"rules": "hard", "strategy": "perfect", "deal": d, "result": r, "seconds": 10.0}
        for d, r in [(0, "unknown"), (1, "lost"), (2, "unknown")]
    ]
    bench.append(cache, stale)
    have = bench.run_cell(rules, "perfect", 3, cache, chunk=5, max_seconds=30.0, budget=None)
    assert have == 3 and len(cache.read_text().splitlines()) == 3  # nothing missing: no play
    bench.run_cell(
        rules, "perfect", 3, cache, chunk=5, max_seconds=30.0, budget=None, retry_unknown=True
    )
    rows = [json.loads(line) for line in cache.read_text().splitlines()]
    assert [row["deal"] for row in rows[3:]] == [0, 2]  # only the unknown ones, once each
    cell = bench.load(cache)[("hard", "perfect")]
    assert {d: cell[d]["result"] for d in cell} == {
        0: rows[3]["result"],
        1: "lost",
        2: rows[4]["result"],
    }
    assert {rows[3]["result"], rows[4]["result"]} <= {"won", "lost"}  # decided this time


def test_the_table_counts_deals_and_names_the_short_cells(tmp_path: Path) -> None:
    bench = load_bench()
    cache = tmp_path / "rows.jsonl"
    rows = [
        {"rules": "hard", "strategy": "greedy", "deal": d, "result": r, "seconds": 0.0}
        for d, r in enumerate(["won", "lost", "lost", "unknown"])
    ]
    bench.append(cache, rows)
    text = bench.table([get_rules("hard")], cache, 4)
    line = next(row for row in text.splitlines() if row.startswith("| `hard`"))
    assert "draw 1 onto 1 waste; 1 pass; stock top not available; clear the pyramid" in line
    assert "33.3% [" in line and "(n=3; 1 unknown: [" in line and "over all 4)" in line
    assert "not run" in line
    assert "Cells short of 4 deals: hard / perfect: 0." in text


def test_the_classic_variants_are_the_eight_rule_sets_asked_for() -> None:
    bench = load_bench()
    variants = bench.classic_variants()
    medium = get_rules("medium")
    combos = {(r.overlap_discards, r.passes, r.win) for r in variants}
    assert combos == {
        (o, p, w) for o in (False, True) for p in (1, None) for w in ("pyramid", "all")
    }
    for r in variants:
        assert r.layout == medium.layout and r.draw_count == 1 and r.waste_piles == 1
        assert not r.stock_top_available and r.stall_rule == (r.passes is None)
    names = [r.name for r in bench.all_rule_sets()]
    assert set(PRESETS) <= set(names) and len(names) == len(PRESETS) + 8
    two = [n for n in names if n in PRESETS and PRESETS[n].decks == 2]
    assert names[-len(two) :] == two  # two-deck games last


def test_the_readme_table_says_what_the_committed_rows_say() -> None:
    """Every cell whose rows are kept in ``benchmarks/results/`` reads in the README's "How
    winnable is each game?" table exactly as the benchmark's table would print it from
    those rows (its rule set stated the same way), so the README cannot drift from the data
    behind it."""
    bench = load_bench()
    readme = (BENCH.parents[1] / "README.md").read_text(encoding="utf-8")
    kept = sorted((BENCH.parent / "results").glob("bench_family_*_perfect.jsonl"))
    assert len(kept) >= 10, kept
    for path in kept:
        name = path.name.removeprefix("bench_family_").removesuffix("_perfect.jsonl")
        rows = bench.load(path)[(name, "perfect")]
        assert len(rows) == 10_000, (name, len(rows))
        stated = f"| `{name}` | {bench.stated(get_rules(name))} | "
        lines = [line for line in readme.splitlines() if line.startswith(stated)]
        assert len(lines) == 1, (name, lines)
        assert lines[0].endswith(f" | {bench.cell_text(rows)} |"), (name, lines[0])
