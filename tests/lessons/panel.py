"""Reading a :class:`~pyramid_widget.lessons.widget.LessonWidget` the way its page shows it:
the board's ``panel`` trait (header, picker, prompt, feedback, buttons, root classes), and
pressing its buttons and picker with the page's own ``"panel"`` messages."""

from __future__ import annotations

from typing import Any

from pyramid_widget.lessons.widget import LessonWidget


def header(lw: LessonWidget) -> str:
    """The header as the page writes it: title, progress, dots, state and the course line."""
    hd = lw.board.panel["header"]
    state = f" · {hd['state']}" if hd["state"] else ""
    return f"{hd['title']} — {hd['progress']} {hd['dots']}{state}\n{hd['course']}"


def prompt(lw: LessonWidget) -> str:
    """The prompt's paragraphs (the lesson's intro on its first step, then the task)."""
    return "\n".join(p["text"] for p in lw.board.panel["prompt"])


def feedback(lw: LessonWidget) -> str:
    """The feedback line and, when the lesson is done, its summary."""
    fb = lw.board.panel["feedback"]
    return f"{fb['text']}\n{fb['summary']}".strip()


def button(lw: LessonWidget, action: str) -> dict[str, Any]:
    """The panel's button for ``action`` (``show``, ``restart-step``, ``restart``, ...)."""
    found = [b for b in lw.board.panel["buttons"] if b["action"] == action]
    assert len(found) == 1, (action, lw.board.panel["buttons"])
    return dict(found[0])


def options(lw: LessonWidget) -> list[str]:
    """The lesson picker's options."""
    return list(lw.board.panel["picker"]["options"])


def press(lw: LessonWidget, action: str, index: int | None = None) -> dict[str, Any]:
    """Press a panel button (or pick lesson ``index``) as the page does; return the board's
    ``last_event`` afterwards."""
    content: dict[str, Any] = {"kind": "panel", "action": action, "seq": 1}
    if index is not None:
        content["index"] = index
    lw.board._handle_msg(
        {"content": {"data": {"method": "custom", "content": content}}, "buffers": []}
    )
    return dict(lw.board.last_event)
