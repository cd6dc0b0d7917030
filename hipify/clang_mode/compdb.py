"""Per-file parser flags from a compilation database (``-p BUILD_DIR``).

Only the flags that change what the parser sees are kept: include paths, macro
definitions, forced includes and the language standard. Everything else in a compile
command (optimisation, codegen, output files, nvcc-only options) is irrelevant to
parsing and often unknown to clang, so it is dropped.
"""

from __future__ import annotations

import json
import os
import shlex
from functools import lru_cache
from pathlib import Path

from ..sources.fileio import SourceError, read_regular

# flag -> takes a separate value when written alone ("-I dir")
_PATH_FLAGS = ("-I", "-isystem", "-idirafter", "-iquote", "-include", "--include-path", "-imacros")
_VALUE_FLAGS = ("-D", "-U", "--define-macro", "--undefine-macro")
_NVCC_LONG = {
    "--include-path": "-I",
    "--define-macro": "-D",
    "--undefine-macro": "-U",
    "--pre-include": "-include",
    "--system-include": "-isystem",
}


_MAX_DATABASE = 256 * 1024 * 1024


def database_path(build_dir: str) -> Path:
    """The compilation database ``-p BUILD_DIR`` names (the directory's, or the file itself)."""
    path = Path(build_dir) / "compile_commands.json"
    if not path.is_file() and Path(build_dir).name == "compile_commands.json":
        path = Path(build_dir)
    return path


@lru_cache(maxsize=8)
def load(build_dir: str) -> dict[str, tuple[str, ...]]:
    """Map absolute source path -> parser flags. A missing or broken database is empty."""
    try:
        entries = json.loads(read_regular(database_path(build_dir), _MAX_DATABASE).decode("utf-8"))
    except (SourceError, ValueError):
        return {}
    table: dict[str, tuple[str, ...]] = {}
    for entry in entries if isinstance(entries, list) else ():
        try:
            directory = str(entry.get("directory", "."))
            args = entry.get("arguments") or shlex.split(str(entry.get("command", "")))
            file = os.path.normpath(os.path.join(directory, str(entry["file"])))
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
        table.setdefault(file, parser_flags([str(a) for a in args], directory))
    return table


def flags_for(build_dir: str, source_path: str) -> tuple[str, ...]:
    if not build_dir:
        return ()
    return load(build_dir).get(os.path.normpath(os.path.abspath(source_path)), ())


def parser_flags(args: list[str], directory: str) -> tuple[str, ...]:
    """Keep -I/-isystem/-idirafter/-iquote/-include/-D/-U/-std from a compiler command line."""
    out: list[str] = []
    i = 1  # args[0] is the compiler
    while i < len(args):
        arg = args[i]
        flag, value = _split(arg)
        if flag and value is None and i + 1 < len(args):
            value = args[i + 1]
            i += 1
        i += 1
        if flag is None:
            if arg.startswith("-std=") or arg.startswith("--std="):
                out.append("-std=" + arg.split("=", 1)[1])
            continue
        if value is None:
            continue
        if flag in _PATH_FLAGS and flag not in ("-include", "-imacros"):
            value = os.path.normpath(os.path.join(directory, value))
        elif flag in ("-include", "-imacros") and not os.path.isabs(value):
            candidate = os.path.join(directory, value)
            value = candidate if os.path.exists(candidate) else value
        out.extend(
            (flag, value) if flag in ("-isystem", "-idirafter", "-iquote", "-include", "-imacros") else (flag + value,)
        )
    return tuple(out)


def _split(arg: str) -> tuple[str | None, str | None]:
    """'-Ifoo' -> ('-I', 'foo'); '-I' -> ('-I', None); '--include-path=x' -> ('-I', 'x')."""
    if "=" in arg and arg.split("=", 1)[0] in _NVCC_LONG:
        name, value = arg.split("=", 1)
        return _NVCC_LONG[name], value
    if arg in _NVCC_LONG:
        return _NVCC_LONG[arg], None
    for flag in ("-isystem", "-idirafter", "-iquote", "-include", "-imacros", "-I", "-D", "-U"):
        if arg == flag:
            return flag, None
        if arg.startswith(flag) and flag in ("-I", "-D", "-U"):
            return flag, arg[len(flag) :]
        if arg.startswith(flag) and flag in ("-isystem", "-idirafter", "-iquote"):
            return flag, arg[len(flag) :]
    return None, None
