"""``python -m pyramid_widget`` is the ``pyramid-widget`` command, run by the interpreter."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def python_m(module: str, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", module, *argv],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )


def test_python_m_pyramid_widget_runs_the_command_line() -> None:
    package = python_m("pyramid_widget", "rules")
    assert package.returncode == 0, package.stderr
    assert package.stdout == python_m("pyramid_widget.cli", "rules").stdout
    assert "medium" in package.stdout


def test_python_m_pyramid_widget_gives_the_same_exit_statuses() -> None:
    assert python_m("pyramid_widget", "--help").returncode == 0
    bad = python_m("pyramid_widget", "solve", "--number", "x")
    assert bad.returncode == 2 and bad.stdout == ""
    (line,) = bad.stderr.splitlines()
    assert line.startswith("pyramid-widget solve: error: argument --number")
