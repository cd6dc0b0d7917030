"""Build whole programs with their own build files, as a user does after translating: ``make`` in a
benchmark's folder (no variables on the command line), ``cmake -S -B`` then ``cmake --build`` for a CMake
project; report whether each configured, compiled and linked, with the first error. Verdicts are cached
like the compile verdicts, under a hash of the compiler and every file that can reach the build."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from realcode_compile import CompileError, CompileSettings, first_error, program_key
from realcode_programs import Program

# Bump when the way a program is built or judged changes, so old verdicts are not reused.
BUILD_SCHEMA = 1
MAKE, CMAKE = "make", "cmake"
CONFIGURE, COMPILE, LINK = "configure", "compile", "link"
MAKEFILE_NAMES = ("GNUmakefile", "makefile", "Makefile")

_DIAG = re.compile(r"^[^\s:][^:]*:\d+:\d+: (?:fatal error|error): ")
# what a linker says when a program does not link (GNU ld, gold, lld, through clang or gcc)
_LINKER = re.compile(
    r"undefined reference to|undefined (?:hidden )?symbol|multiple definition of|"
    r"^(?:\S*/)?(?:ld(?:\.\w+)?|ld\.lld|collect2): (?:error: )?(?!.*warning)(?P<msg>.*)$"
)
_TOOL = re.compile(r"^(?:\S*/)?(?:hipcc|clang\S*|g\+\+|gcc|c\+\+|nvcc)(?:-\d+)?: (?:fatal )?error: (?P<msg>.*)$")
_NOT_FOUND = re.compile(r"^(?:/bin/sh: \d+: |make(?:\[\d+\])?: )(?P<msg>\S+: (?:not found|No such file or directory))$")
_MAKE_STOP = re.compile(r"^make(?:\[\d+\])?: \*\*\* (?P<msg>.*)$")
_CMAKE_ERROR = re.compile(r"^CMake Error(?: at (?P<file>[^:]+):(?P<line>\d+) \((?P<cmd>\w+)\))?:\s*(?P<msg>.*)$")
_SECONDARY = ("linker command failed", "errors generated", "ld returned")


@dataclass(frozen=True)
class BuildResult:
    """One program built with its own build files. ``configured`` is None for make (nothing to configure)."""

    corpus: str
    name: str
    kind: str  # "translated" or "ported"
    system: str  # "make" or "cmake"
    configured: bool | None
    compiled: bool
    linked: bool
    stage: str = ""  # where it stopped: configure, compile or link ("" when it built)
    error: CompileError | None = None
    seconds: float = 0.0
    cached: bool = False

    @property
    def built(self) -> bool:
        return self.linked

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data["built"] = self.built
        return data


@dataclass(frozen=True)
class BuildUnit:
    """What one build covers: a folder with a Makefile, or a CMake project's folder."""

    program: Program  # the program (the first one, for a CMake project with several targets)
    system: str
    folder: str  # where make or cmake runs, tree-relative

    @property
    def name(self) -> str:
        return self.program.name if self.system == MAKE else self.folder


def _makefile_folder(root: Path, folder: str) -> str | None:
    """The program's folder if it has a Makefile, else the shallowest folder below with one."""
    base = root / folder
    if any((base / n).is_file() for n in MAKEFILE_NAMES):
        return folder
    found = sorted((p for n in MAKEFILE_NAMES for p in base.rglob(n)), key=lambda p: (len(p.parts), str(p)))
    return found[0].parent.relative_to(root).as_posix() if found else None


def make_units(programs: list[Program], root: Path) -> list[BuildUnit]:
    """One per program with a Makefile; the others are not buildable with make."""
    units = []
    for p in programs:
        folder = _makefile_folder(root, p.folder)
        if folder is not None:
            units.append(BuildUnit(p, MAKE, folder))
    return units


def cmake_units(programs: list[Program], root: Path) -> list[BuildUnit]:
    """One per folder whose CMakeLists.txt is a project (its own ``project()``), for its first program."""
    units: dict[str, BuildUnit] = {}
    for p in programs:
        lists = root / p.folder / "CMakeLists.txt"
        if (
            p.folder not in units
            and lists.is_file()
            and re.search(r"^\s*project\s*\(", lists.read_text(errors="replace"), re.M | re.I)
        ):
            units[p.folder] = BuildUnit(p, CMAKE, p.folder)
    return list(units.values())


def build_key(settings: CompileSettings, unit: BuildUnit, root: Path, shared: str) -> str:
    """The compile key of the program (compiler, its files, the shared files) plus how it is built."""
    h = hashlib.sha256(f"build {BUILD_SCHEMA} {unit.system} {unit.folder}\n".encode())
    h.update(program_key(settings, unit.program, root, shared).encode())
    return h.hexdigest()


def _is_linker_line(line: str) -> bool:
    m = _LINKER.search(line)
    return bool(m) and not any(s in line for s in _SECONDARY)


def build_error(output: str, inner_root: str, root: Path) -> tuple[str, CompileError]:
    """(stage, first error) of a failed build's output: the first line that says what went wrong, read as
    a compiler diagnostic (compile), a linker's complaint (link), a compiler driver's or a missing
    command's error (compile), a CMake error (configure) or make's own stop."""
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if _DIAG.match(line):
            return COMPILE, first_error("\n".join(lines[i:]), inner_root, root)
        if _is_linker_line(line):
            m = _LINKER.search(line)
            message = m.group("msg") if m and m.group("msg") else line.strip()
            return LINK, CompileError(_relative(message.strip(), inner_root))
        tool = _TOOL.match(line)
        if tool and not any(s in line for s in _SECONDARY):
            return COMPILE, CompileError(_relative(tool.group("msg").strip(), inner_root))
        missing = _NOT_FOUND.match(line)
        if missing:
            return COMPILE, CompileError(missing.group("msg"))
        cm = _CMAKE_ERROR.match(line)
        if cm:
            detail = cm.group("msg") or " ".join(x.strip() for x in lines[i + 1 : i + 4] if x.strip())
            file = _relative(cm.group("file") or "", inner_root)
            where = f"{cm.group('cmd')}: " if cm.group("cmd") else ""
            return CONFIGURE, CompileError(where + detail, file, int(cm.group("line") or 0))
    for line in lines:
        stop = _MAKE_STOP.match(line)
        if stop:
            return COMPILE, CompileError("make: " + _relative(stop.group("msg"), inner_root))
    tail = [x for x in lines if x.strip()]
    return COMPILE, CompileError(tail[-1].strip() if tail else "failed without output")


def _relative(text: str, inner_root: str) -> str:
    return text.replace(inner_root.rstrip("/") + "/", "")


def _run(cmd: list[str], settings: CompileSettings, timeout: float) -> tuple[int, str]:
    try:
        proc = subprocess.run(
            ["nice", "-n", "10", *cmd], capture_output=True, text=True, errors="replace", timeout=timeout,
            check=False, env={**os.environ, **settings.toolchain.env},
        )  # fmt: skip
        return proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        return 124, out + f"\nmake: *** timed out after {timeout:.0f} s"


def _in_env(settings: CompileSettings, *cmd: str) -> list[str]:
    """``cmd`` run where hipcc runs: inside the ROCm chroot (its prefix is hipcc's command minus hipcc)."""
    prefix = list(settings.toolchain.hipcc[:-1]) if settings.toolchain.chroot else []
    return [*prefix, *cmd]


def build_unit(
    settings: CompileSettings, unit: BuildUnit, root: Path, kind: str, build_root: Path, timeout: float = 1800
) -> BuildResult:
    """Build ``unit`` in ``root`` (the tree is written to: objects, the CMake build folder under ``build_root``)."""
    tc = settings.toolchain
    p = unit.program
    inner_root = tc.inner_path(str(root))
    folder = f"{inner_root}/{unit.folder}"
    base = {"corpus": p.corpus, "name": unit.name, "kind": kind, "system": unit.system}
    start = time.perf_counter()
    if unit.system == MAKE:
        rc, out = _run(_in_env(settings, "make", "-C", folder), settings, timeout)
        configured: bool | None = None
    else:
        build = build_root / re.sub(r"[^A-Za-z0-9_.-]", "_", f"{kind}-{unit.folder}")
        inner_build = tc.inner_path(str(build))
        rc, out = _run(_in_env(settings, "cmake", "-S", folder, "-B", inner_build), settings, timeout)
        configured = rc == 0
        if not configured:
            _, error = build_error(out, inner_root, root)
            return BuildResult(**base, configured=False, compiled=False, linked=False, stage=CONFIGURE,  # type: ignore[arg-type]
                               error=error, seconds=time.perf_counter() - start)  # fmt: skip
        rc, out = _run(_in_env(settings, "cmake", "--build", inner_build), settings, timeout)
    seconds = time.perf_counter() - start
    if rc == 0:
        return BuildResult(**base, configured=configured, compiled=True, linked=True, seconds=seconds)  # type: ignore[arg-type]
    stage, error = build_error(out, inner_root, root)
    return BuildResult(
        **base,  # type: ignore[arg-type]
        configured=configured,
        compiled=stage == LINK,
        linked=False,
        stage=stage,
        error=error,
        seconds=seconds,
    )


class BuildCache:
    """One JSON file per key under ``folder`` (beside the compile verdicts); unreadable entries are misses."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder / "builds" if folder else None
        if self.folder:
            self.folder.mkdir(parents=True, exist_ok=True)

    def get(self, key: str, unit: BuildUnit, kind: str) -> BuildResult | None:
        if not self.folder:
            return None
        try:
            data = json.loads((self.folder / f"{key}.json").read_text())
            error = CompileError(**data["error"]) if data["error"] else None
            return BuildResult(
                unit.program.corpus, unit.name, kind, unit.system, data["configured"], data["compiled"],
                data["linked"], data["stage"], error, data["seconds"], cached=True,
            )  # fmt: skip
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, result: BuildResult) -> None:
        if not self.folder:
            return
        data = {
            k: v
            for k, v in result.to_json().items()
            if k in ("configured", "compiled", "linked", "stage", "error", "seconds")
        }
        tmp = self.folder / f".{key}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(data))
        tmp.replace(self.folder / f"{key}.json")
