"""Parse one file with libclang: assemble arguments, reuse a precompiled header, parse once.

The file's text is handed to libclang as an unsaved file at the file's own path, so that
``#include "x.h"`` resolves next to it and the offsets match the text we rewrite.
A missing include is a fatal error to clang, which then skips every later include; with
``KEEP_GOING`` it carries on, so one absent header never blinds the parser to the rest of
the file (measured: no extra cost, and no second parse as a stub-and-retry scheme needs).
Known CUDA headers that are absent get empty stubs (``prelude.py``), so they are not even
reported.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path

import clang.cindex as ci

from ..knowledge.table import MappingTable
from ..model import SourceFile
from ..options import Options
from . import compdb
from .environment import (
    CudaEnv,
    cache_dir,
    detect_cuda,
    exclusive,
    resource_dir,
    shim_dir,
    write_if_changed,
)
from .generated import prelude_files

KEEP_GOING = 0x200  # CXTranslationUnit_KeepGoing (not named by the 18.1.1 bindings)
# The detailed record gives macro definitions/expansions cursors (user macros named like CUDA);
# it costs nothing measurable.
PARSE_FLAGS = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD | KEEP_GOING

# Headers worth precompiling. A PCH only adds declarations, so extra headers are harmless,
# but loading one costs time in proportion to what it holds (measured, CUDA 13 toolkit:
# light PCH 0.045 s/file, full 0.08 s; a file including <iostream> without it: 0.22 s).
# So files that include C++ library headers get the full one, others the light one, and
# the CUDA library headers a file includes that are slow to parse join its PCH
# (cooperative_groups.h: 1.2 s -> 0.2 s; cuda_fp16.h + cuda_bf16.h: 0.5 s -> 0.14 s).
# The PCH is keyed by its header list, so files with the same heavy includes share one.
PCH_LIGHT = ("cstdio", "cstdlib", "cstring", "cmath")
PCH_FULL = PCH_LIGHT + ("vector", "string", "iostream", "algorithm", "memory")
_CXX_HEADER = re.compile(r"^[ \t]*#[ \t]*include[ \t]*<(?!c[a-z])[a-z_]+>", re.MULTILINE)
_ANGLED = re.compile(r"^[ \t]*#[ \t]*include[ \t]*<([\w./+-]+)>", re.MULTILINE)
_HEAVY = re.compile(
    r"(cub|thrust|cuda|cooperative_groups|cute|cutlass)/|cooperative_groups\.h$|cuda_(fp16|bf16|fp8)\.h$"
    r"|curand_kernel\.h$|mma\.h$|cublas(_v2|Lt)?\.h$|cufft\.h$|cusparse\.h$|cudnn\.h$|cusolverDn\.h$"
)


_heavy_seen: dict[tuple[str, ...], int] = {}


def headers_with_heavy(text: str) -> tuple[str, ...]:
    base = PCH_FULL if _CXX_HEADER.search(text) else PCH_LIGHT
    return base + tuple(dict.fromkeys(h for h in _ANGLED.findall(text) if _HEAVY.match(h)))


def pch_headers(text: str) -> tuple[str, ...]:
    """The headers to precompile for a file: a standard base plus its heavy CUDA includes.

    A heavy set joins the PCH from its second use in this process on (or when a PCH for it
    is already on disk): building one costs 1-3 s, which a set used once would never repay.
    """
    base = PCH_FULL if _CXX_HEADER.search(text) else PCH_LIGHT
    heavy = tuple(dict.fromkeys(h for h in _ANGLED.findall(text) if _HEAVY.match(h)))
    if not heavy:
        return base
    with _lock:
        seen = _heavy_seen[heavy] = _heavy_seen.get(heavy, 0) + 1
    return base + heavy if seen > 1 else base


_lock = threading.Lock()
_index: ci.Index | None = None


def index() -> ci.Index:
    """One Index per process: creating it costs ~0.1 s."""
    global _index
    with _lock:
        if _index is None:
            _index = ci.Index.create(excludeDecls=False)
        return _index


@dataclass
class Parsed:
    tu: ci.TranslationUnit
    path: str  # the path libclang saw for the main file
    data: bytes  # the main file's bytes as libclang saw them
    env: CudaEnv
    args: tuple[str, ...]
    system_dirs: tuple[str, ...]  # declarations under these are CUDA/system, not the user's
    errors: list[ci.Diagnostic] = field(default_factory=list)
    used_pch: bool = False


def main_path(source: SourceFile) -> str:
    path = source.path
    if not path or path.startswith("<") or path == "-":
        return os.path.abspath("hipify_input.cu")
    return os.path.abspath(path)


def base_args(table: MappingTable, options: Options, env: CudaEnv) -> tuple[list[str], list[str]]:
    """(clang arguments without per-file flags, directories whose declarations are not the user's)."""
    rdir = resource_dir()
    assert rdir is not None
    prelude, stubs = prelude_files(table)
    args = [
        "-x",
        "cuda",
        "--cuda-host-only",
        "-resource-dir",
        rdir,
        "-ferror-limit=0",
        "-w",
        "-Wno-unknown-cuda-version",
        "-nocudalib",
    ]
    # The HIP compiler macros the translation writes for those clang's CUDA mode defines
    # (__CUDACC__ -> __HIPCC__): a translated file's '#ifdef __HIPCC__' is then as active as the
    # original '#ifdef __CUDACC__' was, so a second run sees the same code (idempotence).
    args += [f"-D{m}" for m in hip_compiler_macros(table)]
    system = [rdir, os.path.dirname(prelude), shim_dir()]
    if env.kind == "prelude":
        args += ["-nocudainc", "-include", prelude]
    else:
        args.append(f"--cuda-path={env.root}")
        system.append(env.root)
        system.append(os.path.realpath(os.path.join(env.root, "include")))
        for inc in env.include_dirs:
            args += ["-isystem", inc]
            system.append(inc)
    for after in (shim_dir(), stubs):
        args += ["-idirafter", after]
    return args, system


# Compiler macros of the table that clang defines when it parses CUDA for the host.
CUDA_MODE_MACROS = ("__CUDACC__",)


def hip_compiler_macros(table: MappingTable) -> tuple[str, ...]:
    """The HIP names the table gives the compiler macros clang's CUDA mode defines."""
    targets = (table.lookup(m) for m in CUDA_MODE_MACROS)
    return tuple(sorted({row.hip for row in targets if row is not None and row.hip and row.kind == "macro"}))


def file_args(source: SourceFile, options: Options) -> list[str]:
    args = list(compdb.flags_for(options.build_dir, main_path(source)))
    args += [f"-I{d}" for d in options.include_dirs]
    # Tree directories where the project model found includes a compiler would miss without the
    # project's build flags: the parser sees the project's headers instead of parse errors.
    args += [f"-I{d}" for d in source.project.include_dirs]
    args += [f"-D{d}" for d in options.defines]
    args += list(options.clang_args)
    return args


def parse(source: SourceFile, table: MappingTable, options: Options) -> Parsed:
    env = detect_cuda(options.cuda_path)
    common, system = base_args(table, options, env)
    extra = file_args(source, options)
    path = main_path(source)
    data = source.text.encode("utf-8", "surrogatepass")
    pch = None
    if _pch_enabled() and env.kind == "prelude":
        # Without CUDA headers the "heavy" ones are empty stubs: nothing worth precompiling.
        pch = precompiled_header(
            tuple(common), tuple(extra), PCH_FULL if _CXX_HEADER.search(source.text) else PCH_LIGHT
        )
    elif _pch_enabled():
        headers = pch_headers(source.text)
        full = headers_with_heavy(source.text)
        if full != headers and pch_path(tuple(common), tuple(extra), full).is_file():
            headers = full  # built by an earlier run or another worker: free to use
        pch = precompiled_header(tuple(common), tuple(extra), headers)
    args = common + (["-include-pch", pch] if pch else []) + extra
    unsaved = [(path, data)] + [(p, b"") for p in source.project.not_regular]
    try:
        tu: ci.TranslationUnit | None = _parse_once(unsaved, args)
    except ci.TranslationUnitLoadError:
        if not pch:
            raise
        tu = None  # libclang gives no TU at all for some PCH mismatches (a header changed since)
    if pch and (tu is None or _pch_rejected(tu)):  # stale or incompatible PCH: parse without it
        _discard_pch(pch)
        args = common + extra
        tu = _parse_once(unsaved, args)
        pch = None
    assert tu is not None
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    return Parsed(tu, path, data, env, tuple(args), tuple(system), errors, bool(pch))


def _parse_once(unsaved: list[tuple[str, bytes]], args: list[str]) -> ci.TranslationUnit:
    """Parse the first unsaved file; the others stand in for files clang must not open."""
    return index().parse(unsaved[0][0], args=args, unsaved_files=unsaved, options=PARSE_FLAGS)


def _discard_pch(pch: str) -> None:
    """Forget a PCH clang refused: this process stops using it, and the next run rebuilds it."""
    with _lock:
        for key, path in list(_pch_cache.items()):
            if path == pch:
                _pch_cache[key] = None
    with contextlib.suppress(OSError):
        os.unlink(pch)


def _pch_enabled() -> bool:
    return os.environ.get("HIPIFY_PY_NO_PCH", "") in ("", "0")


def _pch_rejected(tu: ci.TranslationUnit) -> bool:
    return any(
        d.severity >= ci.Diagnostic.Fatal or "precompiled header" in d.spelling
        for d in tu.diagnostics
        if "precompiled" in d.spelling or "PCH" in d.spelling or "AST file" in d.spelling
    )


# --------------------------------------------------------------------------- PCH


_pch_cache: dict[str, str | None] = {}


def _pch_key(common: tuple[str, ...], extra: tuple[str, ...], headers: tuple[str, ...]) -> tuple[str, str]:
    body = "#pragma once\n#include <cuda_runtime.h>\n" + "".join(f"#include <{h}>\n" for h in headers)
    return hashlib.sha256("\0".join(common + extra + (ci.__file__, body)).encode()).hexdigest()[:20], body


def pch_path(common: tuple[str, ...], extra: tuple[str, ...], headers: tuple[str, ...]) -> Path:
    return cache_dir() / "pch" / f"{_pch_key(common, extra, headers)[0]}.pch"


def precompiled_header(common: tuple[str, ...], extra: tuple[str, ...], headers: tuple[str, ...]) -> str | None:
    """Build (once per argument set) a PCH of the prelude/CUDA runtime and common std headers.

    Keyed by every argument, because clang refuses a PCH built with other macros or paths.
    Returns None when it cannot be built; the caller parses without it.
    """
    key, body = _pch_key(common, extra, headers)
    with _lock:
        if key in _pch_cache:
            return _pch_cache[key]
    directory = cache_dir() / "pch"
    pch = directory / f"{key}.pch"
    result: str | None = str(pch)
    if not pch.is_file():
        with exclusive(directory / f".{key}.lock"):  # another worker may be building it: wait, then reuse it
            result = _build_pch(common, extra, key, body) if not pch.is_file() else result
    with _lock:
        _pch_cache[key] = result
    return result


def _build_pch(common: tuple[str, ...], extra: tuple[str, ...], key: str, body: str) -> str | None:
    """Parse the PCH's header and save it (its path; None when it does not build)."""
    directory = cache_dir() / "pch"
    pch = directory / f"{key}.pch"
    write_if_changed(directory / f"{key}.h", body)
    try:
        tu = index().parse(
            str(directory / f"{key}.h"),
            args=list(common) + list(extra),
            options=ci.TranslationUnit.PARSE_INCOMPLETE | PARSE_FLAGS,
        )
        if any(d.severity >= ci.Diagnostic.Error for d in tu.diagnostics):
            return None
        tmp = directory / f".{key}.{os.getpid()}.pch"
        tu.save(str(tmp))
        os.replace(tmp, pch)
    except (ci.TranslationUnitLoadError, ci.TranslationUnitSaveError, OSError):
        return None
    return str(pch)
