"""Turn facts about a file into edits: one planner, shared by the regex and clang engines.

Public interface: :func:`plan` (see ``planner.py``). Rules live in ``rules/``, one module
each, registered in ``registry.RULES``.
"""

from __future__ import annotations

from .planner import plan

__all__ = ["plan"]
