"""The table of nvcc's whole option set (mapping_tables/nvcc/options.json), generated from nvcc's --help."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from hipify.buildfiles import BuildContext
from hipify.buildfiles.nvcc_help import parse_help, shipped_options, table_file
from hipify.buildfiles.nvcc_options import KIND_STEP, translate_option
from hipify.buildfiles.nvcc_table import coverage, render, table_rows

ROOT = Path(__file__).resolve().parent.parent

HELP = """
Options for specifying the compilation phase
============================================
--cuda                                              (-cuda)
        Compile all .cu input files to .cu.cpp.ii output.

--lib                                               (-lib)
        Compile all inputs into object files (if necessary), and add the results to the specified library output file.

File and path specifications.
=============================
--output-directory <directory>                      (-odir)
        Specify the directory of the output file.

--pre-include <file>,...                            (-include)
--no-align-double                                   --no-align-double
--std {c++03|c++11|c++14|c++17|c++20}               (-std)
"""


def test_the_help_text_gives_each_option_its_spellings_value_and_section() -> None:
    options = parse_help(HELP)
    assert [(o.long, o.short, o.value) for o in options] == [
        ("--cuda", "-cuda", ""),
        ("--lib", "-lib", ""),
        ("--output-directory", "-odir", "<directory>"),
        ("--pre-include", "-include", "<file>,..."),
        ("--no-align-double", "", ""),
        ("--std", "-std", "{c++03|c++11|c++14|c++17|c++20}"),
    ]
    assert options[0].section == "Options for specifying the compilation phase"
    assert options[2].section == "File and path specifications"


def test_every_option_of_the_committed_table_has_a_decision() -> None:
    rows = table_rows(shipped_options())
    decided, total = coverage(rows)
    assert total >= 140  # nvcc 13.0 prints 143
    assert decided == total, [r["long"] for r in rows if r["kind"] == "unknown"]


def test_the_committed_table_is_what_the_handlers_say_now() -> None:
    """A changed handler regenerates the table (``python -m hipify.buildfiles.nvcc_table refresh``)."""
    committed = table_file().read_text(encoding="utf-8")
    generated_from = json.loads(committed)["generated_from"]
    assert render(shipped_options(), generated_from) == committed


def test_modes_are_whole_steps_never_half() -> None:
    rows = {r["short"] or r["long"]: r for r in json.loads(table_file().read_text(encoding="utf-8"))["options"]}
    for mode in ("-cuda", "-E", "-M", "-MM", "-MD", "-MMD", "-lib", "-dlink", "-run", "-ptx", "-cubin", "-fatbin"):
        assert rows[mode]["kind"] in (KIND_STEP, "hand"), mode
    assert rows["-run"]["hipcc"] == "(left as written, reported)"
    assert rows["-lib"]["hipcc"] == "--emit-static-lib"


def test_an_option_is_known_under_both_its_spellings_from_the_table() -> None:
    context = BuildContext()
    change = translate_option(["--no-exceptions"], 0, context)
    assert change is not None and change.words == ("-fno-exceptions",)
    change = translate_option(["-noeh"], 0, context)
    assert change is not None and change.words == ("-fno-exceptions",)
    # a valued option takes its value word with it, under either spelling
    for spelling in ("-odir", "--output-directory"):
        change = translate_option([spelling, "build", "a.cu"], 0, context)
        assert change is not None and change.consumed == 2 and change.hand_work
    # clang's own spelling is left (-I, -o are nvcc's short forms of --include-path, --output-file)
    assert translate_option(["-I", "inc"], 0, context) is None
    assert translate_option(["-o", "a.o"], 0, context) is None


def test_docs_state_the_coverage() -> None:
    rows = table_rows(shipped_options())
    decided, total = coverage(rows)
    docs = (ROOT / "docs" / "buildfiles.md").read_text(encoding="utf-8")
    assert re.search(rf"\b{decided} of the {total} options\b", docs)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc (the CUDA toolkit) to read its --help")
def test_the_installed_nvcc_prints_no_option_the_table_lacks() -> None:
    text = subprocess.run(["nvcc", "--help"], capture_output=True, text=True, check=True, timeout=60).stdout
    known = {o.long for o in shipped_options()}
    assert {o.long for o in parse_help(text)} <= known
