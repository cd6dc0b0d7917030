"""Reading sources safely, and encoding translations back byte for byte.

Only regular files are read: a FIFO or a device (``/dev/zero`` behind a symbolic link) is
refused after ``open`` without blocking, and the size limit applies to the bytes actually
read, not to what ``stat`` claimed. A file is decoded only if we can write it back
byte-for-byte where nothing changed: BOM, CRLF line endings and encoding are remembered and
restored, and for encodings where decoding then encoding does not give the same bytes
(``cp932``'s duplicate code points, a big-endian UTF-16 file), the unchanged stretches of
the file are copied from the original bytes and only the edits are encoded.
"""

from __future__ import annotations

import codecs
import os
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..model import Edit, TextFormat

DEFAULT_MAX_SIZE = 64 * 1024 * 1024
# The suffix of the temporary files writing.py writes beside a file before renaming them into place: a walk of a
# tree skips them (the leftovers of a dead run are no sources), so reading knows it without importing writing.
TEMP_SUFFIX = ".hipify-tmp"
_BINARY_PROBE = 8192
_CHUNK = 1 << 20
# Encodings in which NUL bytes are ordinary (the binary-file probe runs on the decoded text).
_WIDE = ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be")
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)


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


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words (for findings)."""
    for test, name in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a directory"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def read_regular(path: Path | str, max_size: int = DEFAULT_MAX_SIZE) -> bytes:
    """The bytes of a regular file, at most ``max_size`` of them; never blocks on a FIFO."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise SourceError("HPY303", f"cannot read: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise SourceError("HPY308", f"not a regular file ({file_kind(mode)}); not read")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(_CHUNK, max_size + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_size:
                raise SourceError("HPY304", f"file is over --max-size {max_size} bytes; skipped")
        return b"".join(chunks)
    except OSError as exc:
        raise SourceError("HPY303", f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _codec(encoding: str) -> str:
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise SourceError("HPY301", f"unknown encoding {encoding!r}") from None


def decode(raw: bytes, encoding: str = "utf-8") -> DecodedSource:
    wide = _codec(encoding) in _WIDE
    if not wide and b"\0" in raw[:_BINARY_PROBE]:
        raise SourceError("HPY302", "looks like a binary file (NUL bytes); left untouched")
    bom = not wide and raw.startswith(codecs.BOM_UTF8)
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
    if wide and "\0" in text[:_BINARY_PROBE]:
        raise SourceError("HPY302", "looks like a binary file (NUL characters); left untouched")
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
    return decode(read_regular(path, max_size), encoding)


# --------------------------------------------------------------------------- output


def encode_translation(original: str, text: str, edits: Sequence[Edit], raw: bytes, fmt: TextFormat) -> bytes:
    """The bytes of ``text`` (``original`` with ``edits`` applied), the unedited parts exactly as in ``raw``.

    Raises :class:`SourceError` (HPY301) when that cannot be done faithfully.
    """
    if text == original:
        return raw
    if _codec(fmt.encoding) == "utf-8":  # decoding UTF-8 (strict, or with surrogateescape) round-trips
        return encode(text, fmt)
    try:
        if encode(original, fmt) == raw:  # the encoding round-trips this file: encode the whole text
            data = encode(text, fmt)
        else:
            data = _splice_bytes(original, edits, raw, fmt)
    except UnicodeEncodeError:
        data = b""
    if not _faithful(data, text, fmt):
        raise SourceError("HPY301", f"the translation cannot be written back byte for byte in {fmt.encoding}")
    return data


def _faithful(data: bytes, text: str, fmt: TextFormat) -> bool:
    """Do ``data`` decode to exactly ``text`` (line endings as the file had them)?"""
    expected = text.replace("\n", "\r\n") if fmt.crlf else text
    try:
        if fmt.bom:
            body = data[len(codecs.BOM_UTF8) :]
            return data.startswith(codecs.BOM_UTF8) and body.decode("utf-8", fmt.errors) == expected
        return data.decode(fmt.encoding, fmt.errors) == expected
    except (UnicodeDecodeError, LookupError):
        return False


def _piece_codec(fmt: TextFormat, raw: bytes) -> tuple[str, int]:
    """(a stateless codec for text in the middle of the file, the length of the BOM before the text)."""
    name = "utf-8" if fmt.bom else _codec(fmt.encoding)
    if fmt.bom or name == "utf-8-sig":
        return "utf-8", len(codecs.BOM_UTF8) if raw.startswith(codecs.BOM_UTF8) else 0
    if name in ("utf-16", "utf-32"):
        boms = (
            (codecs.BOM_UTF32_LE, "-le"),
            (codecs.BOM_UTF32_BE, "-be"),
            (codecs.BOM_UTF16_LE, "-le"),
            (codecs.BOM_UTF16_BE, "-be"),
        )
        for bom, order in boms:
            if len(bom) == (4 if name == "utf-32" else 2) and raw.startswith(bom):
                return name + order, len(bom)
        return name + ("-le" if sys.byteorder == "little" else "-be"), 0
    return name, 0


def _splice_bytes(original: str, edits: Sequence[Edit], raw: bytes, fmt: TextFormat) -> bytes:
    """Copy the bytes between edits from ``raw``; encode only the replacements."""
    codec, head = _piece_codec(fmt, raw)
    body = raw[head:]
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    positions = sorted({p for e in ordered for p in (e.start, e.end)})
    offsets = _byte_offsets(original, body, codec, fmt, positions)
    out = [raw[:head]]
    cursor = 0
    for edit in ordered:
        out.append(body[cursor : offsets[edit.start]])
        replacement = edit.replacement.replace("\n", "\r\n") if fmt.crlf else edit.replacement
        out.append(replacement.encode(codec, fmt.errors))
        cursor = offsets[edit.end]
    out.append(body[cursor:])
    return b"".join(out)


def _byte_offsets(original: str, body: bytes, codec: str, fmt: TextFormat, positions: list[int]) -> dict[int, int]:
    """Byte offset in ``body`` of each (sorted) character offset of ``original`` in ``positions``."""
    wanted: dict[int, int] = {}  # offset in the decoded bytes -> offset in ``original``
    newlines = 0
    previous = 0
    for pos in positions:  # where ``original`` has '\n' the bytes had '\r\n'
        if fmt.crlf:
            newlines += original.count("\n", previous, pos)
            previous = pos
        wanted[pos + newlines] = pos
    found: dict[int, int] = {wanted[0]: 0} if 0 in wanted else {}
    decoder = codecs.getincrementaldecoder(codec)(fmt.errors)
    chars = 0
    for i in range(len(body)):
        chars += len(decoder.decode(body[i : i + 1]))
        if chars in wanted and wanted[chars] not in found and not decoder.getstate()[0]:
            found[wanted[chars]] = i + 1
    missing = [p for p in positions if p not in found]
    if missing:
        raise SourceError("HPY301", f"cannot locate offset {missing[0]} in the {codec} bytes")
    return found
