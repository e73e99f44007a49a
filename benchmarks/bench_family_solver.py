"""Benchmark the solver on the family's new presets (issue 18), one core; and check that the
seven original presets still get exactly what they got at commit 5b941a5.

Run: ``.venv/bin/python benchmarks/bench_family_solver.py [--rules triangle giza ...]
[--count 200] [--max-seconds 10] [--two-deck-seconds 30] [--jsonl FILE] [--deals 3,15]``
prints one table row per preset: deals, winnable %, unknown (budget hit), median / p90 /
max CPU seconds, max nodes and peak memory (resident set of the process that solved the
preset, MB). Each preset runs in a fresh process, deals one after another. ``--deals`` plays
only the deal numbers listed (say, the deals a run at 10 s left unknown, again with a bigger
budget) in place of ``0 .. count-1``.

``--golden`` instead re-solves deals 0-199 (``--count``) of the seven original presets and
compares verdict, nodes, line length and line with ``tests/solver/golden_old_presets.json``
(recorded from 5b941a5, with the node counts changed on purpose since then in
``tests/solver/golden_amendments.json``); it prints the mismatches and exits 1 if there is
any.

Targets (issue 18, deals 0-199): every deal decided; for the one-deck games a median under
50 ms and no deal over 10 s; the two-deck games get ``--two-deck-seconds`` a deal and the
table says how many stay unknown.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OLD = ["relaxed", "medium", "hard", "cheops", "apophis", "egypt", "easy"]


def new_presets() -> list[str]:
    """The presets issue 18 added, in the order of ``PRESETS``."""
    from pyramid_widget.engine.rules import PRESETS

    return [name for name in PRESETS if name not in OLD]


def run_rules(name: str, deals: list[int], max_seconds: float) -> dict[str, Any]:
    """Solve the numbered ``deals`` of preset ``name`` in this process; check each winning
    line by replaying it through the engine."""
    from pyramid_widget import Game
    from pyramid_widget.solver import solve

    records = []
    for number in deals:
        game = Game(name, deal=number)
        started = time.process_time()
        solution = solve(game, max_seconds=max_seconds)
        cpu = time.process_time() - started
        if solution.winnable:
            replay = game.copy()
            for move in solution.moves:
                replay.play(move)
            if replay.status.value != "won":
                raise AssertionError(f"{name} deal {number}: the line does not win")
        records.append(
            {
                "rules": name,
                "number": number,
                "verdict": solution.verdict.value,
                "moves": len(solution.moves),
                "nodes": solution.nodes,
                "cpu": round(cpu, 4),
                "knows_hidden": solution.knows_hidden,
            }
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"rules": name, "records": records, "peak_mb": peak, "budget": max_seconds}


def summarise(result: dict[str, Any]) -> str:
    """One table row."""
    records = result["records"]
    times = sorted(r["cpu"] for r in records)
    won = sum(r["verdict"] == "winnable" for r in records)
    unknown = sum(r["verdict"] == "unknown" for r in records)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    return (
        f"| {result['rules']:<15} | {len(records):>5} | {100 * won / len(records):>6.1f} | "
        f"{unknown:>7} | {statistics.median(times):>8.3f} | {p90:>7.3f} | {times[-1]:>7.2f} | "
        f"{max(r['nodes'] for r in records):>9} | {result['peak_mb']:>7.0f} | "
        f"{result['budget']:>6g} |"
    )


HEADER = (
    "| rules           | deals | win %  | unknown | median s |   p90 s |   max s | max nodes "
    "| peak MB | budget s |\n"
    "|-----------------|------:|-------:|--------:|---------:|--------:|--------:|----------:"
    "|--------:|---------:|"
)


def _golden_one(name: str, count: int) -> list[str]:
    from pyramid_widget import Game
    from pyramid_widget.solver import solve

    sys.path.insert(0, str(ROOT))
    from tests.solver.test_golden_old_presets import load_golden

    rows = load_golden()[name]
    problems = []
    for number in range(count):
        solution = solve(Game(name, deal=number))
        line = " ".join(str(m) for m in solution.moves)
        got = [
            solution.verdict.value,
            solution.nodes,
            len(solution.moves),
            hashlib.sha1(line.encode()).hexdigest()[:12],
        ]
        if got != rows[number]:
            problems.append(f"{name} deal {number}: {got} != {rows[number]}")
    return problems


def golden(count: int) -> int:
    """Compare the seven original presets with the golden file; return the exit status."""
    problems: list[str] = []
    for name in OLD:
        started = time.perf_counter()
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            found = pool.apply(_golden_one, (name, count))
        problems += found
        print(
            f"{name:<8} deals 0-{count - 1}: {len(found)} mismatches "
            f"({time.perf_counter() - started:.1f} s)",
            flush=True,
        )
    for problem in problems:
        print(problem)
    return 1 if problems else 0


def deal_numbers(text: str) -> list[int]:
    """``--deals``: comma-separated deal numbers.

    >>> deal_numbers("3,15")
    [3, 15]
    """
    try:
        numbers = [int(part) for part in text.split(",")]
    except ValueError:
        numbers = []
    if not numbers or min(numbers) < 0:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a list of deal numbers: write them comma-separated, as in 3,15"
        )
    return numbers


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark (or the golden check)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="*", default=None)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--max-seconds", type=float, default=10.0)
    parser.add_argument("--two-deck-seconds", type=float, default=30.0)
    parser.add_argument("--jsonl", default=None)
    parser.add_argument(
        "--deals", type=deal_numbers, default=None, help="deal numbers, comma-separated"
    )
    parser.add_argument("--golden", action="store_true")
    args = parser.parse_args(argv)
    if args.golden:
        return golden(args.count)
    from pyramid_widget.engine.rules import get_rules

    names = args.rules or new_presets()
    deals = args.deals if args.deals is not None else list(range(args.count))
    print(HEADER, flush=True)
    out = open(args.jsonl, "w") if args.jsonl else None  # noqa: SIM115
    try:
        for name in names:
            budget = args.two_deck_seconds if get_rules(name).decks == 2 else args.max_seconds
            with multiprocessing.get_context("spawn").Pool(1) as pool:
                result = pool.apply(run_rules, (name, deals, budget))
            print(summarise(result), flush=True)
            if out is not None:
                for record in result["records"]:
                    out.write(json.dumps(record) + "\n")
                out.flush()
    finally:
        if out is not None:
            out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
