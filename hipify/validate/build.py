"""Build a translated program with its own translated build files, as its user would: ``make`` in its folder
(no variables on the command line), or ``cmake -S -B`` and ``cmake --build`` for a CMake project; report
whether it configured, compiled and linked, and with ``--run`` on an AMD GPU, whether it ran.

Per-file compiles (:mod:`.runner`) use flags we choose; only a build shows what the build files say: the
compiler they call, its options, relocatable device code, the libraries linked. A link error is a finding.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .buildlog import CONFIGURE, DIAGNOSTIC, LINK, Failure, first_failure
from .mapping import FileTranslation, MappedError, first_error, parse_errors
from .toolchain import Toolchain

MAKE, CMAKE = "make", "cmake"
MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
BUILD_DIR = "_hipify_build"  # the CMake build folder, inside the translated tree (removed with it)
_PROJECT = re.compile(r"^\s*project\s*\(", re.MULTILINE | re.IGNORECASE)
_ELF = b"\x7fELF"


def build_system(root: Path) -> str | None:
    """``cmake`` when ``root`` holds a CMake project (a CMakeLists.txt with its own ``project()``), ``make``
    when it has a Makefile, None when it has no build of its own."""
    lists = root / "CMakeLists.txt"
    if lists.is_file() and _PROJECT.search(lists.read_text(encoding="utf-8", errors="replace")):
        return CMAKE
    if any((root / name).is_file() for name in MAKEFILES):
        return MAKE
    return None


@dataclass
class BuildOutcome:
    program: str
    engine: str
    toolchain: str
    system: str
    configured: bool | None  # None for make (nothing to configure)
    compiled: bool
    linked: bool
    ran: str = ""  # "" (not asked), "ok", "FAIL: ...", "SKIPPED: ..."
    stage: str = ""  # where it stopped: configure, compile, link
    first_error: MappedError | None = None
    seconds: float = 0.0
    executables: tuple[str, ...] = ()
    command: str = ""
    log: str = ""
    not_judged: str = ""  # why the toolchain cannot judge this build (it lacks a part the build needs)

    @property
    def built(self) -> bool:
        return self.linked

    @property
    def failed(self) -> bool:
        """Did the translation fail to build (or run)? A build the toolchain cannot judge did not."""
        return not self.not_judged and (not self.built or self.ran.startswith("FAIL"))

    def verdict(self) -> str:
        if self.not_judged:
            return "NOT JUDGED"
        return "BUILT" if self.built else f"FAIL ({self.stage})"

    def to_json(self) -> dict[str, object]:
        return {
            "program": self.program,
            "engine": self.engine,
            "toolchain": self.toolchain,
            "system": self.system,
            "configured": self.configured,
            "compiled": self.compiled,
            "linked": self.linked,
            "ran": self.ran,
            "stage": self.stage,
            "first_error": self.first_error.to_json() if self.first_error else None,
            "seconds": round(self.seconds, 2),
            "executables": list(self.executables),
            "command": self.command,
            "not_judged": self.not_judged,
        }


def _executables(tree: Path) -> set[str]:
    """ELF executables under ``tree`` (relative paths): what a build made, compared with before it."""
    found = set()
    for path in tree.rglob("*"):
        try:
            if path.is_file() and not path.is_symlink() and os.access(path, os.X_OK):
                with path.open("rb") as fh:
                    if fh.read(4) == _ELF and not path.name.endswith((".so", ".o", ".a")) and ".so." not in path.name:
                        found.add(path.relative_to(tree).as_posix())
        except OSError:
            continue
    return found


def _run(cmd: list[str], tc: Toolchain, timeout: float) -> tuple[int, str]:
    try:
        proc = subprocess.run(
            cmd, check=False, capture_output=True, text=True, errors="replace", timeout=timeout,
            env={**os.environ, **tc.env},
        )  # fmt: skip
        return proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        return 124, out + f"\nmake: *** timed out after {timeout:.0f} s"


def in_toolchain(tc: Toolchain, *cmd: str) -> list[str]:
    """``cmd`` run where the toolchain's hipcc runs (inside its chroot, if it has one)."""
    return [*tc.hipcc[:-1], *cmd] if tc.chroot else list(cmd)


def _error(failure: Failure, output: str, prefixes: set[str], files: dict[str, FileTranslation]) -> MappedError:
    """The failure as a :class:`MappedError`: a compiler diagnostic mapped to the CUDA line, anything else
    (a linker's message, CMake's) with the tree's paths made relative."""
    if failure.kind == DIAGNOSTIC:
        mapped = first_error(parse_errors("\n".join(output.splitlines()[failure.index :]), prefixes, files))
        if mapped is not None:
            return mapped
    message = failure.message
    file = failure.file
    for prefix in sorted(prefixes, key=len, reverse=True):
        message = message.replace(prefix.rstrip("/") + "/", "")
        file = file.replace(prefix.rstrip("/") + "/", "")
    return MappedError(f"{failure.stage}: {message}", file, failure.line, 0)


def amd_gpu() -> str:
    """Why programs cannot run here ("" when an AMD GPU is visible: ROCm's /dev/kfd)."""
    return "" if Path("/dev/kfd").exists() else "no AMD GPU (/dev/kfd) on this machine"


def build_translation(
    program: str,
    engine: str,
    tree: Path,
    files: dict[str, FileTranslation],
    tc: Toolchain,
    system: str,
    run: bool = False,
    expected_output: str | None = None,
    timeout: float = 1200,
) -> BuildOutcome:
    """Build the translated ``tree`` with its own build files; with ``run``, run what it made."""
    inner = tc.inner_path(str(tree))
    prefixes = {str(tree), inner}
    before = _executables(tree)
    start = time.perf_counter()
    base = {"program": program, "engine": engine, "toolchain": tc.describe(), "system": system}
    configured: bool | None = None
    logs: list[str] = []
    if system == CMAKE:
        configure = ["cmake", "-S", inner, "-B", f"{inner}/{BUILD_DIR}"]
        rc, out = _run(in_toolchain(tc, *configure), tc, timeout)
        logs.append(out)
        configured = rc == 0
        if not configured:
            failure = first_failure(out, configuring=True)
            return BuildOutcome(
                **base, configured=False, compiled=False, linked=False, stage=CONFIGURE,  # type: ignore[arg-type]
                first_error=_error(failure, out, prefixes, files), seconds=time.perf_counter() - start,
                command=" ".join(configure), log=out,
            )  # fmt: skip
        command = ["cmake", "--build", f"{inner}/{BUILD_DIR}"]
    else:
        command = ["make", "-C", inner]
    rc, out = _run(in_toolchain(tc, *command), tc, timeout)
    logs.append(out)
    seconds = time.perf_counter() - start
    made = tuple(sorted(_executables(tree) - before))
    if rc != 0:
        failure = first_failure(out)
        return BuildOutcome(
            **base, configured=configured, compiled=failure.stage == LINK, linked=False,
            stage=failure.stage, first_error=_error(failure, out, prefixes, files), seconds=seconds,
            executables=made, command=" ".join(command), log="\n".join(logs),
        )  # fmt: skip
    outcome = BuildOutcome(
        **base, configured=configured, compiled=True, linked=True, seconds=seconds,  # type: ignore[arg-type]
        executables=made, command=" ".join(command), log="\n".join(logs),
    )  # fmt: skip
    if run:
        outcome.ran = run_built(outcome, tree, tc, expected_output)
    return outcome


def run_built(outcome: BuildOutcome, tree: Path, tc: Toolchain, expected_output: str | None) -> str:
    """Run each executable the build made: "ok", or why not."""
    why = amd_gpu()
    if why:
        return f"SKIPPED: {why}"
    if not outcome.executables:
        return "SKIPPED: the build made no executable"
    for exe in outcome.executables:
        folder = tc.inner_path(str((tree / exe).parent))
        rc, out = _run(in_toolchain(tc, "sh", "-c", f'cd "{folder}" && exec ./"{Path(exe).name}"'), tc, 600)
        if rc != 0:
            return f"FAIL: {exe} exited {rc}: {out.strip()[-300:]}"
        if expected_output is not None and len(outcome.executables) == 1 and out.strip() != expected_output.strip():
            return f"FAIL: {exe}: output differs from expected_output.txt"
    return "ok"
