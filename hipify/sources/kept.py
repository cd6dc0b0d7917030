"""One read per file and run: the project scan's reading of a file, kept in the worker for its translation.

The scan and the translation read the same file; the run hands a file's translation to the worker process that
scanned it (``hipify.machinery.supervise``: jobs with a home), which takes the scan's reading back here instead of
reading the file again. A kept reading is used only while the file is what it was: its ``stat`` (taken before the
read, so a change during the read shows) must be unchanged, else the file is read again. What is kept is bounded:
the oldest go first.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..machinery.kept import KeptValues
from .fileio import DEFAULT_MAX_SIZE, DecodedSource, read_source

MAX_KEPT_BYTES = 48 << 20  # source bytes kept at most

# path -> (identity of the file when it was read, how it was read, its reading)
_Reading = tuple[tuple[int, ...], tuple[str, int], DecodedSource]
_kept: KeptValues[str, _Reading] = KeptValues(MAX_KEPT_BYTES)


def _identity(path: str) -> tuple[int, ...] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def read_kept(path: str, encoding: str = "utf-8", max_size: int = DEFAULT_MAX_SIZE) -> DecodedSource:
    """``read_source(path)``, kept for this file's translation in this process (raises ``SourceError``)."""
    identity = _identity(path)
    found = _kept.get(path)
    if found is not None and found[0] == identity and found[1] == (encoding, max_size):
        return found[2]  # read by an earlier scan of the file (the exact scan after an approximate one)
    decoded = read_source(Path(path), encoding, max_size)
    if identity is not None:
        _kept.put(path, (identity, (encoding, max_size), decoded), len(decoded.raw))
    return decoded


def take_read(path: str, encoding: str = "utf-8", max_size: int = DEFAULT_MAX_SIZE) -> DecodedSource:
    """The reading of ``path``: the one the scan kept (no longer kept) while the file is unchanged, else a fresh
    one (raises ``SourceError``)."""
    found = _kept.pop(path)
    if found is not None:
        identity, how, decoded = found
        if how == (encoding, max_size) and identity == _identity(path):
            return decoded
    return read_source(Path(path), encoding, max_size)


def clear() -> None:
    _kept.clear()
