# The Pyramid Solitaire lessons in marimo: `marimo run notebooks/lessons_marimo.py`
# (or `marimo edit`).
import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo

    from pyramid_widget.engine.describe import counted
    from pyramid_widget.lessons.widget import LessonWidget

    return LessonWidget, counted, mo


@app.cell
def _(mo):
    mo.md(
        r"""
        # Pyramid Solitaire: the lessons

        Six short lessons on the real board: pairs to 13, Kings, covered cards, the waste, the
        stock and redeals, and a whole game. Each step sets up a few cards and asks for one
        move. **Click a card, then its partner.** A wrong try is explained and the cards stay
        where they were; a right one says why it works. **Show me** plays the step for you
        (◐ *shown*; do it yourself to make it ● *done*), **Next** and **Previous** move between
        steps, and the **Lesson** menu above the board jumps between the lessons.
        """
    )
    return


@app.cell
def _(LessonWidget, mo):
    # The whole lesson (header, picker, prompt, board, feedback, buttons) is one anywidget,
    # `lesson.board`; mo.ui.anywidget makes it observable, so the cell below follows it.
    # records=False: nothing is saved (a served app has one records file for every visitor);
    # records=None keeps a learner's progress in the default records file.
    lesson = LessonWidget(records=False)
    view = mo.ui.anywidget(lesson.board)
    view
    return lesson, view


@app.cell
def _(counted, lesson, mo, view):
    # Reads view.value, so marimo runs it again after every move and every press on the panel.
    _ = view.value
    _done = len(lesson.runner.completed)
    mo.md(
        f"**Where you are:** {lesson.progress_text} · steps done by you: {_done} · "
        f"the board: {counted(lesson.game.moves, 'move')}"
    )
    return


if __name__ == "__main__":
    app.run()
