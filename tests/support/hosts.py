"""Start the other notebook hosts for browser tests: Jupyter Notebook 7, Voilà and marimo.

Each server runs on 127.0.0.1 on a free port, from a temporary directory holding *copies* of
the notebooks (hosts autosave into what they open), with private Jupyter config, runtime and
data directories, a private records directory and ``PYTHONPATH`` pointing at this checkout.
It is stopped by its process id (SIGINT, then SIGKILL) and its directory removed. Use each
as a context manager; ``url(path)`` gives an address on it (with the token where there is one).

:class:`NotebookPage` drives a Notebook 7 page like :class:`tests.support.browser.LabPage`
(``window.jupyterapp`` is exposed there too).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tests.support.browser import (
    REPO,
    LabPage,
    exited_early,
    free_port,
    start_on_a_free_port,
    stop_server,
)


class HostServer:
    """A host process serving copies of ``files`` from a temporary root (see the module)."""

    name = "host"
    ready_path = "/"

    def __init__(
        self, files: Iterable[Path], *, env: dict[str, str] | None = None, timeout: float = 90.0
    ) -> None:
        self.token = secrets.token_hex(16)
        self.port = free_port()
        self._tmp = Path(tempfile.mkdtemp(prefix=f"pyramid-{self.name}-"))
        self.root = self._tmp / "root"
        self.root.mkdir()
        for file in files:
            shutil.copy(file, self.root / Path(file).name)
        self._env = dict(env or {})
        self._timeout = timeout
        self._proc: subprocess.Popen[bytes] | None = None
        self.log_path = self._tmp / f"{self.name}.log"

    # -- to override --------------------------------------------------------------------

    def command(self) -> list[str]:
        """The command line that starts the server."""
        raise NotImplementedError

    def url(self, path: str = "/") -> str:
        """An address on this server."""
        return f"http://127.0.0.1:{self.port}/{path.lstrip('/')}"

    # -- common -------------------------------------------------------------------------

    def environment(self) -> dict[str, str]:
        """Private Jupyter dirs, records dir, this checkout on ``PYTHONPATH``."""
        env = dict(os.environ)
        env.update(
            HOME=str(self._tmp / "home"),
            JUPYTER_CONFIG_DIR=str(self._tmp / "config"),
            JUPYTER_RUNTIME_DIR=str(self._tmp / "runtime"),
            JUPYTER_DATA_DIR=str(self._tmp / "data"),
            XDG_CONFIG_HOME=str(self._tmp / "xdg"),
            PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")])),
            MPLBACKEND="Agg",
            PYRAMID_WIDGET_DATA_DIR=str(self._tmp / "pyramid-data"),
        )
        for key in ("JUPYTER_CONFIG_DIR", "HOME", "XDG_CONFIG_HOME"):
            Path(env[key]).mkdir(parents=True, exist_ok=True)
        env.update(self._env)
        return env

    def start(self) -> HostServer:
        """Start the server and wait until it answers (``RuntimeError`` with its log if not;
        another port when its own was taken first, see
        :func:`tests.support.browser.start_on_a_free_port`)."""
        return start_on_a_free_port(self, self._launch)

    def _launch(self) -> HostServer:
        log = self.log_path.open("wb")
        self._proc = subprocess.Popen(
            self.command(),
            env=self.environment(),
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=self.root,
        )
        deadline = time.monotonic() + self._timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise exited_early(self.name, self.log())
            with contextlib.suppress(OSError, urllib.error.URLError):
                urllib.request.urlopen(self.url(self.ready_path), timeout=5).read(64)
                return self
            time.sleep(0.4)
        text = self.log()
        self.stop()
        raise RuntimeError(f"{self.name} did not start in {self._timeout:g} s; log:\n{text}")

    def log(self) -> str:
        """What the server printed so far."""
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def stop(self) -> None:
        """Stop the server (and its kernels) by its process id; remove the temp dir."""
        proc, self._proc = self._proc, None
        stop_server(proc, self._tmp, grace=15)

    def __enter__(self) -> HostServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Notebook7(HostServer):
    """Jupyter Notebook 7 (``python -m notebook``) with ``window.jupyterapp`` exposed."""

    name = "notebook"
    ready_path = "api/status"

    def environment(self) -> dict[str, str]:
        env = super().environment()
        labconfig = Path(env["JUPYTER_CONFIG_DIR"]) / "labconfig"
        labconfig.mkdir(parents=True, exist_ok=True)
        off = {"@jupyterlab/apputils-extension:announcements": True}
        (labconfig / "page_config.json").write_text(json.dumps({"disabledExtensions": off}))
        return env

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "notebook", "--no-browser", "--allow-root",
            "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={self.root}",
            "--JupyterNotebookApp.expose_app_in_browser=True",
            "--ServerApp.open_browser=False",
        ]  # fmt: skip

    def url(self, path: str = "/") -> str:
        sep = "&" if "?" in path else "?"
        return f"{super().url(path)}{sep}token={self.token}"


class Voila(HostServer):
    """Voilà serving one notebook (the first file) at ``/``, in the ``light``/``dark`` theme."""

    name = "voila"

    def __init__(self, files: Iterable[Path], *, theme: str = "light", **kwargs: Any) -> None:
        files = list(files)
        super().__init__(files, **kwargs)
        self.notebook = Path(files[0]).name
        self.theme = theme

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "voila", self.notebook, "--no-browser",
            f"--port={self.port}", "--Voila.port_retries=0", "--Voila.ip=127.0.0.1",
            f"--theme={self.theme}",
        ]  # fmt: skip


class Marimo(HostServer):
    """``marimo run`` of one ``.py`` notebook (the first file), headless, without a token;
    ``theme`` (``light``, ``dark`` or ``system``) goes into a ``.marimo.toml`` beside it."""

    name = "marimo"

    def __init__(self, files: Iterable[Path], *, theme: str = "light", **kwargs: Any) -> None:
        files = list(files)
        super().__init__(files, **kwargs)
        self.notebook = Path(files[0]).name
        (self.root / ".marimo.toml").write_text(f'[display]\ntheme = "{theme}"\n')

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "marimo", "run", self.notebook, "--headless",
            "--host", "127.0.0.1", "--port", str(self.port), "--no-token",
        ]  # fmt: skip


class NotebookPage(LabPage):
    """A Chromium page showing one notebook of a :class:`Notebook7` (same helpers as Lab's)."""

    def __init__(self, page: Any, server: Notebook7) -> None:
        self.page = page
        self.lab = server  # type: ignore[assignment]  # LabPage only calls url()

    def open(self, name: str, timeout: float = 120.0) -> NotebookPage:
        """Open ``name`` in the notebook view and wait for an idle kernel."""
        self.page.goto(self.lab.url(f"notebooks/{name}"))
        from tests.support.browser import _KERNEL_IDLE

        self.page.wait_for_function(_KERNEL_IDLE, timeout=timeout * 1000)
        return self

    def cell_count(self) -> int:
        """How many cells the open notebook has now (in the model, not only on screen)."""
        count: int = self.page.evaluate(
            "() => window.jupyterapp.shell.currentWidget.content.widgets.length"
        )
        return count
