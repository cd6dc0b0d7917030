"""Every function row whose target the table says takes the translated call (hip_signature same, sibling or define):
a call with arguments of the mapped CUDA parameter types compiles against the ROCm 6.4 headers. One hipcc run per
family (and per definition a row needs), with the chroot's ROCm 6.4 hipcc."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections import defaultdict
from pathlib import Path

import pytest

from hipify.knowledge.table import load_table
from hipify.tablegen.fetch import DEFAULT_CACHE
from hipify.validate.toolchain import detect

FAMILIES = ("runtime", "driver", "blas", "blaslt", "fft", "rand", "sparse", "solver")
_ERROR = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):\d+: error: (?P<msg>.*)$", re.MULTILINE)


def _why_not() -> str:
    from hipify.clang_mode.environment import clang_available

    usable, reason = clang_available()
    if not usable:
        return reason
    if not (DEFAULT_CACHE / "cuda" / "cu13").is_dir():
        return f"CUDA headers not fetched into {DEFAULT_CACHE} (run: python -m hipify.tablegen fetch)"
    return ""


pytestmark = [pytest.mark.hipcc, pytest.mark.skipif(bool(_why_not()), reason=_why_not() or "-")]


@pytest.fixture(scope="module")
def toolchain():
    found = [t for t in detect(which="all") if t.rocm_version >= (6, 4)]
    if not found:
        pytest.skip("no ROCm >= 6.4 hipcc (run .ci/install_hip.sh for the ROCm 6.4 chroot)")
    return found[0]


@pytest.fixture(scope="module")
def by_family():
    from hipify.tablegen.signature.calls import calls

    grouped = defaultdict(list)
    for call in calls(load_table(), DEFAULT_CACHE):
        grouped[call.row.api].append(call)
    return grouped


def _includes(calls, roots: tuple[str, ...]) -> list[str]:
    """hip_runtime.h first, then each target's header after its library's main header."""
    headers = ["hip/hip_runtime.h", "hip/hip_complex.h", "hip/library_types.h"]
    for call in calls:
        header = call.row.hip_header
        folder = header.split("/", 1)[0]
        main = f"{folder}/{folder}.h"
        if any((Path(r) / main).is_file() for r in roots):
            headers.append(main)
        headers.append(header)
    return list(dict.fromkeys(h for h in headers if not h.startswith("__clang_hip")))


def _source(calls, roots: tuple[str, ...], define: str) -> tuple[str, int]:
    lines = [f"#define {define}"] if define else []
    lines += [f"#include <{h}>" for h in _includes(calls, roots)] + ["#include <utility>"]
    first = len(lines) + 1
    for k, call in enumerate(calls):
        args = ", ".join(f"std::declval<{p}>()" for p in call.params)
        lines.append(
            f"__host__ __device__ inline void hipify_call_{k}() {{ using R = decltype({call.target}({args})); }}"
        )
    return "\n".join(lines) + "\n", first


@pytest.mark.parametrize("api", FAMILIES)
def test_mapped_calls_compile(api: str, by_family, toolchain) -> None:
    calls = by_family.get(api, [])
    assert calls, f"no {api} function row to compile"
    failures = []
    groups: dict[str, list] = defaultdict(list)
    for call in calls:
        groups[call.requires].append(call)
    with tempfile.TemporaryDirectory(dir=toolchain.work_root()) as work:
        for define, group in sorted(groups.items()):
            text, first = _source(group, toolchain.include_roots, define)
            path = Path(work) / f"calls_{api}_{define or 'plain'}.hip"
            path.write_text(text)
            cmd = [*toolchain.hipcc, "--offload-arch=gfx90a", "-std=c++17", "-x", "hip", "--cuda-host-only"]
            cmd += ["-fsyntax-only", "-ferror-limit=0", "-Wno-deprecated-declarations", toolchain.inner_path(str(path))]
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env={**os.environ, **toolchain.env})
            for m in _ERROR.finditer(proc.stdout + proc.stderr):
                if not m.group("file").endswith(path.name):
                    failures.append(f"in a header: {m.group('file')}:{m.group('line')}: {m.group('msg')}")
                    continue
                index = int(m.group("line")) - first
                if 0 <= index < len(group):
                    c = group[index]
                    failures.append(f"{c.row.cuda} -> {c.target}({', '.join(c.params)}): {m.group('msg')}")
            assert proc.returncode == 0 or failures, proc.stderr[-2000:]
    assert not failures, f"{len(failures)} of {len(calls)} {api} calls do not compile:\n" + "\n".join(
        sorted(set(failures))[:40]
    )
