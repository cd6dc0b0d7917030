"""The one error generation reports (missing headers, an override that names nothing, a colliding row)."""

from __future__ import annotations


class GenerationError(Exception):
    pass
