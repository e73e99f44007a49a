"""The shortest-mode benchmark (``benchmarks/bench_shortest.py``, issue 20): its CPU-time
limit stops a solve, a stopped solve counts as undecided, and a target that a stopped deal
leaves unproved is never reported as met."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from pyramid_widget import Game

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_shortest.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_shortest", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_shortest", module)
    spec.loader.exec_module(module)
    return module


def record(number: int, verdict: str, decision: str, cpu: float) -> dict[str, Any]:
    return {"number": number, "verdict": verdict, "decision": decision, "cpu": cpu, "nodes": 9}


def test_the_cpu_limit_stops_a_solve_and_a_quick_one_finishes() -> None:
    bench = load_bench()
    stopped = bench.timed_solve(Game("hard", deal=115), False, 0.005)  # about 44k nodes
    assert stopped["verdict"] == "unknown" and not stopped["proved"]
    done = bench.timed_solve(
        Game.from_position("hard", pyramid=[None] * 26 + ["5H", "9C"], stock=["8D", "4S"]),
        True,
        5.0,
    )
    assert done["verdict"] == "winnable" and done["proved"] and done["moves"] == 4


def test_figures_count_agreement_and_never_call_a_stopped_run_fast() -> None:
    bench = load_bench()
    records = [
        record(0, "winnable", "winnable", 0.05),
        record(1, "unwinnable", "unwinnable", 0.01),
        record(2, "unknown", "winnable", 60.0),
        record(3, "unwinnable", "winnable", 0.02),
    ]
    f = bench.figures({"records": records, "peak_mb": 40.0})
    assert f["unknown"] == 1 and f["win_pct"] == 75.0
    assert f["total_nodes"] == 36 and "|          36 |" in bench.row("apophis", f)
    assert (f["agree"], f["compared"], f["disagree"]) == (2, 3, [3])
    lines = "\n".join(bench.verdicts("apophis", f))
    assert "every deal decided: NOT met" in lines
    assert "decision and shortest agree: NOT met" in lines
    assert "max under 10: NOT met: 1 deals hit the limit" in lines
    assert "median under 0.1: met" in lines  # 0.035: the stopped deal is the slowest anyway
    quick = bench.figures({"records": records[:2], "peak_mb": 40.0})
    assert "max under 10: met" in "\n".join(bench.verdicts("apophis", quick))


def test_the_reference_loop_is_timed_in_cpu_seconds() -> None:
    """The yardstick printed beside the figures: a fixed amount of work, so ten times the
    loop takes longer, and a median of positive CPU times. (Both loops are long enough,
    about 0.05 s and 0.5 s here, for a process clock that only advances at the scheduler's
    ticks on a loaded machine: a loop of 2,000 once read 0.0 s under the full suite.)"""
    bench = load_bench()
    small = bench.calibrate(rounds=1, size=200_000)
    large = bench.calibrate(rounds=1, size=2_000_000)
    assert 0 < small < large < 60


def test_a_kept_run_reads_back_as_it_was_written(tmp_path: Path) -> None:
    bench = load_bench()
    records = [record(0, "winnable", "winnable", 0.25), record(1, "unknown", "winnable", 60.0)]
    meta = {"rules": "egypt", "commit": "abc1234", "load_before": "0.10, 0.20, 0.30"}
    path = tmp_path / "not yet made" / "bench_shortest_egypt.jsonl"
    bench.save_results(path, meta, {"records": records, "peak_mb": 812.34})
    read_meta, run = bench.load_results(path)
    assert read_meta == {**meta, "peak_mb": 812.3} and run["records"] == records
    row = bench.markdown_row("egypt", bench.figures(run))
    assert row.startswith("| `egypt` | 100.0% | 1 | ") and "| 60 (limit) |" in row
    assert row.endswith("| 812 | 1/1 |")


def test_the_readme_table_says_what_the_kept_runs_say() -> None:
    """Each preset's shortest-mode row in the README is what the benchmark prints from the
    run kept in ``benchmarks/results/``, and its load average and reference loop are
    quoted beside it, so the README cannot drift from the data behind it."""
    bench = load_bench()
    readme = (BENCH.parents[1] / "README.md").read_text(encoding="utf-8")
    lines = readme.splitlines()
    kept = sorted((BENCH.parent / "results").glob("bench_shortest_*.jsonl"))
    assert {p.stem.removeprefix("bench_shortest_") for p in kept} == set(bench.TARGETS)
    for path in kept:
        meta, run = bench.load_results(path)
        assert len(run["records"]) == 200 and meta["first"] == 0, path
        row = bench.markdown_row(meta["rules"], bench.figures(run), meta["max_seconds"])
        assert row in lines, path
        assert bench.circumstances(meta) in readme, path
