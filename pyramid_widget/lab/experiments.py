"""Monte Carlo experiments: rule sets x strategies x deals, as a tidy table with honest intervals.

>>> results = run_experiment(["medium", "hard"], ["greedy"], games=40, seed=1, jobs=1,
...                          progress=False)
>>> len(results), results.rows[0].rules, results.rows[0].strategy
(80, 'medium', 'greedy')
>>> print(results.table())  # doctest: +NORMALIZE_WHITESPACE
rules   strategy  games  won  lost  unknown  win rate  95% CI
medium  greedy       40   15    25        0     37.5%  [24.2%, 53.0%]
hard    greedy       40    1    39        0      2.5%  [0.4%, 12.9%]

Every game's deal number and random seed come from ``(seed, game index)`` alone, so a run
gives the same table whatever the number of workers or the executor. The same deals are
played under every rule set and by every strategy (paired comparisons). Games run in a local
process pool by default (``jobs``), or on any ``concurrent.futures`` executor you pass, such
as a Dask cluster's ``client.get_executor()``. A tqdm progress bar follows long runs;
interrupting a run (Ctrl-C, or the notebook's stop button) keeps the games finished so far.

A deal that the ``perfect`` strategy's solver cannot decide in time, or a game stopped by
the move limit, is ``unknown``: it is counted on its own and left out of the win rate,
never silently counted as lost. Under ``egypt`` a game is one round: won when the pyramid of
the first deal is cleared.
"""

from __future__ import annotations

import concurrent.futures as cf
import csv
import hashlib
import itertools
import math
import os
import pickle
import random
import shutil
import signal
import sys
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from pyramid_widget.engine.deals import MAX_DEAL_NUMBER, deal_from_number
from pyramid_widget.engine.moves import MoveKind
from pyramid_widget.engine.quoting import shown
from pyramid_widget.engine.rules import RuleSet, get_rules
from pyramid_widget.errors import ArgumentError
from pyramid_widget.lab.stats_ci import mcnemar_exact, paired_difference_ci, wilson
from pyramid_widget.lab.strategies import (
    DEFAULT_MAX_MOVES,
    STRATEGIES,
    Outcome,
    Perfect,
    Strategy,
    get_strategy,
    play_game,
    solver_seconds,
    strategy_name,
)

__all__ = [
    "MAX_GAMES",
    "GameRow",
    "Paired",
    "Results",
    "Summary",
    "deal_for",
    "pyramid_cards_left",
    "rng_seed_for",
    "run_experiment",
    "what_if",
]


MAX_GAMES = 1_000_000
"""The most deals an experiment plays under each rule set with each strategy (``games``, or
the deal numbers in ``deals``). Every game's row is kept in memory, and the game list is
built before the first game, so a mistyped ``games=10**12`` would fill the memory before
anything ran; it is refused up front instead. ``pyramid-widget experiment`` states the same
cap for ``--games`` and ``--deals``."""


@dataclass(frozen=True)
class GameRow:
    """One game: which deal, rules and strategy, how it ended, how long it took.

    ``result`` is "won", "lost" or "unknown". ``cards_left`` counts the *pyramid* (tableau)
    cards not yet removed (0 in every won game: the goal is to clear the pyramid);
    ``cards_left_all`` counts every card not discarded, stock, reserve and waste included. Both are ``None`` when the
    game was not played out (the ``perfect`` strategy decides a lost deal without playing it).
    """

    game: int
    deal: int
    rules: str
    strategy: str
    result: str
    won: bool
    cards_left: int | None
    cards_left_all: int | None
    moves: int
    seconds: float


@dataclass(frozen=True)
class Summary:
    """Win counts and the win rate with its Wilson interval for one rules/strategy cell.

    The win rate is over decided games (``won + lost``); ``unknown`` games are reported
    beside it, and ``win_rate_bounds`` gives the rate if they had all been lost or all won.
    """

    rules: str
    strategy: str
    games: int
    won: int
    lost: int
    unknown: int
    win_rate: float
    ci_low: float
    ci_high: float
    mean_cards_left_lost: float | None
    """The mean number of pyramid cards left in the lost games that were played out."""
    mean_seconds: float

    @property
    def win_rate_bounds(self) -> tuple[float, float]:
        """The win rate over all games with every unknown game lost, then won."""
        if not self.games:
            return 0.0, 1.0
        return self.won / self.games, (self.won + self.unknown) / self.games


@dataclass(frozen=True)
class Paired:
    """Two strategies on the same deals: the 2x2 table of outcomes and what it says.

    ``only_first`` deals were won by ``first`` alone, ``only_second`` by ``second`` alone.
    ``difference`` is ``first``'s win rate minus ``second``'s, with Newcombe's paired 95%
    interval (``ci_low``, ``ci_high``); ``p_value`` is McNemar's exact test of "they win
    equally often" (:mod:`pyramid_widget.lab.stats_ci`). Deals with an unknown result under
    either strategy are left out (``dropped``).
    """

    rules: str
    first: str
    second: str
    both: int
    only_first: int
    only_second: int
    neither: int
    dropped: int
    difference: float
    ci_low: float
    ci_high: float
    p_value: float

    @property
    def deals(self) -> int:
        """The deals compared (decided under both strategies)."""
        return self.both + self.only_first + self.only_second + self.neither

    def table(self) -> str:
        """The 2x2 table, the difference with its interval, and the test, as plain text."""
        a, b = self.first, self.second
        width = max(len(a), len(b), len("neither")) + 6
        lines = [
            f"{self.deals} deals under {self.rules}, each played by {a} and by {b}"
            + (f" ({self.dropped} with an unknown result left out)" if self.dropped else ""),
            f"{'':{width}}{b + ' won':>12}{b + ' lost':>13}",
            f"{a + ' won':{width}}{self.both:>12}{self.only_first:>13}",
            f"{a + ' lost':{width}}{self.only_second:>12}{self.neither:>13}",
            f"{a} - {b}: {self.difference:+.1%} [{self.ci_low:+.1%}, {self.ci_high:+.1%}] "
            "(95% paired interval, Newcombe)",
            f"McNemar exact test on the {self.only_first + self.only_second} deals only one "
            f"won: p = {self.p_value:.2g}",
        ]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        import html

        return f"<pre>{html.escape(self.table())}</pre>"

    def __repr__(self) -> str:
        return self.table()


@dataclass
class Results:
    """The rows of an experiment (one per game) and what was asked for.

    ``interrupted`` is true when the run was stopped early: ``rows`` then holds the games
    finished before the stop.
    """

    rows: list[GameRow]
    rules: list[str]
    strategies: list[str]
    seed: int | None
    interrupted: bool = False
    parameter: str | None = None
    values: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[GameRow]:
        return iter(self.rows)

    def select(self, rules: str | None = None, strategy: str | None = None) -> list[GameRow]:
        """The rows of one rule set and/or strategy, in game order."""
        return [
            r
            for r in self.rows
            if (rules is None or r.rules == rules) and (strategy is None or r.strategy == strategy)
        ]

    def paired(self, first: str, second: str, rules: str | None = None) -> Paired:
        """Compare strategies ``first`` and ``second`` deal by deal under ``rules`` (the only
        rule set when there is one).

        >>> r = run_experiment("medium", ["random", "greedy"], games=40, jobs=1, progress=False)
        >>> p = r.paired("greedy", "random")
        >>> p.deals, p.only_first > p.only_second
        (40, True)
        """
        if rules is None:
            if len(self.rules) != 1:
                raise ArgumentError(f"say which rule set to compare under: one of {self.rules}")
            rules = self.rules[0]
        for name, known in (
            (rules, self.rules),
            (first, self.strategies),
            (second, self.strategies),
        ):
            if name not in known:
                raise ArgumentError(f"{name!r} is not in these results (they hold {known})")
        if first == second:
            raise ArgumentError("compare two different strategies")
        by_game = {row.game: row for row in self.select(rules, second)}
        counts = [0, 0, 0, 0]
        dropped = 0
        for row in self.select(rules, first):
            other = by_game.get(row.game)
            if other is None or "unknown" in (row.result, other.result):
                dropped += 1
                continue
            counts[(not row.won) * 2 + (not other.won)] += 1
        both, only_first, only_second, neither = counts
        n = sum(counts)
        low, high = paired_difference_ci(both, only_first, only_second, neither)
        return Paired(
            rules,
            first,
            second,
            both,
            only_first,
            only_second,
            neither,
            dropped,
            (only_first - only_second) / n if n else math.nan,
            low,
            high,
            mcnemar_exact(only_first, only_second),
        )

    def summary(self, confidence: float = 0.95) -> list[Summary]:
        """One :class:`Summary` per rules/strategy cell, in the order asked for."""
        return [
            _summarise(rules, strategy, self.select(rules, strategy), confidence)
            for rules in self.rules
            for strategy in self.strategies
        ]

    def table(self) -> str:
        """The summary as a plain-text table (what the CLI prints)."""
        head = ("rules", "strategy", "games", "won", "lost", "unknown", "win rate", "95% CI")
        body = [
            (
                s.rules,
                s.strategy,
                str(s.games),
                str(s.won),
                str(s.lost),
                str(s.unknown),
                "n/a" if math.isnan(s.win_rate) else f"{s.win_rate:.1%}",  # no game decided
                f"[{s.ci_low:.1%}, {s.ci_high:.1%}]",
            )
            for s in self.summary()
        ]
        widths = [max(len(row[i]) for row in [head, *body]) for i in range(len(head))]
        lines = []
        for row in [head, *body]:
            cells = [
                cell.ljust(w) if i < 2 or i == 7 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            ]
            lines.append("  ".join(cells).rstrip())
        if self.interrupted:
            lines.append(f"(interrupted: {len(self.rows)} games finished)")
        return "\n".join(lines)

    def to_csv(self, path: str | os.PathLike[str]) -> Path:
        """Write one row per game to ``path`` (CSV with a header) and return the path.

        All or nothing: the rows go to a new file beside ``path`` that then takes its place
        (with the old file's permissions; through a symbolic link, onto the file it names),
        so a write that fails part way (a full disk, an interrupt) leaves a file that was
        there as it was, and no half-written one. Where no file can be made beside it (a
        directory only its files may be written in) or ``path`` is no regular file
        (``/dev/stdout``, a pipe), the rows are written to ``path`` itself. A write that
        fails raises ``OSError`` with one sentence naming the file.

        >>> import tempfile
        >>> r = Results(rows=[], rules=[], strategies=[], seed=0)
        >>> out = r.to_csv(Path(tempfile.mkdtemp()) / "rows.csv")
        >>> out.read_text().split(",")[:2], sorted(p.name for p in out.parent.iterdir())
        (['game', 'deal'], ['rows.csv'])
        """
        out = Path(path)
        real = out.resolve() if out.is_symlink() else out
        there = real.exists()
        beside = False  # whether the rows go to a new file beside it first
        try:
            if there and not real.is_file():
                self._write_csv(out)
                return out
            # opened like any new file ("x": never someone else's), so the umask sets its
            # mode; a file that was there passes its own on
            spare = real.with_name(f".{real.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp")
            try:
                spare.open("x").close()
            except OSError:
                self._write_csv(out)
                return out
            beside = True
            try:
                if there:
                    shutil.copymode(real, spare)
                self._write_csv(spare)
                os.replace(spare, real)
            except BaseException:
                spare.unlink(missing_ok=True)
                raise
        except OSError as exc:
            kept = "; the file that was there is unchanged" if there and beside else ""
            raise OSError(
                f"cannot write the {len(self.rows):,} rows to {shown(str(out), 300)} "
                f"({exc.strerror or exc}){kept}"
            ) from exc
        return out

    def _write_csv(self, out: Path) -> None:
        with out.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow([f.name for f in fields(GameRow)])
            for row in self.rows:
                writer.writerow(["" if v is None else v for v in asdict(row).values()])

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame (pandas is imported only here)."""
        try:
            import pandas as pd  # type: ignore[import-untyped]
        except ImportError:
            raise ImportError("to_pandas() needs pandas: pip install pandas") from None
        return pd.DataFrame([asdict(r) for r in self.rows])

    def _repr_html_(self) -> str:
        import html

        return f"<pre>{html.escape(self.table())}</pre>"

    def __repr__(self) -> str:
        state = ", interrupted" if self.interrupted else ""
        return f"<Results {len(self.rows)} games, seed={self.seed}{state}>\n{self.table()}"


def _summarise(rules: str, strategy: str, rows: list[GameRow], confidence: float) -> Summary:
    won = sum(r.result == "won" for r in rows)
    lost = sum(r.result == "lost" for r in rows)
    left = [r.cards_left for r in rows if r.result == "lost" and r.cards_left is not None]
    low, high = wilson(won, won + lost, confidence)
    return Summary(
        rules=rules,
        strategy=strategy,
        games=len(rows),
        won=won,
        lost=lost,
        unknown=len(rows) - won - lost,
        win_rate=won / (won + lost) if won + lost else math.nan,
        ci_low=low,
        ci_high=high,
        mean_cards_left_lost=sum(left) / len(left) if left else None,
        mean_seconds=sum(r.seconds for r in rows) / len(rows) if rows else 0.0,
    )


# -- reproducible deals and seeds --------------------------------------------------------


def _hash64(*parts: object) -> int:
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def deal_for(seed: int, game: int) -> int:
    """The deal number of game ``game`` of a run seeded ``seed`` (depends on nothing else).

    >>> deal_for(0, 0) == deal_for(0, 0) != deal_for(0, 1)
    True
    """
    return _hash64("deal", seed, game)


def rng_seed_for(seed: int | None, game: int) -> int:
    """The seed of the strategy's random generator for game ``game`` of a run."""
    return _hash64("rng", seed, game)


# -- running -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Task:
    """A chunk of games for one worker (picklable: rules as data, strategies by name)."""

    rules: tuple[RuleSet, ...]
    labels: tuple[str, ...]
    strategies: tuple[Any, ...]
    games: tuple[tuple[int, int], ...]
    seed: int | None
    max_moves: int
    max_seconds: float


def _run_task(task: _Task) -> list[GameRow]:
    return [row for game, deal in task.games for row in _play_cell(task, game, deal)]


def _play_cell(task: _Task, game: int, deal: int) -> list[GameRow]:
    rows = []
    for rules, label in zip(task.rules, task.labels, strict=True):
        for strategy in task.strategies:
            strat = Perfect(task.max_seconds) if strategy == "perfect" else get_strategy(strategy)
            rng = random.Random(rng_seed_for(task.seed, game))
            out = play_game(strat, rules, deal, rng, max_moves=task.max_moves, record=True)
            rows.append(
                GameRow(
                    game,
                    deal,
                    label,
                    strategy_name(strategy),
                    out.result,
                    out.won,
                    pyramid_cards_left(deal, out, rules),
                    out.cards_left,
                    out.moves,
                    out.seconds,
                )
            )
    return rows


def pyramid_cards_left(deal: int, outcome: Outcome, rules: RuleSet | None = None) -> int | None:
    """How many of the cards dealt to the pyramid (the tableau of ``rules``: 28 cards of
    one deck when not given) ``outcome`` did not remove.

    Read from the moves played (``outcome.history``, kept by ``play_game(record=True)``): a
    card counts as removed once a pair or King move discards it; one parked in a free cell
    is still left. ``None`` when the game was not played out (a lost deal decided by the
    solver). Stock and waste cards never count.

    >>> import random
    >>> from pyramid_widget.lab.strategies import play_game
    >>> out = play_game("greedy", "medium", 7, random.Random(0), record=True)
    >>> out.result, out.cards_left, pyramid_cards_left(7, out)  # 12 cards left, 1 in the pyramid
    ('lost', 12, 1)
    """
    if outcome.cards_left is None:
        return None
    if rules is None or rules.classic_shape:
        pyramid = set(deal_from_number(deal)[:28])
    else:
        pyramid = set(deal_from_number(deal, rules.decks)[: rules.tableau_size])
    removed = {
        card
        for move in outcome.history
        if move.kind in (MoveKind.PAIR, MoveKind.KING)
        for card in move.cards
    }
    return len(pyramid - removed)


def _worker_init() -> None:
    """Workers ignore Ctrl-C: the parent stops the run and keeps the finished rows."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _parallel_safe(strategy: Any) -> bool:
    """Whether a strategy can be sent to a fresh worker process by reference."""
    if isinstance(strategy, str):
        return True
    if getattr(strategy, "__module__", "__main__") == "__main__":
        return False
    try:
        pickle.dumps(strategy)
    except Exception:
        return False
    return True


def _chunks(games: list[tuple[int, int]], size: int) -> list[tuple[tuple[int, int], ...]]:
    return [tuple(games[i : i + size]) for i in range(0, len(games), size)]


def _resolve(
    rules: str | RuleSet | Iterable[str | RuleSet],
    strategies: str | Strategy | Iterable[str | Strategy],
) -> tuple[list[RuleSet], list[Any]]:
    # Anything that is not a list of them is one rule set or one strategy, so that 5 or None
    # is refused by get_rules / get_strategy by name, not as "'int' object is not iterable".
    rule_list: list[Any]  # names, RuleSets or dicts of rule fields
    if isinstance(rules, (str, RuleSet, Mapping)) or not isinstance(rules, Iterable):
        rule_list = [rules]
    else:
        rule_list = list(rules)
    strat_list: list[str | Strategy]
    if isinstance(strategies, str) or callable(strategies) or not isinstance(strategies, Iterable):
        strat_list = [strategies]
    else:
        strat_list = list(strategies)
    if not rule_list or not strat_list:
        raise ArgumentError("give at least one rule set and one strategy")
    resolved = [get_rules(r) for r in rule_list]
    names = [r.name for r in resolved]
    if len(set(names)) != len(names):
        raise ArgumentError(f"rule set names must differ within an experiment, got {names}")
    for s in strat_list:
        get_strategy(s)
    snames = [strategy_name(s) for s in strat_list]
    if len(set(snames)) != len(snames):
        raise ArgumentError(f"strategy names must differ within an experiment, got {snames}")
    # Built-in strategies travel by name, so workers use their own fast instances.
    strat_list = [s.name if STRATEGIES.get(getattr(s, "name", "")) is s else s for s in strat_list]
    return resolved, [s.strip().lower() if isinstance(s, str) else s for s in strat_list]


def _game_list(
    games: int | None, seed: int | None, deals: Iterable[int] | None
) -> list[tuple[int, int]]:
    """``(game index, deal number)`` of every game, checked before the first is played.

    >>> _game_list(2, 0, range(10**12))
    [(0, 0), (1, 1)]
    >>> _game_list(None, 0, range(10**12))
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.ArgumentError: an experiment plays at most 1,000,000 deals, and deals holds more; pass games= to play its first ones, or split it into several runs
    """
    if games is not None and (
        isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES
    ):
        raise ArgumentError(f"games must be a whole number from 1 to {MAX_GAMES:,}, got {games!r}")
    if deals is not None:
        if isinstance(deals, (str, bytes, Mapping)) or not isinstance(deals, Iterable):
            raise ArgumentError(
                "deals must be a list or range of deal numbers, like range(100), got "
                f"{type(deals).__name__}"
            )
        # Read one past the cap at most: range(10**20) has no len() and count() no end.
        numbers = list(itertools.islice(deals, MAX_GAMES + 1 if games is None else games))
        if len(numbers) > MAX_GAMES:
            raise ArgumentError(
                f"an experiment plays at most {MAX_GAMES:,} deals, and deals holds more; "
                "pass games= to play its first ones, or split it into several runs"
            )
        if not numbers:
            # A table of 0 games says "nan%": an empty list is a mistake upstream, say so.
            raise ArgumentError("there are no deal numbers in deals: give at least one")
        for d in numbers:
            if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d <= MAX_DEAL_NUMBER:
                raise ArgumentError(
                    f"deal numbers must be non-negative integers up to {MAX_DEAL_NUMBER}, got {d!r}"
                )
        return list(enumerate(numbers))
    if games is None:
        raise ArgumentError(f"games must be a whole number from 1 to {MAX_GAMES:,}, got None")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArgumentError(f"seed must be an integer, got {seed!r}")
    return [(i, deal_for(seed, i)) for i in range(games)]


def run_experiment(
    rules: str | RuleSet | Iterable[str | RuleSet] = "medium",
    strategies: str | Strategy | Iterable[str | Strategy] = "greedy",
    games: int | None = 1000,
    *,
    seed: int = 0,
    deals: Iterable[int] | None = None,
    jobs: int | None = None,
    executor: cf.Executor | None = None,
    progress: bool = True,
    max_moves: int = DEFAULT_MAX_MOVES,
    max_seconds: float = 10.0,
    chunk_size: int | None = None,
) -> Results:
    """Play ``games`` deals under each rule set with each strategy and return the rows.

    ``rules`` and ``strategies`` are one or several preset names, :class:`RuleSet` objects,
    strategy names or callables ``(game, rng) -> move``. Deals come from ``seed`` (game ``i``
    plays deal :func:`deal_for` ``(seed, i)``) or from ``deals``, an explicit list or range
    of deal numbers (``games`` then caps how many are used); at most :data:`MAX_GAMES`
    deals either way. ``jobs`` worker processes
    (default: every core) or ``executor`` (any ``concurrent.futures`` executor, such as
    ``dask.distributed.Client(...).get_executor()``) run the games; ``max_seconds`` bounds the
    solver per deal for ``perfect``; ``max_moves`` bounds a game.

    Strategies written in a notebook cell run in this process (worker processes cannot
    import them) unless an ``executor`` that pickles functions, like Dask's, is given.
    Raises :class:`~pyramid_widget.errors.ArgumentError` (a ``ValueError``) for bad arguments and :class:`~pyramid_widget.errors.StrategyError`
    when a strategy plays an illegal move.
    """
    rule_sets, strats = _resolve(rules, strategies)
    game_list = _game_list(games, seed, deals)
    workers = _jobs(jobs)
    # Checked up front: a worker would find them bad only after other games had run.
    max_seconds = solver_seconds(max_seconds)
    _at_least_one(max_moves, "max_moves")
    if chunk_size is not None:
        _at_least_one(chunk_size, "chunk_size")  # a negative one made no tasks: 0 games
    slow = any(not isinstance(s, str) or s in ("perfect", "lookahead") for s in strats)
    size = chunk_size or max(1, min(8 if slow else 250, math.ceil(len(game_list) / (workers * 8))))
    labels = tuple(r.name for r in rule_sets)
    tasks = [
        _Task(tuple(rule_sets), labels, tuple(strats), chunk, seed, max_moves, max_seconds)
        for chunk in _chunks(game_list, size)
    ]
    bar = _progress_bar(len(game_list) * len(labels) * len(strats), progress)
    try:
        if executor is not None:
            rows, interrupted = _run_executor(executor, tasks, bar)
        elif workers == 1 or len(tasks) == 1 or not _all_parallel_safe(strats, jobs):
            rows, interrupted = _run_serial(tasks, bar)
        else:
            pool = cf.ProcessPoolExecutor(workers, initializer=_worker_init)
            rows, interrupted = _run_executor(pool, tasks, bar, own=True)
    finally:
        bar.close()
    order = {(r, s): i for i, (r, s) in enumerate((r, s) for r in labels for s in _names(strats))}
    rows.sort(key=lambda row: (order[row.rules, row.strategy], row.game))
    if interrupted:
        print(f"interrupted: kept the {len(rows)} games finished so far", file=sys.stderr)
    return Results(rows, list(labels), _names(strats), seed, interrupted)


def _names(strats: Sequence[Any]) -> list[str]:
    return [strategy_name(s) for s in strats]


def _jobs(jobs: int | None) -> int:
    if jobs is None:
        return os.cpu_count() or 1
    return _at_least_one(jobs, "jobs")


def _at_least_one(value: object, name: str) -> int:
    """``value`` if it is a whole number of at least 1, else an ``ArgumentError`` naming ``name``.

    >>> _at_least_one(0, "jobs")
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.ArgumentError: jobs must be a whole number of at least 1, got 0
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ArgumentError(f"{name} must be a whole number of at least 1, got {value!r}")
    return value


_NOTED: set[str] = set()
"""Strategies already told (once a session) that they run in this process."""


def _all_parallel_safe(strats: Sequence[Any], jobs: int | None) -> bool:
    """Whether every strategy can go to worker processes.

    A strategy defined in a notebook or script cannot, so the run stays in this process.
    That only matters when parallel workers were asked for (``jobs`` above 1): then it is a
    warning. With the default ``jobs`` it is a one-line note, once a session per strategy.
    """
    unsafe = [strategy_name(s) for s in strats if not _parallel_safe(s)]
    why = (
        f"strategy {', '.join(unsafe)} is defined in this notebook or script, so it runs in "
        "this process; put it in a module (or pass executor=) to run it in parallel"
    )
    if unsafe and jobs is not None and jobs > 1:
        warnings.warn(why, stacklevel=3)
    elif unsafe and jobs is None and not _NOTED.issuperset(unsafe):
        _NOTED.update(unsafe)
        print(f"note: {why}", file=sys.stderr)
    return not unsafe


def _progress_bar(total: int, enabled: bool) -> Any:
    from tqdm.auto import tqdm  # type: ignore[import-untyped]

    return tqdm(total=total, disable=not enabled, unit="game", desc="games", smoothing=0.1)


def _run_serial(tasks: list[_Task], bar: Any) -> tuple[list[GameRow], bool]:
    rows: list[GameRow] = []
    try:
        for task in tasks:
            for game, deal in task.games:
                cell = _play_cell(task, game, deal)
                rows.extend(cell)
                bar.update(len(cell))
    except KeyboardInterrupt:
        return rows, True
    return rows, False


def _run_executor(
    executor: cf.Executor, tasks: list[_Task], bar: Any, *, own: bool = False
) -> tuple[list[GameRow], bool]:
    rows: list[GameRow] = []
    futures = [executor.submit(_run_task, task) for task in tasks]
    read: set[int] = set()
    try:
        for future in cf.as_completed(futures):
            chunk = future.result()
            read.add(id(future))
            rows.extend(chunk)
            bar.update(len(chunk))
    except KeyboardInterrupt:
        rows.extend(_harvest(futures, read))
        _cancel(executor, futures, own)
        return rows, True
    except BaseException:
        _cancel(executor, futures, own)
        raise
    if own:
        executor.shutdown(wait=True)
    return rows, False


def _harvest(futures: list[Any], read: set[int]) -> list[GameRow]:
    """Rows of futures that finished but were not read before the interrupt."""
    rows: list[GameRow] = []
    for future in futures:
        if id(future) in read or not future.done() or future.cancelled():
            continue
        if future.exception() is None:
            rows.extend(future.result())
    return rows


def _cancel(executor: cf.Executor, futures: list[Any], own: bool) -> None:
    for future in futures:
        future.cancel()
    if own:
        executor.shutdown(wait=False, cancel_futures=True)


def what_if(
    base: str | RuleSet = "medium",
    parameter: str = "passes",
    values: Sequence[Any] = (1, 2, 3, 4, 5),
    strategies: str | Strategy | Iterable[str | Strategy] = "greedy",
    games: int | None = 1000,
    **options: Any,
) -> Results:
    """Run one experiment per value of a rule parameter (a "what if" sweep).

    Each variant is ``base.replace(parameter=value)`` named like ``"medium passes=2"``;
    sweeping ``waste_piles`` also sets ``draw_count`` to the same number (one card onto each
    pile per draw, as in the three-pile presets), and unlimited ``passes`` (``None``) comes
    with the ``easy`` stall rule, so that a hopeless game ends. ``options`` go to :func:`run_experiment`.
    ``Results.parameter`` and ``Results.values`` (variant name to value) let
    :func:`~pyramid_widget.lab.plots.plot_what_if` draw the sweep as a line.

    >>> r = what_if("hard", "passes", [1, 3], games=30, jobs=1, progress=False)
    >>> [(s.rules, s.won) for s in r.summary()]
    [('hard passes=1', 0), ('hard passes=3', 8)]
    """
    rules = get_rules(base)
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise ArgumentError(
            f"give a list of values to sweep, like [1, 2, 3], got {type(values).__name__}"
        )
    if not values:
        raise ArgumentError("give at least one value to sweep")
    variants = [_variant(rules, parameter, v) for v in values]
    results = run_experiment(variants, strategies, games, **options)
    results.parameter = parameter
    results.values = {r.name: v for r, v in zip(variants, values, strict=True)}
    return results


def _variant(rules: RuleSet, parameter: str, value: Any) -> RuleSet:
    changes: dict[str, Any] = {parameter: value}
    if parameter == "waste_piles":
        changes["draw_count"] = value
    if parameter == "passes" and value is None:
        changes["stall_rule"] = True
    shown = "unlimited" if value is None else value
    return rules.replace(name=f"{rules.name} {parameter}={shown}", **changes)
