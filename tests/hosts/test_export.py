"""A notebook exported to HTML shows its board with no kernel and no network (issue 17.6).

``00_play`` is run headless (nbclient); its board's output keeps a static SVG beside the
widget view. A plain ``nbconvert --to html`` picks the widget view (a script for a widget
manager from a CDN: empty offline); with ``pyramid_widget.widget.export.OfflineBoards`` the
export carries the SVG itself, which Chromium shows from a ``file://`` page offline.
"""

from __future__ import annotations

import base64
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from playwright.sync_api import expect

from pyramid_widget.widget.export import PICTURE, WIDGET_VIEW
from tests.support.browser import REPO, screenshot
from tests.support.kernels import execute

PLAY = REPO / "notebooks" / "00_play.ipynb"


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``00_play`` run top to bottom, saved with its outputs."""
    nb = nbformat.read(PLAY, as_version=4)
    execute(nb, timeout=180)
    path = tmp_path_factory.mktemp("export") / "00_play.ipynb"
    nbformat.write(nb, path)
    return path


def board_outputs(path: Path) -> list[dict[str, Any]]:
    nb = nbformat.read(path, as_version=4)
    outs = [o for c in nb.cells for o in c.get("outputs", []) if WIDGET_VIEW in o.get("data", {})]
    return [o for o in outs if PICTURE in o["data"]]


def to_html(path: Path, *extra: str) -> str:
    out = path.with_suffix(".html")
    subprocess.run(
        [sys.executable, "-m", "nbconvert", "--to", "html", *extra, str(path)],
        check=True,
        capture_output=True,
        timeout=180,
    )
    return out.read_text()


def test_the_saved_board_output_has_its_picture(executed: Path) -> None:
    outputs = board_outputs(executed)
    assert len(outputs) == 1
    svg = outputs[0]["data"][PICTURE]
    assert svg.count('data-zone="pyramid"') == 28 and "medium · deal #" in svg


def pictures(html: str) -> list[str]:
    """The SVG documents an HTML export carries (nbconvert inlines them as data: images)."""
    found = re.findall(r'<img[^>]*src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', html)
    return [base64.b64decode(b).decode("utf-8") for b in found]


def test_a_plain_export_has_no_board_picture(executed: Path) -> None:
    html = to_html(executed)
    # the widget views win: a script each, for a widget manager from a CDN (the board and the
    # notebook's ipywidgets Label)
    assert html.count(f'<script type="{WIDGET_VIEW}">') == 2
    assert pictures(html) == []


@pytest.mark.browser
def test_offline_boards_export_shows_the_board(executed: Path, chromium: Any) -> None:
    html = to_html(
        executed, "--HTMLExporter.preprocessors=pyramid_widget.widget.export.OfflineBoards"
    )
    [svg] = pictures(html)
    assert svg == board_outputs(executed)[0]["data"][PICTURE]
    assert svg.count('data-zone="pyramid"') == 28
    assert html.count(f'<script type="{WIDGET_VIEW}">') == 1  # only the Label's is left
    page = chromium.new_page(viewport={"width": 1100, "height": 1400})
    try:
        page.route("http*://**", lambda route: route.abort())  # no network at all
        page.goto(executed.with_suffix(".html").as_uri())
        picture = page.locator("img[src^='data:image/svg+xml']")
        expect(picture).to_have_count(1)
        size = picture.evaluate("i => [i.complete, i.naturalWidth, i.naturalHeight]")
        assert size[0] and size[1] >= 600 and size[2] >= 600, size
        screenshot(picture, "export-offline-board")
    finally:
        page.close()
