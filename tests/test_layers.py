"""The package's folders keep their layers: a folder imports only from its own layer or below, and the
folders' imports form no cycle. Every import counts: a lazy one, and one made only for type checking (a type named
from a higher layer is an arrow back up all the same: the type belongs lower, where both can name it).
docs/architecture.md shows the layout."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "hipify"
# Bottom first; a name is a folder of hipify/ or a module directly in it.
LAYERS = [
    ("version", "options", "model"),
    ("machinery",),
    ("knowledge",),
    ("buildfiles",),
    ("sources", "compat"),
    ("lexing",),
    ("rewrite",),
    ("project", "regex_mode"),
    ("clang_mode",),
    ("translation",),
    ("__init__",),
    ("reports",),
    ("output",),
    ("run", "shim"),
    ("validate",),
    ("cli", "tablegen"),
    ("__main__",),
]


def _is_module(parts: list[str]) -> bool:
    where = PACKAGE.parent.joinpath(*parts)
    return where.is_dir() or where.with_suffix(".py").exists()


def _unit(parts: list[str]) -> str:
    return parts[1] if len(parts) > 1 else "__init__"


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ["hipify", *path.relative_to(PACKAGE).with_suffix("").parts]
        package = parts[:-1]
        source = _unit(package if parts[-1] == "__init__" else parts)
        edges = graph.setdefault(source, set())
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                if node.module:
                    targets = [base + node.module.split(".")]
                else:  # from . import api: a name that is a module is the target
                    targets = [base + [a.name] if _is_module(base + [a.name]) else base for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [alias.name.split(".") for alias in node.names]
            else:
                continue
            for target in targets:
                if target and target[0] == "hipify" and _unit(target) != source:
                    edges.add(_unit(target))
    return graph


def test_no_folder_imports_a_higher_layer() -> None:
    level = {unit: i for i, layer in enumerate(LAYERS) for unit in layer}
    graph = _graph()
    assert sorted(u for u in graph if u not in level) == [], "a new folder or top-level module: give it a layer"
    upward = [f"{s} -> {t}" for s, targets in graph.items() for t in targets if level[t] > level[s]]
    assert upward == []


def test_no_import_cycle_between_folders() -> None:
    graph = _graph()
    done: set[str] = set()

    def visit(unit: str, path: tuple[str, ...]) -> None:
        assert unit not in path, " -> ".join((*path, unit))
        if unit in done:
            return
        for target in sorted(graph.get(unit, ())):
            visit(target, (*path, unit))
        done.add(unit)

    for unit in sorted(graph):
        visit(unit, ())


def _module_of(parts: list[str]) -> str | None:
    """The file (dotted, a package as its ``__init__``) that an import of ``parts`` loads, if it is ours."""
    where = PACKAGE.parent.joinpath(*parts)
    if where.with_suffix(".py").exists():
        return ".".join(parts)
    if (where / "__init__.py").exists():
        return ".".join([*parts, "__init__"])
    return None


def _module_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ["hipify", *path.relative_to(PACKAGE).with_suffix("").parts]
        package = parts[:-1]
        edges = graph.setdefault(".".join(parts), set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                module = base + node.module.split(".") if node.module else base
                # from .pkg import mod: the module is the target; from .mod import name: the module
                targets = [module + [a.name] if _module_of(module + [a.name]) else module for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [alias.name.split(".") for alias in node.names]
            else:
                continue
            edges.update(m for t in targets if t and t[0] == "hipify" and (m := _module_of(t)) and m != ".".join(parts))
    return graph


def test_no_import_cycle_between_modules() -> None:
    """Inside a folder too: two modules that import each other (even lazily) are one module split in two, or a
    shared part that belongs in a third."""
    graph = _module_graph()
    done: set[str] = set()

    def visit(unit: str, path: tuple[str, ...]) -> None:
        assert unit not in path, " -> ".join((*path[path.index(unit) :], unit))
        if unit in done:
            return
        for target in sorted(graph.get(unit, ())):
            if not target.endswith("__init__"):  # a package's __init__ re-exports its modules: not a cycle of code
                visit(target, (*path, unit))
        done.add(unit)

    for unit in sorted(graph):
        visit(unit, ())
