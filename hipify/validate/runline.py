"""A project's own run line: the recipe of its Makefile's ``run`` target, with the variables it names expanded.

HeCBench-style Makefiles say how their program is meant to be run (``run: $(program)`` then
``$(LAUNCHER) ./$(program) 10000 200 100``); a run on the CPU uses those problem sizes.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

_ASSIGN = re.compile(r"^\s*(?:override\s+|export\s+)?([A-Za-z_][\w.]*)\s*(?::{1,3}=|\?=|=)\s*(.*?)\s*$")
_RUN_TARGET = re.compile(r"^run\s*:(?!=)")
_REFERENCE = re.compile(r"\$\(([A-Za-z_][\w.]*)\)|\$\{([A-Za-z_][\w.]*)\}")


@dataclass(frozen=True)
class RunLine:
    program: str  # the executable the line runs, relative to the Makefile's folder ("main")
    arguments: tuple[str, ...]
    text: str  # the recipe line as expanded


def _variables(lines: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in lines:
        if line.startswith("\t"):
            continue
        match = _ASSIGN.match(line)
        if match and match.group(1) not in found:  # the first plain assignment: conditionals aside
            found[match.group(1)] = match.group(2)
    return found


def _expand(text: str, variables: dict[str, str], depth: int = 0) -> str:
    if depth > 8:
        return text
    return _REFERENCE.sub(lambda m: _expand(variables.get(m.group(1) or m.group(2), ""), variables, depth + 1), text)


def _joined_lines(makefile: Path) -> list[str]:
    try:
        lines = makefile.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    joined: list[str] = []
    for line in lines:  # backslash continuations joined
        if joined and joined[-1].endswith("\\"):
            joined[-1] = joined[-1][:-1] + " " + line.lstrip()
        else:
            joined.append(line)
    return joined


_WILDCARD = re.compile(r"\$\(wildcard\s+([^)$]*)\)")
_COMPILED = (".cu", ".cpp", ".cc", ".cxx", ".c")
_SOURCE_VARIABLES = ("source", "sources", "SOURCE", "SOURCES", "SRC", "SRCS", "src")


def _globbed(folder: Path, words: list[str]) -> list[str]:
    """``words`` with each pattern (``src/*.cu``) replaced by the files it matches in ``folder``, sorted as make's
    ``wildcard`` gives them."""
    found: list[str] = []
    for word in words:
        if "*" in word or "?" in word:
            found += sorted(p.relative_to(folder).as_posix() for p in folder.glob(word) if p.is_file())
        elif "$" not in word:
            found.append(word)
    return found


def makefile_sources(makefile: Path) -> tuple[str, ...]:
    """The sources a Makefile names in its ``source``-like variable (HeCBench: ``source = a.cu b.cu``), patterns
    matched against its folder; without one, the compiled files its variables match with ``$(wildcard ...)``
    (``SRC := $(wildcard src/*.cc)``); else the sources of the objects it names; else ()."""
    variables = _variables(_joined_lines(makefile))
    for name in _SOURCE_VARIABLES:
        if name in variables:
            return tuple(_globbed(makefile.parent, _expand(variables[name], variables).split()))
    patterns: list[str] = []
    for value in variables.values():
        for match in _WILDCARD.finditer(_expand(value, variables)):
            patterns += [w for w in match.group(1).split() if w.endswith(_COMPILED)]
    return tuple(dict.fromkeys(_globbed(makefile.parent, patterns))) or _object_sources(makefile, variables)


def _object_sources(makefile: Path, variables: dict[str, str]) -> tuple[str, ...]:
    """The sources of the objects a Makefile names (``main: ./main.o ./kernel/k.o`` -> ``main.cu kernel/k.cu``):
    each ``.o`` word whose stem is a compiled file of the folder, in the order they first appear."""
    found: dict[str, None] = {}
    for line in _joined_lines(makefile):
        for word in _expand(line, variables).replace(":", " ").split():
            if not word.endswith((".o", ".obj")) or "$" in word or "%" in word:
                continue
            stem = word.rsplit(".", 1)[0].removeprefix("./")
            for suffix in _COMPILED:
                if (makefile.parent / (stem + suffix)).is_file():
                    found[stem + suffix] = None
                    break
    return tuple(found)


def makefile_include_dirs(makefile: Path) -> tuple[str, ...]:
    """The folders of the Makefile's ``-I`` options, relative to its folder as written (absolute ones aside)."""
    found: dict[str, None] = {}
    lines = _joined_lines(makefile)
    variables = _variables(lines)
    for line in lines:
        words = _expand(line, variables).split()
        for k, word in enumerate(words):
            folder = word[2:] if word.startswith("-I") else ""
            if word == "-I" and k + 1 < len(words):
                folder = words[k + 1]
            if folder and not folder.startswith("/") and "$" not in folder:
                found[folder] = None
    return tuple(found)


def run_line(makefile: Path) -> RunLine | None:
    """The first command of ``makefile``'s ``run`` recipe that runs a program of the folder (``./x args``)."""
    joined = _joined_lines(makefile)
    variables = _variables(joined)
    for i, line in enumerate(joined):
        if not _RUN_TARGET.match(line):
            continue
        for recipe in joined[i + 1 :]:
            if not recipe.strip() or recipe.lstrip(" ").startswith("#"):
                continue  # make ignores blank and comment lines among a recipe's lines
            if not recipe.startswith("\t"):
                break
            text = _expand(recipe.strip().lstrip("@-+"), variables).strip()
            if text.startswith("#"):
                continue  # a shell comment: a run line left out
            try:
                words = shlex.split(text)
            except ValueError:
                continue
            for k, word in enumerate(words):
                if word.startswith("./"):
                    return RunLine(word[2:], tuple(words[k + 1 :]), text)
    return None


# --- scaling a run line down (only with --run-scale: the default is the project's sizes as written)

SCALE_THRESHOLD = 2048  # above 1024, the largest CUDA block: block sizes, flags and counts are never touched
_ALIGN_MAX = 1024
_INTEGER = re.compile(r"[0-9]+")


def scale_argument(word: str, factor: float) -> str:
    """``word`` scaled by ``factor`` where it is a decimal integer of at least SCALE_THRESHOLD (nothing else is
    touched). The result keeps the power-of-two alignment (up to 1024) the original had, so a size that was a
    multiple of a block size stays one, and is never below that alignment."""
    if not _INTEGER.fullmatch(word) or int(word) < SCALE_THRESHOLD:
        return word
    value = int(word)
    align = min(value & -value, _ALIGN_MAX)  # the largest power of two dividing it, up to 1024
    return str(max(align, int(value * factor) // align * align))


def scaled(line: RunLine, factor: float) -> RunLine:
    """``line`` with each argument scaled by ``factor`` (:func:`scale_argument`); ``factor`` 1 changes nothing."""
    if factor == 1:
        return line
    if not 0 < factor <= 1:
        raise ValueError(f"a run-line scale must be in (0, 1], not {factor}")
    arguments = tuple(scale_argument(word, factor) for word in line.arguments)
    text = shlex.join([f"./{line.program}", *arguments])
    return RunLine(line.program, arguments, text)
