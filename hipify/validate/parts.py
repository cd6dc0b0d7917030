"""What judging a program needs from a toolchain besides hipcc, asked of the toolchain itself.

hipcc compiles each source. A program built with its own build files also needs make or CMake, the host compilers
they call for host code (GNU make's ``$(CC)`` and ``$(CXX)`` are ``cc`` and ``g++``; CMake's C and CXX languages look
for ``cc`` and ``c++``), and the link files (``libhipblas.so``) of the HIP libraries it links. A toolchain that lacks
one cannot judge such a program: a build that stops at "No CMAKE_CXX_COMPILER could be found" says nothing about the
translation. So ``validate`` asks the toolchain, once and where it runs (inside its chroot: ``command -v`` for a
command, ``hipcc -print-file-name`` for a link file), reports what it lacks as the toolchain's problem with the
command that completes it, and gives the programs that need it the verdict "not judged". Tests that need a part ask
the same way, and skip with the same words.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .toolchain import LIB_HEADERS, LIB_PACKAGES, Toolchain, setup_command

NOT_JUDGED = "NOT JUDGED"


@dataclass(frozen=True)
class Part:
    """A part of a toolchain: commands on its PATH, or a library's link file on its library path."""

    name: str  # as people say it: "make", "a host C++ compiler", "hipblas's link file"
    commands: tuple[str, ...] = ()
    link_file: str = ""  # e.g. libhipblas.so
    package: str = ""  # the Debian package that provides it

    def describe(self) -> str:
        what = ", ".join(self.commands) or self.link_file
        return f"{self.name} ({what})"


MAKE = Part("make", ("make",), package="make")
CMAKE = Part("CMake", ("cmake",), package="cmake")
HOST_C = Part("a host C compiler", ("cc",), package="gcc")
HOST_CXX = Part("a host C++ compiler", ("c++", "g++"), package="g++")
BUILD_TOOLS = {"make": (MAKE, HOST_C, HOST_CXX), "cmake": (CMAKE, HOST_C, HOST_CXX)}

# HIP library -> the link file a program that uses it links (header-only libraries have none).
LIB_LINK_FILES = {
    "hipblas": "libhipblas.so",
    "hipblaslt": "libhipblaslt.so",
    "hipfft": "libhipfft.so",
    "hiprand": "libhiprand.so",
    "hipsparse": "libhipsparse.so",
    "hipsolver": "libhipsolver.so",
    "hiprtc": "libhiprtc.so",
}


def link_part(lib: str) -> Part | None:
    """The link file of HIP library ``lib`` as a part (None for a header-only library)."""
    link_file = LIB_LINK_FILES.get(lib)
    if link_file is None:
        return None
    return Part(f"{lib}'s link file", link_file=link_file, package=LIB_PACKAGES.get(lib, lib))


def build_parts(system: str, libs: Iterable[str]) -> tuple[Part, ...]:
    """What building with ``system`` ("make", "cmake") a program that uses HIP libraries ``libs`` needs."""
    links = (link_part(lib) for lib in sorted(set(libs)))
    return (*BUILD_TOOLS.get(system, ()), *(part for part in links if part is not None))


_HEADER_LIBRARY = {header: lib for lib, headers in LIB_HEADERS.items() for header in headers}
_INCLUDE = re.compile(
    r"^[ \t]*#[ \t]*include[ \t]*[<\"](" + "|".join(map(re.escape, _HEADER_LIBRARY)) + r")[>\"]", re.MULTILINE
)


def libraries_included(texts: Iterable[str]) -> frozenset[str]:
    """The HIP libraries whose headers ``texts`` (translated sources) include."""
    return frozenset(_HEADER_LIBRARY[m.group(1)] for text in texts for m in _INCLUDE.finditer(text))


@dataclass(frozen=True)
class Inventory:
    """What a toolchain was found to lack, of every part :func:`probe` asks about."""

    missing: frozenset[str]  # commands and link files the toolchain does not have
    unknown: str = ""  # why the toolchain could not be asked ("" when it answered): nothing is then held missing

    def lacks(self, parts: Iterable[Part]) -> tuple[Part, ...]:
        return tuple(p for p in parts if any(c in self.missing for c in p.commands) or p.link_file in self.missing)


ASKED: tuple[Part, ...] = (MAKE, CMAKE, HOST_C, HOST_CXX, *filter(None, map(link_part, LIB_LINK_FILES)))
_DONE = "parts-probed"
_probed: dict[tuple[object, ...], Inventory] = {}
_lock = threading.Lock()


def probe(tc: Toolchain) -> Inventory:
    """What ``tc`` lacks, asked once per process."""
    key = (tc.name, tc.hipcc, tc.chroot)
    with _lock:
        if key not in _probed:
            _probed[key] = ask(tc)
        return _probed[key]


def ask(tc: Toolchain) -> Inventory:
    """Ask ``tc`` which of the parts :data:`ASKED` names it lacks: one shell where its hipcc runs."""
    commands = sorted({c for part in ASKED for c in part.commands})
    files = sorted({part.link_file for part in ASKED if part.link_file})
    hipcc = "hipcc" if tc.chroot else shlex.join(tc.hipcc)
    script = (
        f'for c in {" ".join(commands)}; do command -v "$c" >/dev/null 2>&1 || echo "$c"; done; '
        f'for f in {" ".join(files)}; do [ "$({hipcc} -print-file-name="$f" 2>/dev/null)" = "$f" ] && echo "$f"; done; '
        f"echo {_DONE}"
    )
    cmd = [*tc.hipcc[:-1], "sh", "-c", script] if tc.chroot else ["sh", "-c", script]
    try:
        proc = subprocess.run(
            cmd, check=False, capture_output=True, text=True, timeout=120, env={**os.environ, **tc.env}
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Inventory(frozenset(), f"{type(exc).__name__}: {exc}")
    lines = proc.stdout.split()
    if _DONE not in lines:
        return Inventory(frozenset(), (proc.stderr.strip() or f"exit status {proc.returncode}")[-300:])
    missing = {line for line in lines if line != _DONE}
    missing -= {f for f in files if f in missing and _beside_headers(tc, f)}
    return Inventory(frozenset(missing))


def _beside_headers(tc: Toolchain, link_file: str) -> bool:
    """A link file in the library folder beside one of the toolchain's include folders (ROCm's ``lib`` beside its
    ``include``), which a host hipcc links from but does not list."""
    for root in tc.include_roots:
        base = Path(root).parent
        if any((base / sub / link_file).exists() for sub in ("lib", "lib64", "lib/x86_64-linux-gnu")):
            return True
    return False


def completion(tc: Toolchain, parts: Iterable[Part]) -> str:
    """The command that gives ``tc`` the ``parts`` it lacks."""
    if tc.chroot:
        return f"`{setup_command(tc.chroot, tc.rocm_version)}` (as root) completes it"
    packages = " ".join(sorted({p.package for p in parts if p.package}))
    return f"install them (Debian/Ubuntu: `apt-get install {packages}`)"


def lacking(tc: Toolchain, parts: Iterable[Part]) -> str:
    """Why ``tc`` cannot judge what needs ``parts`` ("" when it has them all): the toolchain's problem, said with
    the command that completes it."""
    absent = tuple(dict.fromkeys(probe(tc).lacks(parts)))  # (each once, however often asked for)
    if not absent:
        return ""
    names = "; ".join(p.describe() for p in absent)
    return f"the toolchain ({tc.describe()}) lacks {names}: {completion(tc, absent)}"
