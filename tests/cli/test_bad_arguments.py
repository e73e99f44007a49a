"""Every bad argument, for every subcommand: exit status 2, ONE line on stderr, no traceback,
and no file touched (issue 14, items 4 and 8). Ends with a seeded hypothesis fuzz of whole
argument lists, run in-process through ``main(argv)``, and two real subprocess checks."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_widget import Game
from pyramid_widget.cli import main
from pyramid_widget.cli import solve as cli_solve
from pyramid_widget.engine.deals import MAX_DEAL_NUMBER, deal_from_number, format_deal
from pyramid_widget.records.store import DATA_DIR_ENV, Records

ROOT = Path(__file__).resolve().parents[2]
LAST = MAX_DEAL_NUMBER


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``main(argv)`` in this process: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def assert_refused(argv: list[str], message: str = "") -> str:
    """``argv`` exits 2 with one line on stderr (containing ``message``) and prints nothing."""
    status, out, err = run_cli(argv)
    assert status == 2, (argv, out, err)
    lines = err.splitlines()
    assert len(lines) == 1, (argv, err)
    assert lines[0].startswith("pyramid-widget") and ": error: " in lines[0]
    assert message in lines[0], (message, lines[0])
    assert out == "", out
    return lines[0]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    """Files a user might point the command line at by mistake, or on purpose."""
    made = {
        "notes": tmp_path / "notes.txt",
        "foreign": tmp_path / "accounts.db",
        "deep": tmp_path / "deep.json",
        "array": tmp_path / "array.json",
        "huge": tmp_path / "huge.json",
        "folder": tmp_path / "folder.json",
        "good_rules": tmp_path / "two-pass.json",
        "deals": tmp_path / "deals.txt",
        "bad_line": tmp_path / "bad-line.txt",
        "too_big": tmp_path / "too-big.txt",
        "binary": tmp_path / "binary.txt",
        "db": tmp_path / "records.sqlite3",
        "damaged": tmp_path / "damaged.sqlite3",
    }
    made["notes"].write_text("my notes: buy milk\n", encoding="utf-8")
    with sqlite3.connect(made["foreign"]) as conn:
        conn.execute("CREATE TABLE ledger (amount REAL)")
    conn.close()
    made["deep"].write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    made["array"].write_text("[1, 2, 3]", encoding="utf-8")
    made["huge"].write_text(" " * 1_000_001 + "{}", encoding="utf-8")
    made["folder"].mkdir()
    from pyramid_widget import get_rules

    rules = get_rules("medium").replace(name="two-pass", passes=2)
    made["good_rules"].write_text(json.dumps(rules.to_dict()), encoding="utf-8")
    made["deals"].write_text(f"7\n{format_deal(deal_from_number(8))}\n", encoding="utf-8")
    made["bad_line"].write_text("7\n8\nnine\n", encoding="utf-8")
    made["too_big"].write_text(f"7\n{LAST + 1}\n", encoding="utf-8")
    made["binary"].write_bytes(b"7\n\xff\xfe\x00\x01\n")
    with Records(made["db"]) as records:
        records.record_game(Game("medium", deal=LAST))
    with Records(made["damaged"]) as records:
        for _ in range(200):
            records.record_game(Game("medium", deal=1))
    with sqlite3.connect(made["damaged"]) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(made["damaged"].read_bytes())
    data[4096:-100] = b"\xa5" * (len(data) - 4196)
    made["damaged"].write_bytes(bytes(data))
    return made


def snapshot(place: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in place.iterdir() if p.is_file()}


# -- item 4: a read command never moves or replaces a file that is not ours -------------------


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("notes", "is not a pyramid-widget records file (it is not an SQLite database)"),
        ("foreign", "is not a pyramid-widget records file (it is an SQLite database of"),
        ("damaged", "is damaged"),
    ],
)
def test_stats_refuses_a_file_that_is_not_a_readable_records_file_and_changes_nothing(
    files: dict[str, Path], key: str, message: str
) -> None:
    place = files[key].parent
    before = snapshot(place)
    assert_refused(["stats", "--db", str(files[key])], message)
    after = snapshot(place)
    assert {name: after[name] for name in before} == before
    assert not [name for name in after if ".corrupt-" in name]
    assert set(after) - set(before) <= {"damaged.sqlite3-wal", "damaged.sqlite3-shm"}


def test_stats_reads_a_good_file_and_a_big_deal_number_in_it(files: dict[str, Path]) -> None:
    status, out, err = run_cli(["stats", "--db", str(files["db"]), "--json"])
    assert (status, err) == (0, "")
    assert json.loads(out)["stats"][0]["played"] == 1


def test_a_records_file_named_like_ours_but_holding_text_is_not_ours(tmp_path: Path) -> None:
    (tmp_path / "records.sqlite3").write_text("not a database\n", encoding="utf-8")
    assert_refused(["stats", "--db", str(tmp_path)], "is not a pyramid-widget records file")
    assert (tmp_path / "records.sqlite3").read_text(encoding="utf-8") == "not a database\n"


# -- item 8: ranges, deal numbers, nested JSON, time limits ----------------------------------


def test_a_huge_range_is_refused_at_once_with_the_stated_maximum() -> None:
    started = time.perf_counter()
    assert_refused(
        ["solve", "--numbers", "0-100000000000", "--no-progress"],
        "a batch is at most 10,000,000 deals",
    )
    assert time.perf_counter() - started < 5


def test_a_batch_is_taken_lazily() -> None:
    """The batch runner takes jobs from an iterator as it goes: one ahead with one worker."""
    taken = []

    def jobs() -> Iterator[cli_solve.Job]:
        for number in range(10**12):  # far more than could ever be listed
            taken.append(number)
            yield ("hard", number, False, 50, None)

    first = next(cli_solve._run_batch(jobs(), 10**12, 1, False))
    assert first["number"] == 0 and len(taken) == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "--numbers", f"{LAST - 1}-{LAST + 1}"], "the largest deal number is"),
        (["solve", "--number", str(LAST + 1)], "a deal number is a whole number from 0 to"),
        (["solve", "--number", "9" * 5000], "a deal number is a whole number from 0 to"),
        (["experiment", "--deals", f"{LAST}:{LAST + 2}"], "--deals must stop at"),
        (["experiment", "--deals", "0:100000000000"], "--deals covers at most 1,000,000"),
    ],
)
def test_deal_numbers_past_the_largest_are_refused_before_anything_runs(
    argv: list[str], message: str
) -> None:
    assert_refused([*argv, "--jobs", "1"], message)


def test_deeply_nested_rules_json_is_one_line(files: dict[str, Path]) -> None:
    assert_refused(["solve", "--rules", str(files["deep"]), "--number", "1"], "nested too deeply")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "0", "1e400", "soon"])
@pytest.mark.parametrize("command", ["solve", "experiment"])
def test_a_time_limit_that_is_no_limit_is_refused(command: str, value: str) -> None:
    target = ["--number", "1"] if command == "solve" else ["--games", "1", "--quiet"]
    assert_refused(
        [command, *target, f"--max-seconds={value}"], "expected a number of seconds above 0"
    )


def test_a_range_to_the_last_deal_number_works(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(["solve", "--rules", "hard", "--numbers", f"{LAST - 1}-{LAST}",
                                "--no-progress", "--max-nodes", "2000"])  # fmt: skip
    assert status == 0, err
    assert [json.loads(line)["number"] for line in out.splitlines()] == [LAST - 1, LAST]


# -- other bad arguments, every subcommand ----------------------------------------------------


BAD = [
    (["solve", "--number", "1", "--jobs", "-1"], "argument --jobs"),
    (["solve", "--number", "1", "--jobs", "0"], "argument --jobs"),
    (["solve", "--number", "1", "--jobs", "65"], "from 1 to 64"),
    (["solve", "--number", "1", "--jobs", "1" + "0" * 40], "argument --jobs"),
    (["solve", "--number", "1", "--max-nodes", "0"], "argument --max-nodes"),
    (["solve", "--number", "-3"], "argument --number"),
    (["solve", "--number", "٣"], "argument --number"),
    (["solve", "--rules", "klondike", "--number", "1"], "unknown rule set"),
    (["solve", "--rules", "", "--number", "1"], ""),
    (["solve", "--deal", "AS 2H"], "52 cards"),
    (["solve", "--deal", "ZZ " * 5_000_000], ""),
    (["solve", "--numbers", "1-2-3"], "bad range"),
    (["solve", "--numbers", "-"], "bad range"),
    (["solve"], "one of the arguments"),
    (["solve", "--number", "1", "--numbers", "1-2"], "not allowed with"),
    (["solve", "--number", "1", "--bogus"], "unrecognized arguments"),
    (["experiment", "--games", "0"], "argument --games"),
    (["experiment", "--games", "1000001"], "from 1 to 1,000,000"),
    (["experiment", "--games", "-5"], "argument --games"),
    (["experiment", "--games", "x"], "argument --games"),
    (["experiment", "--jobs", "-1"], "argument --jobs"),
    (["experiment", "--rules", "klondike", "--games", "1"], "unknown rule set"),
    (["experiment", "--rules", "", "--games", "1"], "argument --rules: expected a name"),
    (["experiment", "--strategy", "clever", "--games", "1"], "unknown strategy"),
    (["experiment", "--seed", "x"], "argument --seed"),
    (["experiment", "--deals", "a:b"], "--deals takes START:STOP"),
    (["experiment", "--deals=-5:3"], "--deals takes START:STOP"),
    (["stats", "--db", ""], "--db needs a path"),
    (["stats", "--rules", " "], "expected a name"),
    (["stats", "--bogus"], "unrecognized arguments"),
    (["bogus"], "invalid choice"),
    ([], "required"),
]


@pytest.mark.parametrize(("argv", "message"), BAD)
def test_a_bad_argument_is_one_line_and_exit_2(argv: list[str], message: str) -> None:
    line = assert_refused(argv, message)
    assert len(line) <= 500  # a 15 MB deal is not echoed back whole


@pytest.mark.parametrize(
    ("option", "key", "message"),
    [
        ("--file", "folder", "is a directory"),
        ("--file", "bad_line", "line 3: not a deal number"),
        ("--file", "too_big", "line 2: not a deal number"),
        ("--file", "binary", "is not UTF-8 text"),
        ("--file", "missing", "no such deals file"),
        ("--rules", "folder", "is a directory"),
        ("--rules", "array", "must hold a JSON object"),
        ("--rules", "huge", "is over 1,000,000 bytes"),
        ("--rules", "missing", "no such rules file"),
    ],
)
def test_bad_files_are_one_line_and_nothing_is_solved(
    files: dict[str, Path], option: str, key: str, message: str
) -> None:
    path = files.get(key, files["notes"].parent / "missing.json")
    argv = ["solve", option, str(path), "--no-progress"]
    assert_refused(argv if option == "--file" else [*argv, "--number", "1"], message)


@pytest.mark.parametrize(
    ("where", "message"), [("folder", "is a directory"), ("nowhere/x.csv", "no directory")]
)
def test_a_bad_out_file_is_refused_before_the_experiment_runs(
    tmp_path: Path, where: str, message: str
) -> None:
    (tmp_path / "folder").mkdir()
    argv = ["experiment", "--games", "1", "--jobs", "1", "--quiet"]
    assert_refused([*argv, "--out", str(tmp_path / where)], message)


def test_help_is_not_an_error() -> None:
    status, out, err = run_cli(["solve", "--help"])
    assert (status, err) == (0, "") and "--numbers" in out


# -- the fuzz ---------------------------------------------------------------------------------

INTS = ["0", "1", "-1", "65", "x", "", "1e3", " 3 ", "٣", "9" * 30, str(LAST), str(LAST + 1)]
SECONDS = ["0.05", "nan", "inf", "-inf", "-1", "0", "x", "1e400"]
RULES = ["medium", "egypt", "cheops", "klondike", "", "Medium", "medium "]
JUNK = st.text(alphabet=st.characters(codec="utf-8"), max_size=12)


def solve_options(paths: dict[str, str]) -> st.SearchStrategy[list[str]]:
    files = st.sampled_from(sorted(paths.values()))
    pair = st.one_of(
        st.tuples(st.just("--number"), st.sampled_from(INTS)),
        st.tuples(
            st.just("--numbers"),
            st.sampled_from(
                ["0-2", "5", "3-1", "0-100000000000", f"{LAST - 1}-{LAST + 1}", "a-b", "1..2", "-"]
            ),
        ),
        st.tuples(st.just("--deal"), st.sampled_from([format_deal(deal_from_number(3)), "AS"])),
        st.tuples(st.just("--file"), files),
        st.tuples(st.just("--rules"), st.one_of(st.sampled_from(RULES), files)),
        st.tuples(st.just("--jobs"), st.sampled_from(["1", "0", "-1", "65", "x"])),
        st.tuples(st.just("--max-seconds"), st.sampled_from(SECONDS)),
        st.tuples(st.just("--max-nodes"), st.sampled_from(["200", *INTS])),
        st.tuples(st.sampled_from(["--shortest", "--json", "--bogus", "-x"]), JUNK),
    )
    return st.lists(pair, max_size=4).map(lambda pairs: [t for p in pairs for t in p])


def experiment_options(paths: dict[str, str]) -> st.SearchStrategy[list[str]]:
    pair = st.one_of(
        st.tuples(st.just("--rules"), st.sampled_from(RULES)),
        st.tuples(st.just("--strategy"), st.sampled_from(["greedy", "random", "clever", ""])),
        st.tuples(st.just("--games"), st.sampled_from(["1", "2", "0", "-1", "1000001", "x"])),
        st.tuples(st.just("--seed"), st.sampled_from(["0", "-3", "x", "9" * 30])),
        st.tuples(
            st.just("--deals"),
            st.sampled_from(
                ["0:2", "2:1", "7", f"{LAST}:{LAST + 2}", "0:100000000000", "a:b", ":"]
            ),
        ),
        st.tuples(st.just("--jobs"), st.sampled_from(["1", "0", "-1", "65", "x"])),
        st.tuples(st.just("--max-seconds"), st.sampled_from(SECONDS)),
        st.tuples(st.just("--out"), st.sampled_from(sorted(paths.values()))),
        st.tuples(st.sampled_from(["--bogus", "--quiet"]), JUNK),
    )
    return st.lists(pair, max_size=4).map(lambda pairs: [t for p in pairs for t in p])


def stats_options(paths: dict[str, str]) -> st.SearchStrategy[list[str]]:
    pair = st.one_of(
        st.tuples(st.just("--db"), st.sampled_from([*sorted(paths.values()), "", ":memory:"])),
        st.tuples(st.just("--rules"), st.one_of(st.sampled_from(RULES), JUNK)),
        st.tuples(st.sampled_from(["--json", "--saved", "--bogus"]), JUNK),
    )
    return st.lists(pair, max_size=4).map(lambda pairs: [t for p in pairs for t in p])


def test_fuzzed_argument_lists_exit_0_or_2_with_one_line_and_never_a_traceback(
    files: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(files["db"].parent))
    paths = {key: str(path) for key, path in files.items()}
    paths["missing"] = str(files["db"].parent / "missing" / "x.txt")
    paths["out"] = str(files["db"].parent / "out.csv")
    untouchable = {key: files[key].read_bytes() for key in ("notes", "foreign", "damaged")}
    prefix = {
        "solve": ["--max-nodes", "300", "--no-progress"],
        "experiment": ["--games", "2", "--jobs", "1", "--quiet", "--max-seconds", "0.05"],
        "stats": ["--db", paths["db"]],
    }
    argument_lists = st.one_of(
        st.tuples(st.just("solve"), solve_options(paths)),
        st.tuples(st.just("experiment"), experiment_options(paths)),
        st.tuples(st.just("stats"), stats_options(paths)),
        st.tuples(JUNK, st.lists(JUNK, max_size=3)),
    )
    tried: list[list[str]] = []
    statuses: list[int] = []
    failures: list[tuple[list[str], int, str]] = []

    @settings(
        max_examples=250,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(argument_lists)
    def check(case: tuple[str, list[str]]) -> None:
        command, rest = case
        argv = [command, *prefix.get(command, []), *rest]
        tried.append(argv)
        try:
            status, _, err = run_cli(argv)
        except BaseException as exc:  # an escape from main is a failure, counted below
            failures.append((argv, -1, f"{type(exc).__name__}: {exc}"))
            return
        statuses.append(status)
        one_line = status == 0 or len(err.splitlines()) == 1
        if status not in (0, 2) or "Traceback" in err or not one_line:
            failures.append((argv, status, err[:300]))

    check()
    assert {key: files[key].read_bytes() for key in untouchable} == untouchable
    print(f"CLI arguments: {len(tried)} cases tried, {len(failures)} failures")
    assert failures == []
    assert statuses.count(0) >= 10 and statuses.count(2) >= 10  # both kinds really reached


# -- the real command, in a real process ------------------------------------------------------


def real(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), DATA_DIR_ENV: str(cwd)}
    return subprocess.run(
        [sys.executable, "-m", "pyramid_widget.cli", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=60,
        check=False,
    )


def test_the_real_command_refuses_notes_txt_and_nested_json_in_one_line(
    files: dict[str, Path],
) -> None:
    place = files["notes"].parent
    before = snapshot(place)
    for argv in (
        ["stats", "--db", "notes.txt"],
        ["solve", "--rules", "deep.json", "--number", "1"],
    ):
        result = real(argv, place)
        assert result.returncode == 2, result.stderr
        assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
        assert result.stdout == ""
    assert snapshot(place) == before


def test_the_real_command_streams_a_long_batch_in_little_memory(tmp_path: Path) -> None:
    """Ten million deals (the largest batch allowed): the first lines come at once, and the
    process stays small, because nothing is listed up front."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = ["solve", "--rules", "hard", "--numbers", "0-9999999", "--max-nodes", "50"]
    child = subprocess.Popen(
        [sys.executable, "-m", "pyramid_widget.cli", *argv, "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        started = time.perf_counter()
        assert child.stdout is not None
        lines = [json.loads(child.stdout.readline()) for _ in range(20)]
        waited = time.perf_counter() - started
        status = Path(f"/proc/{child.pid}/status").read_text(encoding="utf-8")
        rss_kb = int(next(ln for ln in status.splitlines() if ln.startswith("VmRSS")).split()[1])
    finally:
        child.kill()
        child.wait(10)
    assert [line["number"] for line in lines] == list(range(20))
    assert waited < 30
    assert rss_kb < 200_000, f"{rss_kb} kB after 20 deals"
