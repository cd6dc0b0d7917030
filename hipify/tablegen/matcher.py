"""Find the HIP (or ROC) target of a CUDA name: the pairing strategies of mapping_tables/README.md, first match
wins, each target verified against the HIP headers."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, replace

from . import rules
from .sides import HipSide
from .target import Target

# reserved placeholders (cudaDevAttrReserved96) carry no meaning to translate
_RESERVED = re.compile(r"reserved_?\d+$", re.IGNORECASE)


@dataclass(frozen=True)
class Query:
    cuda: str
    candidates: tuple[str, ...]  # names the naming rules propose, best first
    parent_target: str = ""  # target of an enum constant's enum
    use_pairs: bool = True  # HIP's NVIDIA backend pairs apply (HIP targets, not ROC ones)
    type_like: bool = False  # a runtime/driver type: the case-insensitive type fallback applies
    value: str = ""  # an enum constant's value
    twin: bool = False  # a driver constant or macro: its runtime twin's target applies
    tag: bool = False  # a struct tag (CUarray_st): pairs with HIP's tags


class Matcher:
    def __init__(self, hip: HipSide, pairs: dict[str, set[str]]) -> None:
        self.hip = hip
        self.pairs = pairs
        # HIP enum constants by parent enum, for the case-insensitive constant fallback
        self.constants: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        # (HIP enum, CUDA value) -> HIP constant, learnt from families matched earlier: CUDA's runtime and driver
        # enums share values (cudaDevAttrX == CU_DEVICE_ATTRIBUTE_X), so a driver constant whose enum maps to the
        # same HIP enum takes the runtime constant's target.
        self.by_value: dict[tuple[str, str], str] = {}
        # normalized runtime name -> its HIP target: CU_EVENT_DISABLE_TIMING is cudaEventDisableTiming's twin
        self.twins: dict[str, str] = {}
        # HIP types by case- and underscore-insensitive name, for the type fallback (CUmemorytype ~ hipMemoryType)
        self.types: dict[str, set[str]] = defaultdict(set)
        # CUDA type -> HIP types found in the same parameter position of paired functions (signatures.py)
        self.signatures: dict[str, set[str]] = {}
        # struct tags apart: CUDA's typedef names pair with HIP's typedef names (CUgraphNode -> hipGraphNode_t, not
        # the tag hipGraphNode), CUDA's tags with HIP's tags (CUarray_st -> hipArray)
        self.tags: dict[str, set[str]] = defaultdict(set)
        for name, hits in hip.current.names.items():
            for hit in hits:
                if hit.decl.kind == "enum_constant" and hit.decl.parent:
                    self.constants[hit.decl.parent][rules.normalized(name)].append(name)
            typed = [h for h in hits if h.decl.kind in ("type", "enum")]
            if not typed or not re.match(r"i?hip[A-Z_]|HIP_", name):
                continue
            # a tag, or a C-style `typedef struct HIP_X {...} HIP_X` (usable as a tag in C++)
            if any(h.decl.tag for h in typed) or name.startswith("HIP_"):
                self.tags[rules.normalized_type(name.removeprefix("i"))].add(name)
            if not all(h.decl.tag for h in typed) and name.startswith("hip") and name[3:4].isupper():
                self.types[rules.normalized_type(name)].add(name)

    def target(self, name: str, source: str) -> Target:
        cur = self.hip.current
        if name in cur:
            hit = cur.best(name)
            assert hit is not None
            status = "supported"
            if cur.deprecated(name):
                status = "deprecated"
            elif cur.experimental(name):
                status = "experimental"
            return Target(name, status, hit.header, self.hip.since(name), source, cur.beta(name))
        for release in reversed(self.hip.releases):
            idx = self.hip.indexes.get(release)
            if idx and name in idx:
                hit = idx.best(name)
                assert hit is not None
                return Target(name, "removed", hit.header, self.hip.since(name), source)
        return Target()

    def ever_deprecated(self, name: str) -> bool:
        return any(idx.deprecated(name) for idx in self.hip.indexes.values())

    def successor(self, t: Target) -> Target:
        """A target that HIP (the current or an older scanned release) deprecates in favour of a named successor
        ("use hipHostMalloc instead") gives way to that successor when the current headers declare it
        undeprecated (cudaMallocHost -> hipHostMalloc; cuMemFreeHost -> hipHostFree, deprecated up to 5.7)."""
        if not t.name or t.status not in ("supported", "deprecated"):
            return t
        for release in reversed(self.hip.releases):
            idx = self.hip.indexes.get(release)
            succ = idx.successor(t.name) if idx else ""
            if succ and succ != t.name:
                s = self.target(succ, t.source)
                if s.status == "supported":
                    when = "" if release == self.hip.release else f" (ROCm {release})"
                    return replace(s, note=f"HIP deprecates {t.name}{when}: use {succ} instead")
        return t

    def resolve(self, q: Query) -> Target:
        return self.successor(self._resolve(q))

    def _resolve(self, q: Query) -> Target:
        # A name only an older release declares is the fallback: a current one found later wins over it.
        removed: Target | None = None
        for cand, source in self._named(q):
            t = self.target(cand, source)
            if t.name and t.status != "removed":
                return t
            removed = removed or (t if t.name else None)
        for guess in (self._enum_constant, self._same_value):
            t = guess(q)
            if t.name:
                return t
        if removed:
            # a type HIP renamed keeps its current name (CUarray: hiparray is gone, hipArray_t is current)
            t = self._type_name(q)
            return t if t.name and t.status != "removed" else removed
        for guess in (self._runtime_twin, self._type_name, self._signature):
            t = guess(q)
            if t.name:
                return t
        return Target()

    def _named(self, q: Query) -> list[tuple[str, str]]:
        """Backend pairs, then naming-rule candidates. HIP's NVIDIA backend may wrap one CUDA call by two HIP
        names (hipFreeHost and hipHostFree both call cudaFreeHost): the one no scanned release deprecates wins."""
        paired: list[str] = []
        if q.use_pairs:
            cur = self.hip.current
            paired = sorted(
                self.pairs.get(q.cuda, ()),
                key=lambda c: (cur.deprecated(c), self.ever_deprecated(c), c not in q.candidates, len(c), c),
            )
        return [(c, "nvidia_detail") for c in paired] + [(c, "naming") for c in q.candidates]

    def _enum_constant(self, q: Query) -> Target:
        if not q.parent_target or q.parent_target not in self.constants:
            return Target()
        names = self.constants[q.parent_target].get(rules.normalized(q.cuda), [])
        if len(names) > 1:
            # spellings that differ in case only (ROCm 7 added hipDeviceAttributePciDomainId and kept
            # hipDeviceAttributePciDomainID as an alias): the one ending the longest as the CUDA name does
            ends = {n: common_suffix(n, q.cuda) for n in names}
            best = [n for n in names if ends[n] == max(ends.values())]
            names = best if len(best) == 1 else names
        return self.target(names[0], "naming-enum") if len(names) == 1 else Target()

    def _same_value(self, q: Query) -> Target:
        key = (q.parent_target, q.value)
        if q.parent_target and q.value and key in self.by_value and not _RESERVED.search(q.cuda):
            return self.target(self.by_value[key], "same-value")
        return Target()

    def _runtime_twin(self, q: Query) -> Target:
        if q.twin and rules.normalized(q.cuda) in self.twins:
            return self.target(self.twins[rules.normalized(q.cuda)], "runtime-twin")
        return Target()

    def _type_name(self, q: Query) -> Target:
        if not q.type_like:
            return Target()
        if q.tag:
            names = sorted(self.tags.get(rules.normalized_type(re.sub(r"(_v\d+)?_st$", "", q.cuda)), ()))
        else:
            names = sorted(self.types.get(rules.normalized_type(q.cuda), ()))
        return self.target(names[0], "naming-type") if len(names) == 1 else Target()

    def _signature(self, q: Query) -> Target:
        if len(self.signatures.get(q.cuda, ())) == 1:
            return self.target(next(iter(self.signatures[q.cuda])), "signature")
        return Target()


def common_suffix(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n
