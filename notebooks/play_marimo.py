# Pyramid Solitaire in marimo: `marimo run notebooks/play_marimo.py` (or `marimo edit`).
import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo

    from pyramid_widget import PyramidWidget
    from pyramid_widget.engine.describe import counted

    return PyramidWidget, counted, mo


@app.cell
def _(mo):
    mo.md(
        r"""
        # Pyramid Solitaire

        Remove pairs of *available* cards whose values add up to **13** (A = 1, J = 11,
        Q = 12); a **King** (13) goes alone. A card is available when no card overlaps it.
        Click a card, then its partner, or use the keyboard (Tab into the board, arrows,
        Enter; **?** lists the keys). The stock's button draws a card.

        **The recipe.** Wrap the board in `mo.ui.anywidget(...)`. Its `.value` is a dict of
        the board's synced traits, and a cell that reads it runs again after every move made
        on the board: `status`, `status_reason`, `moves`, `score`, `message`, `last_event`
        (the last thing that happened, with a `count` that grows every time) and `board`
        (every card and pile).
        """
    )
    return


@app.cell
def _(PyramidWidget, mo):
    board = mo.ui.anywidget(PyramidWidget("medium", records=False))
    board
    return (board,)


@app.cell
def _(board, counted, mo):
    # This cell reads board.value, so marimo runs it again after each move on the board.
    state = board.value
    event = state["last_event"]
    said = event.get("move") or event.get("kind") or "nothing yet"
    mo.md(
        f"**Progress:** {counted(state['moves'], 'move')} · score {state['score']} · "
        f"{state['status']} · last: {said}"
    )
    return


if __name__ == "__main__":
    app.run()
