"""Storage: the SQLite store and live sessions rebuilt from their action logs."""

from companion.store.db import Store, default_path, normalise_uid
from companion.store.session import Accepted, Session

__all__ = ["Accepted", "Session", "Store", "default_path", "normalise_uid"]
