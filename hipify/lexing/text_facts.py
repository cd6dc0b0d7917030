"""Find what a file contains (identifiers, launches, includes, directives, comments) from tokens.

``extract_facts(text, options, wanted=None) -> FileFacts``. Linear in the file size: the
lexer masks comments and literals once; identifiers, brackets and ``<<<`` are then found
with compiled regexes over the masked text. ``wanted`` (a predicate on names) limits the
identifiers reported -- the regex engine passes "in the table or CUDA-looking", which is
what keeps the per-identifier work to one set lookup.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator, Sequence

from ..knowledge.cxx import is_hip_spelling
from ..model import Origin, Span
from ..options import Options
from .brackets import Brackets, trim
from .conditionals import CondDirective, inactive_spans, parse_defines
from .facts import Directive, FileFacts, Identifier, Include, Launch, Region
from .lexer import Lexed, is_name_char, joined_by_splice, lex
from .regions import RegionMap

Wanted = Callable[[str], bool]

_IDENT = re.compile(r"[A-Za-z_$][\w$]*", re.ASCII)  # ASCII: matches the _WORD checks
_DIRECTIVE_HEAD = re.compile(r"#\s*([A-Za-z_]\w*)?")
INCLUDE = re.compile(r'#\s*(?:include|include_next|import)\s*([<"])([^>"\n]*)([>"])')
_NEXT = re.compile(
    r"(?:[ \t\r\n\f\v]|\\(?=\r?\n))*"
    r"(<<<|>>>|->\*|\.\.\.|::|->|[A-Za-z_$][\w$]*|\d[\w.]*|[^\s\w])?",
    re.ASCII,
)
# One-character tokens that cannot be part of a longer token (read forwards).
_SIMPLE_NEXT = frozenset("(),;{}[]?~")
# One-character tokens that cannot start a longer token when read backwards.
_SIMPLE_PREV = frozenset("(),;{}[]?~")
_TWO_CHAR = frozenset(("::", "->", "<<", ">>", "&&", "||", "==", "!=", "<=", ">=", "++", "--", "##"))
_SKIP_BACK = frozenset(" \t\r\n\f\v\\")
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
# Directives whose text is not code: their words are never identifiers.
_TEXT_DIRECTIVES = frozenset(
    ("include", "include_next", "import", "error", "warning", "line", "pragma", "ident", "sccs")
)
_COND_KEYWORDS = frozenset(("if", "ifdef", "ifndef", "elif", "else", "endif"))
# Tokens that cannot precede a declared name in a declaration (they start statements or
# qualify a type that follows).
_NOT_A_TYPE = frozenset(
    (
        "return",
        "case",
        "else",
        "do",
        "throw",
        "sizeof",
        "alignof",
        "decltype",
        "new",
        "delete",
        "goto",
        "co_return",
        "co_yield",
        "co_await",
        "typename",
        "const",
        "volatile",
        "static",
        "extern",
        "inline",
        "constexpr",
        "consteval",
        "constinit",
        "register",
        "thread_local",
        "mutable",
        "explicit",
        "virtual",
        "friend",
        "struct",
        "class",
        "union",
        "enum",
        "operator",
        "using",
        "namespace",
        "template",
        "typedef",
        "public",
        "private",
        "protected",
        "if",
        "while",
        "for",
        "switch",
        "define",
        "undef",
        "ifdef",
        "ifndef",
        "elif",
        "defined",
        "__global__",
        "__device__",
        "__host__",
        "__constant__",
        "__shared__",
        "__managed__",
        "__restrict__",
        "__forceinline__",
        "__noinline__",
        "__inline__",
        "static_cast",
        "reinterpret_cast",
        "const_cast",
        "dynamic_cast",
        "and",
        "or",
        "not",
    )
)
_DECL_NEXT = frozenset(("(", ";", "=", ",", "[", "{", ")", ":"))
_GLOBAL = re.compile(r"__global__(?![\w$])", re.ASCII)  # no leading \b: it would stop the fast scan
_TEMPLATE = re.compile(r"\btemplate\b")
# A launch's opening chevrons: ``<<<``, also spelled with blanks between them (``<< <``), which nvcc accepts.
LAUNCH_OPEN = re.compile(r"<[ \t]*<[ \t]*<")
# The spaced spelling alone: a file with one needs its launches found (rules/launches respells them).
SPACED_CHEVRONS = re.compile(r"<<[ \t]+<|<[ \t]+<[ \t]*<|>>[ \t]+>|>[ \t]+>[ \t]*>")


def extract_facts(
    text: str,
    options: Options | None = None,
    wanted: Wanted | None = None,
    wants_args: Wanted | None = None,
    lexed: Lexed | None = None,
    report_once: frozenset[str] = frozenset(),
    find_launches: bool = True,
    not_types: frozenset[str] = frozenset(),
) -> FileFacts:
    """Facts about ``text``.

    ``wanted``: which identifier names to report (all when None). ``wants_args``: for which
    names followed by ``(`` to split the call's arguments (all when None); the regex
    engine asks only for rows with an argument transform, so ``call_args`` is None elsewhere.
    ``report_once``: names reported at their first occurrence only (the planner asks only
    whether a file uses them, e.g. ``threadIdx``); a third of a kernel file's identifiers.
    ``find_launches=False`` skips parsing ``<<<...>>>`` launches (the planner needs none
    when chevrons are kept and the file gets the runtime include anyway). ``not_types``:
    names that never make the name after them a declaration (macros the translation deletes).
    """
    options = options or Options()
    lexed = lexed or lex(text)
    masked = lexed.masked
    directives = directives_of(text, lexed)
    inactive = _inactive(directives, options, len(text))
    regions = RegionMap(lexed.directives, inactive)
    directive_facts = tuple(
        Directive(d.start, d.end, d.keyword, d.argument, regions.of_directive(d.start)) for d in directives
    )
    includes = _includes(text, directives, regions)
    code = _identifier_view(masked, directives)
    brackets = Brackets(masked, text)
    keywords = [d.keyword for d in directives]
    not_types = not_types | statement_macros(directives)
    identifiers = _identifiers(code, masked, wanted, wants_args, regions, brackets, keywords, report_once, not_types)
    launches = _launches(masked, regions, brackets, _template_kernels(masked)) if find_launches else ()
    return FileFacts(identifiers, launches, includes, directive_facts, lexed.comments, (), masked)


# --- directives -------------------------------------------------------------------------


_OBJECT_LIKE = re.compile(r"([A-Za-z_]\w*)\b(?!\()\s*(.*)", re.DOTALL)


def statement_macros(directives: Sequence[CondDirective]) -> frozenset[str]:
    """Object-like macros the file defines as a statement (``#define CUERR { ... }``, ``#define SYNC
    cudaDeviceSynchronize();``): a name after one begins a statement, never a declaration (``CUERR // note`` then
    ``cudaMemset(p, 0, n);`` on the next line is a call)."""
    found = set()
    for d in directives:
        if d.keyword != "define":
            continue
        m = _OBJECT_LIKE.match(d.argument)
        if m is None:
            continue
        body = m.group(2).strip()
        if body.endswith(("}", ";")) or body.startswith(("{", "do ", "do{")):
            found.add(m.group(1))
    return frozenset(found)


def directives_of(text: str, lexed: Lexed) -> list[CondDirective]:
    """Every directive line: its span, keyword and argument (comments removed, lines joined); worked out once per
    lexing of ``text`` (kept with it)."""
    mine = lexed.text == text  # (the same object, as a rule: compared in no time)
    kept = lexed.derived.get(_DIRECTIVES) if mine else None
    if isinstance(kept, tuple):
        return list(kept)
    out = _directives(text, lexed)
    if mine:
        lexed.derived[_DIRECTIVES] = tuple(out)
    return out


_DIRECTIVES = "directives"  # the key of directives_of's lines in Lexed.derived


def _directives(text: str, lexed: Lexed) -> list[CondDirective]:
    out: list[CondDirective] = []
    append = out.append
    masked = lexed.masked
    head_of = _DIRECTIVE_HEAD.match
    for start, end in lexed.directives:
        head = head_of(masked, start, end)
        if head:
            keyword = head.group(1) or ""
            body = head.end()
        else:
            keyword = ""
            body = start + 1
        rest = text[body:end]
        if masked[body:end] != rest:  # a comment or a literal on the line (_without_comments' own test, inlined)
            rest = _without_comments(text, lexed, body, end)
        if "\\" in rest:
            rest = rest.replace("\\\r\n", " ").replace("\\\n", " ")
        append(CondDirective(start, end, keyword, " ".join(rest.split())))
    return out


def _without_comments(text: str, lexed: Lexed, start: int, end: int) -> str:
    """``text[start:end]`` with comments blanked but literals kept (for directive arguments)."""
    piece = text[start:end]
    if lexed.masked[start:end] == piece:
        return piece
    chars = list(piece)
    first = max(0, bisect.bisect_right(lexed.comments, (start, start)) - 1)
    for cs, ce in lexed.comments[first:]:
        if cs >= end:
            break
        if ce <= start:
            continue
        for i in range(max(cs, start), min(ce, end)):
            chars[i - start] = " "
    return "".join(chars)


def _inactive(directives: Sequence[CondDirective], options: Options, size: int) -> list[Span]:
    conds = [d for d in directives if d.keyword in _COND_KEYWORDS]
    spans = inactive_spans(conds, parse_defines(options.defines))
    return [(s, size if e < 0 else e) for s, e in spans]


def _includes(text: str, directives: Sequence[CondDirective], regions: RegionMap) -> tuple[Include, ...]:
    out = []
    for d in directives:
        if d.keyword not in ("include", "include_next", "import"):
            continue
        m = INCLUDE.match(text, d.start, d.end)
        if m is None:  # '#include MACRO' or a malformed line: nothing to rewrite
            continue
        out.append(Include(d.start, d.end, m.span(2), m.group(2), m.group(1) == "<", regions.of_directive(d.start)))
    return tuple(out)


def _identifier_view(masked: str, directives: Sequence[CondDirective]) -> str:
    """``masked`` with directive keywords and non-code directive lines blanked."""
    pieces = []
    cursor = 0
    for d in directives:
        if d.keyword in _TEXT_DIRECTIVES:
            stop = d.end
        else:
            head = _DIRECTIVE_HEAD.match(masked, d.start, d.end)
            stop = head.end() if head else d.start + 1
        pieces.append(masked[cursor : d.start])
        pieces.append(" " * (stop - d.start))
        cursor = stop
    pieces.append(masked[cursor:])
    return "".join(pieces)


# --- identifiers ------------------------------------------------------------------------


def whole_word(name: str) -> str:
    """A pattern matching ``name`` where ``(?<![\\w$])name(?![\\w$])`` does (no name character on either side), its
    lookbehind after the literal: Python's ``re`` searches a pattern that starts with a literal at C speed, and tries
    one that starts with a lookbehind at every offset."""
    escaped = re.escape(name)
    return rf"{escaped}(?<![\w$]{escaped})(?![\w$])"


def prev_token(masked: str, pos: int) -> tuple[str, int]:
    """The significant token ending before ``pos`` in masked text, and its start."""
    i = pos
    while i > 0 and masked[i - 1] in _SKIP_BACK:
        i -= 1
    if i == 0:
        return "", 0
    if masked[i - 1] in _WORD:
        j = i - 1
        while j > 0 and masked[j - 1] in _WORD:
            j -= 1
        return masked[j:i], j
    three = masked[i - 3 : i] if i >= 3 else ""
    if three in ("<<<", ">>>", "...", "->*"):
        return three, i - 3
    two = masked[i - 2 : i] if i >= 2 else ""
    if two in _TWO_CHAR:
        return two, i - 2
    return masked[i - 1], i - 1


def next_token(masked: str, pos: int) -> tuple[str, int]:
    """The significant token starting at or after ``pos``, and its start ("" at the end)."""
    m = _NEXT.match(masked, pos)
    if m is None or m.group(1) is None:
        return "", len(masked)
    return m.group(1), m.start(1)


# Tokens after which a name is a declarator or a value, never a type: ``const Img& texture``, ``T* cudaArray``.
_DECLARATOR_BEFORE = frozenset(("&", "&&", "*"))
# Tokens after which it is a value: ``texture._width``, ``surface->w``, ``texture[i]``, ``stream = ...``.
_VALUE_AFTER = frozenset((".", "->", "[", "=", "+=", "-=", "*=", "/=", "++", "--"))


def names_no_type(masked: str, start: int, end: int) -> bool:
    """Is the name spanning ``start``..``end`` used where no type can stand, so that it is a variable, parameter
    or member of the project's own however a CUDA type is spelled (a library's ``const CImg<T>& texture``,
    ``texture._width``, ``x = texture;``)? Where a type may stand (``(cudaStream_t)``, ``f(cudaStream_t, int)``,
    ``using S = cudaStream_t;``) it is not."""
    prev, prev_at = prev_token(masked, start)
    nxt, _ = next_token(masked, end)
    if prev in _DECLARATOR_BEFORE or nxt in _VALUE_AFTER:
        return True
    if prev == "return":  # ``return texture;``, not ``return cudaExtent{...}`` (a type's temporary)
        return nxt not in ("(", "{", "<", "::")
    if prev == "=" and nxt in (";", ",", ")"):
        before, before_at = prev_token(masked, prev_at)
        return not (before and before[0] in _WORD and prev_token(masked, before_at)[0] == "using")
    return False


def _identifiers(
    code: str,
    masked: str,
    wanted: Wanted | None,
    wants_args: Wanted | None,
    regions: RegionMap,
    brackets: Brackets,
    keywords: list[str],
    report_once: frozenset[str] = frozenset(),
    not_types: frozenset[str] = frozenset(),
) -> tuple[Identifier, ...]:
    """``keywords``: the keyword of each directive of ``regions``, in order (``define``, ``if``, ...)."""
    raw: list[Identifier] = []
    token_origin = Origin.TOKEN
    declared: set[str] = set()
    word = _WORD
    simple_prev = _SIMPLE_PREV
    inactive = regions.inactive if regions.has_inactive else None
    # Occurrences come in order: walk the directive spans with a cursor instead of bisecting.
    d_starts, d_ends = regions.directive_starts, regions.directive_ends
    d_count = len(d_starts)
    d = 0
    code_region, directive_region, inactive_region = Region.CODE, Region.DIRECTIVE, Region.INACTIVE
    size = len(masked)
    simple_next = _SIMPLE_NEXT
    for start, name in name_occurrences(code, wanted, report_once):
        end = start + len(name)
        at_splice = (start and code[start - 1] in "\r\n") or code[end : end + 1] == "\\"
        if at_splice and joined_by_splice(code, start, end):
            continue  # a line splice joins it to the name characters beside it: part of a longer name
        c = code[end] if end < size else ""
        if c in simple_next and c:  # fast path: 'name(' 'name,' 'name;' ...
            nxt, next_at = c, end
        else:
            nxt_m = _NEXT.match(code, end)
            nxt, next_at = ((nxt_m.group(1) or ""), nxt_m.start(1)) if nxt_m else ("", size)
        c = masked[start - 1] if start else ""
        if c in simple_prev:  # fast path: '(' ',' ';' ... right before the name
            prev, prev_at = c, start - 1
        elif c == " " and start > 1 and masked[start - 2] in simple_prev:
            prev, prev_at = masked[start - 2], start - 2
        else:
            prev, prev_at = prev_token(masked, start)
        while d < d_count and d_ends[d] <= start:
            d += 1
        # Tokens never pair across a directive boundary: the line after '#if X' does not
        # follow 'X', and the line after '#define M v' does not continue 'v'.
        if d < d_count and d_starts[d] <= start:  # inside directive d
            limit = d_ends[d]
            directive = keywords[d]
            floor = d_starts[d]
            if next_at >= limit:
                nxt = ""
        else:
            limit = -1
            directive = ""
            floor = d_ends[d - 1] if d else 0
            if d < d_count and d_starts[d] < next_at:
                nxt = ""
        if prev_at < floor:
            prev = ""
        qualifier = ""
        if prev == "::":
            qualifier, qualifier_at = prev_token(masked, prev_at)
            if qualifier_at < floor or (qualifier and qualifier[0] not in word and qualifier != ">"):
                qualifier = ""
        # Declarations follow a word; in '#define M body' the body does not follow a type 'M'.
        if (
            prev
            and prev[0] in word
            and declares(prev, nxt, name)
            and prev not in not_types
            and not (directive == "define" and after_macro_name(masked, prev_at))
        ):
            declared.add(name)
        if inactive is not None and inactive(start):
            region = inactive_region
        else:
            region = directive_region if limit >= 0 else code_region
        call_args = None
        if nxt == "(" and (wants_args is None or wants_args(name)):
            call_args = brackets.args(next_at, limit if limit >= 0 else size)
        raw.append(
            Identifier(start, end, name, region, token_origin, prev, nxt, qualifier, False, call_args, directive)
        )
    if declared:  # rare: names the file declares itself, known only after the whole file
        for i, ident in enumerate(raw):
            if ident.name in declared:
                raw[i] = ident._replace(user_declared=True)
    return tuple(raw)


def name_occurrences(code: str, wanted: Wanted | None, once: frozenset[str] = frozenset()) -> list[tuple[int, str]]:
    """(start, name) of each identifier that ``wanted`` accepts (all if None), in order.

    The file's words, in order, come from one ``str.translate`` + ``split`` (C speed; a third of
    a regex ``findall``'s time); ``wanted`` is asked once per distinct word; the accepted ones
    are then located, in order, with ``str.find`` of `` word `` in the translated text, where
    every non-word character is a blank: a hit is a whole identifier (never cudaMalloc inside
    mycudaMalloc), and the search goes on from the last hit.
    """
    if wanted is None:
        return list(_names(code))
    if not code.isascii():  # non-ASCII letters end identifiers (as in _IDENT), which split() would not see
        return _occurrences_by_regex(code, wanted, once)
    # Blanks around the file too, so that the first and last words have blanks on both sides;
    # an offset in ``words`` is the offset in ``code`` of the word after that blank.
    words = " " + code.translate(_WORDS_ONLY) + " "
    every = words.split()
    keep = _select(set(every), wanted)
    if not keep:
        return []
    selected = [name for name in every if name in keep]
    if once:
        seen: set[str] = set()
        add = seen.add
        selected = [n for n in selected if n not in once or not (n in seen or add(n))]
    needles = {name: " " + name + " " for name in keep}
    found: list[tuple[int, str]] = []
    append = found.append
    find = words.find
    cursor = 0
    for name in selected:
        pos = find(needles[name], cursor)  # the word's next occurrence: ``selected`` is in file order
        append((pos, name))
        cursor = pos + len(name) + 1  # the blank after a word may be the blank before the next one
    return found


def _select(words: set[str], wanted: Wanted) -> set[str]:
    select = getattr(wanted, "select", None)
    if select is not None:
        return select(words)
    return {name for name in words if name[0] not in _DIGITS and wanted(name)}


def _occurrences_by_regex(code: str, wanted: Wanted, once: frozenset[str]) -> list[tuple[int, str]]:
    every = list(_names(code))
    keep = _select({name for _, name in every}, wanted)
    seen: set[str] = set()
    found = []
    for start, name in every:
        if name in keep and not (name in once and name in seen):
            seen.add(name)
            found.append((start, name))
    return found


# A run of ASCII name characters and non-ASCII characters: cut below where a non-ASCII one is no name character.
_NAME_RUN = re.compile(r"[A-Za-z0-9_$\x80-\U0010ffff]+")


def _names(code: str) -> Iterator[tuple[int, str]]:
    """(start, name) of each identifier of a text with non-ASCII characters. A non-ASCII name
    character is part of the name, as C++ (and clang) read it: ``curand_log_normal4é`` is one
    name, which no row names, never ``curand_log_normal4`` followed by ``é``."""
    for m in _NAME_RUN.finditer(code):
        run, base = m.group(), m.start()
        if run.isascii():
            pieces = [(0, run)]
        else:
            pieces, piece = [], 0
            for i, c in enumerate(run):
                if c > "\x7f" and not is_name_char(c):
                    if piece < i:
                        pieces.append((piece, run[piece:i]))
                    piece = i + 1
            if piece < len(run):
                pieces.append((piece, run[piece:]))
        for offset, name in pieces:
            if not name[0].isdigit():  # a number (1e5, 0xff), not a name
                yield base + offset, name


_WORDS_ONLY = str.maketrans({chr(i): " " for i in range(128) if not (chr(i).isalnum() or chr(i) in "_$")})
_DIGITS = frozenset("0123456789")


def after_macro_name(masked: str, prev_at: int) -> bool:
    """Is the token at ``prev_at`` the name a ``#define`` defines? Then what follows is the macro's
    body (``#define SYNC cudaDeviceSynchronize()``), not a declaration of a type ``SYNC``."""
    return prev_token(masked, prev_at)[0] == "define"


# What may follow a declarator's name: an initializer, the end of the declaration, an array bound, the next
# declarator or parameter.
_AFTER_DECLARATOR = frozenset(("{", ";", "=", "[", ",", ")"))


def declarator_after_mark(masked: str, start: int, name: str) -> bool:
    """Is the function name at ``start``, after ``*`` or ``&``, a declarator's (``Fn *cuMemCreate{nullptr};``,
    ``void load(Fn *&cuMemMap)``): a type's word before the mark, and what follows a declared name after it."""
    token, at = prev_token(masked, start)  # the mark
    while token in ("*", "&", "const", "volatile"):  # ``T **name``, ``T *const name``, ``T *&name``
        token, at = prev_token(masked, at)
    nxt, _ = next_token(masked, start + len(name))
    return bool(token) and (token[0].isalpha() or token[0] == "_" or token == ">") and nxt in _AFTER_DECLARATOR


def declares(prev: str, nxt: str, name: str) -> bool:
    """Heuristic: is this occurrence the name's declaration (so the name is the user's own)?"""
    if prev == "define":
        # ``#define cudaStream_t hipStream_t``: the project's own HIP build spelling CUDA's name the HIP way (under
        # ``#if BUILD_HIP``), not a CUDA-looking name of its own; elsewhere the name is still CUDA's.
        return not is_hip_spelling(nxt)
    if prev in ("struct", "class", "union", "enum"):
        return nxt in ("{", ":", ";")
    if prev == "namespace":
        return nxt in ("{", "=")
    if prev == "using":
        return nxt == "="
    if not prev or prev[0] not in _WORD or prev[0].isdigit() or prev in _NOT_A_TYPE:
        return False
    return nxt in _DECL_NEXT


# --- kernels and launches ---------------------------------------------------------------


def _template_kernels(masked: str) -> frozenset[str]:
    """Names of ``template <...> __global__`` kernels declared in this file."""
    names = set()
    for m in _GLOBAL.finditer(masked):
        if m.start() and masked[m.start() - 1] in _WORD:
            continue
        floor = max(0, m.start() - 500)
        segment_start = max(
            masked.rfind(";", floor, m.start()),
            masked.rfind("}", floor, m.start()),
            masked.rfind("{", floor, m.start()),
            floor,
        )
        if not _TEMPLATE.search(masked, segment_start, m.start()):
            continue
        paren = masked.find("(", m.end(), m.end() + 400)
        # The declared name is the last identifier before '(' that is not an attribute macro.
        words = [
            w
            for w in _IDENT.findall(masked, m.end(), paren if paren >= 0 else m.end())
            if not (w.startswith("__") and w.endswith("__"))
        ]
        if words:
            names.add(words[-1])
    return frozenset(names)


def _launches(
    masked: str, regions: RegionMap, brackets: Brackets, template_kernels: frozenset[str]
) -> tuple[Launch, ...]:
    out = []
    m = LAUNCH_OPEN.search(masked)
    while m is not None:
        launch = _launch_at(masked, m.start(), m.end(), regions, brackets, template_kernels)
        m = LAUNCH_OPEN.search(masked, launch.lparen if launch is not None else m.end())
        if launch is not None:
            out.append(launch)
    return tuple(out)


# Blanks, line ends and line splices (a backslash before a line end), which separate no tokens of one expression.
_BLANKS = " \t\r\n\f\v\\"


def _kernel_start(masked: str, end: int, regions: RegionMap) -> int:
    """Start of the callee expression ending at ``end`` (``ns::k<T>``, ``k``, ``(*fp)``, ``ks[i]``). A qualifier or
    an object on the lines before is part of it (``::cuda::std::`` at a line's end qualifies the name that starts
    the next, as the compiler and the identifier facts read it), one across a directive line's border is not."""
    i = end
    while True:
        part = i  # where the expression read so far begins
        while i > 0 and masked[i - 1] in _BLANKS:
            i -= 1
        if i == 0:
            return i
        if part < end and regions.crosses_directive(i - 1, part):
            return part  # (the line before is a directive: nothing of it is part of the expression)
        c = masked[i - 1]
        if c in ">)]":
            opener = brackets_back(masked, i - 1)
            if opener < 0:
                return -1
            i = opener
            continue
        if c in _WORD or (c > "\x7f" and is_name_char(c)):
            while i > 0 and (masked[i - 1] in _WORD or (masked[i - 1] > "\x7f" and is_name_char(masked[i - 1]))):
                i -= 1
            j = i
            while j > 0 and masked[j - 1] in _BLANKS:
                j -= 1
            joined = masked[j - 2 : j] in ("::", "->") or masked[j - 1 : j] == "."
            if joined and not regions.crosses_directive(j - 1, i):
                i = j - (1 if masked[j - 1] == "." else 2)
                continue
            return i
        if masked[i - 2 : i] == "::":  # leading '::k'
            return i - 2
        return i


def brackets_back(masked: str, close: int) -> int:
    """Offset of the opener matching the ``>``, ``)`` or ``]`` at ``close`` (-1 if none nearby)."""
    pairs = {">": "<", ")": "(", "]": "["}
    stack = [masked[close]]
    i = close
    floor = max(0, close - 2000)
    while i > floor:
        i -= 1
        c = masked[i]
        if c in pairs:
            stack.append(c)
        elif c in "<([":
            if pairs[stack[-1]] != c:
                if c == "<":
                    continue  # a less-than inside parentheses
                return -1
            stack.pop()
            if not stack:
                return i
        elif c in ";{}":
            return -1
    return -1


def _launch_at(
    masked: str, pos: int, open_end: int, regions: RegionMap, brackets: Brackets, template_kernels: frozenset[str]
) -> Launch | None:
    start = _kernel_start(masked, pos, regions)
    if start < 0 or start == pos or regions.crosses_directive(start, pos):
        return None
    limit = regions.directive_end(pos)
    limit = limit if limit >= 0 else len(masked)
    config = brackets.chevron_config(open_end, limit)
    if config is None:
        return None
    spans, (close, close_end) = config
    if not 1 <= len(spans) <= 4 or any(s == e for s, e in spans):
        return None
    nxt, lparen = next_token(masked, close_end)
    if nxt != "(":
        return None
    args = brackets.args(lparen, limit)
    if args is None:
        return None
    rparen = brackets.close_of(lparen)
    kernel = trim(masked, start, pos)
    kernel_text = masked[kernel[0] : kernel[1]]
    names = [name for _, name in _names(kernel_text)]
    if not names or names[-1] == "operator":
        # no kernel is named: ""s<<<1, 1>>>() (the s is the literal's suffix), ::<<<...>>>; operator<< <T>(...)
        return None
    template = "<" in kernel_text or bool(names and names[-1] in template_kernels)
    return Launch(
        start=kernel[0],
        end=rparen + 1,
        kernel=kernel,
        config=tuple(spans),
        chevron_close=(close, close_end),
        lparen=lparen,
        rparen=rparen,
        args=args,
        template=template,
        region=regions.of(pos),
        origin=Origin.TEXT,
        chevron_open=(pos, open_end),
    )
