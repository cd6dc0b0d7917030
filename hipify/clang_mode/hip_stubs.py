"""Declarations of the HIP names translations use, for parsing HIP code where HIP is absent.

The clang engine parses its own output again (a second run must change nothing), and
users run it over half-ported trees. Without HIP's headers, ``hipError_t`` is an unknown
type: a user's ``hipError_t cudaMallocHost(int)`` overload then fails to declare, and
calls to it resolve to CUDA's function and get renamed. So ``#include <hip/...>`` (any HIP
or ROC header the table names) resolves to a stub that includes these declarations. The
stubs come last on the include path (``-idirafter``): installed HIP headers always win.

Names the CUDA side declares (``dim3``, ``atomicAdd``: CUDA and HIP spell them alike) are
left to the CUDA prelude or toolkit. Types are distinct classes that accept any value, so
overloads on two HIP types stay two overloads; functions are variadic templates; enum
constants are enumerators; macros expand to ``__hpy_any``.
"""

from __future__ import annotations

import re
from collections import defaultdict

from ..knowledge.table import MappingTable, Row
from .prelude import ANY_DECLARATIONS, FIXED_NAMES, valid_name

_HEADER = re.compile(r"[\w./+-]+\.(h|hpp|cuh|hxx|inl)")
_MAPPED = ("supported", "deprecated", "experimental")
_TYPE_KINDS = ("type", "enum")
_FUNCTION_KINDS = ("function", "device_function")

# What the translation writes besides table targets (launches, symbol arguments).
FIXED_HIP = r"""#define HIP_SYMBOL(X) X
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define hipLaunchKernelGGL(K, G, B, S, ST, ...) K<<<G, B, S, ST>>>(__VA_ARGS__)
template <int N> struct __hpy_hip_type : __hpy_any {
  __HPY_HD constexpr __hpy_hip_type() {}
  template <class T> __HPY_HD constexpr __hpy_hip_type(T&&) {}
};
"""
_FIXED_HIP_NAMES = frozenset(("HIP_SYMBOL", "HIP_KERNEL_NAME", "hipLaunchKernelGGL"))


def _targets(row: Row) -> list[str]:
    out = []
    if row.hip and row.hip_status in _MAPPED:
        out.append(row.hip)
    if row.roc and row.roc_status in _MAPPED and row.roc != row.hip:
        out.append(row.roc)
    return out


def generate_hip(table: MappingTable, library: frozenset[str] = frozenset()) -> str:
    """The HIP declarations: one per HIP/ROC target name the CUDA side does not declare."""
    cuda_names = {row.cuda for row in table} | FIXED_NAMES | _FIXED_HIP_NAMES
    by_kind: dict[str, list[str]] = defaultdict(list)
    members: dict[str, list[str]] = defaultdict(list)  # HIP type -> HIP field names
    hip_of = {row.cuda: row.hip for row in table if row.hip}
    for row in table:
        if row.kind == "header":
            continue
        for name in _targets(row):
            if "::" in name:
                by_kind["namespace"].append(name.split("::", 1)[0])
                continue
            if not valid_name(name) or name in cuda_names or name in library:
                continue
            if row.kind == "field":
                parent = hip_of.get(row.parent, "")
                if parent:
                    members[parent].append(name)
                continue
            by_kind[row.kind].append(name)

    out = ["#pragma once", "#pragma clang system_header", ANY_DECLARATIONS, FIXED_HIP, "// ---- generated ----"]
    declared: set[str] = set()
    macros = set(by_kind.get("macro", ()))

    def claim(name: str) -> bool:
        if name in declared or name in macros:
            return False
        declared.add(name)
        return True

    out += [f"namespace {name} {{}}" for name in dict.fromkeys(by_kind.get("namespace", ())) if claim(name)]
    constants = [name for name in dict.fromkeys(by_kind.get("enum_constant", ())) if claim(name)]
    if constants:
        out.append(f"enum {{ {', '.join(constants)} }};")
    types = [name for kind in _TYPE_KINDS for name in by_kind.get(kind, ())]
    for number, name in enumerate(name for name in dict.fromkeys(types) if claim(name)):
        fields = [f for f in dict.fromkeys(members.get(name, ())) if valid_name(f)]
        if fields:
            body = " ".join(f"__hpy_any {f};" for f in fields)
            out.append(f"struct {name} : __hpy_hip_type<{number}> {{ using __hpy_hip_type::__hpy_hip_type; {body} }};")
        else:
            out.append(f"typedef __hpy_hip_type<{number}> {name};")
    functions = [name for kind in _FUNCTION_KINDS for name in by_kind.get(kind, ())]
    for name in dict.fromkeys(functions):
        if claim(name):
            out.append(f"template <class... E, class... A> __HPY_HD __hpy_any {name}(A&&...);")
    out += [f"#define {name} __hpy_macro" for name in sorted(macros)]
    return "\n".join(out) + "\n"


def hip_header_names(table: MappingTable) -> tuple[str, ...]:
    """HIP and ROC header names the table's targets live in (each gets a stub)."""
    names: set[str] = set()
    for row in table:
        candidates = [row.hip_header, row.roc_header]
        if row.kind == "header":
            candidates += _targets(row)
        names.update(c for c in candidates if c and _HEADER.fullmatch(c) and ".." not in c)
    return tuple(sorted(names))
