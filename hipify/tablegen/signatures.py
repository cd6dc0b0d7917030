"""Types paired through the signatures of backend-paired functions: hipPointerGetAttributes(hipPointerAttribute_t*,
...) wraps cudaPointerGetAttributes(cudaPointerAttributes*, ...), so cudaPointerAttributes -> hipPointerAttribute_t."""

from __future__ import annotations

from collections import defaultdict

from .headers import HeaderIndex
from .pairs import CUDA_ISH, HIP_ISH


def parameter_type_votes(pairs: dict[str, set[str]], cuda: HeaderIndex, hip: HeaderIndex) -> dict[str, set[str]]:
    """CUDA type -> the HIP types found in the same parameter position (same pointer depth) of a paired function
    with as many parameters. A CUDA type voted for two HIP types is ambiguous (the matcher leaves it out)."""
    votes: dict[str, set[str]] = defaultdict(set)
    for cuda_name, hips in pairs.items():
        cuda_decls = [h.decl for h in cuda.names.get(cuda_name, ()) if h.decl.kind == "function" and h.decl.param_types]
        for hip_name in hips:
            hip_decls = [
                h.decl for h in hip.names.get(hip_name, ()) if h.decl.kind == "function" and h.decl.param_types
            ]
            for hd in hip_decls:
                for cd in cuda_decls:
                    if len(cd.param_types) != len(hd.param_types):
                        continue
                    for ct, ht in zip(cd.param_types, hd.param_types, strict=True):
                        ct, ht = ct.removeprefix("const "), ht.removeprefix("const ")
                        cb, hb = ct.rstrip("*"), ht.rstrip("*")
                        if (
                            len(ct) - len(cb) == len(ht) - len(hb)
                            and CUDA_ISH.match(cb)
                            and HIP_ISH.match(hb)
                            and cb in cuda
                            and hb in hip
                        ):
                            votes[cb].add(hb)
    return votes
