"""Map compiler diagnostics on a translated file back to the original CUDA text through the edit list."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from ..model import Edit, LineIndex

# clang: "path:line:col: error: message"; also "fatal error:". nvcc/EDG: "path(line): error: message".
CLANG_DIAG = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<kind>fatal error|error): (?P<msg>.*)$",
                        re.M)
EDG_DIAG = re.compile(r"^(?P<file>[^\s(][^(]*)\((?P<line>\d+)\): (?P<kind>error): (?P<msg>.*)$", re.M)


def translated_to_original(edits: Iterable[Edit], offset: int) -> int:
    """Original offset of ``offset`` in the translated text.

    Text outside edits maps 1:1 (shifted by the length changes of the edits before it); a position
    inside a replacement maps to the start of the text that replacement stands for.
    """
    delta = 0  # translated - original, for text after the edits seen so far
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        t_start = edit.start + delta
        t_end = t_start + len(edit.replacement)
        if offset < t_start:
            break
        if offset < t_end:
            return edit.start
        delta += len(edit.replacement) - (edit.end - edit.start)
    return max(0, offset - delta)


def _char_col(line_text: str, byte_col: int) -> int:
    """Compilers count columns in bytes; convert to a 1-based character column."""
    raw = line_text.encode("utf-8")[: max(0, byte_col - 1)]
    return len(raw.decode("utf-8", errors="ignore")) + 1


@dataclass(frozen=True)
class MappedError:
    message: str
    file: str             # the file as the compiler named it (translated tree or a system header)
    line: int
    col: int
    original_file: str = ""   # relative path in the program, when the error is in one of its files
    original_line: int = 0
    original_col: int = 0
    original_text: str = ""   # the CUDA source line
    translated_text: str = ""

    def short(self) -> str:
        where = (f"{self.original_file}:{self.original_line}:{self.original_col}" if self.original_file
                 else f"{self.file}:{self.line}:{self.col}")
        return f"{where}: {self.message}"

    def to_json(self) -> dict[str, object]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def map_location(original: str, translated: str, edits: Iterable[Edit], line: int, col: int) -> tuple[int, int]:
    """(line, col) in the translated text -> (line, col) in the original text (1-based)."""
    t_index = LineIndex.of(translated)
    line = max(1, min(line, len(t_index.starts)))
    t_lines = translated.split("\n")
    ccol = _char_col(t_lines[line - 1] if line - 1 < len(t_lines) else "", col)
    t_offset = min(t_index.offset(line, ccol), len(translated))
    o_offset = translated_to_original(edits, t_offset)
    return LineIndex.of(original).line_col(min(o_offset, len(original)))


@dataclass(frozen=True)
class FileTranslation:
    rel: str
    original: str
    translated: str
    edits: tuple[Edit, ...]


def parse_errors(output: str, tree_prefixes: Iterable[str], files: dict[str, FileTranslation]) -> list[MappedError]:
    """Errors in compiler ``output``, mapped to CUDA lines where they are in the translated tree.

    ``tree_prefixes`` are the spellings of the translated tree's root as the compiler may print it
    (host path, chroot path); ``files`` maps a relative path to its translation.
    """
    prefixes = [p.rstrip("/") + "/" for p in tree_prefixes]
    found: list[tuple[int, MappedError]] = []
    for pattern in (CLANG_DIAG, EDG_DIAG):
        for m in pattern.finditer(output):
            path = m.group("file").strip()
            line = int(m.group("line"))
            col = int(m.group("col")) if "col" in m.groupdict() and m.group("col") else 1
            msg = m.group("msg").strip()
            rel = next((path[len(p):] for p in prefixes if path.startswith(p)), None)
            if rel is not None and rel.startswith("./"):
                rel = rel[2:]
            ft = files.get(rel) if rel is not None else None
            if ft is None:
                found.append((m.start(), MappedError(msg, path, line, col)))
                continue
            o_line, o_col = map_location(ft.original, ft.translated, ft.edits, line, col)
            o_lines = ft.original.split("\n")
            t_lines = ft.translated.split("\n")
            found.append((m.start(), MappedError(
                msg, path, line, col, ft.rel, o_line, o_col,
                o_lines[o_line - 1].strip() if o_line - 1 < len(o_lines) else "",
                t_lines[line - 1].strip() if line - 1 < len(t_lines) else "")))
    found.sort(key=lambda item: item[0])
    return [e for _, e in found]


def first_error(errors: list[MappedError]) -> MappedError | None:
    """The first error, preferring one located in the program's own files (system-header errors are
    usually consequences of a call in the program)."""
    for e in errors:
        if e.original_file:
            return e
    return errors[0] if errors else None
