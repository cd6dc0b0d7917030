"""Compile a program's sources with hipcc, one source after the other, stopping at the first failure;
verdicts are cached on disk under a content hash of everything that can change them."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from realcode_programs import Program

from hipify.validate.toolchain import Toolchain

# Bump when the way a program is compiled changes (flags, what is hashed), so old verdicts are not reused.
CACHE_SCHEMA = 1

_DIAG = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?:fatal error|error): (?P<msg>.*)$")
_NOTE = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): note: ")
_INCLUDED_FROM = re.compile(r"^In file included from (?P<file>[^:]+):(?P<line>\d+):")
_TOOL_ERROR = re.compile(r"^(?:\S*clang\S*|hipcc|ld\.lld|\S*ld): (?:fatal )?error: (?P<msg>.*)$")


@dataclass(frozen=True)
class CompileError:
    """The first error of a failed compile; ``file`` is tree-relative when the error is in the tree."""

    message: str
    file: str = ""
    line: int = 0
    col: int = 0
    text: str = ""  # the source line at the error, when it is in the tree
    via: str = ""  # "file:line" in the tree that leads to an error in a system header

    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file or "?"


@dataclass(frozen=True)
class SourceResult:
    source: str
    ok: bool
    seconds: float
    error: CompileError | None = None


@dataclass(frozen=True)
class ProgramResult:
    corpus: str
    name: str
    kind: str  # "translated" or "ported"
    ok: bool
    sources: tuple[SourceResult, ...]
    note: str = ""
    cached: bool = False

    @property
    def error(self) -> CompileError | None:
        if self.ok:
            return None
        return next((s.error for s in self.sources if s.error), CompileError(self.note or "failed"))

    @property
    def seconds(self) -> float:
        return sum(s.seconds for s in self.sources)

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data["error"] = asdict(self.error) if self.error else None
        return data


@dataclass(frozen=True)
class CompileSettings:
    toolchain: Toolchain
    identity: str  # the compiler's full --version output: part of every cache key
    arch: str = "gfx90a"
    syntax_only: bool = False
    timeout_s: float = 600.0
    extra: tuple[str, ...] = ()  # more hipcc flags, for what-if experiments

    def flags(self, c_source: bool) -> list[str]:
        """Flags apart from includes and the file: a C source is compiled as C (as CMake does) with the
        HIP platform macro that hipconfig --cpp_config gives; everything else as HIP C++17."""
        lang = (
            ["-x", "c", "-D__HIP_PLATFORM_AMD__="]
            if c_source
            else [f"--offload-arch={self.arch}", "-std=c++17", "-x", "hip"]
        )
        action = ["-fsyntax-only"] if self.syntax_only else ["-c"]
        return ["-fno-color-diagnostics", *lang, *action, *self.extra]


def compiler_identity(tc: Toolchain) -> str:
    out = subprocess.run([*tc.hipcc, "--version"], capture_output=True, text=True, check=False, timeout=120)
    return tc.describe() + "\n" + out.stdout


def _file_digest(root: Path, path: Path) -> bytes:
    """The file's tree-relative name and a hash of its bytes."""
    try:
        content = hashlib.sha256(path.read_bytes()).digest()
    except OSError:
        content = b"unreadable"
    return path.relative_to(root).as_posix().encode() + b"\0" + content


def shared_digest(root: Path, programs: list[Program], own: str = "") -> str:
    """Hash of the files of a tree outside every program's folder: shared headers, and what the translator
    writes beside the programs (its compatibility header at the output root), which any program may include.
    ``own``: a folder of the tree holding one folder per program, each on that program's include path only (the
    shim's include folders): its program's key covers it, the others' do not."""
    folders = {(root / p.folder).resolve() for p in programs}
    if own:
        folders.add((root / own).resolve())
    h = hashlib.sha256()
    for path in sorted(p for p in root.resolve().rglob("*") if p.is_file()):
        if not any(path.is_relative_to(folder) for folder in folders):
            h.update(_file_digest(root.resolve(), path))
    return h.hexdigest()


def program_key(settings: CompileSettings, program: Program, root: Path, shared: str = "") -> str:
    """Content hash of the compiler, the flags and every file that can reach the compile: the sources,
    the program's folder and its include folders (all tree-relative, so a new work folder hits), and
    ``shared``, a digest of the files outside all program folders."""
    h = hashlib.sha256()
    h.update(shared.encode())
    h.update(json.dumps([CACHE_SCHEMA, settings.identity, settings.flags(False), settings.flags(True)]).encode())
    inputs: list[object] = [program.sources, program.include_dirs, program.c_sources]
    inputs += [list(program.defines)] if program.defines else []
    inputs += ["-fgpu-rdc"] if program.relocatable else []
    h.update(json.dumps(inputs).encode())
    folders = [program.folder, *program.include_dirs]
    files: set[Path] = {root / s for s in program.sources if (root / s).is_file()}
    for folder in folders:
        base = (root / folder).resolve()
        if base.is_dir() and base.is_relative_to(root.resolve()):
            files.update(p for p in base.rglob("*") if p.is_file())
    for path in sorted(files):
        h.update(_file_digest(root.resolve(), path.resolve()))
    return h.hexdigest()


def first_error(output: str, inner_root: str, root: Path) -> CompileError:
    """The first error of clang's output, located in the tree where possible."""
    prefix = inner_root.rstrip("/") + "/"
    lines = output.splitlines()

    def rel(path: str) -> str:
        path = os.path.normpath(path)
        return path[len(prefix) :] if path.startswith(prefix) else path

    def in_tree(path: str) -> bool:
        return os.path.normpath(path).startswith(prefix)

    for i, line in enumerate(lines):
        m = _DIAG.match(line)
        if not m:
            continue
        file, lineno = m.group("file"), int(m.group("line"))
        via = ""
        if not in_tree(file):
            chain = [c for c in (_INCLUDED_FROM.match(x) for x in reversed(lines[:i])) if c]
            notes = [n for n in (_NOTE.match(x) for x in lines[i + 1 : i + 30]) if n and in_tree(n.group("file"))]
            inner = notes[0] if notes else next((c for c in chain if in_tree(c.group("file"))), None)
            via = f"{rel(inner.group('file'))}:{inner.group('line')}" if inner else ""
        text = _line_text(root / rel(file), lineno) if in_tree(file) else ""
        return CompileError(m.group("msg").strip(), rel(file), lineno, int(m.group("col")), text, via)
    for line in lines:
        tool = _TOOL_ERROR.match(line)
        if tool:
            return CompileError(tool.group("msg").strip())
    tail = [x for x in lines if x.strip()]
    return CompileError(tail[-1].strip() if tail else "failed without output")


def _line_text(path: Path, lineno: int) -> str:
    try:
        with path.open(errors="replace") as fh:
            for n, text in enumerate(fh, 1):
                if n == lineno:
                    return text.strip()[:300]
    except OSError:
        pass
    return ""


def compile_source(settings: CompileSettings, program: Program, root: Path, source: str) -> SourceResult:
    tc = settings.toolchain
    inner_root = tc.inner_path(str(root))
    cmd = list(tc.hipcc)
    if tc.chroot:  # clang's temporary files go to the work folder and vanish with it
        cmd.insert(len(cmd) - 1, f"TMPDIR={tc.inner_path(str(root.parent))}")
    cmd += settings.flags(source in program.c_sources)
    cmd += ["-fgpu-rdc"] if program.relocatable and source not in program.c_sources else []
    cmd += [f"-D{d}" for d in program.defines]
    for inc in program.include_dirs:
        cmd += ["-I", f"{inner_root}/{inc}"]
    cmd += [f"{inner_root}/{source}"]
    cmd += [] if settings.syntax_only else ["-o", "/dev/null"]
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            cmd, capture_output=True, text=True, errors="replace", timeout=settings.timeout_s, check=False,
            env={**os.environ, **tc.env},
        )  # fmt: skip
        ok, output = proc.returncode == 0, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired:
        ok, output = False, f"hipcc: error: timed out after {settings.timeout_s:.0f} s"
    seconds = time.perf_counter() - start
    return SourceResult(source, ok, seconds, None if ok else first_error(output, inner_root, root))


def compile_program(settings: CompileSettings, program: Program, root: Path, kind: str) -> ProgramResult:
    """Compile the sources in order; the program compiles when all do (the first failure ends it)."""
    if not program.sources:
        return ProgramResult(program.corpus, program.name, kind, False, (), program.note)
    results: list[SourceResult] = []
    for source in program.sources:
        if not (root / source).is_file():
            results.append(SourceResult(source, False, 0.0, CompileError(f"source file not found: {source}")))
            break
        results.append(compile_source(settings, program, root, source))
        if not results[-1].ok:
            break
    ok = all(r.ok for r in results)
    return ProgramResult(program.corpus, program.name, kind, ok, tuple(results), program.note)


class VerdictCache:
    """One JSON file per key under ``folder``; a missing or unreadable entry is a miss."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        if folder:
            folder.mkdir(parents=True, exist_ok=True)

    def get(self, key: str, program: Program, kind: str) -> ProgramResult | None:
        if not self.folder:
            return None
        try:
            data = json.loads((self.folder / f"{key}.json").read_text())
            sources = tuple(
                SourceResult(s["source"], s["ok"], s["seconds"], CompileError(**s["error"]) if s["error"] else None)
                for s in data["sources"]
            )
            return ProgramResult(program.corpus, program.name, kind, data["ok"], sources, program.note, cached=True)
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, result: ProgramResult) -> None:
        if not self.folder:
            return
        tmp = self.folder / f".{key}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps({"ok": result.ok, "sources": [asdict(s) for s in result.sources]}))
        tmp.replace(self.folder / f"{key}.json")
