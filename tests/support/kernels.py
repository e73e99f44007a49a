"""Running a notebook top to bottom in a fresh kernel for the tests (nbclient).

The kernel talks over IPC sockets in a private temporary directory, not TCP ports:
jupyter_client picks ports that are free and the kernel binds them a moment later, and with
the suite's parallel workers and Jupyter servers starting kernels too another process can
take one in between (``Address already in use``: the kernel died before it answered, in a
CI run of 2026-12-04).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import nbformat
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient


def execute(nb: nbformat.NotebookNode, *, timeout: int, path: Path | None = None) -> None:
    """Run every cell of ``nb`` in place (outputs kept) in a fresh ``python3`` kernel whose
    working directory is ``path`` (the current one by default); an error in a cell raises
    nbclient's ``CellExecutionError``.

    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(6 * 7)")])
    >>> execute(nb, timeout=60)
    >>> nb.cells[0].outputs[0]["text"]
    '42\\n'
    """
    resources = {"metadata": {"path": str(path)}} if path is not None else {"metadata": {}}
    with tempfile.TemporaryDirectory(prefix="kernel-") as sockets:
        manager = KernelManager(
            kernel_name="python3", transport="ipc", ip=os.path.join(sockets, "socket")
        )
        NotebookClient(nb, km=manager, timeout=timeout, resources=resources).execute()
