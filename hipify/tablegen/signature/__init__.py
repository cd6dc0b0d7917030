"""Signature verification: does the HIP (or ROC) target accept what a translated call passes?

For every function row, the CUDA declaration's parameter and result types are mapped through the table (the types
a translated program declares its arguments with) and compared, typedefs resolved, with the target's declaration,
both read by libclang: ``clang_tu`` parses the headers, ``declarations`` reads function signatures from a parse,
``mapping`` rewrites a CUDA type spelling through the table, ``verify`` decides per row (same, a sibling such as
``_v2``/``_64``, a definition such as ``HIPBLAS_V2``, or how they differ) and ``summary`` counts per family.
"""

from __future__ import annotations

from .verify import verify_signatures

__all__ = ["verify_signatures"]
