"""The board in real ``marimo run`` + Chromium (issues 17.2, 17.3): ``notebooks/play_marimo.py``
renders in marimo's light and dark themes (one theme a notebook in the quick tier, both
under ``--thorough``) with readable text (contrast of the status line on
the board's own background), the felt follows the theme, a click on the board changes the
game in the kernel, and the cell that reads ``board.value`` runs again after the click.
The lessons (issue 17.4): ``notebooks/lessons_marimo.py`` shows the whole lesson (one
anywidget: header, dots, prompt, board, feedback, buttons) and plays it, in light and dark.
marimo puts the widget in a shadow root; Playwright's CSS locators pierce it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from pyramid_widget.lessons.style import FEEDBACK_COLOURS
from tests.support.browser import REPO, chromium_page, screenshot
from tests.support.hosts import Marimo

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("hosts")]

NOTEBOOK = REPO / "notebooks" / "play_marimo.py"
STOCK = ".pyr-slot[data-zone='stock'] .pyr-slot-face"

# Colours as the page computes them, and the WCAG contrast ratio of text on a background.
_COLOURS = """root => {
  const parse = (c) => { const x = document.createElement('canvas').getContext('2d');
    x.fillStyle = c; x.fillRect(0, 0, 1, 1); return [...x.getImageData(0, 0, 1, 1).data].slice(0, 3); };
  const st = getComputedStyle;
  return { ink: parse(st(root.querySelector('.pyr-status')).color),
           rules: parse(st(root.querySelector('.pyr-rules')).color),
           bg: parse(st(root).backgroundColor),
           felt: st(root).getPropertyValue('--pyr-felt').trim(),
           page: parse(st(document.body).backgroundColor) };
}"""


def luminance(rgb: list[int]) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: list[int], b: list[int]) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# Each marimo server costs 7-16 s to start, so the quick tier shows each notebook in one theme
# (the board in dark, the lessons in light: both themes meet marimo there) and ``--thorough``
# shows both notebooks in both.
_DARK_FIRST = ["dark", pytest.param("light", marks=pytest.mark.slow)]
_LIGHT_FIRST = ["light", pytest.param("dark", marks=pytest.mark.slow)]


@pytest.fixture(scope="module", params=_DARK_FIRST)
def marimo(request: pytest.FixtureRequest) -> Iterator[Marimo]:
    with Marimo([NOTEBOOK], theme=request.param, timeout=120) as server:
        yield server  # type: ignore[misc]


def test_renders_readably_and_a_click_reruns_the_dependent_cell(
    marimo: Marimo, chromium: Any
) -> None:
    theme = "dark" if "dark" in marimo.root.joinpath(".marimo.toml").read_text() else "light"
    with chromium_page((1100, 1300), browser=chromium) as page:
        page.goto(marimo.url("/"))
        page.wait_for_selector(".pyr-card[data-zone='pyramid']", timeout=120_000)
        expect(page.locator(".pyr-card[data-zone='pyramid']")).to_have_count(28)
        progress = page.get_by_text("Progress:", exact=False).locator("xpath=..")
        expect(progress).to_contain_text("0 moves", timeout=30_000)
        assert page.evaluate("() => document.body.classList.contains('dark')") == (theme == "dark")

        # readable on the page marimo draws: the status text on the board's own background
        root = page.locator(".pyr-root").first
        colours = root.evaluate(_COLOURS)
        assert contrast(colours["ink"], colours["bg"]) >= 4.5, colours
        assert contrast(colours["rules"], colours["bg"]) >= 4.5, colours
        dark_bg = luminance(colours["bg"]) < 0.2
        assert dark_bg == (theme == "dark"), colours
        assert colours["felt"] == ("#15422b" if theme == "dark" else "#1e6a42"), colours
        screenshot(page, f"marimo-{theme}")

        # a click on the board: the kernel's game changes and the dependent cell re-runs
        page.locator(STOCK).click()
        expect(root.locator(".pyr-moves")).to_have_text("1", timeout=30_000)
        expect(progress).to_contain_text("1 move ·", timeout=30_000)
        expect(progress).to_contain_text("last: draw")
        page.locator(STOCK).click()
        expect(progress).to_contain_text("2 moves", timeout=30_000)

        # the keyboard focus inside marimo's shadow root: Undo pressed until it greys out,
        # then Pause and Resume by P, hand the focus back to the board, so D still draws
        undo = root.locator(".pyr-toolbar [data-action='undo']")
        undo.click()
        expect(root.locator(".pyr-moves")).to_have_text("1", timeout=30_000)
        undo.click()
        expect(undo).to_be_disabled(timeout=30_000)
        page.keyboard.press("d")
        expect(root.locator(".pyr-moves")).to_have_text("1", timeout=30_000)
        page.keyboard.press("p")
        expect(root.locator(".pyr-paused")).to_be_visible(timeout=30_000)
        expect(root.locator(".pyr-paused [data-action='resume']")).to_be_focused()
        page.keyboard.press("p")
        expect(root.locator(".pyr-paused")).to_be_hidden(timeout=30_000)
        page.keyboard.press("d")
        expect(root.locator(".pyr-moves")).to_have_text("2", timeout=30_000)


# -- the lessons in marimo (issue 17.4): one anywidget, so the whole lesson shows and plays ------

LESSONS = REPO / "notebooks" / "lessons_marimo.py"


@pytest.fixture(scope="module", params=_LIGHT_FIRST)
def lessons(request: pytest.FixtureRequest) -> Iterator[Marimo]:
    with Marimo([LESSONS], theme=request.param, timeout=120) as server:
        yield server  # type: ignore[misc]


def _rgb(colour: str) -> list[int]:
    value = colour.lstrip("#")
    return [int(value[k : k + 2], 16) for k in (0, 2, 4)]


_SAYS = """n => { const parse = (c) => { const x = document.createElement('canvas').getContext('2d');
  x.fillStyle = c; x.fillRect(0, 0, 1, 1); return [...x.getImageData(0, 0, 1, 1).data].slice(0, 3); };
  return [parse(getComputedStyle(n).color), parse(getComputedStyle(n).backgroundColor)]; }"""


def test_a_lesson_renders_and_plays_in_marimo(lessons: Marimo, chromium: Any) -> None:
    """The lesson's header, dots, prompt, buttons and board show (no "Jupyter widgets are
    not supported"); a wrong pair is explained in the feedback line, a right one turns Next
    primary; Next and Show me go to the kernel and back, and the cell that reads the
    lesson's ``view.value`` runs again."""
    theme = "dark" if "dark" in lessons.root.joinpath(".marimo.toml").read_text() else "light"
    with chromium_page((1100, 1400), browser=chromium) as page:
        page.goto(lessons.url("/"))
        page.wait_for_selector(".pyr-lesson .pyr-card[data-zone='pyramid']", timeout=120_000)
        lesson = page.locator(".pyr-root.pyr-lesson").first
        expect(page.get_by_text("Jupyter widgets are not supported")).to_have_count(0)
        expect(lesson.locator(".pyr-lesson-progress")).to_have_text("Lesson 1 of 6 · Step 1 of 6")
        expect(lesson.locator(".pyr-lesson-dots")).to_have_text("○○○○○○")
        expect(lesson.locator(".pyr-lesson-prompt")).to_contain_text(
            "Which card pairs with this Five?"
        )
        expect(lesson.locator(".pyr-lesson-buttons button")).to_have_text(
            ["Show me", "Restart step", "Restart lesson", "Previous", "Next"]
        )
        expect(lesson.locator(".pyr-card[data-zone='pyramid']")).to_have_count(4)
        where = page.get_by_text("Where you are:", exact=False).locator("xpath=..")
        expect(where).to_contain_text("Lesson 1 of 6 · Step 1 of 6", timeout=30_000)

        def tap(card: str) -> None:
            lesson.locator(f".pyr-card[data-id='{card}'][data-zone='pyramid']").click()

        tap("5H")
        tap("9D")  # 5 + 9 = 14: explained, nothing moves
        says = lesson.locator(".pyr-lesson-says")
        expect(says).to_contain_text("5 + 9 = 14, one too many", timeout=30_000)
        expect(says).to_have_attribute("data-kind", "mistake")
        expect(lesson.locator(".pyr-card[data-zone='pyramid']")).to_have_count(4)
        colour, background = says.evaluate(_SAYS)
        want = FEEDBACK_COLOURS[theme]
        assert (colour, background) == (_rgb(want["mistake"]), _rgb(want["background"]))
        assert contrast(colour, background) >= 4.5
        screenshot(page, f"marimo-lesson-mistake-{theme}")

        # The refused pair's second card (the Nine) is the selection now, so the Five pairs
        # with it (refused again) and becomes the selection; then the Eight makes the pair.
        # Each tap waits for the board's answer, as a player sees it, before the next.
        tap("5H")
        expect(lesson.locator(".pyr-card[data-id='5H']")).to_have_attribute(
            "aria-pressed", "true", timeout=30_000
        )
        tap("8C")  # the right pair
        expect(says).to_have_attribute("data-kind", "success", timeout=30_000)
        expect(says).to_contain_text("5 + 8 = 13")
        expect(lesson.locator(".pyr-lesson-next")).to_have_class(re.compile(r"\bpyr-primary\b"))
        expect(lesson.locator(".pyr-lesson-dots")).to_have_text("●○○○○○")
        expect(where).to_contain_text("steps done by you: 1", timeout=30_000)
        screenshot(page, f"marimo-lesson-success-{theme}")

        lesson.locator(".pyr-lesson-next").click()  # a panel button: to Python and back
        expect(lesson.locator(".pyr-lesson-progress")).to_have_text(
            "Lesson 1 of 6 · Step 2 of 6", timeout=30_000
        )
        expect(where).to_contain_text("Lesson 1 of 6 · Step 2 of 6", timeout=30_000)
        lesson.locator(".pyr-lesson-show").click()
        expect(says).to_contain_text("Here is how:", timeout=30_000)
        expect(lesson.locator(".pyr-lesson-dots")).to_have_text("●◐○○○○")
        expect(where).to_contain_text(re.compile(r"the board: 1 move(?!s)"), timeout=30_000)
        screenshot(page, f"marimo-lesson-show-me-{theme}")
