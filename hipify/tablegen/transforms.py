"""Argument rewrites that the CUDA and HIP declarations of a function pair imply (mapping_tables/README.md)."""

from __future__ import annotations

from ..knowledge.table import Transform
from .headers import HeaderIndex


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


def derive_transform(cur: HeaderIndex, hip: HeaderIndex, cuda: str, target: str) -> Transform | None:
    """Argument rewrites the two sets of declarations imply.

    wrap_arg: CUDA and HIP both take the device symbol at the same position, named ``symbol`` (HIP on AMD
    needs it wrapped in HIP_SYMBOL). by_arity: a CUDA overload whose argument count the HIP function lacks,
    served by HIP's ``...WithFlags`` variant (cudaEventCreate(e, flags) -> hipEventCreateWithFlags).
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
    kernel = _kernel_arg(cur, hip, cuda, target)
    if kernel >= 0:
        return Transform(kind="wrap_arg", arg=kernel, wrapper=KERNEL_CAST)
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
