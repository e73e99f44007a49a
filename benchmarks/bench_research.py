"""How far search gets from the solver's truth: OpenSpiel's ``MCTSBot`` and ``ISMCTSBot`` at a
few simulation budgets beside ``random``, ``greedy``, ``lookahead`` and ``perfect`` (the exact
solver: the share of deals that can be won) on the same deals, with 95% Wilson intervals.

The searches are OpenSpiel's own ``open_spiel.python.algorithms.mcts.MCTSBot`` (UCT constant
2, MCTS-Solver on) and ``ismcts.ISMCTSBot`` (UCT constant 2) on
``pyspiel.load_game("pyramid_solitaire(rules=...,deal=N)")``. A leaf is valued by one
playout to the end: uniformly random
(:class:`~pyramid_widget.lab.openspiel.RandomPlayoutEvaluator`, the distribution of
OpenSpiel's ``RandomRolloutEvaluator(1)``, run on the fast engine) or the lab's ``greedy``
(:class:`~pyramid_widget.lab.openspiel.GreedyPlayoutEvaluator`). ``MCTSBot`` searches the true
state, so like ``perfect`` it knows the order of the face-down stock; ``ISMCTSBot`` searches
stocks resampled from what the player knows, like ``greedy`` and ``lookahead``.

Deals are numbers ``0 .. n-1`` (OpenSpiel's integer parameters are 32-bit).

    nice .venv/bin/python benchmarks/bench_research.py [--deals 20] [--rules medium,hard]
        [--players mcts-random:50,mcts-greedy:50,mcts-greedy:200,ismcts-greedy:50]

Prints a Markdown table (and the load average) and writes
``artifacts/bench_research_<rules>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from pyramid_widget.lab.experiments import run_experiment
from pyramid_widget.lab.openspiel import GreedyPlayoutEvaluator, RandomPlayoutEvaluator
from pyramid_widget.lab.stats_ci import wilson

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
DEFAULT_PLAYERS = "mcts-random:50,mcts-greedy:50,mcts-greedy:200,ismcts-greedy:50"


def play_bot(rules: str, deal: int, make_bot: Any) -> float:
    """Play deal ``deal`` under ``rules`` with the bot ``make_bot(game, deal)``; 1.0 if won."""
    game = pyspiel.load_game("pyramid_solitaire", {"rules": rules, "deal": deal})
    bot = make_bot(game, deal)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    return float(state.returns()[0])


EVALUATORS = {"random": RandomPlayoutEvaluator, "greedy": GreedyPlayoutEvaluator}


def bot_factory(spec: str) -> tuple[str, Any]:
    """The table name and bot factory of a spec like ``mcts-greedy:200`` (search ``mcts`` or
    ``ismcts``, playouts ``random`` or ``greedy``, simulations a move)."""
    kind, _, budget_text = spec.partition(":")
    search, _, playout = kind.partition("-")
    budget = int(budget_text)
    if search not in ("mcts", "ismcts") or playout not in EVALUATORS:
        raise SystemExit(f"bad player {spec!r}: use mcts-random:N, mcts-greedy:N, ismcts-greedy:N")

    def make(game: Any, deal: int) -> Any:
        evaluator = EVALUATORS[playout](random.Random(deal))
        if search == "ismcts":
            return ismcts.ISMCTSBot(
                game, evaluator, 2.0, budget, random_state=np.random.RandomState(deal)
            )
        return mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=budget,
            evaluator=evaluator,
            random_state=np.random.RandomState(deal),
            solve=True,
        )

    label = "IS-MCTS" if search == "ismcts" else "MCTS"
    return f"{label} {budget}, {playout} playouts", make


def row(
    rules: str, name: str, wins: int, games: int, seconds: float, unknown: int = 0
) -> dict[str, Any]:
    """One line of the table."""
    low, high = wilson(wins, games)
    return {
        "rules": rules,
        "player": name,
        "n": games,
        "won": wins,
        "unknown": unknown,
        "win_rate": wins / games,
        "ci_low": low,
        "ci_high": high,
        "seconds_per_deal": seconds / games,
    }


def measure(rules: str, deals: int, players: list[str]) -> list[dict[str, Any]]:
    """Every player's row under ``rules`` over deals ``0 .. deals-1``."""
    rows = []
    for strategy in ("random", "greedy", "lookahead", "perfect"):
        start = time.perf_counter()
        results = run_experiment(
            rules,
            [strategy],
            deals=range(deals),
            games=deals,
            jobs=1,
            progress=False,
            max_seconds=30.0,
        )
        summary = results.summary()[0]
        seconds = time.perf_counter() - start
        rows.append(row(rules, strategy, summary.won, summary.games, seconds, summary.unknown))
    for name, make in (bot_factory(spec) for spec in players):
        start = time.perf_counter()
        wins = sum(int(play_bot(rules, deal, make)) for deal in range(deals))
        rows.append(row(rules, name, wins, deals, time.perf_counter() - start))
        print(f"  {rules} {name}: {wins}/{deals} ({time.perf_counter() - start:.0f} s)", flush=True)
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as a Markdown table."""
    lines = [
        "| rules | player | n | won | win rate | 95% interval | s/deal |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        unknown = f" ({r['unknown']} unknown)" if r["unknown"] else ""
        lines.append(
            f"| {r['rules']} | {r['player']} | {r['n']} | {r['won']}{unknown} | "
            f"{r['win_rate']:.0%} | {r['ci_low']:.0%}-{r['ci_high']:.0%} | "
            f"{r['seconds_per_deal']:.2f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--players", default=DEFAULT_PLAYERS)
    parser.add_argument("--rules", default="medium,hard")
    args = parser.parse_args()
    players = [p for p in args.players.split(",") if p]
    started = time.perf_counter()
    rows = []
    for rules in args.rules.split(","):
        rows += measure(rules, args.deals, players)
    load = os.getloadavg()
    text = table(rows)
    print(text)
    print(
        f"\n{time.perf_counter() - started:.0f} s in all; load average "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores"
    )
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "bench_research.json").write_text(
        json.dumps({"rows": rows, "load": load}, indent=2)
    )


if __name__ == "__main__":
    main()
