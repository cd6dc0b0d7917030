"""A small reader of GNU make files: statements and the words in them, with offsets into the original text.

Not a make interpreter: it reads what the translation needs (variable assignments ``= := ::= ?= += !=`` with
``export``/``override`` and continuation lines, rules with their inline recipe, recipe lines, includes,
conditionals, ``define`` blocks, comments) and splits values and recipes into words, keeping ``$(...)`` /
``${...}`` references and quoted strings whole, so that an edit replaces exactly the words it means and a
comment is never a word. No maintained Python library reads makefiles with the positions of their words
(the ones on PyPI evaluate a makefile and lose where each word came from), so this is ours.

API: :func:`read` ``(text) -> tuple[Statement, ...]``; :func:`references` ``(text) -> names of $(X) in it``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

ASSIGN = "assign"  # NAME op value (also a target-specific one: target: NAME op value)
RULE = "rule"  # targets: prerequisites [; recipe]
RECIPE = "recipe"  # a TAB line of a rule (a shell command)
INCLUDE = "include"  # include / -include / sinclude
CONDITIONAL = "conditional"  # ifeq/ifneq/ifdef/ifndef/else/endif (the keyword is its name, the condition its words)
DEFINE = "define"  # define NAME ... endef (the body is the value)
OTHER = "other"  # export NAME, vpath, anything else
COMMENT = "comment"
BLANK = "blank"

_CONDITIONALS = ("ifeq", "ifneq", "ifdef", "ifndef", "else", "endif")
_INCLUDES = ("include", "-include", "sinclude")
_ASSIGN_OPS = (":::=", "::=", ":=", "?=", "+=", "!=", "=")
# Shell control operators that end one command of a recipe line and start the next.
SHELL_OPERATORS = ("&&", "||", ";", "|", "(", ")", "&")
_OPERATOR_STARTS = frozenset(op[0] for op in SHELL_OPERATORS)

# The characters each scan below stops at; the runs between them are skipped by the regex engine, not a Python
# loop (the makefiles' bulk is plain words).
_COMMENT_STOP = re.compile(r"[\\$#)}]")  # _comment_start
_PLAIN = re.compile(r"[^\\$ \t\n'\"]*")  # _word_end outside $(...)
_PLAIN_SHELL = re.compile(r"[^\\$ \t\n'\"`&|;()]*")  # the same in a shell command
_IN_REFERENCE = re.compile(r"[^\\$(){}]*")  # _word_end inside $(...)
_DOUBLE_QUOTED = re.compile(r'(?:[^"\\]+|\\.)*', re.DOTALL)  # a "..." body, up to its closing quote
_ASSIGNMENT_STOP = re.compile(r"[$:?+!=;]")  # _assignment: '$(' and each operator's first character
_REFERENCE_STOP = re.compile(r"[$)}]")  # _assignment inside $(...)
_FIRST_WORD = re.compile(r"[ \t]*(\S+)")


@dataclass(frozen=True)
class Word:
    text: str  # as written
    start: int  # offset of its first character in the file's text
    end: int

    @property
    def operator(self) -> bool:
        """A shell control operator (only recipe words can be one)."""
        return self.text in SHELL_OPERATORS


@dataclass(frozen=True)
class Statement:
    kind: str
    start: int  # offset of the logical line (continuation lines included)
    end: int  # offset of its end (before the final newline)
    # value (assign, define), prerequisites (rule), command (recipe), files (include), condition (conditional)
    words: tuple[Word, ...] = ()
    name: str = ""  # the variable (assign, define); the keyword (conditional)
    op: str = ""  # the assignment operator
    targets: tuple[Word, ...] = ()  # a rule's targets
    recipe: tuple[Word, ...] = ()  # a rule's inline recipe (after ';')


def _logical_lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of each logical line: a line ending in an odd number of backslashes continues."""
    lines: list[tuple[int, int]] = []
    pos, n = 0, len(text)
    while pos < n:
        start = pos
        while True:
            nl = text.find("\n", pos)
            end = n if nl < 0 else nl
            j = end
            while j > start and text[j - 1] == "\\":
                j -= 1
            backslashes = end - j
            if backslashes % 2 == 1 and nl >= 0:
                pos = nl + 1
                continue
            break
        lines.append((start, end))
        pos = end + 1
    return lines


def _comment_start(text: str, start: int, end: int) -> int:
    """Where a make comment starts in text[start:end] (end if none): an unescaped # outside $(...)."""
    depth = 0
    i = start
    search = _COMMENT_STOP.search
    while i < end:
        m = search(text, i, end)
        if m is None:
            return end
        i = m.start()
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "$" and i + 1 < end and text[i + 1] in "({":
            depth += 1
            i += 2
            continue
        if depth and c in ")}":
            depth -= 1
        elif c == "#" and not depth:
            return i
        i += 1
    return end


def split_words(text: str, start: int, end: int, shell: bool = False) -> tuple[Word, ...]:
    """Words of text[start:end]: split at blanks and backslash-newlines, never inside $(...), ${...}, quotes
    (and backquotes in shell); with ``shell``, control operators are words of their own and a word that starts
    with # begins a comment to the end of its line."""
    words: list[Word] = []
    i = start
    while i < end:
        c = text[i]
        if c in " \t\n" or (c == "\\" and i + 1 < end and text[i + 1] == "\n"):
            i += 2 if c == "\\" else 1
            continue
        if shell and c == "#":
            nl = text.find("\n", i, end)
            i = end if nl < 0 else nl
            continue
        if shell and c in _OPERATOR_STARTS:
            op = next((o for o in SHELL_OPERATORS if text.startswith(o, i)), None)
            if op is not None:
                words.append(Word(op, i, i + len(op)))
                i += len(op)
                continue
        j = _word_end(text, i, end, shell)
        words.append(Word(text[i:j], i, j))
        i = j
    return tuple(words)


def _word_end(text: str, i: int, end: int, shell: bool) -> int:
    depth = 0
    plain = _PLAIN_SHELL if shell else _PLAIN
    while i < end:
        # Runs of characters that neither end the word nor change the state, skipped at C speed.
        run = (_IN_REFERENCE if depth else plain).match(text, i, end)
        assert run is not None  # a starred class matches everywhere, if only the empty string
        i = run.end()
        if i >= end:
            break
        c = text[i]
        if c == "\\" and i + 1 < end:
            if text[i + 1] == "\n" and not depth:
                return i
            i += 2
            continue
        if c == "$" and i + 1 < end and text[i + 1] in "({":
            depth += 1
            i += 2
            continue
        if depth:
            if c in ")}":
                depth -= 1
            elif c in "({":
                depth += 1
            i += 1
            continue
        if c in " \t\n":
            return i
        if c in "'\"" or (shell and c == "`"):
            i = _quote_end(text, i + 1, end, c)
            continue
        if shell and c in _OPERATOR_STARTS:  # every operator's first character is an operator
            return i
        i += 1
    return i


def _quote_end(text: str, i: int, end: int, quote: str) -> int:
    """Past the ``quote`` that closes a quoted string whose body starts at ``i`` (``end`` if none): a backslash
    escapes the next character in double quotes only."""
    if quote != '"':
        close = text.find(quote, i, end)
        return end if close < 0 else close + 1
    body = _DOUBLE_QUOTED.match(text, i, end)
    assert body is not None  # a starred group matches everywhere, if only the empty string
    i = body.end()
    return i + 1 if i < end and text[i] == '"' else end


def _assignment(text: str, start: int, end: int) -> tuple[int, str] | None:
    """(offset of the operator, operator) when text[start:end] assigns a variable (before any rule colon)."""
    depth = 0
    i = start
    while i < end:
        m = (_REFERENCE_STOP if depth else _ASSIGNMENT_STOP).search(text, i, end)
        if m is None:
            return None
        i = m.start()
        c = text[i]
        if c == "$" and i + 1 < end and text[i + 1] in "({":
            depth += 1
            i += 2
            continue
        if depth:
            if c in ")}":
                depth -= 1
            i += 1
            continue
        for op in _ASSIGN_OPS:
            if text.startswith(op, i):
                return i, op
        if c == ":" or c == ";":
            return None
        i += 1
    return None


def _top_level(char: str, text: str, start: int, end: int) -> int:
    """The first ``char`` in ``text[start:end]`` outside a variable reference ``$(...)``/``${...}``, or -1."""
    depth = 0
    search = _top_level_stop(char).search
    i = start
    while True:
        m = search(text, i, end)
        if m is None:
            return -1
        i = m.start()
        c = text[i]
        if c == "$" and i + 1 < end and text[i + 1] in "({":
            depth += 1
        elif depth and c in ")}":
            depth -= 1
        elif not depth and c == char:
            return i
        i += 1


@functools.cache
def _top_level_stop(char: str) -> re.Pattern[str]:
    return re.compile(f"[$)}}{re.escape(char)}]")


def _first_word(text: str, start: int, end: int) -> str:
    m = _FIRST_WORD.match(text, start, end)
    return m.group(1) if m else ""


def read(text: str) -> tuple[Statement, ...]:
    """The statements of a makefile, in order."""
    out: list[Statement] = []
    in_rule = False
    define: tuple[str, int, int] | None = None  # (name, start, body start)
    for start, end in _logical_lines(text):
        line = text[start:end]
        if define is not None:
            if line.strip() == "endef" or line.strip().startswith("endef "):
                name, dstart, body = define
                out.append(Statement(DEFINE, dstart, end, split_words(text, body, max(body, start - 1)), name, "="))
                define = None
            continue
        if in_rule and line.startswith("\t"):
            out.append(Statement(RECIPE, start, end, split_words(text, start + 1, end, shell=True)))
            continue
        stripped = line.strip()
        if not stripped:
            out.append(Statement(BLANK, start, end))
            continue
        if stripped.startswith("#"):
            out.append(Statement(COMMENT, start, end))
            continue
        code_end = _comment_start(text, start, end)
        first = _first_word(text, start, code_end)
        if first in _CONDITIONALS:
            # The keyword is the name; the condition's words follow (``ifeq ($(shell which nvcc),)``).
            offset = text.index(first, start) + len(first)
            out.append(Statement(CONDITIONAL, start, end, split_words(text, offset, code_end), first))
            continue
        in_rule = False
        if first in _INCLUDES:
            offset = text.index(first, start) + len(first)
            out.append(Statement(INCLUDE, start, end, split_words(text, offset, code_end)))
            continue
        body = start
        words = stripped.split()
        # export/override/private prefixes of an assignment
        while words and words[0] in ("export", "override", "private", "unexport") and len(words) > 1:
            body = text.index(words[0], body) + len(words[0])
            words = words[1:]
        if words and words[0] == "define":
            name = words[1] if len(words) > 1 else ""
            define = (name, start, end + 1)
            continue
        assign = _assignment(text, body, code_end)
        if assign is not None:
            at, op = assign
            name = text[body:at].strip()
            out.append(Statement(ASSIGN, start, end, split_words(text, at + len(op), code_end), name, op))
            continue
        colon = _top_level(":", text, body, code_end)
        if colon < 0:
            out.append(Statement(OTHER, start, end, split_words(text, body, code_end)))
            continue
        targets = split_words(text, body, colon)
        after = colon + 1
        if after < code_end and text[after] == ":":
            after += 1
        # A target-specific assignment: target: NAME op value
        assign = _assignment(text, after, code_end)
        if assign is not None:
            at, op = assign
            name = text[after:at].strip()
            # target: export NAME := value (and override, private)
            while name.split(" ", 1)[0] in ("export", "override", "private") and " " in name:
                name = name.split(" ", 1)[1].strip()
            if name and " " not in name:
                out.append(Statement(ASSIGN, start, end, split_words(text, at + len(op), code_end), name, op, targets))
                continue
        semicolon = _top_level(";", text, after, code_end)
        prereqs = split_words(text, after, semicolon if semicolon >= 0 else code_end)
        recipe: tuple[Word, ...] = ()
        if semicolon >= 0:
            # After ';' the rest of the line is the recipe: shell text, where # does not start a make comment.
            recipe = split_words(text, semicolon + 1, end, shell=True)
        out.append(Statement(RULE, start, end, prereqs, targets=targets, recipe=recipe))
        in_rule = True
    if define is not None:  # an unterminated define: its body runs to the end
        name, dstart, body = define
        out.append(Statement(DEFINE, dstart, len(text), split_words(text, min(body, len(text)), len(text)), name, "="))
    return tuple(out)


_REFERENCE = re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_.\-]*)(?=[:)}])")


def references(text: str) -> tuple[str, ...]:
    """Names of the variables ``$(NAME)``, ``${NAME}``, ``$(NAME:a=b)`` referenced in ``text`` (nested too)."""
    return tuple(_REFERENCE.findall(text))


def reference_name(word: str) -> str:
    """``$(NAME)`` / ``${NAME}`` -> NAME; '' when the word is not exactly one variable reference."""
    m = re.fullmatch(r"\$\(([A-Za-z_][A-Za-z0-9_.\-]*)\)|\$\{([A-Za-z_][A-Za-z0-9_.\-]*)\}", word)
    if not m:
        return ""
    return m.group(1) or m.group(2)
