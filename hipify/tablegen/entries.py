"""The CUDA names of one API family: what the current headers declare, plus what only older CUDA versions declared
(with the version that dropped them), the versioned spellings macros introduce, and the header plumbing to drop."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .headers import HeaderIndex
from .plumbing import is_plumbing, removable
from .scan import Decl
from .sides import cuda_index
from .sources import CUDA_FAMILIES, ApiSpec

# The version after each older CUDA family scanned (for cuda_removed: the first version lacking a name).
_NEXT_MAJOR = {"11.8": "12.0", "12.9": "13.0"}
_IMPLEMENTATION_MACRO = re.compile(r"__[A-Z][A-Z0-9_]*$")


@dataclass(frozen=True)
class Entry:
    name: str
    header: str  # CUDA header declaring it
    decl: Decl  # its most specific declaration (for a versioned spelling: the function's)
    removed: str  # first CUDA major version whose headers no longer declare it ('' when current)
    kind: str  # the declaration's kind; 'function' for a macro aliasing a function (#define cuMemAlloc cuMemAlloc_v2)


@dataclass(frozen=True)
class FamilyNames:
    current: HeaderIndex  # the newest scanned CUDA version's headers
    older: list[tuple[str, HeaderIndex]]  # (CUDA version, index) of older versions, oldest first
    entries: dict[str, Entry]
    dropped_macros: dict[str, str]  # calling-convention macros translation drops -> header


def family_names(cache: Path, spec: ApiSpec, hip: HeaderIndex) -> FamilyNames:
    keep = re.compile(spec.keep)
    cur = cuda_index(cache, "cu13", spec.cuda, spec)
    older = [(v, cuda_index(cache, family, spec.older, spec)) for family, v in CUDA_FAMILIES[:-1] if spec.older]
    found: dict[str, tuple[str, Decl, str]] = {}  # name -> (header, decl, removed-in)
    dropped: dict[str, str] = {}
    for name in sorted(cur.names):
        hit = cur.best(name)
        if not hit or not keep.match(name):
            continue
        if hit.decl.kind == "macro" and _IMPLEMENTATION_MACRO.match(name):
            continue  # __NV_NOEXCEPT & co.: the headers' own machinery (enumerators named so are API)
        if hit.decl.kind != "variable" and not is_plumbing(hit.decl):
            found[name] = (hit.header, hit.decl, "")
        elif is_plumbing(hit.decl) and removable(cur, name, hip):
            dropped[name] = hit.header
    for version, idx in reversed(older):
        for name in sorted(idx.names):
            hit = idx.best(name)
            if name in found or not hit or not keep.match(name) or hit.decl.kind == "variable" or is_plumbing(hit.decl):
                continue
            if hit.decl.kind == "macro" and _IMPLEMENTATION_MACRO.match(name):
                continue
            found[name] = (hit.header, hit.decl, _NEXT_MAJOR.get(version, ""))
    # #define cuMemAlloc cuMemAlloc_v2: users may also write the versioned name, which only the macro spells.
    for name, value in list(found.items()):
        for hit in cur.names.get(name, ()):
            alias = hit.decl.alias_of
            if hit.decl.kind == "macro" and re.fullmatch(re.escape(name) + r"_v\d+", alias) and alias not in found:
                found[alias] = value
    entries = {
        name: Entry(name, header, decl, removed, _user_kind(decl, found))
        for name, (header, decl, removed) in found.items()
    }
    return FamilyNames(cur, older, entries, dropped)


def _user_kind(decl: Decl, found: dict[str, tuple[str, Decl, str]]) -> str:
    """Macros that alias a function (#define cuMemAlloc cuMemAlloc_v2) are functions to users."""
    alias = found.get(decl.alias_of)
    if decl.kind == "macro" and alias is not None and alias[1].kind == "function":
        return "function"
    return decl.kind
