"""Declarations generated from the mapping table, so libclang parses CUDA code without CUDA.

With ``-nocudainc`` clang knows nothing of CUDA: every ``cudaMalloc`` is undeclared, and a
call whose argument is undeclared vanishes from the AST. Declaring every table name with
the right *kind* (function, type, enum constant, macro, field) gives the same AST shape
as the real headers for the purposes of this tool: calls with their argument counts,
launches, and references that resolve to a non-user declaration.

Exact signatures are unknowable from the table, so:
- functions are variadic templates returning ``__hpy_any``, a value that converts to and
  compares with anything, so ``cudaError_t e = f(); if (f() != cudaSuccess)`` parse cleanly;
- macros expand to an ``__hpy_any`` object (callable too), and are 0 in ``#if``;
- ``*_t`` types are opaque handles (or the enum they alias); other types are structs with
  the fields the table lists.
Headers named by the table get empty stubs, so a missing include never stops the parse.
"""

from __future__ import annotations

import re
from collections import defaultdict

from ..knowledge.cxx import RESERVED_NAMES
from ..knowledge.table import MappingTable

_IDENT = re.compile(r"[A-Za-z_]\w*\Z")

# ``__hpy_any``: a value that converts to, compares with and calls like anything; what every
# generated declaration returns or derives from. Shared by the CUDA prelude and the HIP
# declarations (``hip_stubs``), either of which may come first.
ANY_DECLARATIONS = r"""#ifndef __HPY_ANY_DECLARED
#define __HPY_ANY_DECLARED 1
#define __HPY_HD __attribute__((host)) __attribute__((device))
struct __hpy_any {
  template <class T> __HPY_HD constexpr operator T() const { return T(); }
  template <class... A> __HPY_HD constexpr __hpy_any operator()(A&&...) const { return {}; }
  template <class T> __HPY_HD __hpy_any operator[](T&&) const { return {}; }
  __HPY_HD const __hpy_any* operator->() const { return this; }
  __HPY_HD __hpy_any operator!() const { return {}; }
  __HPY_HD __hpy_any operator~() const { return {}; }
  __HPY_HD __hpy_any operator-() const { return {}; }
  __HPY_HD __hpy_any operator*() const { return {}; }
};
// By value: for (any, any) all three candidates are exact matches and the non-template wins,
// where forwarding references would make the two templates ambiguous.
#define __HPY_BINOP(op) \
  template <class T> __HPY_HD __hpy_any operator op(__hpy_any, T) { return {}; } \
  template <class T> __HPY_HD __hpy_any operator op(T, __hpy_any) { return {}; } \
  __HPY_HD inline __hpy_any operator op(__hpy_any, __hpy_any) { return {}; }
__HPY_BINOP(==) __HPY_BINOP(!=) __HPY_BINOP(<) __HPY_BINOP(>) __HPY_BINOP(<=) __HPY_BINOP(>=)
__HPY_BINOP(+) __HPY_BINOP(-) __HPY_BINOP(*) __HPY_BINOP(/) __HPY_BINOP(%)
__HPY_BINOP(&) __HPY_BINOP(|) __HPY_BINOP(^) __HPY_BINOP(<<) __HPY_BINOP(>>) __HPY_BINOP(&&) __HPY_BINOP(||)
#undef __HPY_BINOP
#define __HPY_ASSIGNOP(op) template <class T> __HPY_HD T& operator op(T& a, __hpy_any) { return a; }
__HPY_ASSIGNOP(+=) __HPY_ASSIGNOP(-=) __HPY_ASSIGNOP(*=) __HPY_ASSIGNOP(/=) __HPY_ASSIGNOP(%=)
__HPY_ASSIGNOP(&=) __HPY_ASSIGNOP(|=) __HPY_ASSIGNOP(^=) __HPY_ASSIGNOP(<<=) __HPY_ASSIGNOP(>>=)
#undef __HPY_ASSIGNOP
constexpr __hpy_any __hpy_macro{};
#endif
"""

# What every CUDA translation unit has before any include: execution-space attributes,
# builtin variables, and what ``<<<>>>`` lowers to (clang needs ``cudaConfigureCall`` or it
# drops every launch).
FIXED_PRELUDE = (
    r"""#pragma once
#pragma clang system_header
#include <stdlib.h> /* clang's cuda_wrappers/new needs ::malloc, as the real runtime wrapper provides */
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __CUDACC__ 1
typedef __SIZE_TYPE__ __hpy_size_t;
"""
    + ANY_DECLARATIONS
    + r"""struct uint3 { unsigned int x, y, z; };
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;
typedef struct CUstream_st *cudaStream_t;
extern "C" int cudaConfigureCall(dim3, dim3, __hpy_size_t = 0, cudaStream_t = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3, dim3, __hpy_size_t = 0, cudaStream_t = 0);
// Namespaces CUDA code aliases (``namespace cg = cooperative_groups;``) that the table has no
// rows for; an alias of an undeclared namespace is an error that poisons every use.
namespace cooperative_groups {}
namespace thrust {}
namespace nvcuda { namespace wmma {} }
"""
)

# Declared by FIXED_PRELUDE (or clang builtins); the generator must not redeclare them.
FIXED_NAMES = frozenset(
    {
        "uint3",
        "dim3",
        "threadIdx",
        "blockIdx",
        "blockDim",
        "gridDim",
        "warpSize",
        "cudaStream_t",
        "cudaConfigureCall",
        "__cudaPushCallConfiguration",
        "cooperative_groups",
        "thrust",
        "nvcuda",
        "__host__",
        "__device__",
        "__global__",
        "__shared__",
        "__constant__",
        "__managed__",
        "__launch_bounds__",
        "__forceinline__",
        "__noinline__",
        "__restrict__",
        "__CUDACC__",
    }
)

# Header names every CUDA project may include, beyond those the table names.
_COMMON_HEADERS = (
    "cuda.h",
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    "device_launch_parameters.h",
    "device_functions.h",
    "driver_types.h",
    "vector_types.h",
    "cuda_fp16.h",
    "cuda_bf16.h",
    "cooperative_groups.h",
    "cublas_v2.h",
    "cublas.h",
    "cufft.h",
    "curand.h",
    "curand_kernel.h",
    "cusparse.h",
    "cusolverDn.h",
    "cudnn.h",
    "nvrtc.h",
    "cub/cub.cuh",
    "helper_cuda.h",
    "helper_functions.h",
)


def valid_name(name: str) -> bool:
    return bool(_IDENT.match(name)) and name not in FIXED_NAMES and name not in RESERVED_NAMES


def generate(table: MappingTable, library: frozenset[str] = frozenset()) -> str:
    """The prelude text: fixed part, then one declaration per table name, grouped by kind.

    ``library``: names the C/C++ standard headers declare (``sqrtf``, ``abs``, ``min``).
    Those are not declared again: an overload would change how the standard headers parse.
    """
    by_kind: dict[str, list[str]] = defaultdict(list)
    parents: dict[str, list[str]] = defaultdict(list)  # enum/struct name -> constants/fields
    for row in table:
        if not valid_name(row.cuda):
            continue
        if row.kind in ("function", "device_function") and row.cuda in library:
            continue
        by_kind[row.kind].append(row.cuda)
        if row.kind in ("enum_constant", "field") and row.parent and _IDENT.match(row.parent):
            parents[row.parent].append(row.cuda)

    out = [FIXED_PRELUDE, "// ---- generated from the mapping table ----"]
    declared: set[str] = set(FIXED_NAMES)
    macros = set(by_kind.get("macro", ()))

    def claim(name: str) -> bool:
        if name in declared or name in macros:
            return False
        declared.add(name)
        return True

    for name in by_kind.get("namespace", ()):
        if claim(name):
            out.append(f"namespace {name} {{}}")

    # Enums: one per parent of enum constants; the constants themselves must be unique.
    enum_constants = set(by_kind.get("enum_constant", ()))
    enum_parents = {p for p, members in parents.items() if any(m in enum_constants for m in members)}
    for parent in sorted(enum_parents):
        members = [m for m in parents[parent] if m in enum_constants and claim(m)]
        if not claim(parent):
            out.append(f"enum {{ {', '.join(members)} }};" if members else "")
            continue
        out.append(f"enum {parent} {{ {', '.join(members)} }};")
    loose = [m for m in by_kind.get("enum_constant", ()) if claim(m)]
    if loose:
        out.append(f"enum {{ {', '.join(loose)} }};")

    # Types: ``X_t`` aliasing a known enum ``X``; other ``*_t`` are opaque handles;
    # the rest are structs with the fields the table knows.
    types = list(by_kind.get("type", [])) + [p for p in parents if p not in enum_parents and p not in declared]
    for name in dict.fromkeys(types):
        if not claim(name):
            continue
        stem = name[:-2] if name.endswith("_t") else ""
        if stem and stem in enum_parents:
            out.append(f"typedef enum {stem} {name};")
        elif stem:
            out.append(f"typedef struct __hpy_{name}_st *{name};")
        else:
            fields = [f for f in parents.get(name, ()) if f not in enum_constants]
            body = " ".join(f"__hpy_any {f};" for f in dict.fromkeys(fields))
            out.append(f"struct {name} {{ {body} }};")

    for name in by_kind.get("function", ()):
        if claim(name):
            out.append(f"template <class... E, class... A> __host__ __device__ __hpy_any {name}(A&&...);")
    for name in by_kind.get("device_function", ()):
        if claim(name):
            out.append(f"template <class... E, class... A> __host__ __device__ __hpy_any {name}(A&&...);")
    for name in sorted(macros - FIXED_NAMES):
        if name not in declared:
            declared.add(name)
            out.append(f"#define {name} __hpy_macro")
    return "\n".join(line for line in out if line) + "\n"


def header_names(table: MappingTable) -> tuple[str, ...]:
    """CUDA header names to stub: the table's header rows and declaring headers, plus common ones."""
    names = set(_COMMON_HEADERS)
    for row in table:
        for candidate in ((row.cuda,) if row.kind == "header" else ()) + (row.cuda_header,):
            if candidate and re.fullmatch(r"[\w./+-]+\.(h|hpp|cuh|hxx|inl)", candidate) and ".." not in candidate:
                names.add(candidate)
    return tuple(sorted(names))
