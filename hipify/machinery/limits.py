"""Limits on the work one file may take, checked on its text before an engine runs.

Measured on inputs that stop or swamp a parser (docs/guarantees.md): libclang recurses on
nested parentheses in an ``#if`` (a segfault at 20,000), is quadratic on long lines in its
diagnostics (1 MB: 44 s), expands doubling macros without bound (22 levels: 85 s, 3.8 GB)
and needs about 130 bytes of memory per byte of input; the planner's ``#if`` branch paths
grow with the square of the nesting depth (20,000 nested ``#if 1``: 3.2 GB). The checks are
linear, run once per file, and name the limit hit; the supervised worker's time and memory
limits (``hipify.machinery.supervise``) catch whatever they do not foresee.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Every engine: deeper #if nesting than this is refused (the C standard asks compilers for 63).
MAX_CONDITIONAL_DEPTH = 256
# The clang engine only (the regex engine is linear in these):
CLANG_MAX_BYTES = 8 * 1024 * 1024
CLANG_MAX_LINE = 64 * 1024
CLANG_MAX_NESTING = 256  # ( [ { and template-argument '<' (clang's own -fbracket-depth is 256)
CLANG_MAX_EXPANSION = 1_000_000  # tokens one use of a macro defined in the file can expand to

_CONDITIONAL = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|endif)\b", re.MULTILINE)
_DEFINE = re.compile(
    r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)\n]*\))?((?:[^\n\\]|\\.)*)", re.MULTILINE | re.DOTALL
)
_WORD = re.compile(r"[A-Za-z_]\w*")
_BRACKETS = re.compile(r"[(\[{)\]};]|(?<=[\w\s])<(?![<=])|(?<![->])>(?![>=])")


@dataclass(frozen=True)
class Breach:
    """A limit the file is over, in words for the finding."""

    what: str
    value: int
    limit: int

    def describe(self) -> str:
        return f"{self.what} is {self.value:,}, over the limit of {self.limit:,}"


def conditional_depth(text: str) -> int:
    depth = deepest = 0
    for m in _CONDITIONAL.finditer(text):
        if m.group(1) == "endif":
            depth = max(0, depth - 1)
        else:
            depth += 1
            deepest = max(deepest, depth)
    return deepest


def any_engine_breach(text: str) -> Breach | None:
    """A limit no engine may exceed (the file is then not translated)."""
    if text.count("#") <= MAX_CONDITIONAL_DEPTH:  # too few directives to nest that deep
        return None
    depth = conditional_depth(text)
    if depth > MAX_CONDITIONAL_DEPTH:
        return Breach("#if nesting depth", depth, MAX_CONDITIONAL_DEPTH)
    return None


def clang_breach(text: str, masked: str | None = None) -> Breach | None:
    """A limit the clang engine must not be given (the regex engine translates the file instead).

    ``masked``: the text with comments and literal interiors blanked (the lexer's), so that
    brackets in comments do not count.
    """
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > CLANG_MAX_BYTES:
        return Breach("the file's size in bytes", size, CLANG_MAX_BYTES)
    longest = longest_line(text)
    if longest > CLANG_MAX_LINE:
        return Breach("the longest line's length", longest, CLANG_MAX_LINE)
    nesting = bracket_depth(masked if masked is not None else text)
    if nesting > CLANG_MAX_NESTING:
        return Breach("the bracket nesting depth", nesting, CLANG_MAX_NESTING)
    expansion = macro_expansion(text)
    if expansion > CLANG_MAX_EXPANSION:
        return Breach("the largest macro expansion (tokens)", expansion, CLANG_MAX_EXPANSION)
    return None


def longest_line(text: str) -> int:
    longest = start = 0
    find = text.find
    while True:
        end = find("\n", start)
        if end < 0:
            return max(longest, len(text) - start)
        longest = max(longest, end - start)
        start = end + 1


def bracket_depth(masked: str) -> int:
    """The deepest nesting of ``( [ {`` and of ``<`` after a name (``A<B<C>>``) in a statement."""
    depth = angles = deepest = 0
    for m in _BRACKETS.finditer(masked):
        c = m.group()
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth = max(0, depth - 1)
            if c == "}":
                angles = 0
        elif c == ";":
            angles = 0
        elif c == "<":
            angles += 1
        else:
            angles = max(0, angles - 1)
        deepest = max(deepest, depth + angles)
    return deepest


def macro_expansion(text: str) -> int:
    """An upper estimate of the tokens the largest macro defined in the file expands to."""
    if "define" not in text:
        return 0
    bodies: dict[str, list[str]] = {}
    sizes: dict[str, int] = {}
    for m in _DEFINE.finditer(text):
        body = m.group(3)
        bodies[m.group(1)] = _WORD.findall(body)
        sizes[m.group(1)] = max(1, len(body.split()))
    expanded: dict[str, int] = {}
    largest = 0
    for name in bodies:
        largest = max(largest, _expand(name, bodies, sizes, expanded))
    return largest


def _expand(name: str, bodies: dict[str, list[str]], sizes: dict[str, int], expanded: dict[str, int]) -> int:
    """Tokens ``name`` expands to (iterative, memoised; a macro is not expanded inside itself)."""
    stack = [(name, False)]
    active: set[str] = set()
    while stack:
        current, done = stack.pop()
        if done:
            active.discard(current)
            total = sizes[current]
            for word in bodies[current]:
                if word in bodies and word != current:
                    total += expanded.get(word, 1) - 1
            expanded[current] = min(total, CLANG_MAX_EXPANSION * 1000)
            continue
        if current in expanded or current in active:
            continue
        active.add(current)
        stack.append((current, True))
        stack.extend((w, False) for w in bodies[current] if w in bodies and w not in expanded and w not in active)
    return expanded.get(name, 1)
