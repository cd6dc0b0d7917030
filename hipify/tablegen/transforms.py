"""Argument rewrites that the CUDA and HIP declarations of a function pair imply (mapping_tables/README.md)."""

from __future__ import annotations

from ..knowledge.table import Transform
from .headers import HeaderIndex
from .scan import Decl


def _arities(index: HeaderIndex, name: str) -> set[int]:
    return {h.decl.params for h in index.names.get(name, ()) if h.decl.kind == "function" and h.decl.params >= 0}


KERNEL_CAST = "reinterpret_cast<const void*>"


def _generic_positions(index: HeaderIndex, name: str) -> set[int]:
    """Parameter positions a function template of ``name`` types by a template parameter (T* entry, T func)."""
    return {
        k
        for h in index.names.get(name, ())
        if h.decl.kind == "function" and h.decl.template_params
        for k, t in enumerate(h.decl.param_types)
        if t.removeprefix("const ").rstrip("*") in h.decl.template_params and len(t) - len(t.rstrip("*")) <= 1
    }


def _kernel_arg(cur: HeaderIndex, hip: HeaderIndex, cuda: str, target: str) -> int:
    """The position where CUDA's template overload takes the kernel itself (cudaFuncSetAttribute(kernel, ...))
    but HIP has only the `const void*` form (hipFuncSetAttribute(const void* func, ...)): the argument needs
    the cast (a function pointer does not convert to `const void*` implicitly; data pointers to `void*` do).
    -1 when HIP has a template overload there too (hipOccupancyMaxActiveBlocksPerMultiprocessor)."""
    hip_generic = _generic_positions(hip, target)
    void_ptr = {
        k
        for h in hip.names.get(target, ())
        if h.decl.kind == "function" and not h.decl.template_params
        for k, t in enumerate(h.decl.param_types)
        if t == "const void*"
    }
    hits = sorted(k for k in _generic_positions(cur, cuda) if k not in hip_generic and k in void_ptr)
    return hits[0] if len(hits) == 1 else -1


def _functions(index: HeaderIndex, name: str) -> list[Decl]:
    return [h.decl for h in index.names.get(name, ()) if h.decl.kind == "function" and h.decl.params >= 0]


def _migrated_arg(cur: HeaderIndex, hip: HeaderIndex, cuda: str, target: str) -> Transform | None:
    """CUDA's C++ wrapper that takes an older enum at one position and converts it before calling the C function
    (cublasGemmEx(..., cudaDataType computeType, ...) calls cublasMigrateComputeType, then the form taking a
    cublasComputeType_t) where HIP's function keeps the two types apart there too (hipblasGemmEx_v2 takes
    hipDataType for the matrices and hipblasComputeType_t for the compute type): the argument's old values
    become the new ones, as the conversion's switch maps them."""
    functions = _functions(cur, cuda)
    for wrapper in (d for d in functions if d.defined):
        for plain in (d for d in functions if not d.defined and d.params == wrapper.params):
            differ = [
                k
                for k, (a, b) in enumerate(zip(wrapper.param_types, plain.param_types, strict=True))
                if a and b and a != b
            ]
            if len(differ) != 1:
                continue
            pos = differ[0]
            old, new = wrapper.param_types[pos], plain.param_types[pos]
            if not any(new + "*" in d.param_types for callee in wrapper.calls for d in _functions(cur, callee)):
                continue  # the wrapper converts through no function that writes the new type
            values = tuple(sorted({(a, b) for a, b in cur.migration_pairs if _enumerates(cur, b, new)}))
            if values and _hip_keeps_apart(hip, target, plain, pos, old):
                return Transform(kind="migrate_arg", arg=pos, values=values)
    return None


def _enumerates(index: HeaderIndex, value: str, enum: str) -> bool:
    return any(h.decl.kind == "enum_constant" and h.decl.parent == enum for h in index.names.get(value, ()))


def _hip_keeps_apart(hip: HeaderIndex, target: str, plain: Decl, pos: int, old: str) -> bool:
    """Does a HIP declaration of ``target`` (or of its versioned sibling, which the signature check picks where
    the plain name is HIP's legacy form: hipblasGemmEx_v2 on ROCm 6) with CUDA's arity take, at ``pos``, another
    type than where CUDA's takes the old type (the matrices' data types)? A legacy form takes one type at all."""
    olds = [k for k, t in enumerate(plain.param_types) if t == old]
    names = [target, *(n for n in hip.names if n.startswith(target + "_v") and n[len(target) + 2 :].isdigit())]
    return any(
        d.params == plain.params and all(d.param_types[pos] != d.param_types[k] for k in olds)
        for name in names
        for d in _functions(hip, name)
        if d.param_types[pos]
    )


VOID_PTR_CAST = "reinterpret_cast<void**>"


def _typed_pointer_arg(cur: HeaderIndex, hip: HeaderIndex, cuda: str, target: str) -> int:
    """The position where CUDA's template overload takes a typed pointer's address (``T** pDevice``:
    cudaHostGetDevicePointer(&floatPtr, ...)) but HIP has only the ``void**`` form and no template there (a
    ``float**`` does not convert to ``void**``): the argument needs the cast. -1 otherwise."""
    typed = {
        k
        for d in _functions(cur, cuda)
        if d.template_params
        for k, t in enumerate(d.param_types)
        if t.endswith("**") and t[:-2] in d.template_params
    }
    hip_functions = _functions(hip, target)
    hip_typed = {k for d in hip_functions if d.template_params for k, t in enumerate(d.param_types) if t.endswith("**")}
    void = {k for d in hip_functions if not d.template_params for k, t in enumerate(d.param_types) if t == "void**"}
    hits = sorted((typed & void) - hip_typed)
    return hits[0] if len(hits) == 1 else -1


def _default_args(cur: HeaderIndex, hip: HeaderIndex, cuda: str, target: str) -> Transform | None:
    """Trailing parameters CUDA declares with default arguments (cudaMalloc3DArray's ``flags __dv(0)``) that every
    HIP declaration of the target with that many parameters requires: a call that leaves them out gets CUDA's
    defaults written in."""
    hip_functions = _functions(hip, target)
    for d in _functions(cur, cuda):
        if d.template_params or not d.param_defaults or d.params < 1:
            continue
        same = [h for h in hip_functions if h.params == d.params]
        if not same or len(same) != len(hip_functions) or any(h.param_defaults for h in same):
            continue
        trailing = []
        for k in range(d.params - 1, -1, -1):
            if not d.param_defaults[k]:
                break
            trailing.append((str(k), d.param_defaults[k]))
        if trailing:
            return Transform(kind="default_args", values=tuple(sorted(trailing)))
    return None


def derive_transform(cur: HeaderIndex, hip: HeaderIndex, cuda: str, target: str) -> Transform | None:
    """Argument rewrites the two sets of declarations imply.

    wrap_arg: CUDA and HIP both take the device symbol at the same position, named ``symbol`` (HIP on AMD
    needs it wrapped in HIP_SYMBOL). by_arity: a CUDA overload whose argument count the HIP function lacks,
    served by HIP's ``...WithFlags`` variant (cudaEventCreate(e, flags) -> hipEventCreateWithFlags). migrate_arg:
    an argument CUDA's C++ wrapper converts from an older enum (``_migrated_arg``). wrap_arg
    ``reinterpret_cast<void**>``: a typed pointer's address where HIP takes only ``void**`` (``_typed_pointer_arg``).
    default_args: CUDA's default arguments that HIP's declaration lacks (``_default_args``).
    """
    if not target:
        return None
    cuda_syms = {
        h.decl.param_names.index("symbol")
        for h in cur.names.get(cuda, ())
        if h.decl.kind == "function" and "symbol" in h.decl.param_names
    }
    hip_syms = {
        h.decl.param_names.index("symbol")
        for h in hip.names.get(target, ())
        if h.decl.kind == "function" and "symbol" in h.decl.param_names
    }
    if len(cuda_syms) == 1 and cuda_syms == hip_syms and "Symbol" in cuda:  # not cuGetProcAddress's name string
        return Transform(kind="wrap_arg", arg=cuda_syms.pop(), wrapper="HIP_SYMBOL")
    migrated = _migrated_arg(cur, hip, cuda, target)
    if migrated is not None:
        return migrated
    kernel = _kernel_arg(cur, hip, cuda, target)
    if kernel >= 0:
        return Transform(kind="wrap_arg", arg=kernel, wrapper=KERNEL_CAST)
    typed = _typed_pointer_arg(cur, hip, cuda, target)
    if typed >= 0:
        return Transform(kind="wrap_arg", arg=typed, wrapper=VOID_PTR_CAST)
    defaults = _default_args(cur, hip, cuda, target)
    if defaults is not None:
        return defaults
    hip_ar = _arities(hip, target)
    if hip_ar:
        variant = target + "WithFlags"
        # only overloads that add a flags parameter (not cuOccupancyMaxPotentialBlockSize's callback)
        flagged = {
            h.decl.params
            for h in cur.names.get(cuda, ())
            if h.decl.kind == "function" and any("flag" in p.lower() for p in h.decl.param_names)
        }
        choices = tuple(
            sorted((a, variant) for a in (_arities(cur, cuda) & flagged) - hip_ar if a in _arities(hip, variant))
        )
        if choices:
            return Transform(kind="by_arity", arity=choices)
    return None
