"""Top-level declarations of a file, found in its masked text (no comments, no literals).

A declaration runs from the end of the previous one (or of a directive line) to its ``;`` or,
for a definition, to the ``}`` closing its body (and a ``;`` right after, as for a struct).
Namespaces and ``extern "C"`` blocks are transparent: what they hold is top level too.
Directive lines separate declarations. Linear in the file size.

Used to treat whole declarations at once: disable a helper that needs an API HIP lacks,
or a second overload whose parameter types HIP's types made identical to the first's.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from ..knowledge.cxx import CPP_KEYWORDS
from ..machinery.kept import KeptValues
from ..model import Span

_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_SCOPE_HEAD = re.compile(r"(?:\binline\s+)?\bnamespace\b[\w\s:]*$|\bextern\s*\"[^\"]*\"\s*$")
_TYPE_HEAD = re.compile(
    r"\b(struct|class|union|enum)\s+(?:class\s+|struct\s+)?(?:__attribute__\s*\(\(.*?\)\)\s*)?([A-Za-z_]\w*)"
)
_SPECIFIERS = CPP_KEYWORDS | {"__global__", "__device__", "__host__", "__forceinline__", "__inline__", "__noinline__"}


@dataclass(frozen=True)
class Declaration:
    start: int  # first character of the declaration
    end: int  # one past its ';' or closing '}' (';' included)
    head_end: int  # where its body '{' is (== end for a declaration without a body)
    kind: str  # "function" (a definition), "prototype", "type", "typedef", "variable", "other"
    name: str  # the declared name ("" when not found)
    name_at: int = -1  # offset of the declared name's token (-1 when not found)
    in_namespace: bool = False  # inside a namespace (named or not), not the global one (extern "C" is global)

    @property
    def span(self) -> Span:
        return (self.start, self.end)


_STRUCTURE = re.compile(r"[;{}()\[\]]")
_NON_BLANK = re.compile(r"[^\s;]")
_SEMICOLON_AFTER = re.compile(r"\s*;")


# The declarations of the masked texts read last (the project scan's, taken again by the file's translation, which
# reads the same masked text: the str key's hash is kept by the string). Bounded like the kept lexings.
_kept: KeptValues[str, tuple[tuple[Span, ...], list[Declaration]]] = KeptValues(48 << 20)


def declarations_of(masked: str, directives: tuple[Span, ...]) -> list[Declaration]:
    """:func:`top_level_declarations`, read once per masked text and directives in this process (callers must not
    change the list)."""
    found = _kept.get(masked)
    if found is not None and found[0] == directives:
        return found[1]
    declarations = top_level_declarations(masked, directives)
    _kept.put(masked, (directives, declarations), len(masked))
    return declarations


def clear_kept() -> None:
    _kept.clear()


def top_level_declarations(masked: str, directives: tuple[Span, ...] | list[Span]) -> list[Declaration]:
    """Every top-level declaration of ``masked`` (see the module doc); ``directives``: the
    sorted spans of directive lines, which separate declarations."""
    out: list[Declaration] = []
    size = len(masked)
    # Directive lines separate declarations; the spans between them are read in turn.
    gaps: list[Span] = []
    cursor = 0
    for ds, de in directives:
        if ds > cursor:
            gaps.append((cursor, ds))
        cursor = max(cursor, de)
    gaps.append((cursor, size))
    conditionals = _Conditionals(masked, directives)
    scopes: list[bool] = []  # open transparent scopes: is each a namespace (else extern "C")
    skip_to = 0  # a definition's body may run past directive lines
    for gap_start, gap_end in gaps:
        i = max(gap_start, skip_to)
        start = -1
        while i < gap_end:
            if start < 0:
                m = _NON_BLANK.search(masked, i, gap_end)
                if m is None:
                    break
                i = m.start()
                if masked[i] == "}" and scopes:
                    scopes.pop()
                    i += 1
                    continue
                start = i
            m = _STRUCTURE.search(masked, i, gap_end)
            if m is None:
                break
            i = m.start()
            c = masked[i]
            if c == ";":
                out.append(_declaration(masked, start, i + 1, i + 1, ";", any(scopes)))
                start = -1
                i += 1
            elif c == "{":
                scope = _SCOPE_HEAD.search(masked, start, i)
                if scope:
                    scopes.append("namespace" in scope.group())
                    start = -1
                    i += 1
                    continue
                end = _matching_brace(masked, i, conditionals) + 1
                after = _SEMICOLON_AFTER.match(masked, end)
                if after and not _is_function_head(masked[start:i]):
                    end = after.end()
                out.append(_declaration(masked, start, end, i, "{", any(scopes)))
                start = -1
                i = skip_to = end
            elif c in "([":
                i = _matching_bracket(masked, i) + 1
            else:  # a stray closer
                i += 1
        if start >= 0 and masked[start:gap_end].strip():
            out.append(_declaration(masked, start, gap_end, gap_end, ";", any(scopes)))  # cut by a directive
    return out


class _Conditionals:
    """The directive lines of a file with what each does to ``#if`` nesting: a body's braces are counted as the
    preprocessor reads them, one branch of each ``#if``/``#elif``/``#else`` chain (the first), never the braces of
    every branch at once (``if (i < I) {`` in one branch and ``{`` in the other open one block, not two)."""

    def __init__(self, masked: str, directives: tuple[Span, ...] | list[Span]) -> None:
        self.spans: list[Span] = []
        self.effects: list[str] = []  # "open", "branch", "close" or "" (any other directive)
        for start, end in directives:
            m = _DIRECTIVE_KEYWORD.match(masked, start, end)
            keyword = m.group(1) if m else ""
            self.spans.append((start, end))
            self.effects.append(_EFFECTS.get(keyword, ""))
        self.starts = [s for s, _ in self.spans]


_DIRECTIVE_KEYWORD = re.compile(r"\s*#\s*([A-Za-z_]+)")
_EFFECTS = {
    "if": "open",
    "ifdef": "open",
    "ifndef": "open",
    "elif": "branch",
    "elifdef": "branch",
    "elifndef": "branch",
    "else": "branch",
    "endif": "close",
}
_BRACE = re.compile(r"[{}]")


def _balanced_close(masked: str, open_at: int) -> int:
    """The first '}' after ``open_at`` with as many '{' from ``open_at`` up to it as '}' (-1: none), found with
    str.find and str.count rather than a step per brace."""
    opened = closed = 0
    pos = open_at
    while True:
        close = masked.find("}", pos)
        if close < 0:
            return -1
        opened += masked.count("{", pos, close)
        closed += 1
        if opened == closed:
            return close
        pos = close + 1


def _matching_brace(masked: str, open_at: int, conditionals: _Conditionals) -> int:
    """The '}' closing the '{' at ``open_at`` (the last offset when none does). Braces on directive lines do not
    count; where a conditional chain starts inside the body, the depth after its ``#endif`` is its first branch's;
    a chain the body starts inside of (an ``#else`` with no ``#if`` after ``open_at``) is read the same way, its
    first branch being the one holding ``open_at``."""
    spans, effects = conditionals.spans, conditionals.effects
    close = _balanced_close(masked, open_at)
    last = bisect.bisect_right(conditionals.starts, close) - 1
    if close >= 0 and (last < 0 or spans[last][1] <= open_at):
        return close  # no directive line in the body (the usual case): every brace counts
    d = bisect.bisect_right(conditionals.starts, open_at)
    depth = 0
    frames: list[list[int]] = []  # per open chain: [depth at its #if, depth at the end of its first branch or -1]
    for m in _BRACE.finditer(masked, open_at):
        at = m.start()
        inside_directive = False
        while d < len(spans) and spans[d][0] <= at:
            effect = effects[d]
            if effect == "open":
                frames.append([depth, -1])
            elif effect == "branch":
                if not frames:  # the chain began before the body: its first branch is the one holding open_at
                    frames.append([0, depth])
                frame = frames[-1]
                if frame[1] < 0:
                    frame[1] = depth
                depth = frame[0]
            elif effect == "close" and frames:
                frame = frames.pop()
                if frame[1] >= 0:
                    depth = frame[1]
            inside_directive = at < spans[d][1]
            d += 1
        if inside_directive or (d > 0 and at < spans[d - 1][1] and spans[d - 1][0] <= at):
            continue  # a brace on a directive line (``#define BEGIN {``): no code of the body
        if m.group() == "{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return at
    return len(masked) - 1


_BRACKETS = re.compile(r"[()\[\];{}]")


def _matching_bracket(masked: str, open_at: int) -> int:
    pairs = {"(": ")", "[": "]"}
    stack = [pairs[masked[open_at]]]
    for m in _BRACKETS.finditer(masked, open_at + 1):
        c = m.group()
        if c in pairs:
            stack.append(pairs[c])
        elif c == stack[-1]:
            stack.pop()
            if not stack:
                return m.start()
        elif c in ";{}":
            return m.start() - 1  # unbalanced: stop before a statement boundary
    return len(masked) - 1


def _is_function_head(head: str) -> bool:
    return head.rstrip().endswith(")") or bool(re.search(r"\)\s*(?:const|noexcept|override|final|->[^{]*)?\s*$", head))


def _declaration(masked: str, start: int, end: int, head_end: int, closer: str, scoped: bool) -> Declaration:
    head = masked[start:head_end]

    def make(kind: str, name: str, within: tuple[int, int]) -> Declaration:
        """``name`` is the last occurrence of that word in ``masked[within]``."""
        at = -1
        if name:
            for m in _IDENT.finditer(masked, *within):
                if m.group() == name:
                    at = m.start()
        return Declaration(start, end, head_end, kind, name, at, scoped)

    if head.lstrip().startswith("typedef"):
        names = [w for w in _IDENT.findall(masked, start, end) if w not in _SPECIFIERS]
        return make("typedef", names[-1] if names else "", (start, end))
    paren = _top_level_paren(_without_attributes(head))
    if paren >= 0 and not re.match(r"\s*(?:template\s*<[^>]*>\s*)?(?:struct|class|union|enum)\b", head):
        # ``__hgt2_mask`` is a name; ``__launch_bounds__``, ``__restrict__`` and ``__declspec`` are not
        words = [w for w in _IDENT.findall(head, 0, paren) if w not in _SPECIFIERS and not _ATTRIBUTE_WORD.match(w)]
        name = "operator" if "operator" in _IDENT.findall(head, 0, paren) else (words[-1] if words else "")
        if closer == "{":
            return make("function", name, (start, start + paren))
        if "=" not in head[:paren]:
            return make("prototype", name, (start, start + paren))
    m = _TYPE_HEAD.search(head)
    if m is not None and (closer == "{" or head.rstrip(" \t\r\n;").endswith(m.group(2))):
        return Declaration(start, end, head_end, "type", m.group(2), start + m.start(2), scoped)
    declarator = re.split(r"[=\[;{(]", head, maxsplit=1)[0]
    names = [w for w in _IDENT.findall(declarator) if w not in _SPECIFIERS]
    return make("variable" if names else "other", names[-1] if names else "", (start, start + len(declarator)))


_ATTRIBUTE_WORD = re.compile(r"__\w+__\Z|__declspec\Z|alignas\Z")
# An attribute with arguments before a declarator (``__launch_bounds__(256)``, ``__attribute__((used))``): its
# parentheses are no parameter list.
_ATTRIBUTE_CALL = re.compile(r"\b(?:__\w+__|__declspec|alignas)\s*\(")


def _without_attributes(head: str) -> str:
    """``head`` with each attribute's parenthesized arguments blanked (same length)."""
    if "(" not in head or _ATTRIBUTE_CALL.search(head) is None:
        return head
    out = list(head)
    for m in _ATTRIBUTE_CALL.finditer(head):
        depth, at = 0, m.end() - 1
        while at < len(head):
            if head[at] == "(":
                depth += 1
            elif head[at] == ")":
                depth -= 1
                if depth == 0:
                    break
            at += 1
        for i in range(m.end() - 1, min(at + 1, len(head))):
            out[i] = " "
    return "".join(out)


_OPERATOR_SYMBOL = re.compile(r"\boperator\s*(?:\(\s*\)|\[\s*\]|[-+*/%^&|~!=<>,]+)")


_HEAD_STOP = re.compile(r"[<>(=]")


def _top_level_paren(head: str) -> int:
    """Offset of the first '(' outside template brackets; -1 when an initializer ('=') comes first. The symbol of an
    operator's name (``operator*=``, ``operator<``, ``operator()``) is no initializer and no bracket."""
    angle = 0
    symbol = _OPERATOR_SYMBOL.search(head) if "operator" in head else None
    skip = range(symbol.start(), symbol.end()) if symbol else range(0)
    for m in _HEAD_STOP.finditer(head):  # the characters the loop acts on, found by the regex engine
        i = m.start()
        if i in skip:
            continue
        c = m.group()
        if c == "<":
            angle += 1
        elif c == ">" and angle:
            angle -= 1
        elif angle == 0 and c == "(":
            return i
        elif angle == 0 and c == "=":
            return -1
    return -1
