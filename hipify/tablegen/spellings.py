"""CUDA names HIP has under another spelling: a name without a target of its own that CUDA's headers say is the
same as a name that has one, takes that name's targets.

CUDA's headers say so in five ways, read here from CUDA 13's headers of every family:

- ``cuda-alias``: CUDA defines the name as the other (``#define cudaStreamAttrValue cudaLaunchAttributeValue``,
  ``typedef cudaDataType cublasDataType_t;``, ``typedef __nv_bfloat162 nv_bfloat162;``);
- ``cuda-successor``: its doc comment deprecates it in favour of the other (``cudaDeviceBlockingSync``:
  "deprecated ... replaced with ::cudaDeviceScheduleBlockingSync"; ``CU_DEVICE_ATTRIBUTE_GPU_OVERLAP``:
  "Deprecated. Use instead CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT");
- ``same-doc``: a function documented, in the same header, with the same summary (``\\brief``) and the same
  parameter types as a function that has a target (``__float2bfloat16_rn`` and ``__float2bfloat16`` both "Converts
  float number to nv_bfloat16 precision in round-to-nearest-even mode ...");
- ``algorithm-variant``: a function whose name is another's with an algorithm's mark (cuBLAS's ``3m``: "using
  Gauss complexity reduction algorithm"), with the same parameter types in the same header: the same product,
  computed another way (``cublasCgemm3m`` ~ ``cublasCgemm``);
- ``value-twin``: an enumerator whose enum maps to the same HIP enum as another CUDA enum, with the value of one of
  its enumerators that has a target (CUDA's runtime and driver attribute enums share values:
  ``cudaDevAttrGpuOverlap`` = ``CU_DEVICE_ATTRIBUTE_GPU_OVERLAP`` = 15, once the latter has its successor's target).

The rules are applied until nothing changes, so that they chain (a successor's runtime twin by value).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..knowledge.table import Row
from .headers import HeaderIndex, header_files
from .sides import cuda_index, cuda_rel
from .sources import ApiSpec

_USABLE = ("supported", "deprecated", "experimental")
_HEADERLESS = ("standard-type", "compiler")
# A trailing doc comment (``NAME = 15, /**< ... */`` or ``#define NAME 0x04 /**< ... */``) that deprecates the
# name it follows; the successor is what it says to use, or what the name was replaced with.
_TRAILING_DOC = re.compile(
    r"^[ \t]*(?:#[ \t]*define[ \t]+)?([A-Za-z_]\w*)\b[^\n/]*?/\*\*<((?:(?!\*/).)*)\*/", re.MULTILINE | re.DOTALL
)
_SUCCESSOR = re.compile(
    r"(?:\buse\s+instead\s+|\buse\s+|\breplaced\s+(?:with|by)\s+)(?:the\s+)?(?:::)?([A-Za-z_]\w*)", re.IGNORECASE
)
_API_NAME = re.compile(r"[A-Za-z]\w*(?:[A-Z_])\w*$")  # an identifier with a capital or an underscore, not a word
_DEPRECATED = re.compile(r"deprecated", re.IGNORECASE)
# A doc block directly before a declaration: its summary, and the declared function's name.
_DOC_BLOCK = re.compile(
    r"/\*\*((?:(?!\*/).)*)\*/\s*(?:template\s*<[^>]*>\s*)?([^;{}()/#]*?)\b([A-Za-z_]\w*)\s*\(", re.DOTALL
)
# The summary ends at a blank line or at the next doxygen section.
_BRIEF = re.compile(
    r"\\brief\s+(.*?)(?=\n[\s*]*\n|\n[\s*]*\\(?:details|param|returns?|retval|note|see|internal|ingroup|"
    r"exception|behavior|deprecated)\b|\Z)",
    re.DOTALL,
)
# Words before a function's name that are not its result type: storage, inline and target specifiers, macros.
_NOT_RESULT = re.compile(
    r"^(?:static|inline|extern|constexpr|__device__|__host__|__forceinline__|_*[A-Z][A-Z0-9_]*_*)$"
)
# Kinds a name may take a target of: a macro stands for anything; other names only for their own sort.
_SORT = {
    "enum_constant": "value",
    "macro": "",
    "type": "type",
    "enum": "type",
    "function": "call",
    "device_function": "call",
}


@dataclass(frozen=True)
class CudaFacts:
    """What CUDA's headers say that ties one name to another."""

    alias: dict[str, str]  # name -> the single CUDA name it is defined as
    successor: dict[str, tuple[str, ...]]  # name -> the names its deprecation says to use, in order
    same_doc: dict[str, tuple[str, ...]]  # function -> functions of its header with its summary and types
    enum_value: dict[str, tuple[str, str]]  # enumerator -> (its enum, its literal value)
    variant: dict[str, str] = field(default_factory=dict)  # function -> the plain function it is an algorithm of


def _words(text: str) -> str:
    return " ".join(text.replace("*", " ").split())


def _trailing_successors(text: str) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for m in _TRAILING_DOC.finditer(text):
        doc = m.group(2)
        if not _DEPRECATED.search(doc):
            continue
        names = tuple(s for s in _SUCCESSOR.findall(doc) if s != m.group(1) and _API_NAME.match(s))
        if names:
            out.setdefault(m.group(1), names)
    return out


def _briefs(text: str) -> dict[str, set[tuple[str, str]]]:
    """Function -> (summary, result type) of the doc blocks directly before its declarations."""
    out: dict[str, set[tuple[str, str]]] = {}
    for m in _DOC_BLOCK.finditer(text):
        brief = _BRIEF.search(m.group(1))
        result = " ".join(w for w in m.group(2).split() if not _NOT_RESULT.match(w))
        if brief and result:
            out.setdefault(m.group(3), set()).add((_words(brief.group(1)), result))
    return out


def cuda_facts(cache: Path, specs: Iterable[ApiSpec]) -> CudaFacts:
    alias: dict[str, str] = {}
    successor: dict[str, tuple[str, ...]] = {}
    enum_value: dict[str, tuple[str, str]] = {}
    groups: dict[tuple[str, tuple[str, str], tuple[str, ...]], list[str]] = {}
    root = cache / "cuda" / "cu13"
    variant: dict[str, str] = {}
    for spec in specs:
        index = cuda_index(cache, "cu13", spec.cuda, spec)
        _index_facts(index, alias, enum_value)
        variant.update(_algorithm_variants(index))
        for rel, path in header_files(root, spec.cuda):
            text = path.read_text(encoding="utf-8", errors="replace")
            for name, succ in _trailing_successors(text).items():
                successor.setdefault(name, succ)
            header = cuda_rel(rel)
            for name, briefs in _briefs(text).items():
                hits = [h for h in index.names.get(name, ()) if h.header == header and h.decl.kind == "function"]
                types = {h.decl.exact_param_types for h in hits}
                if len(briefs) != 1 or len(types) != 1 or None in types:
                    continue  # overloads documented differently, or types the scan cannot spell: no claim
                key = (header, next(iter(briefs)), next(iter(types)) or ())
                groups.setdefault(key, []).append(name)
    same_doc = {n: tuple(o for o in names if o != n) for names in groups.values() if len(names) > 1 for n in names}
    return CudaFacts(alias, successor, same_doc, enum_value, variant)


def _index_facts(index: HeaderIndex, alias: dict[str, str], enum_value: dict[str, tuple[str, str]]) -> None:
    for name in index.names:
        hit = index.best(name)
        if hit is None:
            continue
        decl = hit.decl
        if decl.alias_of and decl.alias_of != name and decl.kind in ("macro", "type"):
            alias.setdefault(name, decl.alias_of)
        if decl.kind == "enum_constant" and decl.parent and decl.value:
            enum_value.setdefault(name, (decl.parent, decl.value))


# cuBLAS's mark of its Gauss-complexity-reduction variants: cublasCgemm3m, cublasZgemm3mStridedBatched_64.
_VARIANT_MARK = re.compile(r"(?<=[a-z])3m(?=[A-Z_]|$)")


def _algorithm_variants(index: HeaderIndex) -> dict[str, str]:
    """Function -> the function it is an algorithm variant of: its name without the mark, declared in the same
    header with the same parameter types (directly, or through cublas_v2.h's ``#define cublasCgemm
    cublasCgemm_v2``; the legacy cublas.h declares another cublasCgemm)."""
    out: dict[str, str] = {}
    for name in index.names:
        plain = _VARIANT_MARK.sub("", name, count=1)
        mine = index.best(name)
        if plain == name or mine is None or mine.decl.kind != "function" or mine.decl.exact_param_types is None:
            continue
        hits = list(index.names.get(plain, ()))
        aliased = [h.decl.alias_of for h in hits if h.decl.kind == "macro" and h.decl.alias_of]
        hits += [a for alias in aliased for a in index.names.get(alias, ())]
        types = mine.decl.exact_param_types
        if any(
            h.decl.kind == "function" and h.header == mine.header and h.decl.exact_param_types == types for h in hits
        ):
            out[name] = plain
    return out


def _fits(row: Row, model: Row) -> bool:
    """Can ``row`` stand for what ``model`` names (an enumerator not for a function)?"""
    sort = _SORT.get(row.kind, "")
    return not sort or _SORT.get(model.kind, "") in ("", sort)


def _usable(row: Row | None) -> bool:
    return row is not None and bool(row.hip) and row.hip_status in _USABLE


def _takes(row: Row, model: Row, source: str, note: str) -> Row:
    changes: dict[str, object] = {
        "hip": model.hip,
        "hip_status": model.hip_status,
        "hip_header": model.hip_header,
        "hip_since": model.hip_since,
        "hip_requires": model.hip_requires,
        # a target no HIP header declares (a standard C type) keeps saying so
        "source": model.source if model.source in _HEADERLESS else source,
        "note": note,
    }
    if row.roc_status not in _USABLE and model.roc and model.roc_status in _USABLE:
        changes.update(
            roc=model.roc,
            roc_status=model.roc_status,
            roc_header=model.roc_header,
            roc_since=model.roc_since,
            roc_requires=model.roc_requires,
        )
    if row.kind == "function" and model.kind == "function" and row.transform is None:
        changes["transform"] = model.transform
    return replace(row, **changes)  # type: ignore[arg-type]


def hip_alias_root(index: HeaderIndex) -> Callable[[str], str]:
    """The name a HIP type or macro is finally defined as (``hipfftComplex`` -> ``hipComplex`` ->
    ``hipFloatComplex``); a name defined as no other is its own root."""

    def root(name: str) -> str:
        seen = {name}
        while True:
            hit = index.best(name)
            alias = hit.decl.alias_of if hit is not None and hit.decl.kind in ("macro", "type") else ""
            if not alias or alias in seen:
                return name
            seen.add(alias)
            name = alias

    return root


def other_spellings(
    rows: dict[str, Row], facts: CudaFacts, hip_root: Callable[[str], str] = lambda name: name
) -> dict[str, Row]:
    """``rows`` with every row that has no target taking the target of a name CUDA says is the same, and every
    target guessed from a name alone that HIP declares as another type than CUDA's alias says taking the alias's
    (``hip_root``: what a HIP name is finally defined as)."""
    out = dict(rows)
    changed = True
    while changed:
        changed = False
        enums = _Enums(out, facts)
        for name in sorted(out):
            row = out[name]
            overruled = _alias_over_naming(name, row, out, facts, hip_root)
            if overruled is not None:
                out[name] = overruled
                changed = True
                continue
            if (
                _usable(row)
                or row.kind in ("header", "namespace")
                or row.hip_status == "removed"
                or row.source == "override"
            ):
                continue
            found = _spelling(name, row, out, facts, enums)
            if found is not None:
                out[name] = found
                changed = True
    return out


def _alias_over_naming(
    name: str, row: Row, rows: dict[str, Row], facts: CudaFacts, hip_root: Callable[[str], str]
) -> Row | None:
    """A target guessed from the name alone yields to what CUDA's headers say: ``typedef __nv_bfloat16
    nv_bfloat16;`` makes ``nv_bfloat16`` what ``__nv_bfloat16`` is (``__hip_bfloat16``), not the
    similarly named ``hip_bfloat16``, a different type. A guess HIP defines as the alias's target
    (``cuComplex`` -> ``hipComplex``, HIP's own alias of ``hipFloatComplex``) stays."""
    if row.source != "naming" or row.kind in ("header", "namespace"):
        return None
    other = facts.alias.get(name, "")
    target = rows.get(other)
    if target is None or not _usable(target) or target.source == "naming" or not _fits(row, target):
        return None
    if hip_root(row.hip) == hip_root(target.hip):
        return None
    return _takes(row, target, "cuda-alias", f"CUDA defines {name} as {other}")


def _spelling(name: str, row: Row, rows: dict[str, Row], facts: CudaFacts, enums: _Enums) -> Row | None:
    other = facts.alias.get(name, "")
    if _usable(rows.get(other)) and _fits(row, rows[other]):
        return _takes(row, rows[other], "cuda-alias", f"CUDA defines {name} as {other}")
    for other in facts.successor.get(name, ()):
        if _usable(rows.get(other)) and _fits(row, rows[other]):
            return _takes(row, rows[other], "cuda-successor", f"CUDA deprecates {name} in favour of {other}")
    other = facts.variant.get(name, "")
    if _usable(rows.get(other)) and row.kind == "function" and rows[other].kind == "function":
        return _takes(
            row,
            rows[other],
            "algorithm-variant",
            f"{name} computes what {other} computes, by another algorithm (cuBLAS: Gauss complexity reduction), "
            "with the same parameters",
        )
    same = [rows[o] for o in facts.same_doc.get(name, ()) if _usable(rows.get(o))]
    if same and len({r.hip for r in same}) == 1 and row.kind in ("function", "device_function"):
        return _takes(
            row,
            same[0],
            "same-doc",
            f"CUDA documents {name} as {same[0].cuda} (the same summary and parameter types, in the same header)",
        )
    if row.kind == "enum_constant" and name in facts.enum_value:
        parent, value = facts.enum_value[name]
        for twin in enums.twins(parent, value):
            if twin.cuda != name:
                return _takes(
                    row,
                    twin,
                    "value-twin",
                    f"{parent} and {twin.parent} map to one HIP enum and agree on the values both map; CUDA declares "
                    f"{name} with the value of {twin.cuda} ({value})",
                )
    return None


class _Enums:
    """CUDA enums that map to one HIP enum and whose enumerators of equal value map alike wherever both are mapped
    (the runtime's and the driver's device attributes), with the enumerators that have a target, by value."""

    def __init__(self, rows: dict[str, Row], facts: CudaFacts) -> None:
        self.rows = rows
        self.facts = facts
        self.mapped: dict[str, dict[str, Row]] = {}  # enum -> value -> mapped enumerator
        self.by_hip: dict[str, list[str]] = {}  # HIP enum -> CUDA enums mapping to it
        for name, (parent, value) in sorted(facts.enum_value.items()):
            row, parent_row = rows.get(name), rows.get(parent)
            if row is not None and _usable(row):
                self.mapped.setdefault(parent, {}).setdefault(value, row)
            if parent_row is not None and _usable(parent_row) and parent not in self.by_hip.get(parent_row.hip, ()):
                self.by_hip.setdefault(parent_row.hip, []).append(parent)
        self._agree: dict[tuple[str, str], bool] = {}

    def agree(self, a: str, b: str) -> bool:
        """At least three values both enums map, all to the same target."""
        key = (a, b) if a < b else (b, a)
        if key not in self._agree:
            left, right = self.mapped.get(a, {}), self.mapped.get(b, {})
            common = [v for v in left if v in right]
            self._agree[key] = len(common) >= 3 and all(left[v].hip == right[v].hip for v in common)
        return self._agree[key]

    def twins(self, parent: str, value: str) -> list[Row]:
        parent_row = self.rows.get(parent)
        if parent_row is None or not _usable(parent_row):
            return []
        out = []
        for other in self.by_hip.get(parent_row.hip, ()):
            twin = self.mapped.get(other, {}).get(value)
            if other != parent and twin is not None and self.agree(parent, other):
                out.append(twin)
        return out
