"""Index the declarations of a set of header files: name -> (declaring header, Decl).

A ``HeaderIndex`` is built from one cache directory (one CUDA family or one ROCm release). Paths in the index are
relative to the package's include root (``hip/hip_runtime_api.h``, ``cublas_api.h``), the form users #include.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from .scan import Decl, HeaderScan, scan_text

# Kinds a declaration may have, best first: a name declared both as a macro and a function is a function.
_KIND_RANK = {"function": 0, "type": 1, "enum": 2, "enum_constant": 3, "variable": 4, "macro": 5}


@dataclass(frozen=True)
class Hit:
    header: str  # relative include path
    decl: Decl


@dataclass
class HeaderIndex:
    names: dict[str, list[Hit]] = field(default_factory=dict)
    guards: dict[str, str] = field(default_factory=dict)  # header -> include-guard macro
    case_pairs: list[tuple[str, str]] = field(default_factory=list)
    migration_pairs: list[tuple[str, str]] = field(default_factory=list)  # (old enum value, new enum value)
    wrappers: list[tuple[str, Decl, str]] = field(default_factory=list)  # (header, decl, file) of defined fns
    files: list[str] = field(default_factory=list)
    rank: dict[str, int] = field(default_factory=dict)  # header -> position in input order

    def get(self, name: str) -> Hit | None:
        hits = self.names.get(name)
        return hits[0] if hits else None

    def __contains__(self, name: str) -> bool:
        return name in self.names

    def best(self, name: str) -> Hit | None:
        """The most specific declaration (function over macro), in the library's own folder
        (hipblas/ for hipblasX, not hipsolver/ which re-declares some), public headers first."""
        hits = self.names.get(name)
        if not hits:
            return None
        lower = name.lower()

        def own_folder(header: str) -> int:
            top = header.split("/", 1)[0].lower() if "/" in header else ""
            return -len(top) if top and lower.startswith(top) else 0

        return min(
            hits,
            key=lambda h: (
                _KIND_RANK.get(h.decl.kind, 9),
                own_folder(h.header),
                _detail_rank(h.header),
                self.rank.get(h.header, 0),
                h.header,
            ),
        )

    def deprecated(self, name: str) -> bool:
        """Deprecated when every declaration is (one deprecated overload does not deprecate the name)."""
        hits = [h for h in self.names.get(name, ()) if h.decl.kind != "macro" or len(self.names[name]) == 1]
        return bool(hits) and all(h.decl.deprecated for h in hits)

    def successor(self, name: str) -> str:
        """The one name the deprecations of ``name`` point to ("use hipHostMalloc instead"); '' if none."""
        names = {h.decl.replacement for h in self.names.get(name, ()) if h.decl.deprecated and h.decl.replacement}
        return names.pop() if len(names) == 1 else ""

    def required_macros(self, name: str) -> tuple[str, ...]:
        """Macros every declaration of ``name`` sits under (`#ifdef X` true branches), in nesting order."""
        hits = self.names.get(name, ())
        if not hits:
            return ()
        common = set(hits[0].decl.guards).intersection(*(h.decl.guards for h in hits[1:]))
        return tuple(g for g in hits[0].decl.guards if g in common)

    def beta(self, name: str) -> bool:
        return any(h.decl.beta for h in self.names.get(name, ()))

    def experimental(self, name: str) -> bool:
        return any(h.decl.experimental for h in self.names.get(name, ()))


def _detail_rank(header: str) -> int:
    parts = header.split("/")
    return 1 if any(p in ("amd_detail", "internal", "detail", "nvidia_detail") for p in parts) else 0


@cache
def _scan_file(path: Path) -> HeaderScan:
    return scan_text(path.read_text(encoding="utf-8", errors="replace"))


def header_files(root: Path, patterns: Iterable[str]) -> list[tuple[str, Path]]:
    """(relative path, file) for files under ``root`` matching any glob pattern (``**`` allowed)."""
    if not root.is_dir():
        return []
    # pattern order is kept: the first pattern names the family's main header, which wins ties in best()
    seen: set[Path] = set()
    out: list[tuple[str, Path]] = []
    for pat in patterns:
        for p in sorted(p for p in root.glob(pat) if p.is_file()):
            if p not in seen:
                seen.add(p)
                out.append((p.relative_to(root).as_posix(), p))
    return out


def build_index(files: Iterable[tuple[str, Path]], namespace_prefix: dict[str, str] | None = None) -> HeaderIndex:
    """Index ``files``. ``namespace_prefix`` maps a relative-path prefix to a C++ namespace that the headers
    open through a macro (CUB_NAMESPACE_BEGIN), so their top-level names get ``ns::``."""
    index = HeaderIndex()
    for rel, path in files:
        scan = _scan_file(path)
        index.rank.setdefault(rel, len(index.files))
        index.files.append(rel)
        if scan.include_guard:
            index.guards[rel] = scan.include_guard
        index.case_pairs.extend(scan.case_pairs)
        index.migration_pairs.extend(scan.migration_pairs)
        prefix = ""
        for start, ns in (namespace_prefix or {}).items():
            if rel.startswith(start):
                prefix = ns
        for decl in scan.decls:
            name = decl.name
            if prefix and decl.kind != "macro":  # macros know no namespace
                if decl.namespace or decl.kind == "variable":
                    continue  # detail namespaces stay out of the public namespace
                name = f"{prefix}::{name}"
            elif decl.namespace:
                continue  # C++ names in other namespaces (std::, detail::) are not API identifiers
            index.names.setdefault(name, []).append(Hit(rel, decl))
            if decl.defined:
                index.wrappers.append((rel, decl, rel))
    return index
