"""Benchmark shortest mode (issue 20): deals FIRST..FIRST+COUNT-1 per preset, one core.

Run: ``.venv/bin/python benchmarks/bench_shortest.py [--rules relaxed egypt ...]
[--first 0] [--count 200] [--max-seconds 60] [--jsonl FILE] [--results DIR]``, or
``--show DIR`` to print the README's table from the runs kept there. Each preset runs in a fresh
process (so its peak memory is its own) and its deals one after another. Every deal is
solved twice: in decision mode and in shortest mode, and the two verdicts must agree
(``agree``: deals where both decided and said the same; any disagreement is printed and
makes the exit status 1). Time is the CPU time of the solving process (``process_time``),
and ``--max-seconds`` is a CPU-time limit per solve (an interval timer stops the solve; a
wall-clock limit of ten times as much is a backstop), so figures stay comparable on a
shared machine; the load average is printed at the start and the end, and should be quoted
with every figure. So is the CPU time of a fixed pure-Python loop (:func:`calibrate`, the
median of three runs, at the start and the end): this machine's speed varies from day to day
by up to 3x with the same node counts, so seconds from different days compare only through
it, and the machine-independent ``total nodes`` column says whether the search itself
changed.

Per preset it prints: deals, winnable % (either mode's verdict), ``unknown`` (shortest mode did
not finish: no verdict, or a winning line not proved shortest), median / p90 / max / total
seconds of shortest mode over all deals (a stopped solve counts its limit), median and
total over the winnable deals, max and total nodes,
peak memory (resident set, MB, of the process, which also ran the decision solves), and
the agreement count; then each issue-20 target with ``met`` or ``NOT met``.

``--results DIR`` keeps each preset's run as ``DIR/bench_shortest_<rules>.jsonl``: a first
line with the run's circumstances (commit, date, load average and reference loop before and
after the preset, peak memory), then one line a deal. The README's shortest-mode table is
printed from those files (:func:`markdown_row`), and a test keeps the two equal.

Targets (issue 20; deals 0-199, one core, pure Python, solver CPU seconds):

- ``relaxed --shortest`` on its winnable deals: total under 25 s and median under 0.1 s;
  every deal decided; peak memory under 500 MB.
- ``cheops`` and ``egypt --shortest``: every deal decided within 60 s, median under 0.5 s,
  p90 under 3 s, max under 30 s.
- ``medium``, ``easy``, ``hard``, ``apophis --shortest``: every deal decided, median under
  0.1 s, max under 10 s.
- Decision and shortest modes agree on every deal.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any

DEFAULT_RULES = ["relaxed", "medium", "easy", "hard", "cheops", "apophis", "egypt"]

TARGETS: dict[str, dict[str, float]] = {
    "relaxed": {"won_total": 25.0, "won_median": 0.1, "peak_mb": 500.0},
    "cheops": {"median": 0.5, "p90": 3.0, "max": 30.0},
    "egypt": {"median": 0.5, "p90": 3.0, "max": 30.0},
    "medium": {"median": 0.1, "max": 10.0},
    "easy": {"median": 0.1, "max": 10.0},
    "hard": {"median": 0.1, "max": 10.0},
    "apophis": {"median": 0.1, "max": 10.0},
}
"""Issue 20's limits per preset (seconds, or MB for ``peak_mb``); every preset must also
decide every deal and agree with decision mode."""


class CpuLimit(Exception):
    """Raised by the interval timer when a solve has used its CPU seconds."""


def _expire(signum: int, frame: FrameType | None) -> None:
    raise CpuLimit


def timed_solve(game: Any, shortest: bool, limit: float) -> dict[str, Any]:
    """Solve ``game`` with a CPU-time limit of ``limit`` seconds; the verdict (``unknown``
    when the limit was hit), whether the line is proved shortest, moves, nodes, CPU s."""
    from pyramid_widget.solver import solve

    before = signal.signal(signal.SIGPROF, _expire)
    started = time.process_time()
    try:
        signal.setitimer(signal.ITIMER_PROF, limit)
        try:
            solution = solve(game, shortest=shortest, max_seconds=10 * limit)
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, before)
    except CpuLimit:
        return {"verdict": "unknown", "proved": False, "moves": 0, "nodes": 0, "cpu": limit}
    cpu = time.process_time() - started
    verdict = solution.verdict.value
    return {
        "verdict": verdict,
        "proved": verdict != "unknown" and (solution.shortest or not shortest),
        "moves": len(solution.moves),
        "nodes": solution.nodes,
        "cpu": round(cpu, 4),
    }


def run_rules(rules: str, first: int, count: int, limit: float) -> dict[str, Any]:
    """Solve the deals under ``rules`` in this process, both modes; figures and records."""
    from pyramid_widget import Game

    records = []
    for number in range(first, first + count):
        decided = timed_solve(Game(rules, deal=number), False, limit)
        fewest = timed_solve(Game(rules, deal=number), True, limit)
        records.append(
            {
                "rules": rules,
                "number": number,
                "decision": decided["verdict"],
                "decision_cpu": decided["cpu"],
                "verdict": fewest["verdict"] if fewest["proved"] else "unknown",
                "moves": fewest["moves"],
                "nodes": fewest["nodes"],
                "cpu": fewest["cpu"],
            }
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"rules": rules, "records": records, "peak_mb": peak}


def figures(result: dict[str, Any]) -> dict[str, Any]:
    """The table's numbers for one preset."""
    records = result["records"]
    times = sorted(r["cpu"] for r in records)
    winnable = [r for r in records if "winnable" in (r["verdict"], r["decision"])]
    won = sorted(r["cpu"] for r in winnable)
    both = [r for r in records if "unknown" not in (r["verdict"], r["decision"])]
    return {
        "deals": len(records),
        "win_pct": 100 * len(won) / len(records),
        "unknown": sum(r["verdict"] == "unknown" for r in records),
        "median": statistics.median(times),
        "p90": times[min(len(times) - 1, int(0.9 * len(times)))],
        "max": times[-1],
        "total": sum(times),
        "won_median": statistics.median(won) if won else 0.0,
        "won_total": sum(won),
        "max_nodes": max(r["nodes"] for r in records),
        "total_nodes": sum(r["nodes"] for r in records),
        "peak_mb": result["peak_mb"],
        "agree": sum(r["verdict"] == r["decision"] for r in both),
        "compared": len(both),
        "disagree": [r["number"] for r in both if r["verdict"] != r["decision"]],
    }


def row(rules: str, f: dict[str, Any]) -> str:
    """One table row."""
    return (
        f"| {rules:<8} | {f['deals']:>5} | {f['win_pct']:>5.1f} | {f['unknown']:>7} | "
        f"{f['median']:>8.3f} | {f['p90']:>7.3f} | {f['max']:>7.2f} | {f['total']:>8.1f} | "
        f"{f['won_median']:>8.3f} | {f['won_total']:>8.1f} | {f['max_nodes']:>9} | "
        f"{f['total_nodes']:>11} | {f['peak_mb']:>7.0f} | {f['agree']:>4}/{f['compared']:<4} |"
    )


HEADER = (
    "| rules    | deals | win % | unknown | median s |   p90 s |   max s |  total s | "
    "won med. | won tot. | max nodes | total nodes | peak MB | agree     |\n"
    "|----------|------:|------:|--------:|---------:|--------:|--------:|---------:|"
    "---------:|---------:|----------:|------------:|--------:|-----------|"
)


CENSORED = ("max", "total", "won_total")
"""Figures that a deal stopped at the CPU limit leaves too low (a median or p90 below the
limit is exact: the stopped deals are the slowest either way)."""


def verdicts(rules: str, f: dict[str, Any]) -> list[str]:
    """Each issue-20 target of ``rules`` with ``met`` or ``NOT met``."""
    lines = [
        f"  every deal decided: {'met' if f['unknown'] == 0 else 'NOT met'} ({f['unknown']} unknown)",
        f"  decision and shortest agree: {'met' if not f['disagree'] else 'NOT met'}",
    ]
    for key, limit in TARGETS.get(rules, {}).items():
        if f["unknown"] and key in CENSORED:
            shown = f"NOT met: {f['unknown']} deals hit the limit"
        else:
            shown = "met" if f[key] < limit else "NOT met"
        lines.append(f"  {key} under {limit:g}: {shown} ({f[key]:.3f})")
    return lines


def load() -> str:
    """The load average, as ``uptime`` shows it."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f}"


def calibrate(rounds: int = 3, size: int = 1_000_000) -> float:
    """CPU seconds of a fixed loop of the operations the solver spends its time on (integer
    bit operations, dict lookups and stores), the median of ``rounds`` runs: a yardstick for
    this machine's speed on the day (on the 2-core machine this project is built on,
    0.29-0.32 s on its quick days and up to 0.73 s on its slow ones).

    >>> 0 < calibrate(rounds=1, size=1_000) < 1
    True
    """
    runs = []
    for _ in range(rounds):
        started = time.process_time()
        table: dict[int, int] = {}
        x = 0x9E3779B97F4A7C15
        for i in range(size):
            x = (x * 6364136223846793005 + i) & 0xFFFFFFFFFFFFFFFF
            low = x & -x
            key = x >> 40
            table[key] = table.get(key, 0) + low.bit_length() + (x & 0xFFFF).bit_count()
        runs.append(time.process_time() - started)
    return statistics.median(runs)


def _three(x: float) -> str:
    """Seconds as the README's table shows them: three decimals under 10 s, one above."""
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def markdown_row(rules: str, f: dict[str, Any], limit: float = 60.0) -> str:
    """The README's row for one preset (a stopped deal's limit shows as ``60 (limit)``).

    >>> f = {"win_pct": 59.5, "unknown": 0, "median": 0.0551, "p90": 0.344, "max": 0.981,
    ...      "total": 24.04, "won_median": 0.148, "won_total": 23.92, "max_nodes": 19134,
    ...      "total_nodes": 363582, "peak_mb": 123.9, "agree": 200, "compared": 200}
    >>> markdown_row("relaxed", f)
    '| `relaxed` | 59.5% | 0 | 0.055 | 0.344 | 0.98 | 24.0 | 0.148 / 23.9 | 19,134 | 363,582 | 124 | 200/200 |'
    """
    top = f"{limit:g} (limit)" if f["unknown"] else f"{f['max']:.2f}"
    return (
        f"| `{rules}` | {f['win_pct']:.1f}% | {f['unknown']} | {_three(f['median'])} | "
        f"{_three(f['p90'])} | {top} | {f['total']:.1f} | "
        f"{_three(f['won_median'])} / {f['won_total']:.1f} | {f['max_nodes']:,} | "
        f"{f['total_nodes']:,} | {f['peak_mb']:,.0f} | {f['agree']}/{f['compared']} |"
    )


def _commit() -> str:
    """The checkout's commit (short), or ``unknown`` outside a git checkout."""
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parent,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return done.stdout.strip()


def results_file(folder: Path, rules: str) -> Path:
    """Where ``--results folder`` keeps the run of ``rules``.

    >>> results_file(Path("benchmarks/results"), "relaxed").name
    'bench_shortest_relaxed.jsonl'
    """
    return folder / f"bench_shortest_{rules}.jsonl"


def save_results(path: Path, meta: dict[str, Any], result: dict[str, Any]) -> None:
    """Write one preset's run: ``meta`` (with the peak memory added), then a line a deal
    (the folder is made if it is missing: a run of minutes is not lost at its end)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({**meta, "peak_mb": round(result["peak_mb"], 1)})]
    lines += [json.dumps(record) for record in result["records"]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def load_results(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """A file of :func:`save_results`: its first line, and the run as :func:`figures`
    takes it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    meta = json.loads(lines[0])
    records = [json.loads(line) for line in lines[1:]]
    return meta, {"rules": meta["rules"], "records": records, "peak_mb": meta["peak_mb"]}


def show(folder: Path) -> None:
    """Print the README's table from the runs kept in ``folder``, each preset's
    circumstances under it, in :data:`DEFAULT_RULES`' order."""
    print(
        "| rules | winnable | unknown | median s | p90 s | max s | total s | "
        "winnable: median / total s | max nodes | total nodes | peak MB | modes agree |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|")
    kept = []
    for rules in DEFAULT_RULES:
        path = results_file(folder, rules)
        if path.exists():
            meta, run = load_results(path)
            print(markdown_row(rules, figures(run), meta["max_seconds"]))
            kept.append(meta)
    for meta in kept:
        print(f"{meta['rules']}: {meta['commit']}, {meta['date']}, {circumstances(meta)}")


def circumstances(meta: dict[str, Any]) -> str:
    """A kept run's load average (one minute) and reference loop, before and after, as the
    README quotes them.

    >>> circumstances({"load_before": "0.70, 3.95, 2.95", "load_after": "1.28, 3.73, 2.91",
    ...                "reference_before": 0.5634, "reference_after": 0.527})
    'load 0.70 to 1.28, reference loop 0.563 and 0.527 CPU s'
    """
    before, after = meta["load_before"].split(",")[0], meta["load_after"].split(",")[0]
    return (
        f"load {before} to {after}, reference loop {meta['reference_before']:.3f} and "
        f"{meta['reference_after']:.3f} CPU s"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the table and the targets; 1 if the modes disagree."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", nargs="+", default=DEFAULT_RULES)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--max-seconds", type=float, default=60.0, help="CPU s per solve")
    parser.add_argument("--jsonl", help="write one JSON line per deal to this file")
    parser.add_argument("--results", help="keep each preset's run in this folder (see above)")
    parser.add_argument("--show", help="print the README's table from the runs kept here")
    args = parser.parse_args(argv)
    if args.show:
        show(Path(args.show))
        return 0
    last = args.first + args.count - 1
    print(f"shortest-mode benchmark, deals {args.first}..{last}, CPU limit {args.max_seconds:g} s")
    print(f"load average at start: {load()}")
    print(f"reference loop at start: {calibrate():.3f} CPU s")
    print(HEADER, flush=True)
    context = multiprocessing.get_context("spawn")
    notes: list[str] = []
    status = 0
    out = open(args.jsonl, "w", encoding="utf-8") if args.jsonl else None  # noqa: SIM115
    try:
        for rules in args.rules:
            if args.results:  # the run's circumstances, kept with it
                meta: dict[str, Any] = {
                    "rules": rules,
                    "commit": _commit(),
                    "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                    "first": args.first,
                    "count": args.count,
                    "max_seconds": args.max_seconds,
                    "load_before": load(),
                    "reference_before": round(calibrate(), 3),
                }
            with context.Pool(1) as pool:
                result = pool.apply(run_rules, (rules, args.first, args.count, args.max_seconds))
            f = figures(result)
            print(row(rules, f), flush=True)
            if args.results:
                meta["load_after"] = load()
                meta["reference_after"] = round(calibrate(), 3)
                save_results(results_file(Path(args.results), rules), meta, result)
            notes.append(f"{rules}:")
            notes.extend(verdicts(rules, f))
            if f["disagree"]:
                status = 1
                notes.append(f"  DISAGREEMENT on deals {f['disagree']}")
            if out:
                for record in result["records"]:
                    out.write(json.dumps(record) + "\n")
                out.flush()
    finally:
        if out:
            out.close()
    print(f"load average at end: {load()}")
    print(f"reference loop at end: {calibrate():.3f} CPU s")
    print("\n".join(notes))
    return status


if __name__ == "__main__":
    sys.exit(main())
