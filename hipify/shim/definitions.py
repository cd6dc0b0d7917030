"""What the header writes for one CUDA name: a definition derived from its table row and the planner's decision.

Each kind of row has one form, the one that gives uses of the CUDA name what the translation writes at them:

- a name HIP spells otherwise: ``#define cudaMalloc hipMalloc`` (a macro, not an alias: it also reaches
  ``struct cudaDeviceProp``, ``enum cudaMemcpyKind``, names used both as a type and as a function, and C files);
- an argument transform: ``wrap_arg`` with a macro wrapper (``HIP_SYMBOL``) is a function-like macro wrapping that
  argument; with a cast (``reinterpret_cast<const void*>`` for a kernel) it is a C++ adaptor whose parameters are
  the HIP function's own, so that ``0`` still converts to a stream and a kernel template's commas
  (``k<float, 4>``) stay inside one argument; ``by_arity`` is an adaptor holding each HIP function of the row, which
  the call's arguments choose among as the translation's argument count does;
- a calling-convention macro HIP lacks (``remove``): defined empty, as CUDA defines it on Linux;
- a CUDA header's include-guard macro (what ``#ifdef __CUDA_RUNTIME_H__`` asks): defined once the HIP header
  standing for it is in;
- an enumeration HIP lacks altogether (``cudaEmulationMantissaControl`` and its enumerators): declared under its
  CUDA name, so that a helper passing such a value along still compiles (the translation disables such a helper
  where nothing uses it); no HIP API takes the values, so every call that would is still an error where it stands,
  and each use is reported;
- nvcc's own macros: ``__CUDACC__`` as HIP's counterpart where hipcc defines it, and the version and architecture
  numbers of the CUDA build the translation decides conditions as (``rewrite.build_target``), ``__CUDA_ARCH__`` in
  the device pass only, as nvcc defines it.

Nothing here names a CUDA API: the row says which form applies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..knowledge.table import Row
from ..rewrite.build_target import ASSUMED, NEWEST, Build
from ..rewrite.rules.build_conditions import DEVICE_PASS
from ..rewrite.status import Decision

# Sections of the header, in the order they are written.
COMPILER, GUARD, RENAME, REMOVED, MACRO_CALL, ADAPTED_CALL, PLACEHOLDER = (
    "compiler",
    "guard",
    "rename",
    "removed",
    "macro_call",
    "adapted_call",
    "placeholder",
)
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*\Z")
SIGNATURE_CHANGED = "HPY113"  # a call's target takes another CUDA version's declaration
# A version or ILP64 suffix of a HIP function (hipMemAdvise_v2): what the table's ``newer`` status strips
_VERSION_SUFFIX = re.compile(r"(?:_v\d+|_64)+\Z")
_CAST = re.compile(r"(?:reinterpret|static|const)_cast<.*>\Z|\(.*\)\Z")


@dataclass(frozen=True)
class Definition:
    """The text defining one CUDA name, and the section it belongs to."""

    name: str  # the CUDA name
    section: str
    target: str  # what it stands for (the HIP name, or the macro's value)
    text: str  # the C text: one or more lines, without a final newline
    c_text: str = ""  # where the text needs C++ (an adaptor): what C translation units get instead ("" = nothing)
    settles: tuple[str, ...] = ()  # the codes of the translation's findings at the name's uses it makes needless


def definition_for(row: Row, decision: Decision, build: Build = NEWEST) -> Definition | None:
    """The definition standing for ``row``'s CUDA name, given the planner's decision on it (None: nothing to define:
    HIP spells it the same, or has no target, or a namespace alias covers it); ``build``: the CUDA build nvcc's
    version and architecture macros are defined as."""
    name = row.cuda
    transform = row.transform
    if not _IDENTIFIER.match(name):
        return None  # a qualified name (cub::X): its namespace's alias stands for it
    if name in ASSUMED:  # decided whatever HIP has (the translation decides the conditions it takes part in)
        return _assumed(name, build)
    if transform is not None and transform.kind == "remove":  # no target: the translation deletes it
        return Definition(name, REMOVED, "", f"#define {name}")
    target = decision.target
    if not target or "::" in target:
        return None
    if row.kind == "macro" and row.source == "include-guard":
        return Definition(name, GUARD, target, _when_defined(target, name, ""))
    if row.api == "compiler" or (transform is not None and transform.kind == "defined_only"):
        return Definition(name, COMPILER, target, _when_defined(target, name, target))
    if transform is not None and transform.kind == "by_arity":
        functions = [target, *(n for _, n in transform.arity if n != target)]
        pointers = ", ".join(f"&{f}" for f in functions)
        text = f"#define {name} ::hipify_shim::overloads({pointers})"
        return Definition(name, ADAPTED_CALL, target, text, f"#define {name} {target}")
    if transform is not None and transform.kind == "wrap_arg":
        return _wrapped(name, target, transform.arg, transform.wrapper)
    if _signature(row, decision.roc) == "newer":
        return _both_declarations(name, target)
    if target == name:
        return None
    return Definition(name, RENAME, target, f"#define {name} {target}")


def _signature(row: Row, roc: bool) -> str:
    return row.roc_signature if roc else row.hip_signature


def _both_declarations(name: str, target: str) -> Definition:
    """A function CUDA 13 redeclared with as many parameters (``cudaMemAdvise``'s device number became a location):
    the target takes CUDA 13's declaration and the same-named function without the version suffix the older one
    (the table's ``newer``), so an overload set of both lets each call's argument types choose, as code written for
    either CUDA compiles; the translation can only name one per call and reports it (HPY113)."""
    older = _VERSION_SUFFIX.sub("", target)
    if older == target:
        return Definition(name, RENAME, target, f"#define {name} {target}")
    text = f"#define {name} ::hipify_shim::overloads(&{target}, &{older})"
    return Definition(name, ADAPTED_CALL, target, text, f"#define {name} {target}", settles=(SIGNATURE_CHANGED,))


def _assumed(name: str, build: Build) -> Definition:
    """A version or architecture macro nvcc defines and hipcc does not: the number ``build`` has, in the passes nvcc
    defines it in."""
    assumed = build.assumed(name)
    if assumed.device == assumed.host and assumed.device is not None:
        value = str(assumed.device)
        return Definition(name, COMPILER, value, f"#if !defined({name})\n#define {name} {value}\n#endif")
    lines = [f"#if !defined({name})"]
    if assumed.device is not None:
        lines += [f"#if defined({DEVICE_PASS})", f"#define {name} {assumed.device}"]
        if assumed.host is not None:
            lines += ["#else", f"#define {name} {assumed.host}"]
        lines.append("#endif")
    elif assumed.host is not None:
        lines += [f"#if !defined({DEVICE_PASS})", f"#define {name} {assumed.host}", "#endif"]
    lines.append("#endif")
    value = str(assumed.device if assumed.device is not None else assumed.host)
    return Definition(name, COMPILER, value, "\n".join(lines))


def _when_defined(target: str, name: str, value: str) -> str:
    """``name`` defined (as ``value``) where the HIP macro ``target`` is: what a test of whether it is defined asks."""
    definition = f"#define {name} {value}".rstrip()
    return f"#if defined({target}) && !defined({name})\n{definition}\n#endif"


def _wrapped(name: str, target: str, arg: int, wrapper: str) -> Definition:
    """A call whose argument ``arg`` HIP takes as ``wrapper(argument)``."""
    if _IDENTIFIER.match(wrapper):  # a macro (HIP_SYMBOL): applied where the argument is written
        params = [f"a{i}" for i in range(arg + 1)]
        args = [*params[:-1], f"{wrapper}({params[-1]})"]
        head = ", ".join(params)
        text = f"#define {name}({head}, ...) {target}({', '.join(args)}, ##__VA_ARGS__)"
        return Definition(name, MACRO_CALL, target, text)
    if _CAST.match(wrapper):  # a conversion: the adaptor converts the argument to the HIP parameter's type
        text = f"#define {name} ::hipify_shim::converting<{arg}>(&{target})"
        return Definition(name, ADAPTED_CALL, target, text, f"#define {name} {target}")
    return Definition(name, RENAME, target, f"#define {name} {target}")


def placeholder_enum(name: str, constants: tuple[str, ...]) -> Definition:
    """An enumeration HIP lacks, declared under its CUDA name with its enumerators (in the table's order, which is
    not CUDA's: their values mean nothing to HIP, which has no API taking them)."""
    return Definition(name, PLACEHOLDER, "", f"enum {name} {{ {', '.join(constants)} }};")
