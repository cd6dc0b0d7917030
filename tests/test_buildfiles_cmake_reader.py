"""The CMake reader: commands and arguments with exact spans, comments, problems reported, never an exception."""

from __future__ import annotations

import pytest

from hipify.buildfiles.cmake_reader import BRACKET, QUOTED, UNQUOTED, read, references, split_list


def _args(text: str, index: int = 0) -> list[tuple[str, str, int]]:
    command = read(text).commands[index]
    return [(a.kind, a.value, a.depth) for a in command.args]


def test_spans_are_the_text_they_name() -> None:
    text = 'set(A [==[x]]y]==] "q\\"s" u${B}v a"b c"d $(MK)) # c\n'
    listfile = read(text)
    (command,) = listfile.commands
    assert text[command.start : command.end] == text[: text.index(" #")]
    spelled = [text[a.start : a.end] for a in command.args]
    assert spelled == ["A", "[==[x]]y]==]", '"q\\"s"', "u${B}v", 'a"b c"d', "$(MK)"]
    assert [a.kind for a in command.args] == [UNQUOTED, BRACKET, QUOTED, UNQUOTED, UNQUOTED, UNQUOTED]
    assert command.args[1].value == "x]]y"
    assert text[command.args[1].value_start :].startswith("x]]y")
    assert text[command.args[2].value_start :].startswith('q\\"s')
    assert listfile.comments == ((text.index("#"), len(text) - 1),)


def test_comments_hide_commands_and_arguments() -> None:
    text = "#[[ set(A B)\n]] message(x) # set(C D)\n#[=[\n]]\n]=]\nfoo(a # (b\n c)\n"
    listfile = read(text)
    assert [c.name for c in listfile.commands] == ["message", "foo"]
    assert _args(text, 1) == [(UNQUOTED, "a", 0), (UNQUOTED, "c", 0)]
    assert not listfile.problems


def test_nested_parentheses_are_not_arguments_and_keep_their_depth() -> None:
    assert _args("if((A AND B) OR C)") == [
        (UNQUOTED, "A", 1),
        (UNQUOTED, "AND", 1),
        (UNQUOTED, "B", 1),
        (UNQUOTED, "OR", 0),
        (UNQUOTED, "C", 0),
    ]


def test_names_keep_their_case_and_compare_without_it() -> None:
    command = read("Add_Executable (t a.cu)").commands[0]
    assert command.name == "Add_Executable" and command.key == "add_executable"


def test_multiline_quoted_argument_and_escaped_separators() -> None:
    assert _args('set(X "a\nb" c\\ d)') == [(UNQUOTED, "X", 0), (QUOTED, "a\nb", 0), (UNQUOTED, "c\\ d", 0)]


@pytest.mark.parametrize(
    "text, problem",
    [
        ('set(A "open', "unterminated quoted argument"),
        ("set(A [[open", "unterminated bracket argument"),
        ("#[[ open", "unterminated bracket comment"),
        ("set(A B", "is not closed"),
        ("set A B\nmessage(x)", "without '('"),
        ("!!\nmessage(x)", "unexpected"),
    ],
)
def test_bad_text_is_reported_not_raised(text: str, problem: str) -> None:
    listfile = read(text)
    assert any(problem in p.message for p in listfile.problems)
    if "message(x)" in text:
        assert [c.name for c in listfile.commands] == ["message"]


def test_references_and_lists() -> None:
    refs = references("a${CMAKE_CUDA_FLAGS}b$ENV{CUDA_PATH}${x${y}}", offset=10)
    assert [(r.name, r.scope, r.start) for r in refs] == [
        ("CMAKE_CUDA_FLAGS", "", 11),
        ("CUDA_PATH", "ENV", 31),
        ("y", "", 49),
    ]
    assert split_list("a;;b\\;c;[x;y];") == [(0, 1), (3, 7), (8, 13)]
