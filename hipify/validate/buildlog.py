"""Where a build with make or CMake stopped, read from its output: configure, compile or link, and the line
that says why.

A build's output interleaves commands, warnings and the compiler's notes; what broke is the first line that
reports an error of its own kind, in the order the tools ran (make stops at the first failing command):
a compiler diagnostic (``file:line:col: error:``), a linker's complaint (GNU ld, lld, through clang or gcc),
a compiler driver's error (an unknown option), a command that does not exist (``nvcc: not found``), a CMake
error, and only then make's own ``***`` line. The lines that merely repeat a failure (``linker command
failed``, ``N errors generated``) are never the cause.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CONFIGURE, COMPILE, LINK = "configure", "compile", "link"
DIAGNOSTIC, LINKER, DRIVER, MISSING_COMMAND, CMAKE_ERROR, MAKE_STOP, OTHER = (
    "diagnostic",
    "linker",
    "driver",
    "missing-command",
    "cmake",
    "make",
    "other",
)

_DIAG = re.compile(r"^[^\s:][^:]*:\d+:\d+: (?:fatal error|error): ")
_LINKER = re.compile(
    r"(?P<what>undefined reference to .*|undefined (?:hidden )?symbol.*|multiple definition of .*)$"
    r"|^(?:\S*/)?(?:[\w.]+-)*(?:ld(?:\.\w+)?|collect2): (?:error: )?(?P<msg>.*)$"
)
# a driver's error, or clang's error with no file (``error: unable to open output file 'bin/x.o'``)
_DRIVER = re.compile(
    r"^(?:(?:\S*/)?(?:hipcc|clang\S*|g\+\+|gcc|c\+\+|cc|nvcc)(?:-\d+)?: )?(?:fatal )?error: (?P<msg>.*)$"
)
_MISSING = re.compile(
    r"^(?:/bin/sh: (?:\d+: |line \d+: )?|g?make(?:\[\d+\])?: )(?P<msg>\S+: (?:command )?not found|\S+: No such file or directory)$"
)
_CMAKE = re.compile(r"^CMake Error(?: at (?P<file>[^:]+):(?P<line>\d+) \((?P<cmd>\w+)\))?:\s*(?P<msg>.*)$")
_MAKE_STOP = re.compile(r"^g?make(?:\[\d+\])?: \*\*\* (?P<msg>.*)$")
_REPEATS = ("linker command failed", "errors generated", "error generated", "ld returned", "warning:")


_WHAT = re.compile(r"(?:undefined reference to|undefined (?:hidden )?symbol|multiple definition of).*$")


def _linker_message(lines: list[str], i: int, found: re.Match[str]) -> str:
    """What the linker could not do: GNU ld says where first (``main.o: in function `main':``) and what on
    the next line (``undefined reference to `x'``); the what names the cause across programs."""
    for text in lines[i : i + 4]:
        what = _WHAT.search(text)
        if what:
            return what.group(0).strip()
    return (found.group("msg") or found.group(0)).strip()


@dataclass(frozen=True)
class Failure:
    """Why a build stopped: ``stage`` (configure, compile, link), what reported it, its message, the index of
    its line in the output, and the file and line a CMake error names."""

    stage: str
    kind: str
    message: str
    index: int = -1
    file: str = ""
    line: int = 0


def first_failure(output: str, configuring: bool = False) -> Failure:
    """The cause of a failed build (or of a failed ``cmake -S -B`` when ``configuring``)."""
    lines = output.splitlines()
    for i, text in enumerate(lines):
        if _DIAG.match(text):
            return Failure(COMPILE, DIAGNOSTIC, text.split(": ", 2)[-1].strip(), i)
        if any(r in text for r in _REPEATS):
            continue
        linker = _LINKER.search(text)
        if linker:
            return Failure(LINK, LINKER, _linker_message(lines, i, linker), i)
        driver = _DRIVER.match(text)
        if driver:
            return Failure(CONFIGURE if configuring else COMPILE, DRIVER, driver.group("msg").strip(), i)
        missing = _MISSING.match(text)
        if missing:
            return Failure(CONFIGURE if configuring else COMPILE, MISSING_COMMAND, missing.group("msg"), i)
        cmake = _CMAKE.match(text)
        if cmake:
            detail = cmake.group("msg") or " ".join(x.strip() for x in lines[i + 1 : i + 4] if x.strip())
            where = f"{cmake.group('cmd')}: " if cmake.group("cmd") else ""
            stage = CONFIGURE if configuring else COMPILE
            return Failure(
                stage, CMAKE_ERROR, where + detail, i, cmake.group("file") or "", int(cmake.group("line") or 0)
            )
    for i, text in enumerate(lines):
        stop = _MAKE_STOP.match(text)
        if stop:
            return Failure(CONFIGURE if configuring else COMPILE, MAKE_STOP, "make: " + stop.group("msg"), i)
    tail = [x for x in lines if x.strip()]
    return Failure(CONFIGURE if configuring else COMPILE, OTHER, tail[-1].strip() if tail else "failed without output")
