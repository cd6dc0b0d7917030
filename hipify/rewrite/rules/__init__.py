"""The rewrite rules, one module each with one ``@register``ed function.

Importing this package imports every module in it, which registers its rule; the planner
runs the rules in name order.
"""

from __future__ import annotations

import importlib
import pkgutil

RULE_MODULES = tuple(sorted(info.name for info in pkgutil.iter_modules(__path__)))
for _name in RULE_MODULES:
    importlib.import_module(f"{__name__}.{_name}")
