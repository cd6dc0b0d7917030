"""Build the table's rows from the header cache: CUDA names, matched to verified HIP/ROC targets."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from ..knowledge.table import Row
from .aliases import same_value_aliases
from .compiler_macros import DEFAULT_MACROS, compiler_rows, hipcc_predefined, load_macros
from .definitions import with_hip_definitions
from .errors import GenerationError
from .family import api_rows
from .fetch import log
from .headermap import header_rows
from .libcudacxx import libcudacxx_header_rows, libcudacxx_name_rows, libcudacxx_namespace_rows
from .matcher import Matcher
from .members import with_missing_members
from .overrides import apply_overrides, load_overrides
from .releases import merge_releases
from .removed_mirrors import mirrored_rows
from .sides import HipSide, cuda_index, hip_side, nvidia_pairs, releases_through
from .signature import verify_signatures
from .signatures import parameter_type_votes
from .sources import API_ORDER, SPECS, TARGET_RELEASES, ApiSpec
from .spellings import cuda_facts, hip_alias_root, other_spellings
from .thrust_namespaces import thrust_function_rows, thrust_header_rows, thrust_namespace_rows
from .type_votes import pair_types_by_signature

__all__ = ["Generated", "GenerationError", "generate"]


@dataclass(frozen=True)
class Generated:
    rows: dict[str, list[Row]]  # api -> rows sorted by name
    collisions: list[tuple[str, str, str]]  # (name, kept api, dropped api)
    provenance: dict[str, str]


def _library_version(provenance: dict[str, str], spec: ApiSpec) -> str:
    """cuDNN versions itself apart from CUDA (9.x): its facts are stated in cuDNN versions."""
    if spec.api != "dnn":
        return ""
    wheel = provenance.get("cuda/cu13/cudnn", "")
    m = re.match(r"nvidia_cudnn_cu\d+-(\d+\.\d+)", wheel)
    return f"cuDNN {m.group(1)}" if m else ""


def generate(
    cache: Path,
    overrides_path: Path,
    apis: tuple[str, ...] = API_ORDER,
    macros_path: Path | None = DEFAULT_MACROS,
    signatures: bool = True,
    targets: tuple[str, ...] = TARGET_RELEASES,
) -> Generated:
    """``macros_path``: the compilers' predefined macros (None: leave the compiler family out). ``signatures``:
    verify function rows against the HIP declarations with libclang (signature/), which needs the full header
    set; tests on small fixture header sets skip it. ``targets``: the ROCm releases to generate for, oldest first
    (each must be in the cache); the rows are the newest's, with the older ones' views where they differ."""
    manifest_path = cache / "manifest.json"
    provenance = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {}
    read = releases_through(targets[-1])
    provenance = {
        k: v for k, v in provenance.items() if not k.startswith("hip/") or k.split("/")[1] in (*read, "clang")
    }
    tables: dict[str, dict[str, Row]] = {}
    collisions: list[tuple[str, str, str]] = []
    for release in targets:
        log(f"generating for ROCm {release}")
        tables[release], collisions = _generate_for(
            cache, overrides_path, hip_side(cache, releases_through(release)), apis, macros_path, signatures, provenance
        )
    claimed = merge_releases(tables)
    by_api: dict[str, list[Row]] = defaultdict(list)
    for name in sorted(claimed):
        by_api[claimed[name].api].append(claimed[name])
    return Generated(dict(by_api), sorted(collisions), provenance)


def _generate_for(
    cache: Path,
    overrides_path: Path,
    hip: HipSide,
    apis: tuple[str, ...],
    macros_path: Path | None,
    signatures: bool,
    provenance: dict[str, str],
) -> tuple[dict[str, Row], list[tuple[str, str, str]]]:
    """The rows as the headers of ``hip``'s release decide them, and the names two families declare."""
    matcher = Matcher(hip, nvidia_pairs(cache, hip.releases))
    specs = [spec for spec in SPECS if spec.api in apis]
    # parameter-position type pairs from every family first: CUuuid (driver_types.h, a runtime row) is learnt
    # from cuDeviceGetUuid (cuda.h, the driver family)
    for spec in specs:
        votes = parameter_type_votes(matcher.pairs, cuda_index(cache, "cu13", spec.cuda, spec), hip.current)
        for cuda, hips in votes.items():
            matcher.signatures.setdefault(cuda, set()).update(hips)
    claimed: dict[str, Row] = {}
    collisions: list[tuple[str, str, str]] = []
    for spec in specs:
        for row in api_rows(cache, spec, matcher, _library_version(provenance, spec)):
            if row.cuda in claimed:
                collisions.append((row.cuda, claimed[row.cuda].api, row.api))
                continue
            claimed[row.cuda] = row
    for spec in specs:
        folders = Counter(r.hip_header.split("/", 1)[0] for r in claimed.values() if r.api == spec.api)
        folder = next((f for f, _ in folders.most_common() if f and "." not in f), "")
        for row in mirrored_rows(spec, folder, matcher, claimed) if folder else ():
            claimed[row.cuda] = row
    for row in header_rows(cache, matcher, claimed):
        if row.cuda in claimed and row.kind == "header":
            raise GenerationError(f"header row {row.cuda} collides with an identifier row")
        claimed[row.cuda] = row  # include-guard rows refine the plain macro rows
    if "device" in apis:
        for row in [*libcudacxx_header_rows(cache), *libcudacxx_namespace_rows(cache), *libcudacxx_name_rows(cache)]:
            claimed.setdefault(row.cuda, row)
    if "cub" in apis:
        for row in [*thrust_namespace_rows(cache), *thrust_function_rows(cache), *thrust_header_rows(cache)]:
            claimed.setdefault(row.cuda, row)
    if macros_path is not None:
        predefined = hipcc_predefined()
        if predefined is None:
            log(f"compiler macros: no ROCm hipcc found; HIP targets of {macros_path.name} not checked")
        for row in compiler_rows(load_macros(macros_path), predefined):
            claimed[row.cuda] = row  # a compiler's own macro, whatever a header mentions
    claimed = pair_types_by_signature(claimed, cache, matcher)
    apply_overrides(claimed, load_overrides(overrides_path), matcher)
    claimed = same_value_aliases(claimed, cache, specs)
    claimed = other_spellings(claimed, cuda_facts(cache, specs), hip_alias_root(hip.current))
    claimed = with_hip_definitions(claimed, hip.current)
    claimed = with_missing_members(claimed, cache, hip.release)
    if signatures:
        claimed = verify_signatures(claimed, cache, hip, matcher)
    return claimed, collisions
