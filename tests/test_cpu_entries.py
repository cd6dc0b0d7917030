"""The compatibility header's CPU branch, compiled and run: a CUDA program using what HIP-CPU lacks (device
attributes, system-wide atomics, complex numbers, conversions with a rounding mode, error codes, cache
preferences, stream extras, the driver API's basics), translated and run through HIP-CPU, checking its own
results (skipped, with the reason, without HIP-CPU or TBB)."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from test_cpu_run import hip_cpu

from hipify.compat.cpu import cpu_entries_used, load_cpu_entries
from hipify.validate.corpus import load_program
from hipify.validate.cpu_limits import Limits
from hipify.validate.cpu_run import PASS, names_in, run_all_cpu

PROGRAMS = Path(__file__).parent / "cpu_programs"


def test_each_new_entry_is_chosen_by_the_names_it_provides() -> None:
    by_name = {e.name: e for e in load_cpu_entries()}
    for name in (
        "cpu_device_attribute",
        "cpu_atomic_system",
        "cpu_complex",
        "cpu_conversions",
        "cpu_error_codes",
        "cpu_cache_config",
        "cpu_stream_extras",
        "cpu_driver_basics",
        "cpu_stream_wait_event",
        "cpu_device_properties",
        "cpu_atomic_floating",
        "cpu_primary_context",
        "cpu_host_malloc_flags",
    ):
        entry = by_name[name]
        assert {e.name for e in cpu_entries_used(set(entry.provides))} >= {name}
    assert cpu_entries_used(names_in(["int v; // hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, 0)"])) == ()


def test_half_is_hips_type_only_where_the_half_precision_header_is_in_use() -> None:
    """`half` names HIP's type beside hip_fp16.h (or its __half); a project's own `half` stays its own."""
    assert [e.name for e in cpu_entries_used(names_in(["#include <hip/hip_fp16.h>\nhalf x;"]))] == ["cpu_half_names"]
    assert [e.name for e in cpu_entries_used(names_in(["__half a; half2 b;"]))] == ["cpu_half_names"]
    assert cpu_entries_used(names_in(["struct half { short bits; };\nhalf x;"])) == ()


def test_what_hip_cpu_lacks_runs_translated(tmp_path: Path) -> None:
    hc = hip_cpu()
    results = run_all_cpu(
        [load_program(PROGRAMS / "cpu_entries")],
        ["regex"],
        hc,
        Console(file=io.StringIO()),
        Console(stderr=True),
        Limits.of_cpu(600),
    )
    [result] = results
    assert result.result == PASS, result.reason + result.translated_output
    assert result.translated_output.startswith("cpu_entries: PASS")
