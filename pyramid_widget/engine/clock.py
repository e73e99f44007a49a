"""A pausable game clock with an injectable time source (tests pass a fake one).

>>> now = [100.0]
>>> clock = Clock(lambda: now[0])
>>> now[0] = 103.0; clock.elapsed
3.0
>>> clock.pause(); now[0] = 200.0; clock.elapsed
3.0
>>> clock.resume(); now[0] = 201.5; clock.elapsed
4.5
"""

from __future__ import annotations

import time
from collections.abc import Callable

TimeSource = Callable[[], float]


class Clock:
    """Counts seconds of play; stops while paused."""

    def __init__(self, time_source: TimeSource | None = None, elapsed: float = 0.0) -> None:
        self._now = time_source or time.monotonic
        self._banked = float(elapsed)
        self._started: float | None = self._now()

    @property
    def elapsed(self) -> float:
        """Seconds counted so far."""
        if self._started is None:
            return self._banked
        return self._banked + max(0.0, self._now() - self._started)

    @property
    def running(self) -> bool:
        """Whether the clock is counting."""
        return self._started is not None

    def pause(self) -> None:
        """Stop counting (no effect when already paused)."""
        if self._started is not None:
            self._banked = self.elapsed
            self._started = None

    def resume(self) -> None:
        """Start counting again (no effect when running)."""
        if self._started is None:
            self._started = self._now()

    def reset(self, elapsed: float = 0.0) -> None:
        """Set the count to ``elapsed`` and keep the running/paused state."""
        running = self.running
        self._banked = float(elapsed)
        self._started = self._now() if running else None
