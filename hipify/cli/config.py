"""Project configuration: ``[tool.hipify-py]`` in ``pyproject.toml``, or a ``.hipify-py.toml``.

Found by walking up from the inputs (a ``.hipify-py.toml`` wins over a ``pyproject.toml`` in the
same directory; the walk stops at the repository root). Values are validated here, with messages
that name the file, the key and what was expected, and become the command line's defaults: what
the command line says wins, and list options (``include-dirs``, ``defines``, ``exclude``) add up.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from ..options import parse_offload_arch, parse_rocm_version
from ..translation.engines import ENGINE_NAMES

CONFIG_NAME = ".hipify-py.toml"
PYPROJECT = "pyproject.toml"
SECTION = "tool.hipify-py"
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*\Z")
_MAPPED_NAME = re.compile(r"[A-Za-z_$][\w$]*\Z|[\w./+-]+\.(h|hh|hpp|hxx|cuh|inl)\Z")


class ConfigError(Exception):
    """A configuration file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class Config:
    path: str  # the file the values came from ("" = none found)
    defaults: Mapping[str, object] = field(default_factory=dict)  # argparse destination -> value


Check = Callable[[object, Path], object]  # (value, the config file's directory) -> the argparse value


def _expect(what: str) -> ValueError:
    return ValueError(what)


def _bool(value: object, _: Path) -> object:
    if not isinstance(value, bool):
        raise _expect("true or false")
    return value


def _negated(value: object, base: Path) -> object:
    return not _bool(value, base)


def _choice(choices: Sequence[str]) -> Check:
    def check(value: object, _: Path) -> object:
        if not isinstance(value, str) or value not in choices:
            raise _expect("one of " + ", ".join(repr(c) for c in choices))
        return value

    return check


def _count(value: object, _: Path) -> object:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _expect("a whole number >= 0")
    return value


def _rocm(value: object, _: Path) -> object:
    if not isinstance(value, str):
        raise _expect('a ROCm version as a string, e.g. "6.4"')
    parse_rocm_version(value)  # raises ValueError with what was expected
    return value


def _offload_arch(value: object, _: Path) -> object:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        value = ",".join(value)
    if not isinstance(value, str):
        raise _expect('AMD GPU targets, e.g. "gfx90a" or ["gfx90a", "gfx942"]')
    parse_offload_arch(value)  # raises ValueError with what was expected
    return value


def _strings(value: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise _expect("a list of non-empty strings")
    return list(value)


def _string_list(value: object, _: Path) -> object:
    return _strings(value)


def _dirs(value: object, base: Path) -> object:
    """Directories relative to the config file's own directory."""
    return [str((base / v).resolve()) if not os.path.isabs(v) else v for v in _strings(value)]


def _dir(value: object, base: Path) -> object:
    if not isinstance(value, str) or not value:
        raise _expect("a directory path as a string")
    return value if value == "none" or os.path.isabs(value) else str((base / value).resolve())


def _extensions(value: object, _: Path) -> object:
    items = _strings(value)
    return ",".join(e if e.startswith(".") else f".{e}" for e in items)


def _identifiers(value: object, _: Path) -> object:
    items = _strings(value)
    bad = [v for v in items if not _IDENTIFIER.match(v)]
    if bad:
        raise _expect(f"C identifiers (not {bad[0]!r})")
    return tuple(items)


def _mappings(value: object, _: Path) -> object:
    if not isinstance(value, dict):
        raise _expect('a table of CUDA name = "target name" (e.g. [tool.hipify-py.mappings] myCudaCall = "myHipCall")')
    pairs = []
    for cuda, target in value.items():
        if not _MAPPED_NAME.match(cuda):
            raise _expect(f"identifiers or header names as keys (not {cuda!r})")
        if not isinstance(target, str) or not _MAPPED_NAME.match(target):
            raise _expect(f"an identifier or header name as the target of {cuda!r} (not {target!r})")
        pairs.append((cuda, target))
    return tuple(sorted(pairs))


# key -> (argparse destination, check). Keys are the long option names without dashes in front.
KEYS: dict[str, tuple[str, Check]] = {
    "engine": ("engine", _choice(ENGINE_NAMES)),
    "roc": ("roc", _bool),
    "miopen": ("miopen", _bool),
    "experimental": ("experimental", _bool),
    "hip-kernel-execution-syntax": ("hip_kernel_execution_syntax", _bool),
    "amap": ("amap", _bool),
    "skip-excluded-preprocessor-conditional-blocks": ("skip_excluded_preprocessor_conditional_blocks", _bool),
    "rocm": ("rocm", _rocm),
    "offload-arch": ("offload_arch", _offload_arch),
    "build-files": ("build_files", _bool),
    "runtime-include": ("runtime_include", _bool),
    "compat-header": ("compat_header", _bool),
    "warn-unknown": ("warn_unknown", _bool),
    "include-dirs": ("include_dirs", _dirs),
    "defines": ("defines", _string_list),
    "build-dir": ("build_dir", _dir),
    "cuda-path": ("cuda_path", _dir),
    "clang-parse": ("clang_parse", _choice(("auto", "always"))),
    "exclude": ("exclude", _string_list),
    "gitignore": ("gitignore", _bool),
    "extensions": ("extensions", _extensions),
    "jobs": ("jobs", _count),
    "max-findings": ("max_findings", _count),
    "sources-only": ("sources_only", _bool),
    "project-names": ("project_names", _identifiers),
    "mappings": ("mappings", _mappings),
}


def find_config(paths: Sequence[str]) -> Path | None:
    """The configuration that applies to ``paths``: the nearest one above their common directory."""
    existing = [os.path.abspath(p) for p in paths if p != "-" and os.path.exists(p)]
    start = (
        Path(os.path.commonpath([p if os.path.isdir(p) else os.path.dirname(p) for p in existing]))
        if existing
        else Path.cwd()
    )
    for directory in (start, *start.parents):
        own = directory / CONFIG_NAME
        if own.is_file():
            return own
        pyproject = directory / PYPROJECT
        if pyproject.is_file() and _has_section(pyproject):
            return pyproject
        if (directory / ".git").exists():  # the repository's root: a file above it is another project's
            return None
    return None


def _has_section(pyproject: Path) -> bool:
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return "[tool.hipify-py" in pyproject.read_text(encoding="utf-8", errors="replace")  # broken: say so later
    return isinstance(data.get("tool"), dict) and "hipify-py" in data["tool"]


def load_config(path: Path) -> Config:
    """Read and validate one configuration file (raises ConfigError)."""
    shown = _shown(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{shown}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{shown}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{shown}: not valid TOML: {exc}") from None
    if path.name == PYPROJECT:
        tool = data.get("tool", {})
        section = tool.get("hipify-py", {}) if isinstance(tool, dict) else {}
        where = f"[{SECTION}]"
    else:
        section, where = data, "the top level"
    if not isinstance(section, dict):
        raise ConfigError(f"{shown}: [{SECTION}] must be a table")
    defaults: dict[str, object] = {}
    for key, value in section.items():
        spec = KEYS.get(key)
        if spec is None:
            close = difflib.get_close_matches(key, list(KEYS), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; known keys: {', '.join(KEYS)}"
            raise ConfigError(f"{shown}: unknown key {key!r} in {where}{hint}")
        dest, check = spec
        try:
            defaults[dest] = check(value, path.parent)
        except ValueError as exc:
            raise ConfigError(f"{shown}: key {key!r}: expected {exc}, got {_repr(value)}") from None
    return Config(str(path), defaults)


def _repr(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _shown(path: Path) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return str(path)
    return relative if len(relative) < len(str(path)) else str(path)
