"""The text of a project's single-source header (``-o HEADER``) and of its include folder (``--include-dir DIR``).

Both hold the same parts, each under a short comment, in the order the compiler needs them: the macros HIP's
headers test, the HIP headers, the compatibility entries, nvcc's own macros, then the CUDA names. The folder splits
them: ``hipify_shim.h`` holds everything but the HIP libraries' headers, and each CUDA header the project includes
has a file of its own name that includes ``hipify_shim.h`` and the HIP headers standing for it, so that an
unmodified CUDA tree compiles with ``hipcc -I DIR``. The same plan always gives the same bytes.
"""

from __future__ import annotations

import posixpath
import re
import textwrap
from collections.abc import Iterable
from importlib import resources

from ..compat import load_catalog
from ..compat import render as render_compat
from .conditions import ALWAYS, any_of
from .definitions import ADAPTED_CALL, COMPILER, GUARD, MACRO_CALL, PLACEHOLDER, REMOVED, RENAME, Definition
from .plan import GENERATED, RUNTIME_HEADER, ShimPlan, StandIn

# The marks around a replaced vendor header's own lines (``replace``), read back when it is written again.
BEGIN_BEFORE = "// >>> the project's own lines, read before the HIP headers (kept by `hipify-py shim --replace`)"
BEGIN_AFTER = "// >>> the project's own lines (kept by `hipify-py shim --replace`)"
END = "// <<< end of the project's own lines"
SHIM_HEADER = "hipify_shim.h"  # the common part of an include folder
# clang's header that hipcc includes before the first line of every HIP source (-x hip). A file of that name in
# the include folder is found before clang's (the -I folders come first), includes clang's and then the header:
# the place where nvcc includes cuda_runtime.h in every .cu file, so that a file relying on that still compiles.
PRE_INCLUDED = "__clang_hip_runtime_wrapper.h"
# Headers of HIP libraries that keep CUDA's names and test nvcc's macros to learn which compiler they are read by:
# read before the header defines those macros (rocThrust takes __CUDACC__ for nvcc).
_READ_BEFORE_NVCC_MACROS = (("thrust/", "thrust/detail/config.h"),)
_WIDTH = 116
_FIELDS = "xyzw"
_PREFERRED = '__attribute__((enable_if(true, "")))'  # preferred over an otherwise equal candidate (clang)
_OWN_PREFIX = "hipify_shim_own_"  # a function HIP defines, renamed where the project defines it too
# HIP's switches: macro -> (the project's opposite setting, the include guard of the HIP header that reads the
# switch when it is first included). ROCm 6.x declares the *_sync warp functions in amd_device_functions.h's
# reading only where HIP_ENABLE_WARP_SYNC_BUILTINS is defined by then; 7.x unless HIP_DISABLE_... is.
_HIP_SWITCHES = {
    "HIP_ENABLE_WARP_SYNC_BUILTINS": ("HIP_DISABLE_WARP_SYNC_BUILTINS", "HIP_INCLUDE_HIP_AMD_DETAIL_DEVICE_FUNCTIONS_H")
}
_SECTION_COMMENTS = {
    COMPILER: "nvcc's own macros, which hipcc leaves undefined: the values of the CUDA build the translation decides "
    "conditions as (the newest whose branches HIP compiles; __CUDA_ARCH__ in the device pass only, as nvcc defines "
    "it), and HIP's counterparts of the compiler marks.",
    RENAME: "CUDA names HIP spells otherwise.",
    REMOVED: "Calling-convention macros HIP lacks, empty as CUDA defines them on Linux.",
    MACRO_CALL: "Calls whose argument HIP takes wrapped (HIP_SYMBOL: a device symbol).",
    ADAPTED_CALL: "Calls whose arguments HIP takes in another form, through adaptors with the HIP function's own "
    "parameters (C translation units get the plain HIP name).",
    PLACEHOLDER: "CUDA enumerations HIP lacks: declared, so that code passing their values along compiles. No HIP "
    "API takes them; each use is reported.",
    GUARD: "Include guards of the CUDA headers, which code tests to learn what is included: defined once the HIP "
    "header standing for each is (outside the include guard, so that a HIP header included later counts).",
}


def render_header(plan: ShimPlan, name: str, before: str = "", after: str = "") -> str:
    """The single header (``-o``): every HIP header the project's CUDA headers stand for. ``before``/``after``: a
    replaced vendor header's own lines (``replace``), kept in marked sections before the HIP headers and at the
    end."""
    includes = _includes(plan.stand_ins)
    return _common(plan, name, includes, _guard_macro(name), before, after)


def render_include_dir(plan: ShimPlan) -> dict[str, str]:
    """The include folder: relative path -> text."""
    files = {SHIM_HEADER: _common(plan, SHIM_HEADER, [(RUNTIME_HEADER, (), ALWAYS)], "HIPIFY_SHIM_H", single=False)}
    for stand_in in plan.stand_ins:
        files[stand_in.cuda] = _stand_in(plan, stand_in)
    files[PRE_INCLUDED] = _pre_included()
    return dict(sorted(files.items()))


def _common(
    plan: ShimPlan,
    name: str,
    includes: list[tuple[str, tuple[str, ...], str]],
    guard: str,
    before: str = "",
    after: str = "",
    single: bool = True,
) -> str:
    version = f"{plan.rocm[0]}.{plan.rocm[1]}"
    out = _comment(
        f"{name}: {GENERATED} for ROCm {version} from the CUDA sources of this project; do not edit. "
        "`hipify-py shim --check` fails when the sources use a CUDA name it does not cover, and prints the "
        "command that writes it again. Included when compiling for AMD GPUs, it makes the project's CUDA "
        "spelling compile with HIP."
    )
    out += ["", f"#ifndef {guard}", f"#define {guard}", ""]
    if before:
        out += [BEGIN_BEFORE, before, END, ""]
    if plan.required:
        out += _comment("Macros HIP's headers test: defined before the first of them.")
        for macro in plan.required:
            out += [f"#if {_unset_switch(macro)}", f"#define {macro}", "#endif"]
        out.append("")
    out += _comment("The HIP headers standing for the CUDA headers the project includes.")
    for header, stood_for, condition in includes:
        line = f"#include <{header}>" + (f"  // {', '.join(stood_for)}" if stood_for else "")
        out += [f"#if {condition}", line, "#endif"] if condition else [line]
    out.append("")
    out += _system_includes(plan.system_includes)
    if plan.compat_entries:
        out += _compat(plan)
    if plan.accepts_register:
        out += _comment("The project uses the `register` storage class: C++17 removed it, nvcc only warns.")
        out += ["#if defined(__clang__) && defined(__cplusplus)", '#pragma clang diagnostic ignored "-Wregister"']
        out += ["#endif", ""]
    by_section: dict[str, list[Definition]] = {}
    for definition in plan.definitions:
        by_section.setdefault(definition.section, []).append(definition)
    if COMPILER in by_section or plan.undefined_marks:
        out += _comment(_SECTION_COMMENTS[COMPILER])
        out += _read_before_nvcc_macros(plan)
        out += [d.text for d in by_section.get(COMPILER, [])]
        out += [_left_undefined(name, where) for name, where in plan.undefined_marks] + [""]
    for section in (RENAME, REMOVED, MACRO_CALL, PLACEHOLDER):
        if section in by_section:
            out += _comment(_SECTION_COMMENTS[section]) + [d.text for d in by_section[section]] + [""]
    if ADAPTED_CALL in by_section:
        out += _comment(_SECTION_COMMENTS[ADAPTED_CALL])
        out += ["#if defined(__cplusplus)", _support().rstrip("\n")]
        out += [d.text for d in by_section[ADAPTED_CALL]] + ["#else"]
        out += [d.c_text for d in by_section[ADAPTED_CALL]] + ["#endif", ""]
    top = [(cuda, hip) for cuda, hip in plan.namespaces if "::" not in cuda]
    if top:
        out += _comment("CUDA's namespaces: HIP's under CUDA's name.")
        out += ["#if defined(__cplusplus)"]
        for cuda, hip in top:
            out += _namespace_alias(cuda, hip)
        out += ["#endif", ""]
    if single:
        out += _nested_aliases(plan, [s.cuda for s in plan.stand_ins])
    out += _redefined(plan.redefined)
    out += _vector_operators(plan.vector_operators)
    if after:
        out += [BEGIN_AFTER, after, END, ""]
    out += [f"#endif  // {guard}", ""]
    out += _guards(by_section.get(GUARD, []))
    return "\n".join(out).rstrip("\n") + "\n"


def _system_includes(headers: Iterable[str]) -> list[str]:
    """Standard headers CUDA's runtime header brings into every file and HIP's (of this release) does not: a C
    translation unit gets the C name of a C++ wrapper (``<cstring>``: ``<string.h>``)."""
    headers = list(headers)
    if not headers:
        return []
    out = _comment("Standard headers CUDA's runtime header includes and this release's HIP runtime header does not.")
    for header in headers:
        c_name = f"{header[1:]}.h" if re.fullmatch(r"c[a-z]+", header) else header
        if c_name == header:
            out.append(f"#include <{header}>")
        else:
            out += ["#if defined(__cplusplus)", f"#include <{header}>", "#else", f"#include <{c_name}>", "#endif"]
    return [*out, ""]


def _redefined(names: Iterable[str]) -> list[str]:
    """A function HIP's headers define that the project defines too (its own ``atomicMax(float*, float)``, which
    CUDA lacks): the CUDA name is renamed, so that the project's definition declares an overload of its own, and a
    forwarding template under the new name passes every other call to HIP's. A call matching the project's
    parameters exactly takes the project's (a non-template beats a template), as under CUDA; the others take
    HIP's."""
    names = list(names)
    if not names:
        return []
    out = _comment(
        "Functions HIP's headers define that the project defines too, with the same parameters: renamed, so that "
        "the project's definition is an overload of its own beside a template passing every other call to HIP's."
    )
    out.append("#if defined(__cplusplus)")
    for name in names:
        own = f"{_OWN_PREFIX}{name}"
        out += [
            f"#if !defined({name})",
            "template <class... A>",
            f"__host__ __device__ inline auto {own}(A&&... a) -> decltype(::{name}(static_cast<A&&>(a)...)) {{",
            f"  return ::{name}(static_cast<A&&>(a)...);",
            "}",
            f"#define {name} {own}",
            "#endif",
        ]
    return [*out, "#endif", ""]


def _vector_operators(operators: Iterable[tuple[str, str]]) -> list[str]:
    """Operators of CUDA's vector types the project defines component-wise (helper_math.h's ``operator/`` of two
    ``float2``) where HIP's vector types define the same: with both, every use is ambiguous. The header defines
    each once more with clang's ``enable_if`` attribute, which overload resolution prefers over candidates that
    are otherwise as good (the project's and HIP's): the uses compile, computing what both compute."""
    operators = list(operators)
    if not operators:
        return []
    out = _comment(
        "Operators of CUDA's vector types that the project defines and HIP's vector types define too, alike "
        "(component-wise): each again, preferred over both by clang's enable_if attribute, so that a use is not "
        "ambiguous."
    )
    out += ["#if defined(__cplusplus) && defined(__clang__)"]
    for op, vector in operators:
        fields = _FIELDS[: int(vector[-1])]
        if op.endswith("=") and op not in ("==", "!=", "<=", ">="):
            steps = " ".join(f"a.{f} {op} b.{f};" for f in fields)
            out.append(f"__host__ __device__ inline {vector}& operator{op}({vector}& a, {vector} b) {_PREFERRED} {{")
            out.append(f"  {steps}")
            out.append("  return a;")
        else:
            parts = ", ".join(f"a.{f} {op} b.{f}" for f in fields)
            out.append(f"__host__ __device__ inline {vector} operator{op}({vector} a, {vector} b) {_PREFERRED} {{")
            out.append(f"  return make_{vector}({parts});")
        out.append("}")
    return [*out, "#endif", ""]


def _unset_switch(macro: str) -> str:
    """When the header defines ``macro``: where the project has not set it, nor its opposite, and (for a switch HIP
    reads once) HIP's headers it switches were not read yet. Defined after them, it would tell the HIP headers read
    later (cooperative groups) that functions are declared which were not."""
    opposite, read_once_by = _HIP_SWITCHES.get(macro, ("", ""))
    tests = [f"!defined({m})" for m in (macro, opposite, read_once_by) if m]
    return " && ".join(tests)


def _stand_in(plan: ShimPlan, stand_in: StandIn) -> str:
    shim = posixpath.relpath(SHIM_HEADER, posixpath.dirname(stand_in.cuda) or ".")
    guard = "HIPIFY_SHIM_" + re.sub(r"\W", "_", stand_in.cuda).upper()
    what = "the compatibility entries" if stand_in.compat else ", ".join(stand_in.hip)
    out = _comment(
        f"{stand_in.cuda}: {GENERATED}: stands for CUDA's {stand_in.cuda} when compiling for AMD GPUs ({what}; "
        f"the CUDA names are in {SHIM_HEADER}); do not edit."
    )
    out += ["", f"#ifndef {guard}", f"#define {guard}", f'#include "{shim}"']
    out += [f"#include <{h}>" for h in stand_in.hip if h != RUNTIME_HEADER]
    out += _nested_aliases(plan, [stand_in.cuda])
    out += [f"#endif  // {guard}", ""]
    out += _guards([d for d in plan.definitions if d.section == GUARD])
    return "\n".join(out).rstrip("\n") + "\n"


def _pre_included() -> str:
    out = _comment(
        f"{PRE_INCLUDED}: {GENERATED}; do not edit. nvcc includes cuda_runtime.h before the first line of every "
        "CUDA source; hipcc includes clang's header of this name there (-x hip), and this folder's comes first "
        f"on the -I path: it includes clang's, then {SHIM_HEADER}, so that a source relying on nvcc's include "
        "compiles unmodified."
    )
    return "\n".join([*out, f"#include_next <{PRE_INCLUDED}>", f'#include "{SHIM_HEADER}"', ""])


def _includes(stand_ins: Iterable[StandIn]) -> list[tuple[str, tuple[str, ...], str]]:
    """Each HIP header once, the runtime first (always), with the CUDA headers it stands for and the project's
    options it is included under (those of any CUDA header it stands for)."""
    by_header: dict[str, list[StandIn]] = {RUNTIME_HEADER: []}
    for stand_in in stand_ins:
        for header in stand_in.hip:
            by_header.setdefault(header, []).append(stand_in)
    out = []
    for header, cuda in by_header.items():
        condition = ALWAYS if header == RUNTIME_HEADER else any_of([s.condition for s in cuda])
        out.append((header, tuple(s.cuda for s in cuda), condition))
    return out


def _compat(plan: ShimPlan) -> list[str]:
    catalog = load_catalog()
    text = render_compat((catalog.by_entry_name[n] for n in plan.compat_entries), plan.rocm, catalog)
    body = text[text.index("#ifndef") :].rstrip("\n")
    names = ", ".join(e.name for e in catalog.closure(catalog.by_entry_name[n] for n in plan.compat_entries))
    return [
        *_comment(f"CUDA features ROCm lacks, written in HIP (hipify-py's compatibility catalog): {names}."),
        body,
        "",
    ]


def _read_before_nvcc_macros(plan: ShimPlan) -> list[str]:
    lines: list[str] = []
    for prefix, header in _READ_BEFORE_NVCC_MACROS:
        if any(h.startswith(prefix) for h in (*plan.other_includes, *(s.cuda for s in plan.stand_ins))):
            lines += [f"#if defined(__cplusplus) && __has_include(<{header}>)", f"#include <{header}>", "#endif"]
    return lines


def _nested_aliases(plan: ShimPlan, included: list[str]) -> list[str]:
    """The aliases of nested CUDA namespaces (``thrust::cuda`` for ``thrust::hip``), where a header of their library
    is included (``thrust/system/cuda/...`` standing for rocThrust's): HIP's namespace is declared by then, and may
    sit in an inline namespace of the library's (rocThrust's versioned one), so it is looked up, never declared
    here (a ``thrust::hip`` of ours beside rocThrust's makes every use of it ambiguous). Written once."""
    out: list[str] = []
    for cuda, hip in plan.namespaces:
        outer, _, name = cuda.rpartition("::")
        if not outer or not any(h.startswith(outer.replace("::", "/") + "/") for h in included):
            continue
        once = "HIPIFY_SHIM_NAMESPACE_" + re.sub(r"\W", "_", cuda).upper()
        hip_outer, _, hip_name = hip.rpartition("::")
        target = hip_name if hip_outer == outer else "::" + hip
        out += [f"#if defined(__cplusplus) && !defined({once})", f"#define {once}"]
        out += _within(outer, f"namespace {name} = {target};") + ["#endif"]
    return out


def _namespace_alias(cuda: str, hip: str) -> list[str]:
    """``namespace cub = hipcub;`` (HIP's namespace declared first, so that the alias needs none of its headers);
    a nested one inside its enclosing namespaces."""
    outer, _, name = cuda.rpartition("::")
    hip_outer, _, hip_name = hip.rpartition("::")
    if outer != hip_outer:  # moved to another namespace: the alias names HIP's by its full path
        line = f"namespace {name} = ::{hip};"
        declared = "".join(f"namespace {part} {{ " for part in hip.split("::")) + "}" * len(hip.split("::"))
        return [declared, *_within(outer, line)]
    return _within(outer, f"namespace {hip_name} {{}} namespace {name} = {hip_name};")


def _within(outer: str, line: str) -> list[str]:
    if not outer:
        return [line]
    parts = outer.split("::")
    return ["".join(f"namespace {p} {{ " for p in parts) + line + " }" * len(parts)]


def _guards(guards: list[Definition]) -> list[str]:
    if not guards:
        return []
    return [*_comment(_SECTION_COMMENTS[GUARD]), *(d.text for d in guards), ""]


def _guard_macro(name: str) -> str:
    return "HIPIFY_SHIM_" + re.sub(r"\W", "_", posixpath.basename(name)).upper()


def _left_undefined(mark: str, where: str) -> str:
    """The comment saying why the header does not define one of nvcc's marks (``compiler_marks``): the file's
    name and line only, so that the header does not depend on where the project lies."""
    path, _, line = where.rpartition(":")
    return f"// {mark} is left undefined: the project tells hipcc apart from nvcc by it ({posixpath.basename(path)}:{line})"


def _support() -> str:
    return resources.files(__package__).joinpath("support.h").read_text(encoding="utf-8")


def _comment(text: str) -> list[str]:
    return ["// " + line for line in textwrap.wrap(text, _WIDTH - 3, break_on_hyphens=False)]
