"""Content-hash cache of translation results, so unchanged files re-run near-instantly.

The key covers everything that can change the output: tool version and a digest of its code, mapping-table digest,
options, project facts (a digest of the project headers the file includes), engine
environment (for the clang engine: libclang, the CUDA headers and their fingerprint), file
suffix and file content. What a clang parse read beyond that (every header it included, the
compilation database) is stamped (size, modification time) in the entry, and the entry is
used only while every stamp still holds.

Entries are pickled values written atomically; an entry that fails to load in any way
(truncated, corrupt, from another version, not the expected type) is a miss and is deleted.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..version import __version__

Stamp = tuple[str, int, int]  # (path, size, mtime_ns); size -1 = the file did not exist


def default_cache_dir() -> Path:
    base = os.environ.get("HIPIFY_PY_CACHE_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "hipify-py" / "results"


def code_digest(package: Path) -> str:
    """A digest of every Python module under ``package`` (names and bytes)."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


@functools.cache
def tool_identity() -> str:
    """The version and a digest of the translator's own code: a checkout or an editable install changed without a
    version bump must not be served what its former self wrote (the digest costs some 20 ms, once per process)."""
    return f"{__version__}+{code_digest(Path(__file__).resolve().parent.parent)[:16]}"


def cache_key(text: str, suffix: str, table_digest: str, options_key: str, engine_env: str) -> str:
    digest = hashlib.sha256()
    for part in (tool_identity(), table_digest, options_key, engine_env, suffix):
        digest.update(part.encode())
        digest.update(b"\0")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def stamps(paths: Iterable[str]) -> tuple[Stamp, ...]:
    out = []
    for path in paths:
        try:
            st = os.stat(path)
            out.append((path, st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((path, -1, 0))
    return tuple(out)


@dataclass(frozen=True)
class Stamped:
    """A cached value, valid while the files it was computed from are unchanged."""

    value: object
    inputs: tuple[Stamp, ...]

    def current(self) -> bool:
        return stamps(p for p, _, _ in self.inputs) == self.inputs


class ResultCache:
    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.pickle"

    def get(self, key: str, expected: type | tuple[type, ...] = object) -> object | None:
        """The value stored under ``key`` if it loads, is an ``expected`` instance and its inputs
        are unchanged; None otherwise (a broken entry is removed)."""
        path = self._path(key)
        try:
            with open(path, "rb") as handle:
                entry = pickle.load(handle)
        except FileNotFoundError:
            return None
        except Exception:  # any failure to load (corrupt bytes, MemoryError, OverflowError, ...): a miss
            _discard(path)
            return None
        if not isinstance(entry, Stamped) or not isinstance(entry.value, expected):
            _discard(path)
            return None
        try:
            return entry.value if entry.current() else None
        except Exception:  # stamps of the wrong shape
            _discard(path)
            return None

    def put(self, key: str, value: object, inputs: Iterable[str] = ()) -> None:
        keep(self._path(key), Stamped(value, stamps(inputs)))


def load_kept(path: Path, expected: type | tuple[type, ...]) -> Any:
    """A value :func:`keep` stored at ``path`` (something built from the installed files, such as the mapping
    table's rows), or None when it is absent, unreadable in any way or not an ``expected`` instance."""
    try:
        with open(path, "rb") as handle:
            value = pickle.load(handle)
    except Exception:  # absent, truncated, from another version...: built again by the caller
        return None
    return value if isinstance(value, expected) else None


def keep(path: Path, value: object) -> None:
    """Store ``value`` at ``path`` atomically (a reader sees the old file or the whole new one); a cache that
    cannot be written only costs speed."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as handle:
            pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except (OSError, pickle.PicklingError):
        _discard(tmp)


def _discard(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
