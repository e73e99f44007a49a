"""Ctrl-C during a run on the process pool keeps the finished games (a real SIGINT)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = """
from pyramid_widget import cli
cli.SUBCOMMANDS = {"experiment": "pyramid_widget.cli.experiment"}
raise SystemExit(cli.main(["experiment", "--strategy", "lookahead", "--games", "5000",
                           "--jobs", "2"]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigint_keeps_the_finished_games_and_stops_the_workers() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen(
        [sys.executable, "-c", SCRIPT],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.stderr is not None
    err: list[str] = []
    reader = threading.Thread(target=lambda: err.extend(iter(lambda: child.stderr.read(1), "")))  # type: ignore[union-attr]
    reader.start()
    deadline = time.monotonic() + 120
    while not re.search(r"\| *[1-9]\d*/5000", "".join(err)) and time.monotonic() < deadline:
        time.sleep(0.2)  # wait for the progress bar to count finished games
    child.send_signal(signal.SIGINT)
    child.wait(timeout=120)  # stdout is a few lines: it cannot fill the pipe
    reader.join(timeout=10)
    assert child.stdout is not None
    out = child.stdout.read()
    text = "".join(err)
    assert child.returncode == 130, text[-2000:]
    match = re.search(r"\(interrupted: (\d+) games finished\)", out)
    assert match, out
    kept = int(match.group(1))
    assert 0 < kept < 5000
    assert re.search(rf"medium\s+lookahead\s+{kept}\s", out)
    assert f"kept the {kept} games finished so far" in text
