"""Host theme signals in the frontend harness (issue 17.2, 17.3, 17.7), with no host running:
the page as VS Code's notebook webview sets it up (``body.vscode-dark`` and ``--vscode-*``
colours, the white ``.cell-output-ipywidget-background`` box around widget outputs), marimo's
``body.dark``, the browser's ``prefers-color-scheme`` with no host signal, and ``theme=``
overriding all of them. The status text must keep a 4.5:1 contrast on the board's own
background in each. Also: the page writes ``page_seen`` back after each event."""

from __future__ import annotations

from typing import Any

import pytest

from pyramid_widget.widget import PyramidWidget
from tests.hosts.test_marimo import _COLOURS, contrast, luminance
from tests.support.browser import StaticServer, bridge, chromium_page, widget_state

pytestmark = [pytest.mark.browser]

DARK_FELT, LIGHT_FELT = "#15422b", "#1e6a42"
VSCODE_DARK = "--vscode-editor-background: #1e1e1e; --vscode-editor-foreground: #d4d4d4;"
VSCODE_LIGHT = "--vscode-editor-background: #fffffe; --vscode-editor-foreground: #3b3b3b;"


def render(page: Any, server: StaticServer, theme: str, body_class: str, body_style: str) -> Any:
    w = PyramidWidget("medium", deal=7, records=False, theme=theme)
    page.goto(server.url("tests/harness/index.html"))
    page.wait_for_function("window.harnessReady === true")
    page.evaluate(
        "([c, s]) => { document.body.className = c; document.body.setAttribute('style', s); }",
        [body_class, body_style],
    )
    page.evaluate("s => window.harness.start(s, {})", widget_state(w))
    # VS Code puts each widget output in a box with a white background
    page.evaluate(
        "() => { const v = document.querySelector('.view'); const box = document.createElement('div');"
        " box.className = 'cell-output-ipywidget-background'; box.style.background = 'white';"
        " v.replaceWith(box); box.append(v); }"
    )
    page.wait_for_selector(".pyr-card[data-zone='pyramid']")
    w.close()
    return page.locator(".pyr-root").first.evaluate(_COLOURS)


CASES = [
    # (id, color scheme, body class, body style, theme, dark expected)
    ("vscode-dark", "light", "vscode-dark", VSCODE_DARK, "auto", True),
    ("vscode-light", "dark", "vscode-light", VSCODE_LIGHT, "auto", False),
    ("vscode-high-contrast", "light", "vscode-high-contrast", VSCODE_DARK, "auto", True),
    ("marimo-dark-light-dom", "light", "dark dark-theme", "", "auto", True),
    ("no-signal-dark-browser", "dark", "", "", "auto", True),
    ("no-signal-light-browser", "light", "", "", "auto", False),
    ("theme-light-overrides-dark-host", "dark", "dark vscode-dark", VSCODE_DARK, "light", False),
    ("theme-dark-overrides-light-host", "light", "vscode-light", VSCODE_LIGHT, "dark", True),
]


@pytest.mark.parametrize(("scheme", "cls", "style", "theme", "dark"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])  # fmt: skip
def test_theme_follows_the_host_and_stays_readable(
    chromium: Any,
    static_server: StaticServer,
    scheme: str,
    cls: str,
    style: str,
    theme: str,
    dark: bool,
) -> None:
    with chromium_page((1000, 900), color_scheme=scheme, browser=chromium) as page:
        colours = render(page, static_server, theme, cls, style)
        assert colours["felt"] == (DARK_FELT if dark else LIGHT_FELT), colours
        assert (luminance(colours["bg"]) < 0.2) == dark, colours
        assert contrast(colours["ink"], colours["bg"]) >= 4.5, colours
        assert contrast(colours["rules"], colours["bg"]) >= 4.5, colours
        box = page.evaluate(
            "() => getComputedStyle(document.querySelector('.cell-output-ipywidget-background'))"
            ".backgroundColor"
        )
        assert box == "rgba(0, 0, 0, 0)"  # VS Code's white box is see-through behind the board
        if "vscode" in cls and theme == "auto":
            want = [0xD4, 0xD4, 0xD4] if dark else [0x3B, 0x3B, 0x3B]
            assert colours["rules"] == want, colours  # VS Code's own text colour


def test_the_page_writes_back_each_event_it_has_seen(
    page: Any, static_server: StaticServer
) -> None:
    """marimo re-runs cells on a change the page makes: the page sets ``page_seen`` to the
    count of each ``last_event`` it receives, and saves it, once per event."""
    w = PyramidWidget("medium", deal=7, records=False)
    bridge(page, w)
    page.goto(static_server.url("tests/harness/index.html"))
    page.wait_for_function("window.harness.start && window.harnessReady === true")
    page.evaluate(
        """s => { window.harness.start(s, {}); const m = window.harness.model; window.seen = [];
        const set = m.set.bind(m); m.set = (k, v) => { if (k === 'page_seen') window.seen.push(v); set(k, v); };
        m.save_changes = () => window.seen.push('saved'); }""",
        widget_state(w),
    )
    stock = page.locator(".pyr-slot[data-zone='stock'] .pyr-slot-face")
    stock.click()
    page.wait_for_function("window.seen.length >= 2")
    first = w.last_event["count"]
    stock.click()
    page.wait_for_function("window.seen.length >= 4")
    assert page.evaluate("window.seen") == [first, "saved", w.last_event["count"], "saved"]
    assert w.last_event["count"] > first and w.moves == 2
    w.close()
