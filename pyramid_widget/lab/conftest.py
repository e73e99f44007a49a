"""Doctest collection: the research faces need their optional packages (the ``research``
extra). Without them their modules are left out here, as the package itself works without
them; ``tests/lab/test_openspiel.py`` and ``tests/lab/test_gym.py`` fail under CI instead."""

from __future__ import annotations

import importlib.util

collect_ignore = [
    module
    for module, needs in (("openspiel.py", "pyspiel"), ("gym_env.py", "gymnasium"))
    if importlib.util.find_spec(needs) is None
]
