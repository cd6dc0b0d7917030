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
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from realcode_compile import CompileError, CompileSettings, first_error, program_key
from realcode_programs import Program

from hipify.validate.buildlog import CONFIGURE, DIAGNOSTIC, LINK, first_failure

# Bump when the way a program is built or judged changes, so old verdicts are not reused.
BUILD_SCHEMA = 1
MAKE, CMAKE = "make", "cmake"
MAKEFILE_NAMES = ("GNUmakefile", "makefile", "Makefile")
LOG_KEPT = 100_000  # characters of a failed build's output kept in the cache (make stops at the first error)


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
    # a failed build's output (its head, where make stops) and the tree's path in it: the cache keeps them so
    # that a better reader of build logs judges old builds again without building them again
    log: str = field(default="", repr=False)
    inner_root: str = field(default="", repr=False)

    @property
    def built(self) -> bool:
        return self.linked

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        del data["log"], data["inner_root"]
        data["built"] = self.built
        return data


@dataclass(frozen=True)
class BuildUnit:
    """What one build covers: a folder with a Makefile, or a CMake project's folder."""

    program: Program  # the program (the first one, for a CMake project with several targets)
    system: str
    folder: str  # where make or cmake runs, tree-relative
    options: tuple[str, ...] = ()  # cmake's configure options (a library's backend: -DCOMPUTE_BACKEND=cuda)

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


def library_unit(programs: list[Program], folder: str, options: tuple[str, ...]) -> BuildUnit:
    """One CMake build of a library's whole tree (``folder``) with ``options``, covering every source of
    ``programs`` (one program per source)."""
    whole = replace(programs[0], name=folder, sources=tuple(dict.fromkeys(s for p in programs for s in p.sources)))
    return BuildUnit(whole, CMAKE, folder, options)


def build_key(settings: CompileSettings, unit: BuildUnit, root: Path, shared: str) -> str:
    """The compile key of the program (compiler, its files, the shared files) plus how it is built."""
    options = " ".join(unit.options)
    h = hashlib.sha256(f"build {BUILD_SCHEMA} {unit.system} {unit.folder}{' ' if options else ''}{options}\n".encode())
    h.update(program_key(settings, unit.program, root, shared).encode())
    return h.hexdigest()


def build_error(output: str, inner_root: str, root: Path, configuring: bool = False) -> tuple[str, CompileError]:
    """(stage, first error) of a failed build: a compiler diagnostic is located in the tree as the compile
    verdicts' are; any other cause keeps its message, with the tree's paths made relative."""
    failure = first_failure(output, configuring)
    if failure.kind == DIAGNOSTIC:
        return failure.stage, first_error("\n".join(output.splitlines()[failure.index :]), inner_root, root)
    file = _relative(failure.file, inner_root)
    return failure.stage, CompileError(_relative(failure.message, inner_root), file, failure.line)


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
        rc, out = _run(_in_env(settings, "cmake", "-S", folder, "-B", inner_build, *unit.options), settings, timeout)
        configured = rc == 0
        if not configured:
            _, error = build_error(out, inner_root, root, configuring=True)
            return BuildResult(**base, configured=False, compiled=False, linked=False, stage=CONFIGURE,  # type: ignore[arg-type]
                               error=error, seconds=time.perf_counter() - start, log=out[:LOG_KEPT],
                               inner_root=inner_root)  # fmt: skip
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
        log=out[:LOG_KEPT],
        inner_root=inner_root,
    )


def judge_again(result: BuildResult, root: Path) -> BuildResult:
    """A failed build's verdict read again from its kept log with the current reader."""
    if result.built or not result.log:
        return result
    configuring = result.configured is False
    stage, error = build_error(result.log, result.inner_root, root, configuring=configuring)
    stage = CONFIGURE if configuring else stage
    return replace(result, stage=stage, error=error, compiled=not configuring and stage == LINK)


class BuildCache:
    """One JSON file per key under ``folder`` (beside the compile verdicts); unreadable entries are misses."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder / "builds" if folder else None
        if self.folder:
            self.folder.mkdir(parents=True, exist_ok=True)

    def get(self, key: str, unit: BuildUnit, kind: str, root: Path | None = None) -> BuildResult | None:
        """The cached verdict; a failed build whose log was kept is judged again (with ``root``, its tree)."""
        if not self.folder:
            return None
        try:
            data = json.loads((self.folder / f"{key}.json").read_text())
            error = CompileError(**data["error"]) if data["error"] else None
            result = BuildResult(
                unit.program.corpus, unit.name, kind, unit.system, data["configured"], data["compiled"],
                data["linked"], data["stage"], error, data["seconds"], cached=True,
                log=data.get("log", ""), inner_root=data.get("inner_root", ""),
            )  # fmt: skip
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return judge_again(result, root) if root is not None else result

    def put(self, key: str, result: BuildResult) -> None:
        if not self.folder:
            return
        data = {
            k: v
            for k, v in result.to_json().items()
            if k in ("configured", "compiled", "linked", "stage", "error", "seconds")
        }
        data.update(log=result.log, inner_root=result.inner_root)
        tmp = self.folder / f".{key}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(data))
        tmp.replace(self.folder / f"{key}.json")
