"""The CUDA version a translation takes the original for: the newest one the mapping table was generated from.

Under HIP nothing says which CUDA a project was written for, so version tests (``#if CUDART_VERSION >= 11000`` in
sources, ``if(CMAKE_CUDA_COMPILER_VERSION VERSION_LESS 11.8)`` in CMake files) are decided as a build with this
CUDA decides them (``rewrite/build_target.py``, ``buildfiles/cmake.py``). ``tests/test_build_conditions.py`` keeps it
the same as the table's ``generated_from``.
"""

from __future__ import annotations

CUDA_VERSION = (13, 5)
