"""hipify-py: translate CUDA sources to HIP."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .version import __version__

__all__ = ["Options", "Result", "__version__", "compat_header", "translate", "translate_files"]

if TYPE_CHECKING:
    from .options import Options
    from .translation.api import Result, compat_header, translate, translate_files


def __getattr__(name: str) -> Any:
    """The library's API, imported on first use: the command line's warm runs need none of the engines."""
    if name == "Options":
        from .options import Options

        return Options
    if name in __all__:
        from .translation import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
