"""Reusable helpers for tests that drive real Chromium, with or without a real JupyterLab.

Three levels:

* :class:`StaticServer` serves the repository over HTTP (ES modules do not load from
  ``file://``) so ``tests/harness/index.html`` can render ``pyramid_widget/widget/static/widget.js``
  against a fake model; :func:`bridge` connects that fake model to a real Python widget (no
  kernel): every ``model.send`` runs the widget's dispatcher, and the page polls the traits a
  background thread changed (the page's Solve, winnable deals); :func:`push` sends Python-side
  changes; ``window.harness.addView()`` opens one more view of the same model.
* :class:`JupyterLab` starts a real JupyterLab on a free port with *copies* of the given
  notebooks in a temporary root, and stops it by its process id.
* :class:`LabPage` opens a notebook in Chromium, waits for the kernel, runs all cells, runs
  Python in the kernel and reads its output back, switches themes and takes screenshots.

Fixtures (``tests/conftest.py``), shared by every browser test of a pytest worker. The tests
that drive real JupyterLab (its keys, the lessons, the assist panel, the screenshots) share
``xdist_group("browser")`` and the other hosts ``"hosts"`` (Notebook 7, Voilà, marimo, each
starting its own server); the presets played by hand in JupyterLab
(``test_play_every_preset_lab.py``) are ``"lab-play"``; the harness-page tests have no group,
so they spread over every worker. A worker starts its own Chromium and, on first use,
JupyterLab:

* ``chromium``: one headless system Chromium (Playwright's sync API, started once: a second
  ``sync_playwright()`` in the same session fails with "Playwright Sync API inside the asyncio
  loop", so never launch another; pass ``browser=chromium`` to :func:`chromium_page`).
* ``page``: a fresh page in its own browser context (1100 x 900), closed after the test.
* ``static_server``: the repository over HTTP for the harness (``PYRAMID_WIDGET_HARNESS_ROOT``
  serves another copy, e.g. one with an older ``widget.js``, to see a test fail on old code).
* ``jupyterlab``: one real JupyterLab for the session, started on first use, serving copies
  of every notebook in ``notebooks/`` (a test writes its own notebook into
  ``jupyterlab.root``), its kernels' records in a private directory, stopped by its pid.

Everything here is plain Python plus Playwright's sync API; nothing is fetched from the network.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LAB_THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}

#: A full 52-card deal whose pyramid clears itself in 16 removals (4 Kings and 12 pairs, row by
#: row from the bottom) without touching the stock, under every sum-13 rule set with Kings
#: alone; :data:`SHORT_WIN` is that winning line. Good for "win by clicks" browser tests.
SHORT_DEAL = (
    "KC 6H 7H KD 5H 8H 3H TH 4H 9H KH AH QH 2H JH 4S 9S 5S 8S 6S 7S KS AS QS 2S JS 3S TS "
    "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD"
)
SHORT_WIN = "KS AS+QS 2S+JS 3S+TS 4S+9S 5S+8S 6S+7S KH AH+QH 2H+JH 3H+TH 4H+9H KD 5H+8H 6H+7H KC"


def require_chromium() -> None:
    """Skip when Chromium is missing on a developer machine; fail under CI (env var ``CI``)."""
    if CHROMIUM.exists():
        return
    message = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    if os.environ.get("CI"):
        pytest.fail(message + "; browser tests must run under CI")
    pytest.skip(message)


def launch_chromium(playwright: Any) -> Any:
    """Launch the system Chromium headless with the flags that keep it off the network."""
    require_chromium()
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


SERVER_PORTS = range(20000, 30000)
"""Where :func:`free_port` looks: below the ports the system hands out for port 0 (32768 and
up on Linux, 49152 and up on macOS and Windows), from which every kernel's and browser's own
sockets come, so only another test server can take one before its server binds it."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now, drawn from :data:`SERVER_PORTS`
    (any free port when none of 100 drawn there is)."""
    draw = random.SystemRandom()
    for _ in range(100):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", draw.choice(SERVER_PORTS)))
            except OSError:
                continue
            port: int = sock.getsockname()[1]
            return port
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        return port


_Server = TypeVar("_Server")

PORT_ATTEMPTS = 3
"""How many ports a test server tries (see :func:`start_on_a_free_port`)."""


class PortTaken(RuntimeError):
    """A test server exited because another process took its port first."""


def port_taken(log: str) -> bool:
    """Whether a server's log says its port was in use (uvicorn, Tornado, jupyter_server).

    >>> port_taken("ERROR:    [Errno 98] error while attempting to bind on address "
    ...            "('127.0.0.1', 39743): address already in use")
    True
    >>> port_taken("[I ServerApp] The port 8888 is already in use.")
    True
    >>> port_taken("Traceback ... ModuleNotFoundError: No module named 'marimo'")
    False
    """
    return "already in use" in log.lower()


def exited_early(name: str, log: str) -> RuntimeError:
    """The error for a test server that exited before it answered: :class:`PortTaken` when
    its ``log`` says its port was in use, else a plain ``RuntimeError``; both carry the log."""
    kind = PortTaken if port_taken(log) else RuntimeError
    return kind(f"{name} exited early; log:\n{log}")


def start_on_a_free_port(server: Any, launch: Callable[[], _Server]) -> _Server:
    """``launch()`` the test server, on a new :func:`free_port` each time it raises
    :class:`PortTaken`, at most :data:`PORT_ATTEMPTS` times.

    A port that :func:`free_port` found free can be taken before the server binds it
    (fresh-clone CI on 2026-12-07 lost a marimo test that way, when ports came from the
    system's port-0 range, where every kernel's sockets come from too). The servers are told
    not to move to another port on their own (``port_retries=0``), so they never answer on a
    port the test does not know."""
    for _ in range(PORT_ATTEMPTS - 1):
        try:
            return launch()
        except PortTaken:
            server.port = free_port()
    return launch()


def stop_server(proc: subprocess.Popen[bytes] | None, tmp: Path, grace: float) -> None:
    """Stop a server started by a test: Ctrl+C (SIGINT) to its process id, ``kill`` if it
    has not ended after ``grace`` seconds; then remove its temporary directory ``tmp``."""
    if proc is not None and proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    shutil.rmtree(tmp, ignore_errors=True)


def screenshot(target: Any, name: str, *, also: Path | None = None) -> Path:
    """Save a PNG of a page or locator to ``artifacts/NAME.png`` (and copy it to ``also``)."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / (name if name.endswith(".png") else name + ".png")
    target.screenshot(path=str(path))
    if also is not None:
        also.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, also)
    return path


# -- level 2: a static server for the harness, and a bridge to a real widget -----------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


class StaticServer:
    """Serve ``root`` on 127.0.0.1 from a thread; use as a context manager, ``url(path)``."""

    def __init__(self, root: Path = REPO) -> None:
        handler = functools.partial(_QuietHandler, directory=str(root))
        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __enter__(self) -> StaticServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def url(self, path: str = "") -> str:
        """The address of ``path`` (relative to the served root)."""
        return f"http://127.0.0.1:{self.port}/{path.lstrip('/')}"


def widget_state(widget: Any) -> dict[str, Any]:
    """The synced public traits of an anywidget, as JSON-ready data (what the page reads)."""
    names = [n for n in widget.trait_names(sync=True) if not n.startswith("_")]
    skip = {"layout", "tabbable", "tooltip", "keys", "comm", "log"}
    return {n: getattr(widget, n) for n in names if n not in skip}


def bridge(page: Any, widget: Any) -> None:
    """Make the harness's fake model talk to ``widget``: each ``model.send`` runs the real
    Python dispatcher and the page receives the new traits. Call before ``harness.start``."""

    lock = getattr(widget, "_lock", None) or threading.RLock()

    def send(text: str) -> str:
        widget._on_msg(widget, json.loads(text), [])
        with lock:
            return json.dumps(widget_state(widget))

    def state() -> str:
        with lock:  # traits a background thread (solve, winnable deal) changed
            return json.dumps(widget_state(widget))

    page.expose_function("pyramidSend", send)
    page.expose_function("pyramidState", state)


def push(page: Any, widget: Any) -> None:
    """Send the widget's current traits to the harness page (after a Python-side change)."""
    page.evaluate("s => window.harness.update(s)", widget_state(widget))


def open_harness(page: Any, server: StaticServer, widget: Any, **options: Any) -> None:
    """Open the harness and render ``widget``'s traits (``views``/``width`` as options)."""
    page.goto(server.url("tests/harness/index.html"))
    page.wait_for_function("window.harnessReady === true")
    page.evaluate("([s, o]) => window.harness.start(s, o)", [widget_state(widget), dict(options)])


#: Every pyramid card on a harness page (or any board page).
PYRAMID = ".pyr-card[data-zone='pyramid']"


def harness_card(page: Any, card_id: str, view: int = 0) -> Any:
    """The card ``card_id`` (in any zone) in view ``view`` of the harness page."""
    # double quotes: a second-deck card's id holds a quote mark ("AS'")
    return page.locator(f'.view[data-view="{view}"] .pyr-card[data-id="{card_id}"][data-zone]')


def show_in_harness(page: Any, server: StaticServer, widget: Any, **options: Any) -> Any:
    """Bridge ``widget`` to the harness page, render it and wait for its pyramid; returns it."""
    bridge(page, widget)
    open_harness(page, server, widget, **options)
    page.wait_for_selector(PYRAMID)
    return widget


# -- level 3: a real JupyterLab ---------------------------------------------------------------


class JupyterLab:
    """A JupyterLab server on a free port serving copies of ``notebooks`` from a temp root.

    ``env`` adds environment variables for the server and its kernels (``PYTHONPATH`` points
    at the repository so the kernel imports this checkout; ``PYRAMID_WIDGET_DATA_DIR`` is a
    private temp dir so records never touch the user's). Use as a context manager.
    """

    def __init__(
        self,
        notebooks: Iterable[Path],
        *,
        env: dict[str, str] | None = None,
        timeout: float = 60.0,
    ) -> None:
        self.token = secrets.token_hex(16)
        self.port = free_port()
        self._tmp = Path(tempfile.mkdtemp(prefix="pyramid-lab-"))
        self.root = self._tmp / "root"
        self.root.mkdir()
        for notebook in notebooks:
            shutil.copy(notebook, self.root / Path(notebook).name)
        self._env = dict(env or {})
        self._timeout = timeout
        self._proc: subprocess.Popen[bytes] | None = None
        self.log_path = self._tmp / "lab.log"

    def _config(self) -> dict[str, str]:
        config = self._tmp / "config"
        (config / "labconfig").mkdir(parents=True)
        page_config = {"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}}
        (config / "labconfig" / "page_config.json").write_text(json.dumps(page_config))
        env = dict(os.environ)
        env.update(
            JUPYTER_CONFIG_DIR=str(config),
            JUPYTER_RUNTIME_DIR=str(self._tmp / "runtime"),
            JUPYTER_DATA_DIR=str(self._tmp / "data"),
            PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")])),
            MPLBACKEND="Agg",
            PYRAMID_WIDGET_DATA_DIR=str(self._tmp / "pyramid-data"),
        )
        env.update(self._env)
        return env

    def start(self) -> JupyterLab:
        """Start the server and wait until it answers (raises ``RuntimeError`` on failure;
        another port when its own was taken first, see :func:`start_on_a_free_port`)."""
        return start_on_a_free_port(self, self._launch)

    def _launch(self) -> JupyterLab:
        args = [
            sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
            "--ip=127.0.0.1", f"--port={self.port}", "--ServerApp.port_retries=0",
            f"--ServerApp.token={self.token}",
            f"--ServerApp.root_dir={self.root}", "--LabApp.expose_app_in_browser=True",
            "--LabApp.extension_manager=readonly",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            f"--LabApp.workspaces_dir={self._tmp / 'workspaces'}",
            f"--LabApp.user_settings_dir={self._tmp / 'settings'}",
            "--ServerApp.open_browser=False",
        ]  # fmt: skip
        log = self.log_path.open("wb")
        self._proc = subprocess.Popen(
            args, env=self._config(), stdout=log, stderr=subprocess.STDOUT, cwd=self.root
        )
        deadline = time.monotonic() + self._timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise exited_early("JupyterLab", self.log_path.read_text(errors="replace"))
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.url("api/status"), timeout=2).read()
                return self
            time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"JupyterLab did not start in {self._timeout:g} s")

    def url(self, path: str) -> str:
        """A URL on this server with the token attached."""
        sep = "&" if "?" in path else "?"
        return f"http://127.0.0.1:{self.port}/{path.lstrip('/')}{sep}token={self.token}"

    def stop(self) -> None:
        """Stop the server (and its kernels) by its process id, and remove the temp dir."""
        proc, self._proc = self._proc, None
        stop_server(proc, self._tmp, grace=10)

    def __enter__(self) -> JupyterLab:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


_RUN_PYTHON = """async (code) => {
  const panel = window.jupyterapp.shell.currentWidget;
  const kernel = panel.sessionContext.session.kernel;
  const future = kernel.requestExecute({ code, store_history: false });
  let out = "";
  future.onIOPub = (msg) => {
    const c = msg.content;
    if (msg.header.msg_type === "stream") out += c.text;
    else if (msg.header.msg_type === "execute_result") out += c.data["text/plain"] + "\\n";
    else if (msg.header.msg_type === "error") out += `${c.ename}: ${c.evalue}\\n`;
  };
  await future.done;
  return out;
}"""

_KERNEL_IDLE = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.status === 'idle';
}"""


class LabPage:
    """A Chromium page showing one notebook of a :class:`JupyterLab`."""

    def __init__(self, page: Any, lab: JupyterLab) -> None:
        self.page = page
        self.lab = lab

    def open(self, name: str, timeout: float = 90.0) -> LabPage:
        """Open ``name`` (a notebook in the lab's root) and wait for an idle kernel."""
        self.page.goto(self.lab.url(f"lab/tree/{name}?reset"))
        self.page.wait_for_function(_KERNEL_IDLE, timeout=timeout * 1000)
        return self

    def command(self, name: str, args: dict[str, Any] | None = None) -> None:
        """Run a JupyterLab command (``notebook:run-all-cells``, ...)."""
        self.page.evaluate(
            "([n, a]) => window.jupyterapp.commands.execute(n, a)", [name, args or {}]
        )

    def run_all(self, wait_for: str | None = None, timeout: float = 90.0) -> None:
        """Run every cell; then wait for ``wait_for`` (a CSS selector) and an idle kernel."""
        self.command("notebook:run-all-cells")
        if wait_for:
            self.page.wait_for_selector(wait_for, timeout=timeout * 1000)
        self.wait_idle(timeout)

    def wait_idle(self, timeout: float = 60.0) -> None:
        """Wait until the kernel is idle."""
        self.page.wait_for_function(_KERNEL_IDLE, timeout=timeout * 1000)

    def python(self, code: str) -> str:
        """Run ``code`` in the notebook's kernel and return what it printed (errors included)."""
        out: str = self.page.evaluate(_RUN_PYTHON, code)
        return out

    def python_json(self, expression: str) -> Any:
        """Evaluate ``expression`` in the kernel and return it, passed through JSON."""
        out = self.python(f"import json as _j; print(_j.dumps({expression}))")
        try:
            return json.loads(out.strip().splitlines()[-1])
        except (IndexError, json.JSONDecodeError) as exc:
            raise AssertionError(f"kernel output is not JSON: {out!r}") from exc

    def theme(self, which: str) -> None:
        """Switch JupyterLab to the ``light`` or ``dark`` theme and wait until it applies."""
        self.command("apputils:change-theme", {"theme": LAB_THEMES[which]})
        light = "true" if which == "light" else "false"
        self.page.wait_for_function(
            f"document.body.dataset.jpThemeLight === '{light}'", timeout=30_000
        )

    def wait(self, predicate: str, timeout: float = 30.0, arg: Any = None) -> None:
        """Wait until the JavaScript ``predicate`` is true."""
        self.page.wait_for_function(predicate, arg=arg, timeout=timeout * 1000)


@contextlib.contextmanager
def chromium_page(
    viewport: tuple[int, int] = (1280, 900),
    *,
    color_scheme: str = "light",
    browser: Any = None,
) -> Iterator[Any]:
    """A fresh page in its own browser context, closed afterwards. Pass ``browser`` (e.g. the
    ``chromium`` fixture) inside pytest: Playwright's sync API cannot be started twice in one
    thread. Without it, a private Chromium is launched (scripts, benchmarks)."""
    size = {"width": viewport[0], "height": viewport[1]}
    if browser is not None:
        context = browser.new_context(viewport=size, color_scheme=color_scheme)
        try:
            yield context.new_page()
        finally:
            context.close()
        return
    from playwright.sync_api import sync_playwright

    require_chromium()
    with sync_playwright() as p:
        own = launch_chromium(p)
        try:
            context = own.new_context(viewport=size, color_scheme=color_scheme)
            yield context.new_page()
        finally:
            own.close()


def retry(action: Callable[[], Any], attempts: int = 3, pause: float = 0.5) -> Any:
    """Call ``action`` until it does not raise (for steps racing a UI that is still settling)."""
    for i in range(attempts):
        try:
            return action()
        except Exception:
            if i == attempts - 1:
                raise
            time.sleep(pause)
    return None
