"""Struct members HIP's struct lacks: read from both struct bodies (tablegen/members.py), reported at their use
(rules/missing_members.py, HPY127)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify.knowledge.table import MappingTable
from hipify.options import Options
from hipify.tablegen.members import struct_members
from hipify.translation.api import translate


def test_struct_bodies(tmp_path: Path) -> None:
    header = tmp_path / "types.h"
    header.write_text(
        "typedef struct Props_st {\n  int kind; /* a comment; with a ; */\n  union { int a; float b; };\n"
        "  struct { int x; } inner;\n  void (*callback)(void*);\n  unsigned char reserved[8], flags : 3;\n} Props_v1;\n"
        "typedef Props_v1 Props;\n"
        "struct Vec {\n  unsigned int x, y;\n  Vec(unsigned int v = 1) : x(v), y(v) {}\n"
        "  operator int() const { int t; t = x; return t; }\n  int size() const;\n};\n"
    )
    found = struct_members([header])
    members = {"kind", "a", "b", "inner", "callback", "reserved", "flags"}
    assert found["Props_st"] == found["Props_v1"] == found["Props"] == members
    assert found["Vec"] == {"x", "y"}


def test_reported_at_use(table: MappingTable) -> None:
    row = table.lookup("cudaMemPoolProps")
    if row is None or "usage" not in row.hip_missing_members.split():
        pytest.skip("the table in use records no member cudaMemPoolProps lacks in HIP (fixture table)")
    text = (
        "void f(int device, cudaMemPoolProps* many) {\n  cudaMemPoolProps props = {};\n  props.usage = 0;\n"
        "  many[1].usage = many->usage;\n  props.maxSize = 0;\n}\n"
        "struct Budget { int usage; };\nint g(const Budget& budget) { return budget.usage; }\n"
    )
    result = translate(text, path="x.cu", options=Options(engine="regex"), table=table)
    found = [(d.code, text[d.offset : d.offset + 5]) for d in result.diagnostics if d.code == "HPY127"]
    assert found == [("HPY127", "usage")] * 3
    assert "props.usage = 0;" in result.text  # left as written
