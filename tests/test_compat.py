"""The compatibility header's catalog (hipify/compat/entries.toml): loading and validation, lookups by name,
header and ROCm version, closure order, deterministic rendering; and, marked ``hipcc``, every entry compiled
by ROCm 6.x's hipcc alone and all of them together beside ROCm's own headers."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hipify.compat import (
    HEADER_NAME,
    INCLUDE_GUARD,
    CompatCatalog,
    CompatCatalogError,
    CompatEntry,
    load_catalog,
    parse_catalog,
    render,
)
from hipify.rewrite.index import macro_needed
from hipify.validate.corpus import default_corpus_dir
from hipify.validate.toolchain import Toolchain, detect

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROCM = (6, 4)
# The releases each entry is checked against: the ones the mapping table is generated for.
RELEASES = ((6, 4), (7, 2))
CORPUS = default_corpus_dir()
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")

SMALL = """
[[entry]]
name = "base"
provides = []
code = "__device__ inline int base_value() { return 1; }"
note = "A building block."
example = "__device__ int x() { return base_value(); }"
checked_by = ""

[[entry]]
name = "user"
provides = ["ns::user_fn", "user_other"]
headers = ["user.h"]
needs = ["base"]
rocm_until = "6.2"
code = "__device__ inline int user_other() { return base_value(); }"
note = "Uses   the building\\nblock."
example = "__device__ int y() { return ns::user_fn() + user_other(); }"
checked_by = ""

[[entry]]
name = "always"
provides = ["always_fn"]
headers = ["always.h"]
code = "__device__ inline int always_fn() { return 2; }"
note = "Every ROCm lacks it."
example = "__device__ int z() { return always_fn(); }"
checked_by = ""
"""


@pytest.fixture(scope="module")
def small() -> CompatCatalog:
    return parse_catalog(SMALL, "small.toml")


# --- the shipped catalog ----------------------------------------------------------------------------------


def test_shipped_catalog_loads_once_and_finds_every_provided_name() -> None:
    catalog = load_catalog()
    assert load_catalog() is catalog
    assert len(catalog.entries) >= 10 and len(catalog.digest) == 64
    for entry in catalog.entries:
        releases = [r for r in RELEASES if entry.applies_to(r)]
        assert releases, f"{entry.name} applies to none of {RELEASES}"
        for name in entry.provides:
            assert all(catalog.for_name(name, r) is entry for r in releases)
    assert catalog.for_name("cooperative_groups::reduce", ROCM) is catalog.by_entry_name["cg_reduce"]
    assert catalog.for_header("cooperative_groups/reduce.h", ROCM) is catalog.by_entry_name["cg_reduce"]
    assert catalog.for_name("__ldcs", ROCM) is catalog.by_entry_name["cache_hinted_loads"]
    assert catalog.for_name("cudaMalloc", ROCM) is None
    assert catalog.for_header("cuda_runtime.h", ROCM) is None


def test_issue_features_are_provided() -> None:
    catalog = load_catalog()
    wanted = [
        "cooperative_groups::reduce",
        "cooperative_groups::plus",
        "cooperative_groups::less",
        "cooperative_groups::greater",
        *("__ldcs", "__ldcg", "__ldca", "__ldlu", "__ldcv", "__stcs", "__stcg", "__stwb", "__stwt"),
        *("__syncwarp", "umin", "umax"),
    ]
    assert [name for name in wanted if catalog.for_name(name, ROCM) is None] == []


def test_entries_that_compute_are_checked_by_a_corpus_program_using_them() -> None:
    for entry in load_catalog().entries:
        if not entry.checked_by:
            continue
        source = CORPUS / entry.checked_by / f"{entry.checked_by}.cu"
        assert source.is_file(), f"{entry.name}: checked_by names {entry.checked_by}, which is not in the corpus"
        used = set(IDENTIFIER.findall(source.read_text(encoding="utf-8")))
        missing = [n for n in entry.provides if n.rsplit("::", 1)[-1] not in used]
        assert not missing, f"{entry.name}: {source.name} does not use {missing}"
        for header in entry.headers:
            assert f"#include <{header}>" in source.read_text(encoding="utf-8")


def test_catalog_is_package_data() -> None:
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    assert "compat/*.toml" in pyproject["tool"]["setuptools"]["package-data"]["hipify"]


# --- lookups, versions, closure, rendering ----------------------------------------------------------------


def test_rocm_until_decides_whether_an_entry_is_used(small: CompatCatalog) -> None:
    user = small.by_entry_name["user"]
    assert user.rocm_until == (6, 2)
    assert small.for_name("ns::user_fn", (5, 7)) is user
    assert small.for_name("ns::user_fn", (6, 2)) is user
    assert small.for_name("ns::user_fn", (6, 4)) is None
    assert small.for_name("user_fn", (6, 2)) is None  # names are looked up as CUDA qualifies them
    assert small.for_header("user.h", (6, 2)) is user
    assert small.for_header("user.h", (6, 3)) is None
    assert small.for_name("always_fn", (9, 9)) is small.by_entry_name["always"]


def test_closure_puts_needs_first_in_file_order_whatever_the_input_order(small: CompatCatalog) -> None:
    always, user = small.by_entry_name["always"], small.by_entry_name["user"]
    expected = ("base", "user", "always")
    assert [e.name for e in small.closure([always, user])] == list(expected)
    assert [e.name for e in small.closure([user, always, user])] == list(expected)
    assert [e.name for e in small.closure([always])] == ["always"]
    assert small.closure([]) == ()


def test_shipped_closure_order() -> None:
    catalog = load_catalog()
    stores, reduce_ = catalog.by_entry_name["cache_hinted_stores"], catalog.by_entry_name["cg_reduce"]
    names = [e.name for e in catalog.closure([stores, reduce_])]
    assert names == ["cg_functional", "cg_reduce", "cache_hint_access", "cache_hinted_stores"]


def test_render_is_deterministic_and_holds_only_what_is_asked(small: CompatCatalog) -> None:
    user, always = small.by_entry_name["user"], small.by_entry_name["always"]
    text = render([user, always], (6, 2), small)
    assert text == render([always, user, always], (6, 2), small)
    assert text.startswith(f"// {HEADER_NAME}: generated by hipify-py for ROCm 6.2")
    assert f"#ifndef {INCLUDE_GUARD}\n#define {INCLUDE_GUARD}\n" in text and text.endswith(
        f"#endif  // {INCLUDE_GUARD}\n"
    )
    assert text.index("base_value() { return 1; }") < text.index("user_other() {") < text.index("always_fn() {")
    assert "// user: Uses the building block." in text  # the note, whitespace folded
    assert text.count("#include <hip/hip_runtime.h>") == 1
    alone = render([always], (6, 2), small)
    assert "always_fn" in alone and "base_value" not in alone and "user_other" not in alone
    # ROCm 6.4 has what "user" provides: its block (and the building block only it needs) is left out.
    newer = render([user, always], (6, 4), small)
    assert "user_other() {" not in newer and "always_fn() {" in newer


@pytest.mark.parametrize("rocm", RELEASES)
def test_render_of_shipped_entries_includes_each_header_once(rocm: tuple[int, int]) -> None:
    catalog = load_catalog()
    text = render(catalog.entries, rocm)
    includes = re.findall(r"^#include <([^>]+)>$", text, re.MULTILINE)
    assert len(includes) == len(set(includes)) and includes[0] == "hip/hip_runtime.h"
    for entry in catalog.entries:
        assert (entry.code.strip() in text) == entry.applies_to(rocm), entry.name
    assert render(reversed(catalog.entries), rocm) == text
    assert all(len(line) <= 120 for line in text.splitlines())


def test_entry_is_a_frozen_value() -> None:
    entry = load_catalog().entries[0]
    assert isinstance(entry, CompatEntry)
    with pytest.raises(AttributeError):
        entry.name = "other"  # type: ignore[misc]


# --- validation -------------------------------------------------------------------------------------------


def _variant(old: str, new: str, count: int = 1) -> str:
    assert SMALL.count(old) >= count, old
    return SMALL.replace(old, new, count)


INVALID = [
    pytest.param("[[entry]\n", "small.toml: not valid TOML", id="toml"),
    pytest.param(SMALL + "\n[settings]\nx = 1\n", "unknown top-level keys ['settings']", id="top-level"),
    pytest.param(
        _variant('rocm_until = "6.2"', 'rocm_until = "6.2"\ncolour = "red"'),
        "entry 'user': unknown keys ['colour']",
        id="unknown-key",
    ),
    pytest.param(
        _variant('note = "Every ROCm lacks it."\n', ""), "entry 'always': missing fields ['note']", id="missing"
    ),
    pytest.param(
        _variant('provides = ["always_fn"]', 'provides = "always_fn"'),
        "entry 'always': 'provides' must be a list of non-empty strings",
        id="provides-type",
    ),
    pytest.param(
        _variant('note = "A building block."', "note = 3"), "entry 'base': 'note' must be a string", id="note-type"
    ),
    pytest.param(
        _variant('needs = ["base"]', 'needs = ["base", "nothing"]'),
        "entry 'user': needs unknown entry 'nothing'",
        id="unknown-needs",
    ),
    pytest.param(_variant('name = "always"', 'name = "base"'), "entry 'base': defined twice", id="duplicate-name"),
    pytest.param(
        _variant('provides = ["always_fn"]', 'provides = ["always_fn", "user_other"]').replace(
            "return always_fn(); }", "return always_fn() + user_other(); }"
        ),
        "entry 'always': user_other is already provided by entry 'user'",
        id="duplicate-provided",
    ),
    pytest.param(
        _variant('headers = ["always.h"]', 'headers = ["user.h"]'),
        "entry 'always': #include <user.h> is already provided by entry 'user'",
        id="duplicate-header",
    ),
    pytest.param(
        _variant(
            'checked_by = ""\n\n[[entry]]\nname = "user"',
            'checked_by = ""\nneeds = ["user"]\n\n[[entry]]\nname = "user"',
        ),
        "entry 'base': needs form a cycle (base -> user -> base)",
        id="cycle",
    ),
    pytest.param(
        _variant('rocm_until = "6.2"', 'rocm_until = "six"'),
        "entry 'user': 'rocm_until': not a ROCm version",
        id="rocm-until",
    ),
    pytest.param(
        _variant("ns::user_fn() + user_other()", "ns::user_fn()"),
        "entry 'user': the example does not use ['user_other']",
        id="example-incomplete",
    ),
    pytest.param(
        _variant('needs = ["base"]\n', ""),
        "entry 'base': provides nothing and no entry needs it",
        id="unused-building-block",
    ),
    pytest.param(
        _variant('code = "__device__ inline int always_fn() { return 2; }"', 'code = "  "'),
        "entry 'always': 'code' is empty",
        id="empty-code",
    ),
]


@pytest.mark.parametrize("text, message", INVALID)
def test_invalid_catalogs_are_refused_with_the_entry_named(text: str, message: str) -> None:
    with pytest.raises(CompatCatalogError) as info:
        parse_catalog(text, "small.toml")
    assert message in str(info.value)
    assert str(info.value).startswith("small.toml: ")


# --- compiled by hipcc ------------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=RELEASES, ids=lambda v: f"rocm{v[0]}.{v[1]}")
def rocm(request: pytest.FixtureRequest) -> Toolchain:
    """hipcc of each ROCm release the entries are checked against (HIPIFY_HIPCC / ROCM_CHROOT_DIR: that one
    only, for its release)."""
    wanted: tuple[int, int] = request.param
    given = (os.environ.get("HIPIFY_HIPCC") or None, os.environ.get("ROCM_CHROOT_DIR") or None)
    toolchains = detect(*given) if any(given) else detect(rocm=f"{wanted[0]}.{wanted[1]}")
    matching = [tc for tc in toolchains if tc.rocm_version == wanted]
    if not matching:
        found = ", ".join(tc.describe() for tc in toolchains) or "none"
        release = f"{wanted[0]}.{wanted[1]}"
        pytest.skip(f"no ROCm {release} hipcc (found: {found}); build it with .ci/install_hip.sh")
    return matching[0]


def _applying(tc: Toolchain) -> list[CompatEntry]:
    return [e for e in load_catalog().entries if e.applies_to(tc.rocm_version)]


@pytest.fixture
def work_dir(rocm: Toolchain) -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="hipify-compat-", dir=rocm.work_root()))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _hipcc_in(tc: Toolchain, directory: Path, args: list[str]) -> tuple[int, str]:
    """Run hipcc with ``directory`` as the working directory (where ``-c`` writes its objects)."""
    if tc.chroot:  # tc.hipcc ends with the compiler, run inside the chroot: change directory there first
        inner = tc.inner_path(str(directory))
        cmd = [*tc.hipcc[:-1], "sh", "-c", 'cd "$1" && shift && exec hipcc "$@"', "sh", inner, *args]
        cwd = None
    else:
        cmd, cwd = [*tc.hipcc, *args], str(directory)
    proc = subprocess.run(
        cmd, check=False, capture_output=True, text=True, timeout=1200, cwd=cwd, env={**os.environ, **tc.env}
    )
    return proc.returncode, proc.stdout + proc.stderr


HIP_FLAGS = ["-std=c++17", "-Wall", "-Wextra", "-Werror", "-fno-color-diagnostics", "-x", "hip", "-c"]


def _needed_defines(entry: CompatEntry, rocm: tuple[int, int], transitive: bool = False) -> tuple[str, ...]:
    """The macros a translation for ``rocm`` defines for ``entry`` (and, ``transitive``, for what it needs)."""
    catalog = load_catalog()
    chosen = catalog.closure([entry]) if transitive else [entry]
    return tuple(d for e in chosen for d in e.defines if macro_needed(d, rocm))


def _unit(header_include: str, example: str, prelude: str = "") -> str:
    return f'{prelude}#include "{header_include}"\n\n{example}'


@pytest.mark.hipcc
def test_each_entry_compiles_alone(rocm: Toolchain, work_dir: Path) -> None:
    """Each entry the release gets rendered alone (with what it needs) and its example: one translation unit per
    entry, compiled in two hipcc runs side by side."""
    units = []
    for entry in _applying(rocm):
        defines = "".join(f"#define {d}\n" for d in _needed_defines(entry, rocm.rocm_version))
        (work_dir / entry.name).mkdir()
        (work_dir / entry.name / HEADER_NAME).write_text(render([entry], rocm.rocm_version), encoding="utf-8")
        (work_dir / f"{entry.name}.cu").write_text(
            _unit(f"{entry.name}/{HEADER_NAME}", entry.example, defines), encoding="utf-8"
        )
        units.append(f"{entry.name}.cu")
    batches = [units[0::2], units[1::2]]
    with ThreadPoolExecutor(max_workers=len(batches)) as pool:
        results = list(
            pool.map(lambda b: _hipcc_in(rocm, work_dir, ["--offload-arch=gfx90a", *HIP_FLAGS, *b]), batches)
        )
    failed = sorted(
        {m for _, log in results for m in re.findall(r"(\w+)(?:/hipify_compat\.h|\.cu):\d+:\d+: error", log)}
    )
    logs = "\n".join(log for rc, log in results if rc != 0)
    assert all(rc == 0 for rc, _ in results), f"entries that do not compile alone: {failed}\n{logs[-6000:]}"
    assert sorted(p.name for p in work_dir.glob("*.o")) == sorted(u[:-3] + ".o" for u in units)


@pytest.mark.hipcc
def test_all_entries_compile_together_beside_rocm_headers(rocm: Toolchain, work_dir: Path) -> None:
    """All entries the release gets in one header: no conflict between entries, nor with ROCm's runtime,
    cooperative-groups, fp16 and bf16 headers included before it (with and without the warp-sync builtins), for
    wave64 and wave32; and a plain C++ unit including the header compiles."""
    entries = _applying(rocm)
    (work_dir / HEADER_NAME).write_text(render(entries, rocm.rocm_version), encoding="utf-8")
    examples = "".join(entry.example for entry in entries)
    # Entries that need a define declare nothing without it: their examples go where it is defined.
    plain = "".join(e.example for e in entries if not _needed_defines(e, rocm.rocm_version, transitive=True))
    rocm_headers = "".join(
        f"#include <{h}>\n"
        for h in ("hip/hip_runtime.h", "hip/hip_cooperative_groups.h", "hip/hip_fp16.h", "hip/hip_bf16.h")
    )
    units = {
        "first.cu": _unit(HEADER_NAME, plain),
        "first_warp_sync.cu": _unit(HEADER_NAME, examples, "#define HIP_ENABLE_WARP_SYNC_BUILTINS\n"),
        "after_rocm.cu": _unit(HEADER_NAME, plain, rocm_headers),
        "after_rocm_warp_sync.cu": _unit(
            HEADER_NAME, examples, "#define HIP_ENABLE_WARP_SYNC_BUILTINS\n" + rocm_headers
        ),
    }
    for name, text in units.items():
        (work_dir / name).write_text(text, encoding="utf-8")
    (work_dir / "host.cpp").write_text(_unit(HEADER_NAME, "int main() { return 0; }\n"), encoding="utf-8")
    rc, log = _hipcc_in(rocm, work_dir, ["--offload-arch=gfx90a", "--offload-arch=gfx1030", *HIP_FLAGS, *units])
    assert rc == 0, log[-6000:]
    host_flags = ["-std=c++17", "-Wall", "-Wextra", "-Werror", "-x", "c++", "-D__HIP_PLATFORM_AMD__", "-c", "host.cpp"]
    rc, log = _hipcc_in(rocm, work_dir, host_flags)
    assert rc == 0, log[-6000:]
