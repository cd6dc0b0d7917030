"""The half-precision intrinsics derived from HIP's own operations (hipify/tablegen/intrinsics.py), on overloads of
our own; and the shipped derived.toml against the generator where the vendor headers are cached."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify.compat import load_catalog
from hipify.tablegen.fetch import DEFAULT_CACHE
from hipify.tablegen.intrinsics import Overload, derive, entries_text, write_derived

H2, H, B2, B = "__half2", "__half", "__nv_bfloat162", "__nv_bfloat16"
HIP_HAS = {
    ("__hmax", (H, H)), ("__hmax", (B, B)), ("__hequ", (H, H)), ("__hadd", (B, B)), ("__hisnan", (B,)),
    ("__hmin", (B, B)), ("__hmax", (B, B)), ("__float2bfloat16", ("float",)), ("__hlt", (B, B)), ("__hfma", (B, B, B)),
    ("__low2half", (H2,)), ("__high2half", (H2,)), ("__halves2half2", (H, H)),
    ("__low2bfloat16", (B2,)), ("__high2bfloat16", (B2,)), ("__halves2bfloat162", (B, B)),
    ("__float2bfloat16_rn", ("float",)),
}  # fmt: skip
OVERLOADS = {
    "__hmax2": [Overload("__hmax2", (H2, H2), H2)],
    "__hmax": [Overload("__hmax", (H, H), H), Overload("__hmax", (B, B), B)],
    "__hequ": [Overload("__hequ", (H, H), "bool")],
    "__hequ2": [Overload("__hequ2", (H2, H2), H2)],
    "__hmax_nan": [Overload("__hmax_nan", (B, B), B)],
    "__hmax2_nan": [Overload("__hmax2_nan", (B2, B2), B2)],
    "__hadd": [Overload("__hadd", (B, B), B)],
    "__hadd_sat": [Overload("__hadd_sat", (B, B), B)],
    "__hfma": [Overload("__hfma", (B, B, B), B)],
    "__hfma_relu": [Overload("__hfma_relu", (B, B, B), B)],
    "__float2bfloat16_rn": [Overload("__float2bfloat16_rn", ("float",), B)],
    "__floats2bfloat162_rn": [Overload("__floats2bfloat162_rn", ("float", "float"), B2)],
    "__hsqrt2": [Overload("__hsqrt2", (H2,), H2)],
}


def _have(name: str, params: tuple[str, ...]) -> bool:
    return (name, params) in HIP_HAS


def test_each_rule_writes_what_cuda_documents_and_nothing_it_cannot() -> None:
    derived = {d.overload.name: d for d in derive(OVERLOADS, _have)}
    assert "__hmax(__low2half(a), __low2half(b))" in derived["__hmax2"].code
    assert "__halves2half2(" in derived["__hmax2"].code
    assert "__hisnan(a) ? a : (__hisnan(b) ? b : __hmax(a, b))" in derived["__hmax_nan"].code
    # built on another derived one: the bf16 pair form on the bf16 _nan scalar
    assert "__hmax_nan(__low2bfloat16(a), __low2bfloat16(b))" in derived["__hmax2_nan"].code
    assert "__hmin(__hmax(r, __float2bfloat16(0.0f)), __float2bfloat16(1.0f))" in derived["__hadd_sat"].code
    assert "__hlt(r, __float2bfloat16(0.0f))" in derived["__hfma_relu"].code
    assert "__halves2bfloat162(__float2bfloat16_rn(a), __float2bfloat16_rn(b))" in derived["__floats2bfloat162_rn"].code
    assert "__hequ2" not in derived  # __hequ answers a bool: a lane of __hequ2 is 1.0 or 0.0, not its result
    assert "__hsqrt2" not in derived  # no scalar __hsqrt in HIP: nothing to build it from


def test_entries_name_the_releases_and_guard_what_only_some_lack() -> None:
    old = derive(OVERLOADS, _have)
    new = derive(OVERLOADS, lambda n, p: _have(n, p) or n == "__hmax2")  # a newer release has __hmax2
    text = entries_text(
        {"6.4": old, "7.2": new}, lambda n: {B: "__hip_bfloat16", B2: "__hip_bfloat162"}.get(n, n), "test"
    )
    entry = text[text.index('name = "derived__hmax2"') :]
    entry = entry[: entry.index("[[entry]]")] if "[[entry]]" in entry else entry
    assert 'rocm_until = "6.4"' in entry and "HIP_VERSION" not in entry  # every release lacking it lacks it all
    assert "__hip_bfloat16" in text and "__nv_bfloat16" not in text  # HIP's spelling of the types


@pytest.mark.skipif(
    not (DEFAULT_CACHE / "cuda" / "cu13").is_dir(),
    reason="vendor headers not fetched (python -m hipify.tablegen fetch)",
)
def test_shipped_derived_entries_are_what_the_generator_writes(tmp_path: Path) -> None:
    shipped = Path(__file__).parents[1] / "hipify" / "compat" / "derived.toml"
    write_derived(DEFAULT_CACHE, tmp_path / "derived.toml")
    assert (tmp_path / "derived.toml").read_text() == shipped.read_text(), (
        "regenerate: python -m hipify.tablegen intrinsics"
    )


def test_the_catalog_holds_the_derived_entries() -> None:
    catalog = load_catalog()
    assert catalog.for_name("__hmax2", (6, 4)) is not None
    assert catalog.by_entry_name["derived__hmax2"].checked_by == "half_intrinsics"
