"""hipify-py: translate CUDA sources to HIP."""
from __future__ import annotations

__version__ = "0.1.0"

from .api import Result, translate  # noqa: E402
from .options import Options  # noqa: E402

__all__ = ["Options", "Result", "translate", "__version__"]
