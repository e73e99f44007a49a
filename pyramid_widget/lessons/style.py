"""The lesson widget's own stylesheet: the board sized to the rows a step uses, only the piles
and counters the step is about, and feedback colours that meet WCAG AA in light and dark.

The board's geometry (``widget.css``) puts pyramid row *r* at ``--pad + r * --rowstep`` and
the piles below the seventh row. A step whose top card is in row *R* shifts ``--pad`` up by
``R - 1`` rows, which lifts the cards and shortens the board by as much; a step without stock
or waste hides the piles and ends the board under the last row. The card width is capped so
the prompt, the board, the feedback and the buttons fit one 768-pixel-high screen. The
feedback colours follow the same host signals as the board's own (JupyterLab, Voilà, marimo,
VS Code, the browser's preference; the widget's ``theme`` first).

>>> from pyramid_widget.lessons.builtin import LESSONS
>>> step_classes(LESSONS[0].steps[0])
['pyr-lesson-from-7', 'pyr-lesson-no-piles', 'pyr-lesson-no-redeals']
>>> round(contrast("#ffffff", "#000000"), 1)
21.0
"""

from __future__ import annotations

from pyramid_widget.lessons.model import Step

__all__ = ["FEEDBACK_COLOURS", "STYLESHEET", "contrast", "step_classes"]

#: The feedback line's text colours on its own background, per theme (WCAG AA: at least 4.5:1
#: for every kind; a test computes the ratios).
FEEDBACK_COLOURS: dict[str, dict[str, str]] = {
    "light": {
        "background": "#f6f8fa",
        "info": "#1f2328",
        "success": "#1a5d2b",
        "mistake": "#a3161c",
    },
    "dark": {
        "background": "#1c1f23",
        "info": "#e6e6e6",
        "success": "#7fd99a",
        "mistake": "#ffa198",
    },
}

#: Height of the lesson page around the board (header, prompt, toolbar, status, message,
#: feedback, buttons) plus JupyterLab's own bars, in pixels: the board gets the rest of the
#: screen.
CHROME_PX = 440


def _luminance(colour: str) -> float:
    value = colour.lstrip("#")
    channels = [int(value[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(foreground: str, background: str) -> float:
    """The WCAG 2 contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    lighter, darker = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def step_classes(step: Step) -> list[str]:
    """The CSS classes the lesson widget carries for ``step``: the first pyramid row it uses,
    and whether it hides the piles and the redeal counter."""
    classes = [f"pyr-lesson-from-{step.first_row}"]
    if not step.uses_piles:
        classes.append("pyr-lesson-no-piles")
    if not step.uses_redeals:
        classes.append("pyr-lesson-no-redeals")
    return classes


def _height_factor(rows: int, piles: bool) -> float:
    """The board's height in card widths for ``rows`` pyramid rows (see widget.css):
    ``--bottom`` is ``(1.18 + 0.7 * rows)`` card widths, the piles add ``1.764`` and 3.4em."""
    return round(1.18 + 0.7 * rows + (1.764 if piles else 0.0), 3)


#: Where the lesson's root is dark: the same host signals the board's own stylesheet follows
#: (``widget.css``): ``theme="dark"``, or ``theme="auto"`` under JupyterLab's or Voilà's dark
#: theme, marimo's (``body.dark``, ``body[data-theme="dark"]``) or VS Code's.
_DARK_ROOTS = (
    '.pyr-lesson[data-theme="dark"]',
    'body[data-jp-theme-light="false"] .pyr-lesson[data-theme="auto"]',
    'body.dark .pyr-lesson[data-theme="auto"]',
    'body[data-theme="dark"] .pyr-lesson[data-theme="auto"]',
    'body.vscode-dark .pyr-lesson[data-theme="auto"]',
    'body[class~="vscode-high-contrast"] .pyr-lesson[data-theme="auto"]',
)
#: marimo draws the widget in a shadow root, out of reach of the ``body`` rules: these look out
#: of it, in rules of their own (a browser without ``:host-context()`` drops only them).
_SHADOW_DARK_ROOTS = (
    ':host-context(body.dark) .pyr-lesson[data-theme="auto"]',
    ':host-context(body[data-theme="dark"]) .pyr-lesson[data-theme="auto"]',
)
#: No host signal at all: the browser's ``prefers-color-scheme`` decides.
_NO_SIGNAL = (
    'body:not([data-jp-theme-light]):not([data-theme]):not(.dark):not([class*="vscode-"]) '
    '.pyr-lesson[data-theme="auto"]'
)


def _feedback_rules(roots: list[str], colours: dict[str, str]) -> list[str]:
    """The feedback line's colours under each of ``roots`` (``""``: anywhere)."""

    def under(tail: str) -> str:
        return ", ".join(f"{root} {tail}".strip() for root in roots)

    says = ".pyr-lesson-feedback p.pyr-lesson-says"
    rules = [
        f"{under(says + ':not(:empty)')} {{ padding: 4px 10px; border-radius: 6px; "
        f"background: {colours['background']}; color: {colours['info']}; }}"
    ]
    for kind in ("success", "mistake"):
        attribute = f'[data-kind="{kind}"]'
        rules.append(f"{under(says + attribute)} {{ color: {colours[kind]}; }}")
    return rules


def _sheet() -> str:
    light, dark = FEEDBACK_COLOURS["light"], FEEDBACK_COLOURS["dark"]
    rules = [
        ".pyr-lesson .pyr-board { --cw: clamp(24px, min(calc((100cqw - 20px) / 7.9), "
        f"calc((100vh - {CHROME_PX}px - 3.4em) / var(--pyr-lesson-k, 7.84))), 82px); }}",
        ".pyr-lesson.pyr-lesson-no-piles .pyr-board { --cw: clamp(24px, min(calc((100cqw - "
        f"20px) / 7.9), calc((100vh - {CHROME_PX}px) / var(--pyr-lesson-k, 6.08))), 82px); "
        "height: calc(var(--bottom) - var(--cw) * 0.16); }",
        ".pyr-lesson-no-piles .pyr-slot { display: none; }",
        ".pyr-lesson-no-redeals .pyr-stat:has(.pyr-passes-left), .pyr-lesson-no-redeals "
        ".pyr-draw { display: none; }",
    ]
    for first in range(1, 8):
        rows = 8 - first
        rules.append(
            f".pyr-lesson-from-{first} .pyr-board {{ --pad: calc(var(--cw) * 0.16 - "
            f"{first - 1} * var(--rowstep)); --pyr-lesson-k: {_height_factor(rows, True)}; }}"
        )
        rules.append(
            f".pyr-lesson-from-{first}.pyr-lesson-no-piles .pyr-board {{ "
            f"--pyr-lesson-k: {_height_factor(rows, False)}; }}"
        )
    rules += _feedback_rules([""], light)
    rules += _feedback_rules(list(_DARK_ROOTS), dark)
    rules += _feedback_rules(list(_SHADOW_DARK_ROOTS), dark)  # alone: see _SHADOW_DARK_ROOTS
    rules.append(
        f"@media (prefers-color-scheme: dark) {{ {' '.join(_feedback_rules([_NO_SIGNAL], dark))} }}"
    )
    rules += [
        ".pyr-lesson-course { font-size: 90%; opacity: 0.85; }",
        # The board's own message line says it in one line (the full text is in the feedback
        # line below the board), so a long explanation never covers the top cards.
        ".pyr-lesson .pyr-message-text { white-space: nowrap; overflow: hidden; "
        "text-overflow: ellipsis; }",
        ".pyr-lesson-prompt p, .pyr-lesson-feedback p { margin: 2px 0 4px; }",
    ]
    return "\n".join(rules)


#: The stylesheet, added to the lesson board's own (``LessonBoard._css``; fixed text: no data
#: from a lesson goes into it).
STYLESHEET = _sheet()
