"""Benchmark the exact solver: deals FIRST..FIRST+COUNT-1 under each rule set, one core.

Run: ``.venv/bin/python benchmarks/bench_solver.py [--rules relaxed medium ...]
[--count 200] [--shortest] [--max-seconds 300]``. Each rule set runs in a fresh process
(so its peak memory is its own) and deals run one after another. Prints one table row per
rule set: deals, winnable %, unknown (limit hit), median / p90 / max seconds (CPU time of
the solving process), total seconds, max nodes and peak memory (resident set, MB), and,
with ``--jsonl FILE``, one JSON line per deal.

Targets (issue 3; deals 0-199): decision mode on relaxed and medium decides every deal, in
under 30 s in total per rule set, no deal over 5 s, under 1 GB; hard, cheops, apophis and
egypt: median under 50 ms and no deal over 5 s; shortest mode on relaxed no slower in total
than the reference Java A* solver. Shortest mode's issue-20 targets, with both modes checked
against each other and a CPU-time limit per solve, are ``benchmarks/bench_shortest.py``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import resource
import statistics
import sys
import time
from typing import Any

DEFAULT_RULES = ["relaxed", "medium", "hard", "cheops", "apophis", "egypt", "easy"]


def run_rules(
    rules: str, first: int, count: int, shortest: bool, max_seconds: float
) -> dict[str, Any]:
    """Solve the deals under ``rules`` in this process; return the figures and records."""
    from pyramid_widget import Game
    from pyramid_widget.solver import solve

    records = []
    for number in range(first, first + count):
        game = Game(rules, deal=number)
        started = time.process_time()
        solution = solve(game, shortest=shortest, max_seconds=max_seconds)
        cpu = time.process_time() - started
        records.append(
            {
                "rules": rules,
                "number": number,
                "verdict": solution.verdict.value,
                "moves": len(solution.moves),
                "nodes": solution.nodes,
                "cpu": round(cpu, 4),
                "wall": round(solution.seconds, 4),
            }
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"rules": rules, "records": records, "peak_mb": peak}


def summarise(result: dict[str, Any]) -> str:
    """One table row for a rule set."""
    records = result["records"]
    times = sorted(r["cpu"] for r in records)
    won = sum(r["verdict"] == "winnable" for r in records)
    unknown = sum(r["verdict"] == "unknown" for r in records)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    return (
        f"| {result['rules']:<8} | {len(records):>5} | {100 * won / len(records):>6.1f} | "
        f"{unknown:>7} | {statistics.median(times):>8.3f} | {p90:>7.3f} | {times[-1]:>7.2f} | "
        f"{sum(times):>8.1f} | {max(r['nodes'] for r in records):>9} | "
        f"{result['peak_mb']:>7.0f} |"
    )


HEADER = (
    "| rules    | deals | win %  | unknown | median s |   p90 s |   max s |  total s | "
    "max nodes | peak MB |\n"
    "|----------|------:|-------:|--------:|---------:|--------:|--------:|---------:|"
    "----------:|--------:|"
)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", default=DEFAULT_RULES)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--shortest", action="store_true")
    parser.add_argument("--max-seconds", type=float, default=300.0)
    parser.add_argument("--jsonl", help="write one JSON line per deal to this file")
    args = parser.parse_args(argv)
    mode = "shortest" if args.shortest else "decision"
    print(f"solver benchmark, {mode} mode, deals {args.first}..{args.first + args.count - 1}")
    print(HEADER, flush=True)
    context = multiprocessing.get_context("spawn")
    out = open(args.jsonl, "w", encoding="utf-8") if args.jsonl else None  # noqa: SIM115
    try:
        for rules in args.rules:
            with context.Pool(1) as pool:
                result = pool.apply(
                    run_rules, (rules, args.first, args.count, args.shortest, args.max_seconds)
                )
            print(summarise(result), flush=True)
            if out:
                for record in result["records"]:
                    out.write(json.dumps(record) + "\n")
    finally:
        if out:
            out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
