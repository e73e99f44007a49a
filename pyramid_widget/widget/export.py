"""Export a notebook with its boards as pictures (an nbconvert preprocessor).

A board's output in a saved notebook holds the live widget view and, beside it, a static SVG
of the position when the cell ran (see ``PyramidWidget._repr_mimebundle_``). An HTML export
prefers the widget view, whose widget manager is fetched from a CDN: offline (a classroom)
the board's place stays empty. :class:`OfflineBoards` drops the widget view from every output
that carries a picture beside it, so the export shows the picture, with no script and no
network::

    jupyter nbconvert --to html \\
        --HTMLExporter.preprocessors=pyramid_widget.widget.export.OfflineBoards NOTEBOOK.ipynb

:func:`offline_boards` does the same to a notebook object in Python. This module needs
nbconvert (the ``dev`` extra); nothing else in the package imports it.

>>> cell = {"cell_type": "code", "outputs": [{"output_type": "display_data", "data": {
...     "text/plain": "board", "image/svg+xml": "<svg/>", WIDGET_VIEW: {"model_id": "x"}}}]}
>>> offline_boards({"cells": [cell]})
1
>>> sorted(cell["outputs"][0]["data"])
['image/svg+xml', 'text/plain']
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

from nbconvert.preprocessors import Preprocessor

__all__ = ["PICTURE", "WIDGET_VIEW", "OfflineBoards", "offline_boards"]

#: The widget view's MIME type, and the static picture's.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
PICTURE = "image/svg+xml"


def _strip(cell: Mapping[str, Any]) -> int:
    count = 0
    for output in cell.get("outputs", ()):
        data = output.get("data")
        if isinstance(data, MutableMapping) and WIDGET_VIEW in data and PICTURE in data:
            del data[WIDGET_VIEW]
            count += 1
    return count


def offline_boards(notebook: Mapping[str, Any]) -> int:
    """Drop the widget view from each output of ``notebook`` (a notebook dict or
    ``nbformat`` node, changed in place) that also has a static picture; return how many."""
    return sum(_strip(cell) for cell in notebook.get("cells", ()))


class OfflineBoards(Preprocessor):
    """nbconvert preprocessor: boards show as their static picture (see the module)."""

    def preprocess_cell(
        self, cell: Any, resources: dict[str, Any], index: int
    ) -> tuple[Any, dict[str, Any]]:
        """Drop the widget view from ``cell``'s outputs that carry a picture beside it."""
        _strip(cell)
        return cell, resources
