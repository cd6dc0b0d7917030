"""hipify-py: translate CUDA sources to HIP."""

from __future__ import annotations

__version__ = "0.1.0"

from .api import Result, compat_header, translate, translate_files
from .options import Options

__all__ = ["Options", "Result", "__version__", "compat_header", "translate", "translate_files"]
