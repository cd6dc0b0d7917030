"""Which translator reads a build file, and its translation as a :class:`hipify.translation.api.Result`-shaped value.

``translator(kind)`` is the one place that knows the formats' modules: ``make`` always, ``cmake`` once its
module provides ``translate(text, path, context)``. ``kind_of(path)`` is ``build_kind`` limited to the
formats a translator exists for, so discovery never picks up a file nothing can translate.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache, lru_cache

from . import CMAKE, MAKE, BuildContext, BuildResult, build_kind

Translator = Callable[[str, str, BuildContext], BuildResult]
_MODULES = {MAKE: "make", CMAKE: "cmake"}
_EDITOR_LEFTOVERS = ("~", ".orig", ".bak", ".rej", ".swp", ".prehip")


@cache
def translator(kind: str) -> Translator | None:
    module_name = _MODULES.get(kind)
    if module_name is None:
        return None
    try:
        module = importlib.import_module(f"{__package__}.{module_name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__package__}.{module_name}":
            raise  # the module exists and is broken: say so, never skip its files silently
        return None
    translate = getattr(module, "translate", None)
    return translate if callable(translate) else None


@lru_cache(maxsize=1 << 16)
def kind_of(path: str) -> str | None:
    """The build-file kind of ``path`` when a translator for it exists (else None). Kept per process: a run asks
    it of every file several times (the walk, the project model, the translation), and ``translator`` is kept."""
    if path.endswith(_EDITOR_LEFTOVERS):
        return None  # Makefile.orig, Makefile~: named like a build file (makefile.*), not one
    kind = build_kind(path)
    return kind if kind is not None and translator(kind) is not None else None
