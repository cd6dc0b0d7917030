"""The generated headers the clang engine parses with, written once per table into the cache.

- the CUDA prelude (``prelude.py``), included first when there are no CUDA headers;
- the HIP declarations (``hip_stubs.py``), which stub HIP headers include where HIP is absent;
- stubs: an empty file per CUDA header the table names, and per HIP/ROC header one that
  includes the HIP declarations; they come last on the include path, so installed headers win.

Each generated header is parsed once and the lines the parser rejects are dropped.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

from ..knowledge.table import MappingTable
from .environment import cache_dir, exclusive, write_if_changed
from .hip_stubs import generate_hip, hip_header_names
from .prelude import generate, header_names

CUDA_STUB = "#pragma once\n/* hipify-py: stub for a CUDA header that is not installed */\n"


@lru_cache(maxsize=4)
def prelude_files(table: MappingTable) -> tuple[str, str]:
    """(prelude header path, stub include dir), written once per table (reused across runs by digest)."""
    base = cache_dir() / f"prelude-{table.digest}-{_self_digest()}"
    prelude = base / "hipify_prelude.h"
    hip = base / "hipify_hip_declarations.h"
    if not (prelude.is_file() and hip.is_file()):
        # Generated and checked once per table (seconds of parsing); later runs reuse them, and the
        # workers of one run wait for the first to finish. Each checks its own draft: the check
        # rewrites the file as it goes.
        with exclusive(base.parent / f".{base.name}.lock"):
            _generate(table, base, prelude, hip)
    stubs = base / "stubs"
    for name in header_names(table):
        write_if_changed(stubs / name, CUDA_STUB)
    hip_stub = f'#pragma once\n/* hipify-py: stub for a HIP header that is not installed */\n#include "{hip}"\n'
    for name in hip_header_names(table):
        write_if_changed(stubs / name, hip_stub)
    return str(prelude), str(stubs)


def _generate(table: MappingTable, base: Path, prelude: Path, hip: Path) -> None:
    library = _library_names() if not (prelude.is_file() and hip.is_file()) else frozenset()
    if not prelude.is_file():
        draft = write_if_changed(base / f"unchecked-{os.getpid()}.h", generate(table, library))
        write_if_changed(prelude, _without_error_lines(draft))
        draft.unlink(missing_ok=True)
    if not hip.is_file():
        draft = write_if_changed(base / f"unchecked-hip-{os.getpid()}.h", generate_hip(table, library))
        write_if_changed(hip, _without_error_lines(draft, before=(prelude,)))
        draft.unlink(missing_ok=True)


# What a CUDA file typically includes after the prelude: the check parses these too, since a
# table name can clash with a standard header's declarations.
_PROBE_HEADERS = (
    "cstdio",
    "cstdlib",
    "cstring",
    "cmath",
    "vector",
    "string",
    "iostream",
    "algorithm",
    "memory",
    "complex",
    "random",
    "map",
    "thread",
    "atomic",
    "chrono",
    "functional",
)


def _without_error_lines(path: Path, before: tuple[Path, ...] = (), passes: int = 3) -> str:
    """The generated header at ``path`` minus declarations the parser rejects.

    The table is data from vendor headers and may hold names no declaration can carry
    (a keyword, a name the C library already declares differently). Rather than let one bad
    row spoil every parse, parse the header once (after the headers ``before`` it) and drop
    the generated lines with errors.
    """
    import clang.cindex as ci

    from .environment import resource_dir

    lines = path.read_text(encoding="utf-8").split("\n")
    first_generated = next(i for i, line in enumerate(lines) if line.startswith("// ---- generated")) + 1
    rdir = resource_dir()
    if rdir is None:
        return "\n".join(lines)
    index = ci.Index.create()
    probe = "".join(f"#include <{h}>\n" for h in _PROBE_HEADERS)
    args = [
        "-x",
        "cuda",
        "--cuda-host-only",
        "-nocudainc",
        "-nocudalib",
        "-resource-dir",
        rdir,
        "-w",
        "-ferror-limit=0",
    ]
    for header in (*before, path):
        args += ["-include", str(header)]
    for _ in range(passes):
        path.write_text("\n".join(lines), encoding="utf-8")
        tu = index.parse("hipify_prelude_probe.cu", args=args, unsaved_files=[("hipify_prelude_probe.cu", probe)])
        bad = {
            d.location.line
            for d in tu.diagnostics
            if d.severity >= ci.Diagnostic.Error
            and d.location.file is not None
            and os.path.samefile(d.location.file.name, path)
        }
        bad = {n for n in bad if n - 1 >= first_generated}
        if not bad:
            break
        for n in bad:
            lines[n - 1] = "// dropped (did not parse): " + lines[n - 1]
    return "\n".join(lines)


def _library_names() -> frozenset[str]:
    """Names the standard headers declare at namespace scope (global and ``std``)."""
    import clang.cindex as ci

    from .environment import resource_dir

    rdir = resource_dir()
    if rdir is None:
        return frozenset()
    probe = "".join(f"#include <{h}>\n" for h in _PROBE_HEADERS)
    args = ["-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-resource-dir", rdir, "-w"]
    tu = ci.Index.create().parse(
        "hipify_library_probe.cu", args=args, unsaved_files=[("hipify_library_probe.cu", probe)]
    )
    names: set[str] = set()
    for cursor in tu.cursor.get_children():
        if cursor.kind == ci.CursorKind.NAMESPACE and cursor.spelling == "std":
            names.update(child.spelling for child in cursor.get_children())
        else:
            names.add(cursor.spelling)
    return frozenset(n for n in names if n)


@lru_cache(maxsize=1)
def _self_digest() -> str:
    # The generators' own code is part of the key: changing it must not reuse old files.
    digest = hashlib.sha256()
    for module in ("prelude.py", "hip_stubs.py", "generated.py"):
        digest.update((Path(__file__).parent / module).read_bytes())
    return digest.hexdigest()[:8]
