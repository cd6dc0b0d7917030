"""Content-hash cache of translation results, so unchanged files re-run near-instantly.

The key covers everything that can change the output: tool version, mapping-table digest,
options, engine environment, file suffix and file content. Entries are pickled values
written atomically; a corrupt or unreadable entry is simply a miss.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from . import __version__


def default_cache_dir() -> Path:
    base = os.environ.get("HIPIFY_PY_CACHE_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "hipify-py" / "results"


def cache_key(text: str, suffix: str, table_digest: str, options_key: str, engine_env: str) -> str:
    digest = hashlib.sha256()
    for part in (__version__, table_digest, options_key, engine_env, suffix):
        digest.update(part.encode())
        digest.update(b"\0")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


class ResultCache:
    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.pickle"

    def get(self, key: str) -> object | None:
        try:
            with open(self._path(key), "rb") as handle:
                return pickle.load(handle)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError):
            return None

    def put(self, key: str, value: object) -> None:
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            with open(tmp, "wb") as handle:
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except OSError:
            pass  # a cache that cannot be written only costs speed
