"""Every hip/roc target the shipped table claims supported is declared in the HIP header it names, in each ROCm
release the table was generated for (the table as that release reads it, against that release's headers).

Needs the fetched header cache (`python -m hipify.tablegen fetch`); skipped without it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hipify.knowledge.table import MappingTable, load_table
from hipify.rewrite.versions import version_of
from hipify.tablegen.fetch import DEFAULT_CACHE
from hipify.tablegen.libcudacxx import DEVICE_STANDARD
from hipify.tablegen.sides import HipSide
from hipify.tablegen.sources import TARGET_RELEASES
from hipify.tablegen.thrust_namespaces import declared_functions, declared_namespaces

CACHE = Path(os.environ.get("HIPIFY_HEADER_CACHE", str(DEFAULT_CACHE))).expanduser()
MAPPED = ("supported", "deprecated", "experimental")


_STANDARD_TYPES = frozenset(
    ("int", "unsigned int", "unsigned", "long", "long long", "unsigned long long", "float", "double", "size_t")
    + tuple(f"{u}int{n}_t" for u in ("", "u") for n in (8, 16, 32, 64))
)


@pytest.fixture(scope="module", params=TARGET_RELEASES)
def hip(request: pytest.FixtureRequest) -> HipSide:
    from hipify.tablegen.sides import hip_side

    release: str = request.param
    if not (CACHE / "hip" / release).is_dir():
        pytest.skip(f"ROCm {release}'s HIP headers not fetched into {CACHE} (run: python -m hipify.tablegen fetch)")
    return hip_side(CACHE, (release,))


def _table(hip: HipSide) -> MappingTable:
    """The shipped table as ``hip``'s release reads it."""
    return load_table().at_rocm(version_of(hip.release))


def _here(hip: HipSide, status: str, since: str) -> bool:
    """Is a target of this status and first release mapped in ``hip``'s release? (One that appeared after it is
    not: translations for the release report it, HPY106.)"""
    return status in MAPPED and not (since and version_of(since) > version_of(hip.release))


def _rocthrust(hip: HipSide) -> Path:
    return CACHE / "hip" / hip.release / "librocthrust-dev"


def test_identifier_targets_are_declared_where_named(hip) -> None:
    index = hip.current
    missing = []
    for row in _table(hip):
        if row.kind == "header" or row.source == "compiler":  # predefined by hipcc: see below
            continue
        if row.source == "standard-type":  # a C type (int, uint64_t): the language's, not a HIP header's
            assert row.hip in _STANDARD_TYPES and row.roc == row.hip, row
            continue
        if row.source == "libcudacxx":  # cuda::std -> std: the standard library's, not a HIP header's
            assert row.hip in ("", "std"), row
            continue
        if row.source == "thrust-backend":  # rocThrust's namespaces and functions, declared in the header it names
            declared = declared_namespaces if row.kind == "namespace" else declared_functions
            assert row.hip in declared((_rocthrust(hip) / row.hip_header).read_text()), row
            continue
        for name, status, header, since in (
            (row.hip, row.hip_status, row.hip_header, row.hip_since),
            (row.roc, row.roc_status, row.roc_header, row.roc_since),
        ):
            if not name or not _here(hip, status, since):
                continue
            if row.kind == "namespace":
                ok = any(n.startswith(name + "::") for n in index.names)
            else:
                ok = any(hit.header == header for hit in index.names.get(name, ()))
            if not ok:
                missing.append(f"{row.cuda} -> {name} ({header})")
    assert not missing, f"{len(missing)} targets not declared where named: {missing[:20]}"


def test_header_targets_exist(hip) -> None:
    files = hip.current_files
    for row in _table(hip):
        if row.kind == "header":
            for target, status, since in (
                (row.hip, row.hip_status, row.hip_since),
                (row.roc, row.roc_status, row.roc_since),
            ):
                if not target or not _here(hip, status, since):
                    continue
                if row.source == "libcudacxx":  # <cuda/std/limits> -> the standard <limits>
                    assert target in DEVICE_STANDARD, row
                elif row.source == "thrust-backend":  # rocThrust's headers (not among the HIP index's files)
                    assert (_rocthrust(hip) / target).is_file(), row
                else:
                    assert target in files, row


def test_no_target_needs_a_macro_that_only_preincluded_headers_test(hip) -> None:
    """hipcc reads clang's __clang_hip_*.h before the file's first line: a macro only they test cannot be defined
    by the translated file in time (OCML_BASIC_ROUNDED_OPERATIONS), so no mapped target may depend on one; rows the
    generator moved off such a guard name the function the guarded wrapper forwards to."""
    from hipify.tablegen.requires import required_macro
    from hipify.tablegen.target import Target

    index = hip.current
    assert "__clang_hip_math.h" in hip.preincluded
    bad = []
    for row in _table(hip):
        if row.kind == "header" or not row.hip or not _here(hip, row.hip_status, row.hip_since):
            continue
        hits = index.names.get(row.hip, ())
        if hits and all(h.header in hip.preincluded for h in hits) and required_macro(hip, Target(row.hip)):
            bad.append(row.cuda)
        if row.source == "preincluded-guard":
            wrappers = index.names.get(row.cuda, ())
            assert wrappers and {h.decl.forwards for h in wrappers} == {row.hip}, row
    assert not bad, bad


@pytest.mark.hipcc
def test_compiler_macro_targets_are_predefined_by_hipcc() -> None:
    from hipify.tablegen.compiler_macros import hipcc_predefined, load_macros

    predefined = hipcc_predefined()
    if predefined is None:
        pytest.skip("no ROCm hipcc (run .ci/install_hip.sh)")
    by_hipcc = {m.cuda for m in load_macros() if m.defined_by == "hipcc"}
    rows = [r for r in load_table() if r.source == "compiler" and r.hip and r.cuda in by_hipcc]
    assert rows
    assert [r.hip for r in rows if r.hip not in predefined] == []
