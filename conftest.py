"""Doctest collection for the package: the research faces need their optional packages (the
``research`` extra). Without them those two modules are left out of the doctests, as the
package itself works without them; ``tests/lab/test_openspiel.py`` and ``tests/lab/test_gym.py``
skip then, saying why, and fail under CI instead."""

from __future__ import annotations

import importlib.util

import pytest

collect_ignore = [
    f"pyramid_widget/lab/{module}"
    for module, needs in (("openspiel.py", "pyspiel"), ("gym_env.py", "gymnasium"))
    if importlib.util.find_spec(needs) is None
]


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--every-way``: the hand-played JupyterLab games play each preset's win and loss by
    mouse and by keyboard (28 games) instead of one hand each (14; see
    ``tests/widget/test_play_every_preset_lab.py``). ``--thorough``: the random-position
    agreement checks take all their seeds instead of the quick tier's prefix."""
    parser.addoption(
        "--every-way",
        action="store_true",
        help="play every preset's win and loss by both mouse and keyboard in real JupyterLab",
    )
    parser.addoption(
        "--thorough",
        action="store_true",
        help="the random-position agreement checks take all their seeds (tests/support/tier.py)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Tell ``tests/support/tier.py`` which tier runs, before test modules are collected."""
    from tests.support import tier

    tier.THOROUGH = bool(config.getoption("thorough"))
    if config.getoption("dist", "no") == "loadgroup" and _release(pytest.__version__) >= (9, 2):
        # pytest 9.2 keeps node ids where pytest-xdist 3.8 can no longer tag them with their
        # group, so the xdist_group marks would be ignored without a word (pytest-xdist issue
        # 1386): every worker would start its own JupyterLab and reopen shared notebooks.
        raise pytest.UsageError(
            f"pytest {pytest.__version__} does not keep --dist loadgroup's groups "
            "(pytest-xdist issue 1386); install the dev extra, which needs pytest<9.2."
        )


def _release(version: str) -> tuple[int, ...]:
    """``(9, 2)`` for ``"9.2.0"`` or ``"9.2.0.dev3"``: the leading numbers of a version.

    >>> _release("9.1.1"), _release("10.0.0rc1")
    ((9, 1, 1), (10, 0))
    """
    numbers = []
    for part in version.split("."):
        if not part.isdigit():
            break
        numbers.append(int(part))
    return tuple(numbers)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` (long statistical checks whose quick versions run anyway, and
    the family's whole-deal game in JupyterLab) belong to ``--thorough`` and ``--every-way``;
    the quick tier deselects them, and pytest reports how many."""
    if config.getoption("thorough") or config.getoption("every_way"):
        return
    keep: list[pytest.Item] = []
    slow: list[pytest.Item] = []
    for item in items:
        (slow if item.get_closest_marker("slow") else keep).append(item)
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = keep
