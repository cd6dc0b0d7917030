"""CUDA APIs removed before the oldest CUDA scanned (11.8), as the HIP libraries that still mirror them record it.

hipSPARSE marks each function that mirrors a cuSPARSE routine CUDA later removed with the CUDA version that
deprecated it: ``DEPRECATED_CUDA_10000("The routine will be removed in CUDA 11")`` before ``hipsparseScsr2csc``
(cuSPARSE's ``cusparseScsr2csc``, gone in CUDA 11, still common in code written for CUDA 10). No scanned CUDA
header declares those names, so they are rows from that mark: the CUDA name is the HIP name with the library's
``hip`` prefix as ``cu``, ``cuda_removed`` the version after the mark's; the hipSPARSE-named types and their
enumerators those functions take (``hipsparseHybMat_t``, ``HIPSPARSE_HYB_PARTITION_AUTO``) come with them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from ..knowledge.table import Row
from . import rules
from .matcher import Matcher, Query
from .sides import HipSide
from .sources import ApiSpec

# DEPRECATED_CUDA_10000("...") [EXPORT] <result> name(params)
_MARKED = re.compile(
    r"\bDEPRECATED_CUDA_(\d+)\s*\((?:[^()]|\"[^\"]*\")*\)\s*(?:[A-Z_]+_EXPORT\s+)?[\w\s\*]+?\b(hip[a-z]+\w*)\s*\(([^)]*)\)"
)
_NAME = re.compile(r"\b(?:hip|HIP)[A-Za-z]+\w*")
# The oldest CUDA version whose headers are scanned: a mark for a version before it names an API they lack.
_OLDEST_SCANNED = 11


def _cuda_name(hip_name: str) -> str:
    """hipsparseScsr2csc -> cusparseScsr2csc; HIPSPARSE_HYB_PARTITION_AUTO -> CUSPARSE_HYB_PARTITION_AUTO."""
    return ("CU" + hip_name[3:]) if hip_name.startswith("HIP") else ("cu" + hip_name[3:])


def _marked(hip: HipSide, folder: str) -> list[tuple[str, str, str]]:
    """(hip function, CUDA version it is removed in, its parameter text) for the library's marked functions."""
    out = []
    for rel, path in sorted(hip.current_files.items()):
        if not rel.startswith(folder + "/"):
            continue
        for m in _MARKED.finditer(path.read_text(encoding="utf-8", errors="replace")):
            removed = int(m.group(1)) // 1000 + 1
            if removed <= _OLDEST_SCANNED:
                out.append((m.group(2), f"{removed}.0", m.group(3)))
    return out


def mirrored_rows(spec: ApiSpec, folder: str, matcher: Matcher, known: Iterable[str]) -> list[Row]:
    """Rows for the CUDA names the marks in a HIP library's headers (``folder``: hipsparse) record."""
    taken = set(known)
    cuda_header = Path(spec.cuda[0]).name  # the family's main header (cusparse.h), which such code included
    current = matcher.hip.current
    rows: dict[str, Row] = {}
    for hip_name, removed, params in _marked(matcher.hip, folder):
        cuda = _cuda_name(hip_name)
        if cuda in taken:
            continue
        note = f"{hip_name} is marked as mirroring a {spec.api} API that CUDA {removed} removed"
        rows[cuda] = _row(spec, cuda, hip_name, "function", removed, cuda_header, matcher, note)
        for word in sorted(set(_NAME.findall(params))):
            hit = current.best(word)
            cuda_type = _cuda_name(word)
            if hit is None or hit.decl.kind not in ("type", "enum") or cuda_type in taken or cuda_type in rows:
                continue
            note = f"{word} is what {hip_name} takes, whose CUDA API CUDA {removed} removed"
            rows[cuda_type] = _row(spec, cuda_type, word, "type", removed, cuda_header, matcher, note)
            for constant, hits in sorted(current.names.items()):
                if any(h.decl.kind == "enum_constant" and h.decl.parent == word for h in hits):
                    cuda_constant = _cuda_name(constant)
                    if cuda_constant not in taken:
                        rows[cuda_constant] = _row(
                            spec,
                            cuda_constant,
                            constant,
                            "enum_constant",
                            removed,
                            cuda_header,
                            matcher,
                            note,
                            cuda_type,
                        )
    return [rows[name] for name in sorted(rows)]


def _row(
    spec: ApiSpec,
    cuda: str,
    hip_name: str,
    kind: str,
    removed: str,
    cuda_header: str,
    matcher: Matcher,
    note: str,
    parent: str = "",
) -> Row:
    hip_t = matcher.target(hip_name, "hip-cuda-mark")
    roc_t = matcher.resolve(Query(cuda, tuple(rules.roc_candidates(spec.api, cuda, kind)), use_pairs=False))
    return Row(
        cuda=cuda,
        hip=hip_t.name,
        roc=roc_t.name,
        kind=kind,
        api=spec.api,
        hip_status=hip_t.status,
        roc_status=roc_t.status,
        cuda_header=cuda_header,
        hip_header=hip_t.header,
        roc_header=roc_t.header,
        parent=parent,
        cuda_removed=removed,
        hip_since=hip_t.since,
        roc_since=roc_t.since,
        source="hip-cuda-mark",
        note=note,
    )
