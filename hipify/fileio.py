"""Reading sources safely and writing outputs atomically.

A file is decoded only if we can write it back byte-for-byte where nothing changed:
BOM, CRLF line endings, encoding and file mode are remembered and restored.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .model import TextFormat

DEFAULT_MAX_SIZE = 64 * 1024 * 1024
_BINARY_PROBE = 8192


class SourceError(Exception):
    """A file we will not translate; ``code`` is an HPY3xx diagnostic code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class DecodedSource:
    text: str  # LF-normalised when the file was consistently CRLF
    fmt: TextFormat
    raw: bytes
    note: str = ""  # something the user should know about how the file was read


def decode(raw: bytes, encoding: str = "utf-8") -> DecodedSource:
    if b"\0" in raw[:_BINARY_PROBE]:
        raise SourceError("HPY302", "looks like a binary file (NUL bytes); left untouched")
    bom = raw.startswith(codecs.BOM_UTF8)
    body = raw[len(codecs.BOM_UTF8) :] if bom else raw
    note = ""
    errors = "strict"
    try:
        text = body.decode("utf-8" if bom else encoding)
    except UnicodeDecodeError as exc:
        if codecs.lookup(encoding).name == "utf-8" and _mostly_utf8(body):
            # Mostly UTF-8 with a stray Latin-1 byte in a comment (a (c) sign): each byte that is not
            # UTF-8 is carried as a lone surrogate and written back as the same byte.
            text = body.decode("utf-8", "surrogateescape")
            errors = "surrogateescape"
            note = (
                f"not valid UTF-8 (byte 0x{body[exc.start]:02x} at offset {exc.start}): translated, and the bytes "
                "that are not UTF-8 are kept as they are"
            )
        else:
            raise SourceError(
                "HPY301",
                f"not valid {encoding} (byte 0x{body[exc.start]:02x} at offset {exc.start}); left untouched; "
                "pass --encoding to read it",
            ) from None
    except LookupError:
        raise SourceError("HPY301", f"unknown encoding {encoding!r}") from None
    crlf_count = text.count("\r\n")
    crlf = crlf_count > 0 and crlf_count == text.count("\n")
    if crlf:
        text = text.replace("\r\n", "\n")
    return DecodedSource(text, TextFormat("utf-8" if bom else encoding, bom, crlf, errors), raw, note)


def _mostly_utf8(body: bytes) -> bool:
    """A UTF-8 file with a few stray bytes (not UTF-16/32, whose BOM is no UTF-8 either)."""
    if body.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return False
    text = body.decode("utf-8", "surrogateescape")
    stray = sum(1 for ch in text if "\udc80" <= ch <= "\udcff")
    return stray <= max(8, len(body) // 100)  # a few signs, not a file in another encoding


def encode(text: str, fmt: TextFormat) -> bytes:
    if fmt.crlf:
        text = text.replace("\n", "\r\n")
    data = text.encode(fmt.encoding, fmt.errors)
    return codecs.BOM_UTF8 + data if fmt.bom else data


def read_source(path: Path, encoding: str = "utf-8", max_size: int = DEFAULT_MAX_SIZE) -> DecodedSource:
    try:
        size = path.stat().st_size
        if size > max_size:
            raise SourceError("HPY304", f"file is {size} bytes, over --max-size {max_size}; skipped")
        raw = path.read_bytes()
    except SourceError:
        raise
    except OSError as exc:
        raise SourceError("HPY303", f"cannot read: {exc.strerror or exc}") from None
    return decode(raw, encoding)


def write_atomic(path: Path, data: bytes, mode_from: Path | None = None) -> None:
    """Write via a temp file in the same directory + rename, so readers never see half a file.

    The new file takes the permission bits of ``mode_from`` (the input) when given, else of
    the file it replaces, else the process default.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    mode: int | None = None
    for source in (mode_from, path):
        if source is not None:
            try:
                mode = stat.S_IMODE(source.stat().st_mode)
                break
            except OSError:
                continue
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".hipify-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp_name, mode)
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
