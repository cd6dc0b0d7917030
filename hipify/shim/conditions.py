"""Under which of the project's own conditions each CUDA header is included: the single header includes a HIP
library's header (hipCUB, RCCL, cooperative groups) under the same ones, so that a file compiled without the
project's option that selects the library does not read it (nor need it installed).

A condition is the conjunction of the ``#if`` branches around the include, as written. A branch testing a name the
header itself decides (nvcc's macros, any CUDA name of the table), a header's include guard or ``__has_include`` is
taken as true: those are not the project's options.
"""

from __future__ import annotations

import re
from collections.abc import Container

from ..lexing.lexer import lex
from ..lexing.text_facts import INCLUDE, directives_of

ALWAYS = ""  # the condition of an include outside every #if (or under none of the project's options)
_WORD = re.compile(r"[A-Za-z_]\w*")
_NOT_OPTIONS = frozenset(("defined", "__has_include", "__has_include_next", "__has_builtin", "__has_feature"))


def include_conditions(text: str, decided: Container[str]) -> list[tuple[str, str]]:
    """(included name, condition) for each include of ``text``; ``decided``: names whose tests count as true."""
    lexed = lex(text)
    directives = directives_of(text, lexed)
    defined_here = {d.argument.split("(")[0].split()[0] for d in directives if d.keyword == "define" and d.argument}
    frames: list[list[str]] = []  # per open #if: the conditions of its branches so far (the last is the current)
    found: list[tuple[str, str]] = []
    for d in directives:
        keyword, argument = d.keyword, d.argument.strip()
        if keyword in ("if", "ifdef", "ifndef"):
            frames.append([_branch(keyword, argument, decided, defined_here)])
        elif keyword in ("elif", "else") and frames:
            frame = frames[-1]
            current = _branch("if", argument, decided, defined_here) if keyword == "elif" else ALWAYS
            if any(c == ALWAYS for c in frame):  # after a branch not decided by options: taken as true too
                frame.append(ALWAYS)
                continue
            earlier = " && ".join(f"!({c})" for c in frame)
            frame.append(" && ".join(p for p in (earlier, f"({current})" if current else "") if p))
        elif keyword == "endif" and frames:
            frames.pop()
        elif keyword in ("include", "include_next"):
            m = INCLUDE.match(text, d.start, d.end)
            if m is not None:
                parts = [frame[-1] for frame in frames if frame[-1] != ALWAYS]
                found.append((m.group(2).strip(), " && ".join(f"({p})" for p in parts)))
    return found


def _branch(keyword: str, argument: str, decided: Container[str], defined_here: set[str]) -> str:
    """The condition of one branch as the project's options decide it, or ALWAYS."""
    if keyword == "ifdef":
        expression = f"defined({argument.split()[0]})" if argument else ""
    elif keyword == "ifndef":
        expression = f"!defined({argument.split()[0]})" if argument else ""
    else:
        expression = argument
    words = set(_WORD.findall(expression)) - _NOT_OPTIONS
    if not words or any(w in decided or w in defined_here or w.startswith("__") for w in words):
        return ALWAYS  # no option of the project's (a CUDA macro, an include guard, a compiler's mark)
    return expression


def any_of(conditions: list[str]) -> str:
    """Several includes' conditions as one: ALWAYS when any is."""
    if not conditions or any(c == ALWAYS for c in conditions):
        return ALWAYS
    unique = sorted(set(conditions))
    return unique[0] if len(unique) == 1 else " || ".join(f"({c})" for c in unique)
