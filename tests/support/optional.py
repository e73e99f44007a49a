"""Optional packages in tests: skip, saying why, where an extra is not installed; fail under
CI, which installs every extra (``.ci/run`` → ``make test`` → ``pip install -e .[dev]``)."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def need(name: str, extra: str = "research") -> ModuleType:
    """Import ``name`` for a test module, or skip the module (fail it under ``CI``)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        message = f"{name} is not installed (pip install 'pyramid-widget[{extra}]')"
        if os.environ.get("CI"):
            pytest.fail(message + f"; the {extra} tests must run under CI", pytrace=False)
        pytest.skip(message, allow_module_level=True)
