"""Records of finished games, saved games and per-rule-set stats, in one SQLite file.

>>> from pyramid_widget.records import Records
>>> Records(":memory:").stats("medium").played
0
"""

from __future__ import annotations

from pyramid_widget.errors import RecordsError, UnknownSavedGameError
from pyramid_widget.records.store import (
    CURRENT_VERSION,
    DATA_DIR_ENV,
    FILE_NAME,
    RESULTS,
    GameRecord,
    Records,
    RecordsWarning,
    SavedGame,
    Stats,
    default_path,
)

__all__ = [
    "CURRENT_VERSION",
    "DATA_DIR_ENV",
    "FILE_NAME",
    "RESULTS",
    "GameRecord",
    "Records",
    "RecordsError",
    "RecordsWarning",
    "SavedGame",
    "Stats",
    "UnknownSavedGameError",
    "default_path",
]
