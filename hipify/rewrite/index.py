"""What the planner derives from the mapping table, computed once per table.

Nothing here names a CUDA API by hand: namespace pairs come from qualified rows
(``cub::X`` -> ``hipcub::X``) and namespace rows; macros a HIP target needs defined
(e.g. HIP_ENABLE_WARP_SYNC_BUILTINS) come from the rows' ``hip_requires`` field.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..compat import load_catalog
from ..knowledge.cxx import CPP_KEYWORDS
from ..knowledge.table import MappingTable, Row
from ..machinery.cache import default_cache_dir, keep, load_kept, tool_identity
from .status import parse_version

# Names a CUDA file may use that are not table rows but still mean "CUDA device code":
# language keywords/built-ins nvcc provides implicitly (HIP spells them the same).
DEVICE_MARKERS = frozenset(
    (
        "__global__",
        "__device__",
        "__shared__",
        "__constant__",
        "__managed__",
        "__launch_bounds__",
        "threadIdx",
        "blockIdx",
        "blockDim",
        "gridDim",
        "warpSize",
        "__syncthreads",
    )
)
# CUDA-looking identifiers (warned about when the table does not know them).
CUDA_LIKE = re.compile(r"(?:cuda[A-Z_]|cu[A-Z]|CU[A-Z_]|CUDA_)\w*\Z")
WARP_SYNC_DEFINE = "HIP_ENABLE_WARP_SYNC_BUILTINS"
_MACRO_NAME = re.compile(r"[A-Za-z_]\w*")
# Warp functions that take a lane mask as argument 0 without needing the define themselves.
_MASK_ONLY = frozenset(("__syncwarp",))
# API families whose use means the file needs the HIP runtime header.
RUNTIME_APIS = frozenset(("runtime", "driver", "device"))


class NameFilter:
    """Names worth reporting: table names, device markers, and CUDA-looking names.

    Called once per distinct word of a file; the verdict on CUDA-looking names is memoised
    here (the same words recur across the files of a run).
    """

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names
        self._cuda_like: dict[str, bool] = {}

    def _looks_cuda(self, name: str) -> bool:
        found = self._cuda_like.get(name)
        if found is None:
            if len(self._cuda_like) > 200_000:
                self._cuda_like.clear()
            found = self._cuda_like[name] = CUDA_LIKE.match(name) is not None
        return found

    def __call__(self, name: str) -> bool:
        return name in self.names or (name[0] in "cC" and self._looks_cuda(name))

    def select(self, words: set[str]) -> set[str]:
        keep = words & self.names
        looks = self._looks_cuda
        keep.update(w for w in words if w[0] in "cC" and w not in keep and looks(w))
        return keep


@dataclass(frozen=True)
class TableIndex:
    names: frozenset[str]  # lookup keys worth reporting, and namespace prefixes
    namespaces: dict[str, tuple[str, str]]  # cuda namespace -> (hip, roc) namespace
    transformed: frozenset[str]  # names whose rows rewrite call arguments
    markers: frozenset[str]  # names the planner only needs to see once
    requires: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # cuda name -> macros to define
    roc_requires: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # the same for the ROC-side target
    mask_functions: frozenset[str] = frozenset()  # warp functions whose argument 0 is a lane mask
    # ROCm releases the generator compared (the distinct *_since values): a name first seen in
    # one of them may already exist in an unscanned release between it and the one before.
    releases: tuple[tuple[int, ...], ...] = ()
    # Last components of qualified keys (``BlockReduce`` of ``cub::BlockReduce``).
    namespaced_names: frozenset[str] = frozenset()
    # CUDA header -> the macro its HIP replacement defines as include guard: what ``#ifdef X``
    # asks of a macro that only marks the CUDA header's inclusion (CUSPARSEAPI, CUFFTAPI).
    header_guards: Mapping[str, str] = field(default_factory=dict)
    # Header rows of libraries with ROC-side names (cublas_v2.h) -> the API family whose names they declare
    # (blas): the include follows the family's choice of names in a file.
    header_families: Mapping[str, str] = field(default_factory=dict)
    # Family -> the folder of its ROC-side library's headers (blas -> rocblas), to name it in messages.
    roc_libraries: Mapping[str, str] = field(default_factory=dict)
    # Function rows whose HIP or ROC target does not take what the translated call passes as CUDA 13 declares it
    # (signature ``differs`` or ``older``): their uses are reported.
    signature_findings: frozenset[str] = frozenset()
    # Device functions HIP's headers define -> the parameter lists they define them for (``Row.hip_definitions``).
    defined_by_hip: Mapping[str, frozenset[tuple[str, ...]]] = field(default_factory=dict)
    # The identifier filter both engines' text facts use (``wanted``): table names, device
    # markers and CUDA-looking names.
    wanted: NameFilter = field(default_factory=lambda: NameFilter(frozenset()))
    # Calling-convention macros the translation deletes (CUDART_CB): never the type of a
    # declaration (``CUDART_CB name;`` declares nothing), or a second run would read it otherwise.
    removed: frozenset[str] = frozenset()
    # Runtime, driver and device names whose use makes a file need the HIP runtime: renamed APIs and built-ins
    # (__shfl_sync), not identity rows such as min() that plain C++ also has.
    runtime_features: frozenset[str] = frozenset()
    # Next-to-last parts of the rows of nested namespaces' members (``std`` of ``cuda::std::atomic``): a name qualified
    # by one of them is looked up by its whole path.
    nested_qualifiers: frozenset[str] = frozenset()
    # CUDA macros no HIP compiler defines and the translation leaves as written where their value is used: the
    # version numbers (CUDART_VERSION, __CUDA_ARCH__: ``defined_only`` rows) and nvcc's own (__CUDACC_VER_MAJOR__).
    undefined_macros: frozenset[str] = frozenset()
    # Of those, the ones no HIP header defines and no translation renames (``CUBLAS_VERSION``): ``defined(X)`` is
    # false under HIP too (``defined(CUDART_VERSION)`` becomes ``defined(HIP_VERSION)``).
    never_defined: frozenset[str] = frozenset()
    # Rows another ROCm release the table was generated for translates otherwise: those with views of other releases
    # (``Row.by_rocm``) and those whose target appeared after the oldest such release (HPY022 notes their uses).
    version_dependent: frozenset[str] = frozenset()

    def report_once(self) -> frozenset[str]:
        """Names whose presence matters, not each use: device markers (``threadIdx``) and
        identity rows kept only because they mark device code (``__syncthreads``)."""
        return self.markers

    def wants_args(self) -> Callable[[str], bool]:
        """Which calls the planner needs split into arguments (rows with a transform, and warp
        functions, whose lane mask may be widened)."""
        return (self.transformed | self.mask_functions).__contains__


@lru_cache(maxsize=8)
def index_of(table: MappingTable) -> TableIndex:
    """Built once per table (tables are hashed by identity; a run loads one), and kept on disk beside the
    table's rows: building it costs a cold run's start some 70 ms, loading it a tenth of that."""
    path = _kept_index_path(table)
    kept = load_kept(path, TableIndex) if path is not None else None
    if kept is not None:
        return kept
    index = _build(table)
    if path is not None:
        keep(path, index)
    return index


def _kept_index_path(table: MappingTable) -> Path | None:
    """Where the index of ``table`` is kept: named by the table's digest, the compatibility catalog's and the
    translator's own code (``tool_identity``, as the result cache is), so that no change to any of them meets an
    index built before it. None for a table without a digest."""
    if not table.digest:
        return None
    name = f"{tool_identity()}\0{table.digest}\0{load_catalog().digest}"
    return default_cache_dir().parent / f"index-{hashlib.sha256(name.encode()).hexdigest()[:16]}.pickle"


def required_macros(row: Row, roc: bool = False) -> tuple[str, ...]:
    """Macros the row's HIP target (``roc``: its ROC-side target) needs defined before the HIP headers
    (``hip_requires``, ``roc_requires``)."""
    return tuple(_MACRO_NAME.findall(row.roc_requires if roc else row.hip_requires))


# The target ROCm releases that need a macro defined: from the first, until the first that no longer does (None:
# every later one does); a macro not listed is needed by every release. ROCm 6.2 declares the warp *_sync builtins
# only under HIP_ENABLE_WARP_SYNC_BUILTINS, 7.0 by default (amd_warp_sync_functions.h: unless
# HIP_DISABLE_WARP_SYNC_BUILTINS); the table's rows say the same per release (their hip_requires), and a test holds
# the two equal.
VERSIONS_NEEDING: dict[str, tuple[tuple[int, int], tuple[int, int] | None]] = {WARP_SYNC_DEFINE: ((6, 2), (7, 0))}
# The first ROCm whose *_sync warp functions take (and static_assert) a 64-bit lane mask.
WIDE_LANE_MASKS_SINCE = (6, 2)


def macro_needed(macro: str, rocm_version: tuple[int, int]) -> bool:
    """Does the target ROCm need ``macro`` defined (some are only needed by some releases)?"""
    first, until = VERSIONS_NEEDING.get(macro, ((0, 0), None))
    return tuple(rocm_version) >= first and (until is None or tuple(rocm_version) < until)


def _oldest_since(table: MappingTable) -> tuple[int, ...]:
    versions = [_version(r.hip_since) for r in table if r.hip_since]
    return min(versions) if versions else ()


def _plain(row: Row, oldest: tuple[int, ...]) -> bool:
    """Same name in HIP, always there, no extras (whatever the name looks like)."""
    return (
        row.hip == row.cuda
        and row.hip_status == "supported"
        and row.transform is None
        and not row.hip_requires
        and row.roc in ("", row.cuda)
        and (not row.hip_since or _version(row.hip_since) <= oldest)
        and not row.by_rocm
    )


@lru_cache(maxsize=256)
def _version(text: str) -> tuple[int, ...]:
    return parse_version(text)


def _header_guards(table: MappingTable) -> dict[str, str]:
    guards: dict[str, str] = {}
    for row in table:
        if row.source == "include-guard" and row.kind == "macro" and row.hip and row.hip_status == "supported":
            guards.setdefault(row.cuda_header, row.hip)
    return guards


def _roc_headers(table: MappingTable) -> tuple[dict[str, str], dict[str, str]]:
    """(header rows with a ROC-side target -> the family whose names it declares, family -> the folder of that
    header): cublas_v2.h -> blas, blas -> rocblas. Families are those with ROC-side names; a header row of the
    generic "headers" family takes the family most rows declared in its target's folder belong to."""
    families_with_roc = {row.api for row in table if row.kind != "header" and row.roc}
    votes: dict[str, dict[str, int]] = {}
    for row in table:
        if row.kind != "header" and row.roc and "/" in row.roc_header:
            tally = votes.setdefault(row.roc_header.split("/", 1)[0], {})
            tally[row.api] = tally.get(row.api, 0) + 1
    families: dict[str, str] = {}
    libraries: dict[str, str] = {}
    for row in table:
        if row.kind != "header" or not row.roc:
            continue
        folder = row.roc.split("/", 1)[0]
        family = row.api if row.api in families_with_roc else ""
        if not family and folder in votes:
            family = max(sorted(votes[folder]), key=votes[folder].__getitem__)
        if family:
            families[row.cuda] = family
            libraries.setdefault(family, folder)
    return families, libraries


_SIGNATURE_FINDINGS = ("differs", "older", "newer")
_PARAMETER_LIST = re.compile(r"\(([^()]*)\)")


def hip_definitions(row: Row) -> frozenset[tuple[str, ...]]:
    """The parameter lists of ``row.hip_definitions`` (``(float*, float) (double*, double)``)."""
    return frozenset(tuple(p.split(", ")) if p else () for p in _PARAMETER_LIST.findall(row.hip_definitions))


def _build(table: MappingTable) -> TableIndex:
    names: set[str] = set()
    namespaces: dict[str, tuple[str, str]] = {}
    transformed: set[str] = set()
    markers: set[str] = set(DEVICE_MARKERS)
    requires: dict[str, tuple[str, ...]] = {}
    roc_requires: dict[str, tuple[str, ...]] = {}
    signature_findings: set[str] = set()
    masks: set[str] = set()
    oldest = _oldest_since(table)
    for row in table:
        if row.transform is not None:
            transformed.add(row.cuda.rsplit("::", 1)[-1])
        if row.cuda in CPP_KEYWORDS:
            continue
        plain = _plain(row, oldest)
        if not plain or row.cuda.startswith("__"):
            names.add(row.cuda)
            if plain:
                markers.add(row.cuda)  # trivial but for the '__' prefix: only marks device code
        if "::" in row.cuda and row.kind == "namespace":
            # a nested namespace (thrust::cuda): the rule reads the whole path, so each part is wanted
            names.update(row.cuda.split("::"))
        elif "::" in row.cuda:
            prefix = row.cuda.split("::", 1)[0]
            names.add(prefix)
            names.add(row.cuda.rsplit("::", 1)[-1])
            hip_ns = row.hip.split("::", 1)[0] if "::" in row.hip else ""
            roc_ns = row.roc.split("::", 1)[0] if "::" in row.roc else ""
            if hip_ns and prefix not in namespaces:
                namespaces[prefix] = (hip_ns, roc_ns or hip_ns)
        if row.kind == "namespace" and row.hip:
            namespaces[row.cuda] = (row.hip, row.roc or row.hip)
        macros = required_macros(row)
        if macros:
            requires[row.cuda] = macros
            names.add(row.cuda)
        roc_macros = required_macros(row, roc=True)
        if roc_macros:
            roc_requires[row.cuda] = roc_macros
            names.add(row.cuda)
        if row.hip_signature in _SIGNATURE_FINDINGS or row.roc_signature in _SIGNATURE_FINDINGS:
            signature_findings.add(row.cuda)
            names.add(row.cuda)
        # a warp function some release declares only with the define takes a 64-bit mask in every release since
        needs_define = (macros, *(required_macros(view) for _, view in row.by_rocm))
        if row.kind == "device_function" and (
            any(WARP_SYNC_DEFINE in m for m in needs_define) or row.cuda in _MASK_ONLY
        ):
            masks.add(row.cuda)
    # Names the compatibility header provides must reach the planner too (not all are table rows).
    names.update(n for n in load_catalog().by_provided_name if "::" not in n)
    # and the last part of those in a namespace (``cg::labeled_partition``, ``group.ballot(...)``): the rule
    # matches them against the namespace's spellings in the file.
    names.update(n.rsplit("::", 1)[1] for n in load_catalog().by_provided_name if "::" in n)
    # and the functions whose device calls need an entry's overloads (atomicAdd on __half2), renamed or not
    names.update(load_catalog().by_device_use)
    names.update(n for e in load_catalog().entries for n in e.device_uses_with)
    markers -= masks | set(requires) | set(roc_requires) | signature_findings
    families, libraries = _roc_headers(table)
    defined_by_hip = {r.cuda: hip_definitions(r) for r in table if r.hip_definitions and r.cuda not in CPP_KEYWORDS}
    releases = tuple(sorted({_version(v) for r in table for v in (r.hip_since, r.roc_since) if v}))
    first_target = _version(table.target_releases[0]) if table.target_releases else ()
    version_dependent = frozenset(
        r.cuda for r in table if r.by_rocm or any(v and _version(v) > first_target for v in (r.hip_since, r.roc_since))
    )
    names.update(version_dependent)
    return TableIndex(
        names=frozenset(names),
        namespaces=namespaces,
        transformed=frozenset(transformed),
        markers=frozenset(markers),
        requires=requires,
        roc_requires=roc_requires,
        mask_functions=frozenset(masks),
        releases=releases,
        namespaced_names=frozenset(r.cuda.rsplit("::", 1)[1] for r in table if "::" in r.cuda),
        nested_qualifiers=frozenset(
            r.cuda.split("::")[-2] for r in table if r.cuda.count("::") >= 2 and r.kind != "namespace"
        ),
        header_guards=_header_guards(table),
        header_families=families,
        roc_libraries=libraries,
        signature_findings=frozenset(signature_findings),
        defined_by_hip=defined_by_hip,
        wanted=NameFilter(frozenset(names | DEVICE_MARKERS)),
        removed=frozenset(r.cuda for r in table if r.transform is not None and r.transform.kind == "remove"),
        runtime_features=frozenset(
            r.cuda
            for r in table
            if r.api in RUNTIME_APIS
            and r.kind not in ("header", "field")
            and (r.hip != r.cuda or r.cuda.startswith("__"))
        ),
        version_dependent=version_dependent,
        undefined_macros=frozenset(
            r.cuda
            for r in table
            if r.kind == "macro"
            and (
                (r.transform is not None and r.transform.kind == "defined_only")
                or (not r.hip and not r.roc and r.hip_status == "unsupported" and r.transform is None)
            )
        ),
        never_defined=frozenset(
            r.cuda
            for r in table
            if r.kind == "macro" and not r.hip and not r.roc and r.hip_status == "unsupported" and r.transform is None
        ),
    )
