"""Ctrl-C during a run on the process pool keeps the finished games (a real SIGINT)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = """
from pyramid_widget import cli
cli.SUBCOMMANDS = {"experiment": "pyramid_widget.cli_experiment"}
raise SystemExit(cli.main(["experiment", "--strategy", "lookahead", "--games", "5000",
                           "--jobs", "2", "--quiet"]))
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
    time.sleep(6)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=120)
    assert child.returncode == 130, err
    match = re.search(r"\(interrupted: (\d+) games finished\)", out)
    assert match, out
    kept = int(match.group(1))
    assert kept < 5000
    if kept:
        assert re.search(rf"medium\s+lookahead\s+{kept}\s", out)
    assert f"kept the {kept} games finished so far" in err
