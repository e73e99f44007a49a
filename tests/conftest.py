"""Shared fixtures: a private records directory for every test run, and Chromium fixtures for
the browser tests (see ``tests/support/browser.py``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import REPO, JupyterLab, StaticServer, launch_chromium


@pytest.fixture(scope="session", autouse=True)
def _private_records_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Never touch the user's records: point ``PYRAMID_WIDGET_DATA_DIR`` at a temp dir."""
    path = tmp_path_factory.mktemp("pyramid-data")
    old = os.environ.get("PYRAMID_WIDGET_DATA_DIR")
    os.environ["PYRAMID_WIDGET_DATA_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("PYRAMID_WIDGET_DATA_DIR", None)
    else:
        os.environ["PYRAMID_WIDGET_DATA_DIR"] = old


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """One headless system Chromium for the session (skips, or fails under CI, if missing)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch_chromium(p)
        yield browser
        browser.close()


@pytest.fixture()
def page(chromium: Any) -> Iterator[Any]:
    """A fresh page (own context) at 1100 x 900."""
    context = chromium.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session")
def static_server() -> Iterator[StaticServer]:
    """The repository served over HTTP on 127.0.0.1 (for ``tests/harness/index.html``).
    ``PYRAMID_WIDGET_HARNESS_ROOT`` serves another copy instead (e.g. one with an older
    ``widget.js``, to see a new browser test fail on the old page)."""
    root = os.environ.get("PYRAMID_WIDGET_HARNESS_ROOT")
    with StaticServer(Path(root) if root else REPO) as server:
        yield server


@pytest.fixture(scope="session")
def jupyterlab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterLab]:
    """One real JupyterLab for the session, started on first use and stopped by its process
    id at the end. It serves copies of every notebook in ``notebooks/``; a test that needs a
    notebook of its own writes it into ``jupyterlab.root``. Its kernels keep their records in
    a private directory (``PYRAMID_WIDGET_DATA_DIR``)."""
    data = tmp_path_factory.mktemp("lab-records")
    notebooks = sorted((REPO / "notebooks").glob("*.ipynb"))
    with JupyterLab(notebooks, env={"PYRAMID_WIDGET_DATA_DIR": str(data)}, timeout=120) as lab:
        yield lab
