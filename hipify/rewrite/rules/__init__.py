"""The rewrite rules, one module each; importing this package registers them in order."""

from __future__ import annotations

from . import (  # noqa: F401
    includes,
    launches,
    namespaces,
    renames,
    runtime_include,
    unknown,
    warp_sync,
)
