"""Build the table's rows from the header cache: CUDA names, matched to verified HIP/ROC targets."""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..table import Row, Transform
from . import rules
from .compiler_macros import compiler_rows, hipcc_predefined, load_macros
from .headermap import header_rows
from .headers import HeaderIndex, build_index, header_files
from .overrides import Override, load_overrides
from .pairs import CUDA_ISH, HIP_ISH, backend_pairs
from .sources import (
    API_ORDER,
    CUDA_FAMILIES,
    CURRENT_ROCM,
    HIP_EXCLUDE,
    HIP_NAMESPACES,
    NVIDIA_BACKEND,
    ROCM_RELEASES,
    SPECS,
    ApiSpec,
)

_DECL_KIND = {
    "function": "function",
    "type": "type",
    "enum": "enum",
    "enum_constant": "enum_constant",
    "macro": "macro",
}
# CUDA family that stands for each version, newest first (for cuda_removed: the first version lacking a name).
_NEXT_MAJOR = {"11.8": "12.0", "12.9": "13.0"}


class GenerationError(Exception):
    pass


@dataclass
class HipSide:
    indexes: dict[str, HeaderIndex]  # ROCm release -> index
    files: dict[str, dict[str, Path]]  # ROCm release -> relative header -> file
    provenance: dict[str, str] = field(default_factory=dict)
    # headers hipcc reads before the file's first line: clang's __clang_hip_*.h (`-include
    # __clang_hip_runtime_wrapper.h`, which includes the others)
    preincluded: frozenset[str] = frozenset()

    @property
    def current(self) -> HeaderIndex:
        return self.indexes[CURRENT_ROCM]

    def since(self, name: str) -> str:
        return next((r for r in ROCM_RELEASES if r in self.indexes and name in self.indexes[r]), "")

    def header_since(self, rel: str) -> str:
        return next((r for r in ROCM_RELEASES if rel in self.files.get(r, {})), "")


def cuda_rel(path_under_family: str) -> str:
    """'toolkit/crt/math_functions.h' -> 'crt/math_functions.h'; 'toolkit/cccl/cub/x.cuh' -> 'cub/x.cuh'."""
    rel = path_under_family.split("/", 1)[1] if "/" in path_under_family else path_under_family
    return rel.removeprefix("cccl/")


def cuda_index(cache: Path, family: str, patterns: tuple[str, ...], spec: ApiSpec) -> HeaderIndex:
    root = cache / "cuda" / family
    files = [(cuda_rel(rel), path) for rel, path in header_files(root, patterns)]
    return build_index(files, dict(spec.namespace))


def hip_side(cache: Path, releases: tuple[str, ...] = ROCM_RELEASES) -> HipSide:
    indexes: dict[str, HeaderIndex] = {}
    all_files: dict[str, dict[str, Path]] = {}
    clang = header_files(cache / "hip" / "clang", ("*.h",))
    for release in releases:
        rdir = cache / "hip" / release
        if not rdir.is_dir():
            continue
        files: list[tuple[str, Path]] = []
        for pkg in sorted(p for p in rdir.iterdir() if p.is_dir()):
            for rel, path in header_files(pkg, ("**/*.h", "**/*.hpp", "**/*.hh", "**/*.inl", "**/*.cuh")):
                if not HIP_EXCLUDE.search(rel):
                    files.append((rel, path))
        files += clang  # hipcc declares device math in clang's own HIP headers
        files.sort(key=lambda f: f[0])
        all_files[release] = {rel: path for rel, path in files}
        indexes[release] = build_index(files, dict(HIP_NAMESPACES))
    if CURRENT_ROCM not in indexes:
        raise GenerationError(f"no HIP headers for ROCm {CURRENT_ROCM} under {cache / 'hip'}; run the fetch step")
    return HipSide(indexes, all_files, preincluded=frozenset(rel for rel, _ in clang))


def nvidia_pairs(cache: Path) -> dict[str, set[str]]:
    indexes = []
    for release in ROCM_RELEASES:
        files = header_files(cache / "hip" / release, NVIDIA_BACKEND)
        indexes.append(build_index([(rel.split("/", 1)[1], path) for rel, path in files]))
    return backend_pairs(indexes)


@dataclass(frozen=True)
class Target:
    name: str = ""
    status: str = "unsupported"
    header: str = ""
    since: str = ""
    source: str = ""
    beta: bool = False
    note: str = ""


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
        # CUDA type -> HIP types found in the same parameter position of paired functions (learn_signatures)
        self.signatures: dict[str, set[str]] = {}
        for name, hits in hip.current.names.items():
            for hit in hits:
                if hit.decl.kind == "enum_constant" and hit.decl.parent:
                    self.constants[hit.decl.parent][rules.normalized(name)].append(name)
                if hit.decl.kind in ("type", "enum") and name.startswith("hip") and name[3:4].isupper():
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
        for release in reversed(ROCM_RELEASES):
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
        for release in reversed(ROCM_RELEASES):
            idx = self.hip.indexes.get(release)
            succ = idx.successor(t.name) if idx else ""
            if succ and succ != t.name:
                s = self.target(succ, t.source)
                if s.status == "supported":
                    when = "" if release == CURRENT_ROCM else f" (ROCm {release})"
                    return replace(s, note=f"HIP deprecates {t.name}{when}: use {succ} instead")
        return t

    def resolve(
        self,
        cuda: str,
        candidates: list[str],
        parent_target: str = "",
        use_pairs: bool = True,
        type_like: bool = False,
        value: str = "",
        twin: bool = False,
    ) -> Target:
        return self.successor(self._resolve(cuda, candidates, parent_target, use_pairs, type_like, value, twin))

    def _resolve(
        self,
        cuda: str,
        candidates: list[str],
        parent_target: str = "",
        use_pairs: bool = True,
        type_like: bool = False,
        value: str = "",
        twin: bool = False,
    ) -> Target:
        found: Target | None = None
        if use_pairs:
            # HIP's NVIDIA backend may wrap one CUDA call by two HIP names (hipFreeHost and hipHostFree both call
            # cudaFreeHost): the one no scanned release deprecates wins
            paired = sorted(
                self.pairs.get(cuda, ()),
                key=lambda c: (self.hip.current.deprecated(c), self.ever_deprecated(c), c not in candidates, len(c), c),
            )
            for cand in paired:
                t = self.target(cand, "nvidia_detail")
                if t.name and t.status != "removed":
                    return t
                found = found or (t if t.name else None)
        for cand in candidates:
            t = self.target(cand, "naming")
            if t.name and t.status != "removed":
                return t
            found = found or (t if t.name else None)
        if parent_target and parent_target in self.constants:
            names = self.constants[parent_target].get(rules.normalized(cuda), [])
            if len(names) == 1:
                t = self.target(names[0], "naming-enum")
                if t.name:
                    return t
        # reserved placeholders (cudaDevAttrReserved96) carry no meaning to translate
        if (
            parent_target
            and value
            and (parent_target, value) in self.by_value
            and not re.search(r"reserved_?\d+$", cuda, re.IGNORECASE)
        ):
            t = self.target(self.by_value[(parent_target, value)], "same-value")
            if t.name:
                return t
        if twin and not found and rules.normalized(cuda) in self.twins:
            t = self.target(self.twins[rules.normalized(cuda)], "runtime-twin")
            if t.name:
                return t
        if type_like and not found:
            names = sorted(self.types.get(rules.normalized_type(cuda), ()))
            if len(names) == 1:
                t = self.target(names[0], "naming-type")
                if t.name:
                    return t
        if not found and len(self.signatures.get(cuda, ())) == 1:
            t = self.target(next(iter(self.signatures[cuda])), "signature")
            if t.name:
                return t
        return found or Target()

    def learn_signatures(self, cur: HeaderIndex) -> None:
        """Types in the same parameter position of a backend-paired function pair are paired too:
        hipPointerGetAttributes(hipPointerAttribute_t*, ...) wraps cudaPointerGetAttributes(cudaPointerAttributes*,
        ...), so cudaPointerAttributes -> hipPointerAttribute_t. A CUDA type voted for two HIP types is left out."""
        votes: dict[str, set[str]] = defaultdict(set)
        for cuda, hips in self.pairs.items():
            cuda_decls = [h.decl for h in cur.names.get(cuda, ()) if h.decl.kind == "function" and h.decl.param_types]
            for hip_name in hips:
                for hd in (
                    h.decl
                    for h in self.hip.current.names.get(hip_name, ())
                    if h.decl.kind == "function" and h.decl.param_types
                ):
                    for cd in cuda_decls:
                        if len(cd.param_types) != len(hd.param_types):
                            continue
                        for ct, ht in zip(cd.param_types, hd.param_types, strict=True):
                            ct, ht = ct.removeprefix("const "), ht.removeprefix("const ")
                            cb, hb = ct.rstrip("*"), ht.rstrip("*")
                            if (
                                len(ct) - len(cb) == len(ht) - len(hb)
                                and CUDA_ISH.match(cb)
                                and HIP_ISH.match(hb)
                                and cb in cur
                                and hb in self.hip.current
                            ):
                                votes[cb].add(hb)
        for cuda, hips in votes.items():
            self.signatures.setdefault(cuda, set()).update(hips)


# Calling-convention, export and deprecation-attribute macros (CUBLASAPI, CUDART_CB, CUSPARSE_DEPRECATED) are
# header plumbing that user code does not spell.
_PLUMBING = re.compile(r"(API|API_CDECL|WINAPI|_CB|_EXPORT|DEPRECATED(_\w+)?|_DEPRECATED_\w*)$")


def _is_plumbing(decl: object) -> bool:
    return decl.kind == "macro" and bool(_PLUMBING.search(decl.name))  # type: ignore[attr-defined]


# What a calling-convention/export macro may expand to on some platform; on Linux it is empty.
_CONVENTION = re.compile(
    r"(__stdcall|__cdecl|__declspec\s*\(\s*dll(?:ex|im)port\s*\)"
    r"|__attribute__\s*\(\s*\(\s*visibility\s*\(\s*\"\w+\"\s*\)\s*\)\s*\))?"
)


def _removable(index: HeaderIndex, name: str, hip: HeaderIndex) -> bool:
    """A calling-convention or export macro (CUDART_CB, CUDAAPI, CUFFTAPI) that some branch defines empty (the
    Linux one) and the others only as __stdcall/__cdecl/dllexport/visibility, and that HIP does not define:
    translation drops it (transform kind 'remove')."""
    if name in hip or not re.search(r"(API|_CB|APIENTRY)(_CDECL)?$", name):
        return False
    bodies = {h.decl.expansion for h in index.names.get(name, ()) if h.decl.kind == "macro"}
    kinds = {h.decl.kind for h in index.names.get(name, ())}
    return kinds == {"macro"} and "" in bodies and all(_CONVENTION.fullmatch(b) for b in bodies)


def _row_kind(api: str, kind: str) -> str:
    if api == "device" and kind == "function":
        return "device_function"
    return _DECL_KIND.get(kind, kind)


def _required_macro(hip: HipSide, target: Target) -> str:
    """The configuration macro the HIP headers declare ``target`` under only (`#ifdef OCML_BASIC_ROUNDED_OPERATIONS`
    around __fadd_rz; `#ifdef HIP_ENABLE_WARP_SYNC_BUILTINS` around __shfl_sync): one the user defines, i.e. not
    a reserved name (__cplusplus, __HIP_PLATFORM_AMD__) and not one the HIP headers define themselves."""
    if not target.name or target.status == "removed":
        return ""
    cur = hip.current
    for macro in cur.required_macros(target.name):
        if macro.startswith("_") or any(h.decl.kind == "macro" for h in cur.names.get(macro, ())):
            continue
        return macro
    return ""


GUARD_SOURCE = "preincluded-guard"


def _preincluded_guard(matcher: Matcher, target: Target, macro: str) -> Target | None:
    """A target declared only under ``macro`` in headers hipcc pre-includes (clang's __clang_hip_*.h: `#if defined
    OCML_BASIC_ROUNDED_OPERATIONS` around __fadd_rz) cannot be enabled by the translated file: its own `#define`
    comes after those headers were read. When every such declaration is a one-call wrapper passing its parameters
    through unchanged to one function declared without a user macro, the callee is the target
    (__fadd_rz(x, y) { return __ocml_add_rtz_f32(x, y); }); otherwise no target can compile and the row is
    unsupported (__frcp_rz(x) is __ocml_div_rtz_f32(1.0f, x)). None when the guard is one the file can define
    first (HIP_ENABLE_WARP_SYNC_BUILTINS, tested by HIP headers the file includes itself)."""
    hip = matcher.hip
    cur = hip.current
    hits = cur.names.get(target.name, ())
    if not hits or not all(h.header in hip.preincluded for h in hits):
        return None
    why = (
        f"HIP declares {target.name} ({target.header}) only under {macro}, which hipcc's pre-included clang "
        f"headers test before the translated file can define it"
    )
    callees = {h.decl.forwards for h in hits if h.decl.kind == "function"}
    callee = callees.pop() if len(callees) == 1 and all(h.decl.kind == "function" for h in hits) else ""
    t = matcher.target(callee, GUARD_SOURCE) if callee else Target()
    if t.status == "supported" and not _required_macro(hip, t):
        return replace(
            t,
            note=f"{why}; its definition only calls {callee} with the same arguments, "
            f"declared unconditionally in {t.header}",
        )
    if t.name:
        because = f"it only calls {callee} with the same arguments, but {callee} is not declared unconditionally"
    else:
        calls = ", ".join(sorted({c for h in hits for c in h.decl.calls}))
        because = (
            f"its definition{f' (calling {calls})' if calls else ''} does not just pass its parameters on "
            f"to another function"
        )
    return Target(source=GUARD_SOURCE, note=f"{why}; {because}: no HIP translation compiles, so it is reported")


def _library_version(provenance: dict[str, str], spec: ApiSpec) -> str:
    """cuDNN versions itself apart from CUDA (9.x): its facts are stated in cuDNN versions."""
    if spec.api != "dnn":
        return ""
    wheel = provenance.get("cuda/cu13/cudnn", "")
    m = re.match(r"nvidia_cudnn_cu\d+-(\d+\.\d+)", wheel)
    return f"cuDNN {m.group(1)}" if m else ""


def api_rows(cache: Path, spec: ApiSpec, matcher: Matcher, hip: HipSide, library_version: str = "") -> list[Row]:
    keep = re.compile(spec.keep)
    cur = cuda_index(cache, "cu13", spec.cuda, spec)
    older: list[tuple[str, HeaderIndex]] = []
    if spec.older:
        for family, version in CUDA_FAMILIES[:-1]:
            older.append((version, cuda_index(cache, family, spec.older, spec)))
    # name -> (header, decl, removed-in) : current names first, then names only older headers declare
    entries: dict[str, tuple[str, object, str]] = {}
    removable: dict[str, str] = {}  # attribute macros to drop -> header
    for name in sorted(cur.names):
        hit = cur.best(name)
        if hit and keep.match(name) and hit.decl.kind != "variable" and not _is_plumbing(hit.decl):
            entries[name] = (hit.header, hit.decl, "")
        elif hit and keep.match(name) and _is_plumbing(hit.decl) and _removable(cur, name, hip.current):
            removable[name] = hit.header
    for version, idx in reversed(older):
        for name in sorted(idx.names):
            hit = idx.best(name)
            if (
                name in entries
                or not hit
                or not keep.match(name)
                or hit.decl.kind == "variable"
                or _is_plumbing(hit.decl)
            ):
                continue
            entries[name] = (hit.header, hit.decl, _NEXT_MAJOR.get(version, ""))
    # #define cuMemAlloc cuMemAlloc_v2: users may also write the versioned name, which only the macro spells.
    for name, (header, decl, removed) in list(entries.items()):
        alias = decl.alias_of  # type: ignore[attr-defined]
        if (
            decl.kind == "function"  # type: ignore[attr-defined]
            and name in cur.names
            and alias not in entries
            and re.fullmatch(re.escape(name) + r"_v\d+", alias or "")
        ):
            entries[alias] = (header, decl, removed)
        for hit in cur.names.get(name, ()):
            if (
                hit.decl.kind == "macro"
                and re.fullmatch(re.escape(name) + r"_v\d+", hit.decl.alias_of)
                and hit.decl.alias_of not in entries
            ):
                entries[hit.decl.alias_of] = (header, decl, removed)
    # Macros that alias a function (#define cuMemAlloc cuMemAlloc_v2) are functions to users.
    kinds: dict[str, str] = {}
    for name, (_, decl, _) in entries.items():
        kind = decl.kind  # type: ignore[attr-defined]
        alias = decl.alias_of  # type: ignore[attr-defined]
        if kind == "macro" and alias in entries and entries[alias][1].kind == "function":  # type: ignore[attr-defined]
            kind = "function"
        kinds[name] = kind
    # Types first, so that enum constants can use their parent's target.
    targets: dict[str, Target] = {}
    order = sorted(entries, key=lambda n: (kinds[n] == "enum_constant", n))
    for name in order:
        header, decl, removed = entries[name]
        kind = kinds[name]
        cands = rules.hip_candidates(spec.api, name, kind)
        # a versioned name (cuMemAlloc_v2) also takes the target of the plain one's backend pair
        plain = re.sub(r"_v\d+$", "", name)
        if plain != name and plain in matcher.pairs:
            cands = sorted(matcher.pairs[plain]) + cands
        parent = decl.parent  # type: ignore[attr-defined]
        ptarget = targets[parent].name if parent in targets else ""
        hip_t = (
            matcher.resolve(
                name,
                cands,
                ptarget,
                type_like=kind in ("type", "enum") and spec.api in ("runtime", "driver"),
                value=decl.value,  # type: ignore[attr-defined]
                twin=spec.api == "driver" and kind in ("enum_constant", "macro"),
            )
            if spec.api != "dnn"
            else Target()
        )
        targets[name] = hip_t
        if spec.api == "runtime" and hip_t.name and kind in ("enum_constant", "macro"):
            matcher.twins.setdefault(rules.normalized(name), hip_t.name)
        if kind == "enum_constant" and hip_t.name and ptarget and decl.value and hip_t.status != "removed":  # type: ignore[attr-defined]
            matcher.by_value.setdefault((ptarget, decl.value), hip_t.name)  # type: ignore[attr-defined]
    _infer_enums_from_members(entries, kinds, targets, matcher)
    rows: list[Row] = []
    for _prefix, ns in spec.namespace:
        hip_ns = "hip" + ns
        if any(n.startswith(hip_ns + "::") for n in hip.current.names):
            rows.append(
                Row(
                    cuda=ns,
                    hip=hip_ns,
                    kind="namespace",
                    api=spec.api,
                    hip_status="supported",
                    cuda_header=f"{ns}/{ns}.cuh",
                    hip_header=f"{hip_ns}/{hip_ns}.hpp",
                    hip_since=next(
                        (r for r in hip.indexes if any(n.startswith(hip_ns + "::") for n in hip.indexes[r].names)), ""
                    ),
                    source="naming",
                )
            )
    roc_targets: dict[str, Target] = {}
    for name in order:
        header, decl, removed = entries[name]
        kind = kinds[name]
        parent = decl.parent  # type: ignore[attr-defined]
        roc_cands = rules.roc_candidates(spec.api, name, kind)
        roc_parent = roc_targets[parent].name if parent in roc_targets else ""
        roc_t = matcher.resolve(name, roc_cands, roc_parent, use_pairs=False) if (roc_cands or roc_parent) else Target()
        roc_targets[name] = roc_t
        hip_t = targets[name]
        requires = _required_macro(hip, hip_t)
        if requires:
            bypass = _preincluded_guard(matcher, hip_t, requires)
            if bypass is not None:
                hip_t, requires = bypass, ""
        cuda_since, cuda_deprecated = "", ""
        if older:
            versions = [v for v, idx in older if name in idx] + ([CUDA_FAMILIES[-1][1]] if name in cur else [])
            cuda_since = versions[0] if versions else ""
            dep = [v for v, idx in older if idx.deprecated(name)] + (
                [CUDA_FAMILIES[-1][1]] if cur.deprecated(name) else []
            )
            cuda_deprecated = dep[0] if dep else ""
        elif cur.deprecated(name):
            cuda_deprecated = library_version or CUDA_FAMILIES[-1][1]
        rows.append(
            Row(
                cuda=name,
                hip=hip_t.name,
                roc=roc_t.name,
                kind=_row_kind(spec.api, kind),
                api=spec.api,
                hip_status=hip_t.status,
                roc_status=roc_t.status,
                cuda_header=header,
                hip_header=hip_t.header,
                roc_header=roc_t.header,
                parent=parent if kind == "enum_constant" else "",
                cuda_since=cuda_since,
                cuda_deprecated=cuda_deprecated,
                cuda_removed=removed,
                hip_since=hip_t.since,
                roc_since=roc_t.since,
                hip_requires=requires,
                transform=derive_transform(cur, hip.current, name, hip_t.name) if kind == "function" else None,
                source=hip_t.source or roc_t.source,
                note="; ".join(
                    n
                    for n in (
                        hip_t.note,
                        f"HIP documents {hip_t.name} as beta (complete, may still change)" if hip_t.beta else "",
                    )
                    if n
                ),
            )
        )
    for name, header in sorted(removable.items()):
        rows.append(
            Row(
                cuda=name,
                hip="",
                kind="macro",
                api=spec.api,
                hip_status="supported",
                cuda_header=header,
                transform=Transform(kind="remove"),
                source="attribute-macro",
                note="calling-convention/export macro, empty on Linux; HIP has none: translation drops it",
            )
        )
    return rows


def _infer_enums_from_members(
    entries: dict, kinds: dict[str, str], targets: dict[str, Target], matcher: Matcher
) -> None:
    """An unmapped CUDA enum whose mapped constants all belong to one HIP enum maps to that enum
    (cudaDeviceAttr -> hipDeviceAttribute_t: its constants come from HIP's NVIDIA backend)."""
    members: dict[str, list[str]] = defaultdict(list)
    for name, (_, decl, _) in entries.items():
        if kinds[name] == "enum_constant" and decl.parent:
            members[decl.parent].append(name)
    current = matcher.hip.current
    for enum, consts in sorted(members.items()):
        # a parameter-position guess yields to the enum its constants map into (CUaddress_mode -> HIPaddress_mode,
        # not the runtime's hipTextureAddressMode that hipTexRefSetAddressMode takes)
        if enum not in targets or (targets[enum].name and targets[enum].source != "signature"):
            continue
        parents = [
            h.decl.parent
            for c in consts
            if targets[c].name
            for h in current.names.get(targets[c].name, ())
            if h.decl.kind == "enum_constant"
        ]
        if len(parents) < 2 or len(set(parents)) != 1 or parents[0] not in current:
            continue
        t = matcher.target(parents[0], "enum-members")
        if not t.name:
            continue
        targets[enum] = t
        for c in consts:
            value = entries[c][1].value
            if targets[c].name and value and targets[c].status != "removed":
                matcher.by_value.setdefault((t.name, value), targets[c].name)


def _arities(index: HeaderIndex, name: str) -> set[int]:
    return {h.decl.params for h in index.names.get(name, ()) if h.decl.kind == "function" and h.decl.params >= 0}


KERNEL_CAST = "reinterpret_cast<const void*>"


def _generic_positions(index: HeaderIndex, name: str) -> set[int]:
    """Parameter positions a function template of ``name`` types by a template parameter (T* entry, T func)."""
    return {
        k
        for h in index.names.get(name, ())
        if h.decl.kind == "function" and h.decl.template_params
        for k, t in enumerate(h.decl.param_types)
        if t.removeprefix("const ").rstrip("*") in h.decl.template_params and len(t) - len(t.rstrip("*")) <= 1
    }


def _kernel_arg(cur: HeaderIndex, hip: HeaderIndex, cuda: str, target: str) -> int:
    """The position where CUDA's template overload takes the kernel itself (cudaFuncSetAttribute(kernel, ...))
    but HIP has only the `const void*` form (hipFuncSetAttribute(const void* func, ...)): the argument needs
    the cast (a function pointer does not convert to `const void*` implicitly; data pointers to `void*` do).
    -1 when HIP has a template overload there too (hipOccupancyMaxActiveBlocksPerMultiprocessor)."""
    hip_generic = _generic_positions(hip, target)
    void_ptr = {
        k
        for h in hip.names.get(target, ())
        if h.decl.kind == "function" and not h.decl.template_params
        for k, t in enumerate(h.decl.param_types)
        if t == "const void*"
    }
    hits = sorted(k for k in _generic_positions(cur, cuda) if k not in hip_generic and k in void_ptr)
    return hits[0] if len(hits) == 1 else -1


def derive_transform(cur: HeaderIndex, hip: HeaderIndex, cuda: str, target: str) -> Transform | None:
    """Argument rewrites the two sets of declarations imply.

    wrap_arg: CUDA and HIP both take the device symbol at the same position, named ``symbol`` (HIP on AMD
    needs it wrapped in HIP_SYMBOL). by_arity: a CUDA overload whose argument count the HIP function lacks,
    served by HIP's ``...WithFlags`` variant (cudaEventCreate(e, flags) -> hipEventCreateWithFlags).
    """
    if not target:
        return None
    cuda_syms = {
        h.decl.param_names.index("symbol")
        for h in cur.names.get(cuda, ())
        if h.decl.kind == "function" and "symbol" in h.decl.param_names
    }
    hip_syms = {
        h.decl.param_names.index("symbol")
        for h in hip.names.get(target, ())
        if h.decl.kind == "function" and "symbol" in h.decl.param_names
    }
    if len(cuda_syms) == 1 and cuda_syms == hip_syms and "Symbol" in cuda:  # not cuGetProcAddress's name string
        return Transform(kind="wrap_arg", arg=cuda_syms.pop(), wrapper="HIP_SYMBOL")
    kernel = _kernel_arg(cur, hip, cuda, target)
    if kernel >= 0:
        return Transform(kind="wrap_arg", arg=kernel, wrapper=KERNEL_CAST)
    hip_ar = _arities(hip, target)
    if hip_ar:
        variant = target + "WithFlags"
        # only overloads that add a flags parameter (not cuOccupancyMaxPotentialBlockSize's callback)
        flagged = {
            h.decl.params
            for h in cur.names.get(cuda, ())
            if h.decl.kind == "function" and any("flag" in p.lower() for p in h.decl.param_names)
        }
        choices = tuple(
            sorted((a, variant) for a in (_arities(cur, cuda) & flagged) - hip_ar if a in _arities(hip, variant))
        )
        if choices:
            return Transform(kind="by_arity", arity=choices)
    return None


def apply_overrides(rows: dict[str, Row], overrides: list[Override], matcher: Matcher) -> None:
    for ov in overrides:
        base = rows.get(ov.cuda)
        if base is None:
            if not ov.api or not ov.kind:
                raise GenerationError(f"override {ov.cuda}: no generated row; give api and kind to add one")
            base = Row(cuda=ov.cuda, api=ov.api, kind=ov.kind)
        changes: dict[str, object] = dict(ov.fields)
        for side in ("hip", "roc"):
            if side in changes:
                name = str(changes[side])
                t = matcher.target(name, "override") if name else Target()
                if name and not t.name:
                    raise GenerationError(f"override {ov.cuda}: {side} target {name} is not declared in HIP headers")
                changes.setdefault(f"{side}_status", t.status)
                changes.setdefault(f"{side}_header", t.header)
                changes.setdefault(f"{side}_since", t.since)
        if "transform" in changes:
            changes["transform"] = Transform.from_json(changes["transform"])  # type: ignore[arg-type]
        changes["source"] = "override" if ("hip" in changes or "roc" in changes) else base.source or "override"
        changes["note"] = ov.reason
        rows[ov.cuda] = replace(base, **changes)  # type: ignore[arg-type]


@dataclass
class Generated:
    rows: dict[str, list[Row]]  # api -> rows sorted by name
    collisions: list[tuple[str, str, str]]  # (name, kept api, dropped api)
    provenance: dict[str, str]


def generate(cache: Path, overrides_path: Path, apis: tuple[str, ...] = API_ORDER) -> Generated:
    manifest_path = cache / "manifest.json"
    provenance = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {}
    hip = hip_side(cache)
    matcher = Matcher(hip, nvidia_pairs(cache))
    # parameter-position type pairs from every family first: CUuuid (driver_types.h, a runtime row) is learnt
    # from cuDeviceGetUuid (cuda.h, the driver family)
    for spec in SPECS:
        if spec.api in apis:
            matcher.learn_signatures(cuda_index(cache, "cu13", spec.cuda, spec))
    claimed: dict[str, Row] = {}
    collisions: list[tuple[str, str, str]] = []
    for spec in SPECS:
        if spec.api not in apis:
            continue
        for row in api_rows(cache, spec, matcher, hip, _library_version(provenance, spec)):
            if row.cuda in claimed:
                collisions.append((row.cuda, claimed[row.cuda].api, row.api))
                continue
            claimed[row.cuda] = row
    for row in header_rows(cache, hip, matcher, claimed):
        if row.cuda in claimed and row.kind == "header":
            raise GenerationError(f"header row {row.cuda} collides with an identifier row")
        claimed[row.cuda] = row  # include-guard rows refine the plain macro rows
    predefined = hipcc_predefined()
    if predefined is None:
        log("compiler macros: no ROCm hipcc found; HIP targets of compiler_macros.toml not checked")
    for row in compiler_rows(load_macros(), predefined):
        claimed[row.cuda] = row  # a compiler's own macro, whatever a header mentions
    apply_overrides(claimed, load_overrides(overrides_path), matcher)
    by_api: dict[str, list[Row]] = defaultdict(list)
    for name in sorted(claimed):
        by_api[claimed[name].api].append(claimed[name])
    return Generated(dict(by_api), sorted(collisions), provenance)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)
