"""Doctest collection for the package: the research faces need their optional packages (the
``research`` extra). Without them those two modules are left out of the doctests, as the
package itself works without them; ``tests/lab/test_openspiel.py`` and ``tests/lab/test_gym.py``
skip then, saying why, and fail under CI instead."""

from __future__ import annotations

import importlib.util

collect_ignore = [
    f"pyramid_widget/lab/{module}"
    for module, needs in (("openspiel.py", "pyspiel"), ("gym_env.py", "gymnasium"))
    if importlib.util.find_spec(needs) is None
]
