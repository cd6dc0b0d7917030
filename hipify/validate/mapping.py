"""Map compiler diagnostics on a translated file back to the original CUDA text through the edit list."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..model import Edit, LineIndex

# clang: "path:line:col: error: message"; also "fatal error:". nvcc/EDG: "path(line): error: message".
CLANG_DIAG = re.compile(
    r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<kind>fatal error|error): (?P<msg>.*)$", re.MULTILINE
)
EDG_DIAG = re.compile(r"^(?P<file>[^\s(][^(]*)\((?P<line>\d+)\): (?P<kind>error): (?P<msg>.*)$", re.MULTILINE)


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
    file: str  # the file as the compiler named it (translated tree or a system header)
    line: int
    col: int
    original_file: str = ""  # relative path in the program, when the error is in one of its files
    original_line: int = 0
    original_col: int = 0
    original_text: str = ""  # the CUDA source line
    translated_text: str = ""
    macro_line: int = 0  # where the offending token is spelled, when the error is in a macro expansion
    macro_text: str = ""

    def short(self) -> str:
        if self.original_file:
            where = f"{self.original_file}:{self.original_line}:{self.original_col}"
        elif self.line:
            where = f"{self.file}:{self.line}:{self.col}"
        else:
            where = self.file or "?"
        spelled = f" (spelled in a macro at line {self.macro_line}: {self.macro_text})" if self.macro_line else ""
        return f"{where}: {self.message}{spelled}"

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


CLANG_ANY = re.compile(
    r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<kind>fatal error|error|warning|note): "
    r"(?P<msg>.*)$",
    re.MULTILINE,
)


def parse_errors(output: str, tree_prefixes: Iterable[str], files: dict[str, FileTranslation]) -> list[MappedError]:
    """Errors in compiler ``output``, mapped to CUDA lines where they are in the translated tree.

    ``tree_prefixes`` are the spellings of the translated tree's root as the compiler may print it
    (host path, chroot path); ``files`` maps a relative path to its translation. An error inside a
    system header (a static_assert in a HIP template, say) is located at the first of its notes
    ("in instantiation of ... requested here", "expanded from macro") that points into the tree.
    """
    prefixes = [p.rstrip("/") + "/" for p in tree_prefixes]

    def rel_of(path: str) -> str | None:
        rel = next((path[len(p) :] for p in prefixes if path.startswith(p)), None)
        return rel[2:] if rel is not None and rel.startswith("./") else rel

    def mapped(msg: str, path: str, line: int, col: int, at: tuple[str, int, int] | None) -> MappedError:
        loc_path, loc_line, loc_col = at or (path, line, col)
        rel = rel_of(loc_path)
        ft = files.get(rel) if rel is not None else None
        if ft is None:
            return MappedError(msg, path, line, col)
        o_line, o_col = map_location(ft.original, ft.translated, ft.edits, loc_line, loc_col)
        o_lines = ft.original.split("\n")
        t_lines = ft.translated.split("\n")
        return MappedError(
            msg,
            path,
            line,
            col,
            ft.rel,
            o_line,
            o_col,
            o_lines[o_line - 1].strip() if o_line - 1 < len(o_lines) else "",
            t_lines[loc_line - 1].strip() if loc_line - 1 < len(t_lines) else "",
        )

    found: list[tuple[int, MappedError]] = []
    diags = list(CLANG_ANY.finditer(output))
    for i, m in enumerate(diags):
        if m.group("kind") not in ("error", "fatal error"):
            continue
        path, line, col = m.group("file").strip(), int(m.group("line")), int(m.group("col"))
        at = None
        if rel_of(path) not in files:
            for n in diags[i + 1 :]:
                if n.group("kind") != "note":
                    break
                if rel_of(n.group("file").strip()) in files:
                    at = (n.group("file").strip(), int(n.group("line")), int(n.group("col")))
                    break
        error = mapped(m.group("msg").strip(), path, line, col, at)
        for n in diags[i + 1 :]:  # the innermost "expanded from macro" note in the program: where the token is
            if n.group("kind") != "note":
                break
            n_rel = rel_of(n.group("file").strip())
            if n.group("msg").startswith("expanded from macro") and n_rel in files and error.original_file:
                names = re.findall(r"'(\w+)'", error.message)
                if any(name in error.original_text for name in names):
                    break  # the offending name is spelled at the use site (a macro argument)
                spelled = mapped("", n.group("file").strip(), int(n.group("line")), int(n.group("col")), None)
                error = replace(error, macro_line=spelled.original_line, macro_text=spelled.original_text)
                break
        found.append((m.start(), error))
    for m in EDG_DIAG.finditer(output):
        found.append(
            (m.start(), mapped(m.group("msg").strip(), m.group("file").strip(), int(m.group("line")), 1, None))
        )
    found.sort(key=lambda item: item[0])
    return [e for _, e in found]


def first_error(errors: list[MappedError]) -> MappedError | None:
    """The first error, preferring one located in the program's own files (system-header errors are
    usually consequences of a call in the program)."""
    for e in errors:
        if e.original_file:
            return e
    return errors[0] if errors else None
