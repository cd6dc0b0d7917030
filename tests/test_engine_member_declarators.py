"""Driver-table members named like CUDA driver functions, declared behind a pointer or reference declarator, are
the project's names in both engines (the golden case runtime/function_pointer_members is regex-only)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify import Options, translate
from hipify.knowledge.table import table_for

CASE = Path(__file__).parent / "cases" / "runtime" / "function_pointer_members.cu"


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_members_named_like_driver_functions_stay(engine: str) -> None:
    if engine == "clang":
        from hipify.translation.engines import clang_status

        usable, reason = clang_status()
        if not usable:
            pytest.skip(reason)
    options = Options(engine=engine, use_cache=False)
    text = translate(CASE.read_text(), path="t.cu", options=options, table=table_for(options)).text
    assert "MemCreateFn *cuMemCreate{nullptr};" in text
    assert "MemReleaseFn *const *cuMemRelease = nullptr;" in text
    assert "DriverTable::MemCreateFn *&cuMemMap) { cuMemMap = table.cuMemCreate; }" in text
    assert "(flags & hipHostMallocMapped)" in text  # a flag after '&' is still CUDA's
    assert "return hipFree(ptr);" in text
