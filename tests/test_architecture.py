"""The rooms' architecture, checked: no import cycle at module level, imports one way down the
rooms, and ``from pyramid_widget import Game`` needs only the standard library."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pyramid_widget"

#: Each room and the rooms it may import at module level (errors.py is below them all).
ALLOWED = {
    "engine": set(),
    "solver": {"engine"},
    "records": {"engine"},
    "widget": {"engine", "solver", "records"},
    "lessons": {"engine", "solver", "records", "widget"},
    # the lab's notebook exercises reuse the lessons' answer checks
    "lab": {"engine", "solver", "records", "lessons"},
    "cli": {"engine", "solver", "records", "lab"},
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _module_level_imports(path: Path) -> set[str]:
    """Modules of the package imported when ``path`` is imported (not inside functions, not
    under ``if TYPE_CHECKING:``)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for inner in ast.walk(node) if isinstance(node, ast.Try) else [node]:
            if isinstance(inner, ast.ImportFrom) and (inner.module or "").startswith(
                "pyramid_widget"
            ):
                assert inner.module is not None
                names |= {f"{inner.module}.{alias.name}" for alias in inner.names} | {inner.module}
            elif isinstance(inner, ast.Import):
                names |= {a.name for a in inner.names if a.name.startswith("pyramid_widget")}
    return names


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {
        name: {target for target in _module_level_imports(path) if target in modules} - {name}
        for name, path in modules.items()
    }


def _room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_no_import_cycle_at_module_level() -> None:
    graph = _graph()
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for target in sorted(graph[node]):
            if target in pyramid_ancestors(node):
                continue  # a package's __init__ runs first anyway
            assert state.get(target) != 1, f"import cycle: {' -> '.join([*trail, target])}"
            if target not in state:
                visit(target, [*trail, target])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])


def pyramid_ancestors(module: str) -> set[str]:
    parts = module.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def test_imports_go_one_way_down_the_rooms() -> None:
    for module, targets in _graph().items():
        room = _room(module)
        if room not in ALLOWED:
            continue
        for target in targets:
            other = _room(target)
            if other in ALLOWED and other != room:
                assert other in ALLOWED[room], f"{module} imports {target}: {room} -> {other}"


def test_the_engine_needs_only_the_standard_library() -> None:
    code = (
        "import sys\nfrom pyramid_widget import Game\nGame('medium', deal=7).play('draw')\n"
        "extra = sorted({m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names)"
        " - {'pyramid_widget', '__main__', '_distutils_hack'})\nprint(extra)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "[]", out.stdout
