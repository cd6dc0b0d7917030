"""Golden pairs: tests/cases/<family>/<name>.cu -> <name>.hip, with every engine.

An optional first line ``// hipify-py-flags: ...`` holds CLI flags (parsed by the CLI's own
parser), plus the test-only ``--path NAME`` to translate the text as if it were NAME (to
exercise rules that depend on the file's extension). ``pytest --update-golden`` rewrites the
.hip files from the regex engine's output; review the diff before committing.

Per-engine expectations: ``<name>.clang.hip`` next to ``<name>.hip`` is what the clang engine
must produce, for the rare case where the AST-aware engine is right and the regex engine
cannot be (a branch only the real preprocessor knows is skipped, a member only the parser
can resolve). ``--update-golden`` rewrites an existing .clang.hip from the clang engine and
never creates one. A .clang.hip equal to its .hip is an error: the exception must stay rare
and mean something.
"""

from __future__ import annotations

import shlex
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import CASES, case_flags, options_from_flags

from hipify.knowledge.table import MappingTable
from hipify.options import Options
from hipify.translation.api import translate
from hipify.translation.engines import clang_status

CASE_FILES = sorted(CASES.rglob("*.cu"))
ENGINES = ("regex", "clang")


def _read(path: Path) -> str:
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def _write(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def case_options(text: str, name: str) -> tuple[Options, str]:
    """(options, path to translate as) from a case's flags line."""
    words = shlex.split(case_flags(text))
    path = name
    if "--path" in words:
        at = words.index("--path")
        path = words[at + 1]
        del words[at : at + 2]
    return options_from_flags(shlex.join(words)), path


def _id(path: Path) -> str:
    return str(path.relative_to(CASES).with_suffix(""))


def test_there_are_many_cases() -> None:
    assert len(CASE_FILES) >= 40
    families = {p.parent.name for p in CASE_FILES}
    assert {
        "runtime",
        "includes",
        "launches",
        "device",
        "libraries",
        "macros",
        "comments_strings",
        "suppress",
        "edge",
    } <= families


def test_clang_expectations_differ() -> None:
    """A <name>.clang.hip exists only next to its case, and only where the engines disagree."""
    for path in sorted(CASES.rglob("*.clang.hip")):
        shared = path.with_name(path.name[: -len(".clang.hip")] + ".hip")
        assert path.with_name(path.name[: -len(".clang.hip")] + ".cu").exists(), f"{path}: no case"
        assert shared.exists(), f"{path}: no {shared.name}"
        assert _read(path) != _read(shared), f"{path.name} equals {shared.name}: delete it"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", CASE_FILES, ids=_id)
def test_golden(case: Path, engine: str, table: MappingTable, request: pytest.FixtureRequest) -> None:
    text = _read(case)
    options, path = case_options(text, case.name)
    if options.engine in ("regex", "clang") and options.engine != engine:
        pytest.skip(f"case runs with --engine {options.engine} only")
    if engine == "clang":
        usable, reason = clang_status()
        if not usable:
            pytest.skip(reason)
    options = replace(options, engine=engine, use_cache=False)
    table = table.at_rocm(options.rocm_version)  # as the run reads it (table_for)
    result = translate(text, path=path, options=options, table=table)
    expected_path = case.with_suffix(".hip")
    clang_path = case.with_suffix(".clang.hip")
    update = request.config.getoption("--update-golden")
    if engine == "clang" and clang_path.exists():
        expected_path = clang_path
    elif update and (engine == "regex" or options.engine == "clang"):
        _write(expected_path, result.text)
    if update and expected_path == clang_path:
        _write(clang_path, result.text)
    assert expected_path.exists(), f"missing {expected_path.name}; run pytest --update-golden"
    assert result.text == _read(expected_path)
    internal = [d for d in result.diagnostics if d.code in ("HPY202", "HPY204")]
    assert not internal, internal
    again = translate(result.text, path=path, options=options, table=table)
    assert again.text == result.text, "a second run changed the output (not idempotent)"
