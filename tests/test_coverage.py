"""docs/coverage.md: the committed page is what ``python -m hipify.tablegen coverage`` writes from the shipped table
and compatibility catalog, and its statuses follow the catalog (what the header implements counts as covered)."""

from __future__ import annotations

from pathlib import Path

from hipify.compat import load_catalog
from hipify.knowledge.table import load_table
from hipify.tablegen.coverage import DEFAULT_PAGE, coverage, functions, render


def test_the_committed_page_is_what_the_generator_writes() -> None:
    page = Path(DEFAULT_PAGE)
    assert page.is_file(), "run: python -m hipify.tablegen coverage"
    assert page.read_text(encoding="utf-8") == render(load_table(), load_catalog()), (
        "docs/coverage.md is stale: run python -m hipify.tablegen coverage"
    )


def test_statuses_follow_the_table_and_the_catalog() -> None:
    table, catalog = load_table(), load_catalog()
    found = {f.cuda: f for f in functions(table, catalog)}
    newest = len(table.target_releases) - 1
    # every SIMD-in-a-word function is implemented; the hints are no-ops; HIP's own stay HIP's
    simd = [f for name, f in found.items() if name.startswith("__v") and name[-1] in "24" and "_" not in name[3:]]
    assert len(simd) == 82 and {f.by_release[newest].kind for f in simd} == {"compat"}
    assert found["cudaGridDependencySynchronize"].by_release[newest].kind == "no-op"
    assert found["__syncthreads"].by_release[newest].kind == "HIP"
    assert found["atomicAdd"].by_release[newest].detail.endswith("(+ half_atomic_add overloads)")
    left = [f for f in found.values() if f.by_release[newest].kind == "left out"]
    assert all(f.by_release[newest].detail for f in left), "every left-out function says why"
    share = coverage(list(found.values()), newest)
    assert share == 100.0 * (len(found) - len(left)) / len(found)
