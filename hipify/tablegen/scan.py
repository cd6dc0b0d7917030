"""A declaration scanner for C/C++ vendor headers.

Real CUDA and ROCm headers defeat pycparser (GNU attributes, C++ classes, templates, macros that expand to
storage classes), and a full parse would need every configuration of their #if blocks. We only need the *names*
the headers declare, so a token scanner suffices: it reads every #if branch (the union of all configurations),
treats extern "C" and namespace blocks as transparent, skips other bodies, and classifies each top-level statement
as a function, typedef, enum (with its constants), struct/class, or variable. Macros come from #define lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

_TOKEN = re.compile(
    r"""
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<pp>^[ \t]*\#[^\n]*)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)
  | (?P<punct>::|->|[{}()\[\];,<>=*&:~!%^|+\-/.?\#])
  | (?P<space>\n|[ \t\r\f\v]+)
  | (?P<other>.)
    """,
    re.VERBOSE | re.MULTILINE | re.DOTALL,
)
_DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)(\()?(.*)$", re.DOTALL)
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Identifiers before a '(' that are never the declared function's name.
_NOT_A_NAME = frozenset(
    {
        "__attribute__",
        "__declspec",
        "__align__",
        "alignas",
        "alignof",
        "decltype",
        "sizeof",
        "noexcept",
        "static_assert",
        "throw",
        "if",
        "while",
        "for",
        "switch",
        "return",
        "defined",
        "__launch_bounds__",
        "__asm__",
        "asm",
        "__asm",
        "_Pragma",
        "__pragma",
        "operator",
        "__builtin_align__",
        "__nv_register_params__",
        "__noinline__",
        "__forceinline__",
        "typeof",
        "__typeof__",
        "requires",
        "_Alignas",
        # Built-in type keywords: `int(x)` is a functional cast, never a declared function.
        "bool",
        "char",
        "short",
        "int",
        "long",
        "float",
        "double",
        "void",
        "signed",
        "unsigned",
    }
)
_MACROISH = re.compile(r"^_*[A-Z][A-Z0-9_]*$")
_AGGREGATE = frozenset({"enum", "struct", "class", "union"})
_TYPE_WORDS = frozenset(
    {
        "const",
        "volatile",
        "struct",
        "enum",
        "union",
        "class",
        "unsigned",
        "signed",
        "typename",
        "typedef",
    }
)
DEPRECATED_WORD = re.compile(r"deprecated", re.IGNORECASE)
# Identifiers that mark a declaration deprecated: DEPRECATED-style macros and the GNU/C++ attribute.
_DEPRECATION_MARK = re.compile(r"^(_*[A-Z0-9_]*DEPRECATED[A-Z0-9_]*|deprecated|__deprecated__)$")
_GUARD_NAME = re.compile(r"_H(PP)?_*$|_H_|_INCLUDED", re.IGNORECASE)
_DOC_DEPRECATED = re.compile(r"[\\@]deprecated\b")
# "use hipHostMalloc instead" / "use hipHostMalloc() instead" in a deprecation message or its doc comment
_SUCCESSOR = re.compile(r"\buse\s+([A-Za-z_]\w*)\s*(?:\(\s*\))?\s+instead\b", re.IGNORECASE)
_DOC_EXPERIMENTAL = re.compile(r"\bexperimental\b", re.IGNORECASE)
# HIP documents many graph/memory-pool APIs as "marked as Beta": a caution, not an experimental marker.
_DOC_BETA = re.compile(r"marked as beta", re.IGNORECASE)


# Macros that declare names when invoked (HIP builds make_<vector> helpers and hipRAND state types through
# them): macro -> (name templates over the macro's arguments, kind).
DECLARATOR_MACROS: dict[str, tuple[tuple[str, ...], str]] = {
    "DECLOP_MAKE_ONE_COMPONENT": (("make_{1}",), "function"),
    "DECLOP_MAKE_TWO_COMPONENT": (("make_{1}",), "function"),
    "DECLOP_MAKE_THREE_COMPONENT": (("make_{1}",), "function"),
    "DECLOP_MAKE_FOUR_COMPONENT": (("make_{1}",), "function"),
    # struct NAME : public BASE {...}; typedef struct NAME NAME##_t;
    "DEFINE_HIPRAND_STATE": (("{0}", "{0}_t"), "type"),
}


# Macros that end a declaration in place of ';' (CUDA's intrinsic headers: `unsigned __ballot_sync(...) __DEF_IF_HOST`
# expands to a body on the host and to ';' on the device).
STATEMENT_END_MACROS = frozenset({"__DEF_IF_HOST"})


@dataclass
class Decl:
    name: str
    kind: str  # function, type, enum, enum_constant, macro, variable
    parent: str = ""  # enum of a constant
    namespace: str = ""  # enclosing C++ namespace, '::'-joined
    deprecated: bool = False
    experimental: bool = False
    beta: bool = False
    alias_of: str = ""  # typedef X NAME / #define NAME X: the single name it stands for
    calls: tuple[str, ...] = ()  # names called in an inline function's body (wrapper detection)
    forwards: str = ""  # the callee of a body that only passes the parameters on: `{ return g(a, b); }`
    params: int = -1  # parameter count of a function (-1 unknown / variadic)
    param_names: tuple[str, ...] = ()
    param_types: tuple[str, ...] = ()  # base type and pointer depth of each parameter ('' when not plain)
    defined: bool = False  # function with a body
    value: str = ""  # an enum constant's integer value, when it is a literal
    replacement: str = ""  # the successor a deprecation names: HIP_DEPRECATED("use hipHostMalloc instead")
    expansion: str = ""  # a macro's replacement text (one #if branch's definition)
    guards: tuple[str, ...] = ()  # macros whose `#ifdef X` true branch encloses the declaration
    template_params: tuple[str, ...] = ()  # type parameters of a function template


@dataclass
class HeaderScan:
    decls: list[Decl] = field(default_factory=list)
    case_pairs: list[tuple[str, str]] = field(default_factory=list)  # `case A: return B;`
    include_guard: str = ""


def _tokens(text: str) -> tuple[list[tuple[str, str, int]], list[tuple[int, str]], list[str], list[tuple[str, ...]]]:
    """(code tokens as (kind, text, comment-index), comments as (index, text), preprocessor lines)."""
    text = text.replace("\\\r\n", " ").replace("\\\n", " ")
    toks: list[tuple[str, str, int]] = []
    comments: list[str] = []
    pp: list[str] = []
    marks: list[tuple[int, str]] = []  # (index of the next code token, preprocessor line)
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind == "space":
            continue
        if kind == "comment":
            comments.append(m.group())
        elif kind == "pp":
            pp.append(_COMMENTS.sub(" ", m.group()))
            marks.append((len(toks), pp[-1]))
        else:
            toks.append((kind or "other", m.group(), len(comments)))
    guards = _guards(len(toks), marks)
    drop = _alternative_openers(toks, marks)
    if drop:
        toks = [t for k, t in enumerate(toks) if k not in drop]
        guards = [g for k, g in enumerate(guards) if k not in drop]
    return toks, [(i, c) for i, c in enumerate(comments)], pp, guards


_IFDEF = re.compile(r"#\s*(?:ifdef\s+([A-Za-z_]\w*)|if\s+defined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*)))\s*$")


def _guards(count: int, marks: list[tuple[int, str]]) -> list[tuple[str, ...]]:
    """For each code token, the macros whose plain `#ifdef X` / `#if defined X` true branch encloses it."""
    out: list[tuple[str, ...]] = []
    stack: list[str] = []  # per open conditional: the macro of a plain true branch, '' otherwise
    current: tuple[str, ...] = ()
    k = 0
    for pos, line in marks + [(count, "")]:
        while k < min(pos, count):
            out.append(current)
            k += 1
        text = line.strip()
        m = _COND.match(text)
        if not m:
            continue
        d = m.group(1)
        if d in ("if", "ifdef", "ifndef"):
            g = _IFDEF.match(text)
            stack.append(next((x for x in g.groups() if x), "") if g else "")
        elif not stack:
            continue
        elif d == "endif":
            stack.pop()
        else:
            stack[-1] = ""
        current = tuple(x for x in stack if x)
    return out


_COND = re.compile(r"#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b")


def _alternative_openers(toks: list[tuple[str, str, int]], marks: list[tuple[int, str]]) -> set[int]:
    """Token indexes of the later branches of #if groups whose every branch opens (or closes) the same number of
    braces: alternative spellings of one declaration head (`#if X inline T t[] = { #else static T t[] = { #endif`)
    would otherwise leave the union of all branches unbalanced and swallow the rest of the file."""
    drop: set[int] = set()
    stack: list[list[int]] = []  # per open group: token index where each branch starts
    for pos, line in marks:
        m = _COND.match(line.strip())
        if not m:
            continue
        d = m.group(1)
        if d.startswith("if"):
            stack.append([pos])
        elif not stack:
            continue
        elif d == "endif":
            starts = stack.pop() + [pos]
            if len(starts) < 3:
                continue  # a single branch: nothing alternative
            deltas = []
            for a, b in pairwise(starts):
                delta = 0
                for k in range(a, b):
                    if k in drop:
                        continue
                    t = toks[k][1]
                    delta += (t == "{") - (t == "}")
                deltas.append(delta)
            if deltas[0] != 0 and all(x == deltas[0] for x in deltas):
                drop.update(range(starts[1], pos))
        else:
            stack[-1].append(pos)
    return drop


def _match(toks: list[tuple[str, str, int]], i: int, open_: str, close: str) -> int:
    """Index of the token closing the bracket opened at ``i``."""
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j][1]
        if t == open_:
            depth += 1
        elif t == close:
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


def _count_params(toks: list[tuple[str, str, int]], start: int, end: int) -> int:
    inner = [t[1] for t in toks[start + 1 : end]]
    if not inner or inner == ["void"]:
        return 0
    if "..." in "".join(inner):
        return -1
    depth = 0
    count = 1
    for t in inner:
        if t in "([{<":
            depth += 1
        elif t in ")]}>":
            depth -= 1
        elif t == "," and depth == 0:
            count += 1
    return count


def _int_value(tokens: list[str]) -> int | None:
    """The value of a literal enum initialiser (``5``, ``0x10``, ``-1``, ``1 << 3``); None otherwise."""
    text = "".join(tokens).rstrip("uUlL")
    m = re.fullmatch(r"(-?)(0[xX][0-9a-fA-F]+|\d+)[uUlL]*(?:<<(\d+))?", text)
    if not m:
        return None
    number = int(m.group(2), 0) * (-1 if m.group(1) else 1)
    return number << int(m.group(3)) if m.group(3) else number


def _split_params(toks: list[tuple[str, str, int]], start: int, end: int) -> list[list[tuple[str, str, int]]]:
    """The tokens of each parameter between the parentheses at ``start`` and ``end`` (top-level commas)."""
    params: list[list[tuple[str, str, int]]] = [[]]
    depth = 0
    for tok in toks[start + 1 : end]:
        t = tok[1]
        if t in "([{<":
            depth += 1
        elif t in ")]}>":
            depth -= 1
        if t == "," and depth == 0:
            params.append([])
        else:
            params[-1].append(tok)
    return params


def _param_names(toks: list[tuple[str, str, int]], start: int, end: int) -> tuple[str, ...]:
    """Parameter names of the list between ``start`` and ``end`` ('' where a parameter is unnamed)."""
    params = _split_params(toks, start, end)
    names: list[str] = []
    for p in params:
        cut = next((k for k, t in enumerate(p) if t[1] == "=" and k > 0), len(p))
        # a default through a macro, `flags __dv(0)` / `stream __dparm(0)`: the name precedes the call
        call = next(
            (
                k
                for k in range(2, cut)
                if p[k][1] == "(" and p[k - 1][0] == "ident" and sum(1 for t in p[: k - 1] if t[0] == "ident") >= 2
            ),
            cut,
        )
        cut = min(cut, call - 1) if call < cut else cut
        idents = [t[1] for t in p[:cut] if t[0] == "ident"]
        names.append(idents[-1] if len(idents) >= 2 else "")
    return tuple(names) if any(p for p in params) else ()


_QUALIFIERS = frozenset(
    {"const", "volatile", "struct", "enum", "union", "class", "typename", "restrict", "__restrict__", "__restrict"}
)


def _param_types(toks: list[tuple[str, str, int]], start: int, end: int) -> tuple[str, ...]:
    """Base type of each parameter with its pointer depth and pointee const ('cudaPointerAttributes*',
    'const void*'); '' where not a plain named type (templates, function pointers, arrays)."""
    params = _split_params(toks, start, end)
    out: list[str] = []
    for p in params:
        cut = next((k for k, t in enumerate(p) if t[1] == "=" and k > 0), len(p))
        head = p[:cut]
        if any(t[1] in "([<" for t in head):
            out.append("")
            continue
        idents = [t[1] for t in head if t[0] == "ident" and t[1] not in _QUALIFIERS]
        stars = sum(1 for t in head if t[1] == "*")
        base = idents[-2] if len(idents) >= 2 else (idents[0] if idents else "")
        # const of the pointee (`const void *p`, `void const *p`), not of the pointer itself
        first_star = next((k for k, t in enumerate(head) if t[1] == "*"), len(head))
        const = "const " if any(t[1] == "const" for t in head[:first_star]) else ""
        out.append(const + base + "*" * stars if base else "")
    return tuple(out) if any(p for p in params) else ()


def _forwarded_to(body: list[tuple[str, str, int]], names: tuple[str, ...], params: int) -> str:
    """The callee when a function body is one call passing the function's own parameters through unchanged, in
    order (`{ return __ocml_add_rtz_f32(__x, __y); }`); '' otherwise (`__ocml_div_rtz_f32(1.0f, __x)`, casts,
    reordered or extra arguments, more statements)."""
    if params == 0:
        names = ()  # `f(void)`
    texts = [t[1] for t in body]
    if texts[:1] == ["return"]:
        body, texts = body[1:], texts[1:]
    if (
        len(texts) < 4
        or body[0][0] != "ident"
        or texts[1] != "("
        or texts[-2:] != [")", ";"]
        or body[0][1] in _NOT_A_NAME
        or params < 0
        or len(names) != params
        or not all(names)
    ):
        return ""
    args = texts[2:-2]
    expected = [x for k, n in enumerate(names) for x in ((",", n) if k else (n,))]
    return body[0][1] if args == expected else ""


def _is_deprecated(words: list[str]) -> bool:
    return any(_DEPRECATION_MARK.match(w) for w in words)


class _Scanner:
    def __init__(self, text: str) -> None:
        self.toks, comment_list, self.pp, self.guards = _tokens(text)
        self.comments = [c for _, c in comment_list]
        self.out = HeaderScan()
        self.ns: list[str] = []
        self.last_comment = 0

    def doc(self, i: int) -> str:
        """The doc comment of the statement starting at token ``i``."""
        upto = self.toks[i][2] if i < len(self.toks) else len(self.comments)
        # only the comment right before the declaration: group comments (@defgroup) describe a whole section
        return self.comments[upto - 1] if upto > self.last_comment else ""

    def run(self) -> HeaderScan:
        self.defines()
        toks = self.toks
        scopes: list[str | None] = []
        i = 0
        while i < len(toks):
            t = toks[i][1]
            if t == "extern" and i + 2 < len(toks) and toks[i + 1][1] == '"C"' and toks[i + 2][1] == "{":
                scopes.append(None)
                i += 3
                continue
            if t == "namespace":
                j = i + 1
                name: list[str] = []
                while j < len(toks) and toks[j][1] not in ("{", ";", "="):
                    if toks[j][0] == "ident":
                        name.append(toks[j][1])
                    j += 1
                if j < len(toks) and toks[j][1] == "{":
                    scopes.append("::".join(name))
                    self.ns.append("::".join(name))
                    i = j + 1
                    continue
                i = self.skip_to_semicolon(j)
                continue
            if t == "}":
                if scopes and scopes.pop() is not None and self.ns:
                    self.ns.pop()
                i += 1
                continue
            if t == ";":
                i += 1
                continue
            count = len(self.out.decls)
            guards = self.guards[i] if i < len(self.guards) else ()
            i = self.statement(i)
            if guards:
                for d in self.out.decls[count:]:
                    d.guards = guards
        self.case_pairs()
        return self.out

    def opens_scope(self, i: int) -> bool:
        toks = self.toks
        if toks[i][1] == "extern":
            return i + 2 < len(toks) and toks[i + 1][1] == '"C"' and toks[i + 2][1] == "{"
        return toks[i][1] == "namespace" and i + 1 < len(toks) and (toks[i + 1][0] == "ident" or toks[i + 1][1] == "{")

    def skip_to_semicolon(self, j: int) -> int:
        while j < len(self.toks) and self.toks[j][1] != ";":
            if self.toks[j][1] == "{":
                j = _match(self.toks, j, "{", "}")
            j += 1
        return j + 1

    def defines(self) -> None:
        directives: list[tuple[str, str]] = []  # (directive, first word) in order
        for line in self.pp:
            m = _DEFINE.match(line)
            if m:
                name, is_fn, body = m.group(1), m.group(2), m.group(3).strip()
                if is_fn:
                    body = body.split(")", 1)[1].strip() if ")" in body else ""
                idents = _IDENT.findall(body)
                alias = body if _IDENT.fullmatch(body) else ""
                self.out.decls.append(
                    Decl(
                        name,
                        "macro",
                        namespace="",
                        alias_of=alias,
                        expansion=" ".join(body.split()),
                        deprecated=_is_deprecated(idents) and not name.upper().endswith("DEPRECATED"),
                    )
                )
                directives.append(("define", name))
                continue
            s = line.strip()
            mm = re.match(r"#\s*(?:ifndef\s+([A-Za-z_]\w*)|if\s+!\s*defined\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*$)", s)
            if mm:
                directives.append(("ifndef", mm.group(1) or mm.group(2)))
            elif re.match(r"#\s*(if|ifdef|elif|else|endif|include|pragma|undef|error)\b", s):
                directives.append(("other", s))
        # The include guard: the file's first conditional is `#ifndef X`, directly followed by `#define X`, and X
        # is named like a guard (a `#pragma once` file has none; `#ifndef CUBLASAPI` is configuration).
        for k, (kind, text) in enumerate(directives):
            if kind == "other" and text.startswith("#include"):
                continue
            if kind == "other" and re.match(r"#\s*pragma\s+once", text):
                return
            if kind == "other" and text.startswith("#pragma"):
                continue
            if (
                kind == "ifndef"
                and k + 1 < len(directives)
                and directives[k + 1] == ("define", text)
                and _GUARD_NAME.search(text)
            ):
                self.out.include_guard = text
            return

    def statement(self, i: int) -> int:
        """Scan one top-level statement starting at ``i``; return the index after it."""
        toks = self.toks
        start = i
        if toks[i][1] in DECLARATOR_MACROS and i + 1 < len(toks) and toks[i + 1][1] == "(":
            return self.declarator_macro(i)
        words: list[tuple[str, str]] = []  # depth-0 tokens (kind, text); bodies are kept aside
        bodies: list[tuple[int, int]] = []
        paren_groups: list[tuple[int, int, int]] = []  # (index in words of the token before, start, end)
        is_function_def = False
        while i < len(toks):
            kind, t, _ = toks[i]
            if t == ";" or t in STATEMENT_END_MACROS:
                i += 1
                break
            if t == "}":
                break  # a stray close: let the caller pop the scope
            if i > start and self.opens_scope(i):
                break  # leftovers of a broken macro line must not swallow an extern "C"/namespace block
            if t == "(":
                end = _match(toks, i, "(", ")")
                paren_groups.append((len(words), i, end))
                words.append(("group", "()"))
                i = end + 1
                continue
            if t == "[":
                end = _match(toks, i, "[", "]")
                words.append(("group", "[]"))
                i = end + 1
                continue
            if t == "{":
                end = _match(toks, i, "{", "}")
                texts = [w[1] for w in words]
                aggregate = any(w in _AGGREGATE for w in texts) and (
                    not paren_groups
                    or texts.index(next(w for w in texts if w in _AGGREGATE)) > paren_groups[-1][0]
                    or "typedef" in texts
                )
                if not aggregate and texts and texts[-1] != "=" and paren_groups:
                    is_function_def = True
                    bodies.append((i, end))
                    i = end + 1
                    break
                bodies.append((i, end))
                words.append(("body", str(len(bodies) - 1)))
                i = end + 1
                continue
            words.append((kind, t))
            i += 1
        self.classify(start, words, bodies, paren_groups, is_function_def)
        self.last_comment = toks[i - 1][2] if 0 < i <= len(toks) else self.last_comment
        return i if i > start else start + 1

    def declarator_macro(self, i: int) -> int:
        end = _match(self.toks, i + 1, "(", ")")
        args: list[str] = [""]
        depth = 0
        for _, t, _ in self.toks[i + 2 : end]:
            if t in "([{":
                depth += 1
            elif t in ")]}":
                depth -= 1
            if t == "," and depth == 0:
                args.append("")
            else:
                args[-1] = f"{args[-1]} {t}".strip()
        templates, kind = DECLARATOR_MACROS[self.toks[i][1]]
        for template in templates:
            try:
                name = template.format(*args)
            except IndexError:
                name = ""
            if _IDENT.fullmatch(name):
                self.out.decls.append(Decl(name, kind, namespace="::".join(self.ns)))
        end += 1
        return end + 1 if end < len(self.toks) and self.toks[end][1] == ";" else end

    # -- classification -------------------------------------------------------------------------------------

    def classify(
        self,
        start: int,
        words: list[tuple[str, str]],
        bodies: list[tuple[int, int]],
        groups: list[tuple[int, int, int]],
        is_def: bool,
    ) -> None:
        if not words:
            return
        texts = [w[1] for w in words]
        doc = self.doc(start)
        all_words = texts + [self.toks[k][1] for _, s, e in groups for k in range(s, e + 1)]
        deprecated = _is_deprecated(all_words) or bool(_DOC_DEPRECATED.search(doc))
        experimental = bool(_DOC_EXPERIMENTAL.search(doc))
        beta = bool(_DOC_BETA.search(doc))
        replacement = ""
        if deprecated:
            m = _SUCCESSOR.search(" ".join(w for w in all_words if w.startswith('"')) + " " + doc)
            replacement = m.group(1) if m else ""
        ns = "::".join(self.ns)
        tparams: list[str] = []
        while texts and texts[0] == "template" and len(texts) > 1 and texts[1] == "<":
            # drop the template parameter list (angle brackets hold no parens we care about)
            depth = 0
            for k, w in enumerate(texts[1:], 1):
                if w == "<":
                    depth += 1
                elif w == ">":
                    depth -= 1
                    if depth == 0:
                        # type parameters: the name after class/typename (`template <class T, typename U = int>`)
                        tparams += [
                            texts[j + 1]
                            for j in range(1, k - 1)
                            if texts[j] in ("class", "typename") and _IDENT.fullmatch(texts[j + 1])
                        ]
                        words = words[k + 1 :]
                        texts = texts[k + 1 :]
                        groups = [(g[0] - k - 1, g[1], g[2]) for g in groups if g[0] > k]
                        break
            else:
                return
        if not texts:
            return
        add = self.out.decls.append
        if texts[0] == "using":
            # alias declaration `using N = T;` or using-declaration `using ns::N;`: both introduce N here
            # (an attribute may sit between: `using Sum CCCL_DEPRECATED_BECAUSE("...") = ...;`)
            if len(words) > 2 and words[1][0] == "ident" and "=" in texts and "::" not in texts[: texts.index("=")]:
                add(Decl(texts[1], "type", namespace=ns, deprecated=deprecated, alias_of=""))
            elif "namespace" not in texts and words[-1][0] == "ident" and "::" in texts:
                add(Decl(texts[-1], "type", namespace=ns, deprecated=deprecated))
            return
        if "typedef" in texts:
            self.typedef(words, texts, bodies, groups, deprecated, experimental, ns)
            return
        agg = next((k for k, w in enumerate(texts) if w in _AGGREGATE), -1)
        has_body = any(w[0] == "body" for w in words)
        # `struct cudaExtent make_cudaExtent(...)` is a function returning a struct: an aggregate has a body or
        # no parameter list (attribute groups such as __align__(16) aside, handled by the fallback below)
        if agg >= 0 and (not groups or has_body) and "(" not in texts[:agg]:
            self.aggregate(words, texts, bodies, agg, deprecated, experimental, ns)
            return
        if groups:
            count = len(self.out.decls)
            self.function(words, texts, bodies, groups, is_def, deprecated, experimental, beta, ns)
            if replacement and len(self.out.decls) > count:
                self.out.decls[-1].replacement = replacement
            if tparams and len(self.out.decls) > count:
                self.out.decls[-1].template_params = tuple(tparams)
            if len(self.out.decls) == count and agg >= 0 and "(" not in texts[:agg]:
                self.aggregate(words, texts, bodies, agg, deprecated, experimental, ns)
            return
        # A variable: the last identifier before '=' or the end.
        cut = texts.index("=") if "=" in texts else len(texts)
        idents = [w[1] for w in words[:cut] if w[0] == "ident"]
        if len(idents) >= 2:
            add(Decl(idents[-1], "variable", namespace=ns, deprecated=deprecated))

    def aggregate(
        self,
        words: list[tuple[str, str]],
        texts: list[str],
        bodies: list[tuple[int, int]],
        agg: int,
        deprecated: bool,
        experimental: bool,
        ns: str,
    ) -> None:
        add = self.out.decls.append
        tag = self.tag_name(words, agg)
        body_index = next((k for k, w in enumerate(words) if w[0] == "body"), -1)
        if tag:
            add(
                Decl(
                    tag,
                    "enum" if texts[agg] == "enum" else "type",
                    namespace=ns,
                    deprecated=deprecated,
                    experimental=experimental,
                )
            )
        if texts[agg] == "enum" and body_index >= 0:
            self.enum_body(bodies[int(words[body_index][1])], tag, ns)

    def function(
        self,
        words: list[tuple[str, str]],
        texts: list[str],
        bodies: list[tuple[int, int]],
        groups: list[tuple[int, int, int]],
        is_def: bool,
        deprecated: bool,
        experimental: bool,
        beta: bool,
        ns: str,
    ) -> None:
        add = self.out.decls.append
        for pos, s, e in groups:
            if pos > 0 and words[pos - 1][0] == "ident":
                cand = words[pos - 1][1]
                if cand in _NOT_A_NAME or (pos > 1 and words[pos - 2][1] == "operator"):
                    if cand == "operator" or words[pos - 2][1] == "operator":
                        return
                    continue
                if _MACROISH.match(cand) and pos + 1 < len(words):
                    continue  # an attribute-like macro call: the name comes later
                if pos > 1 and words[pos - 2][1] == "::":
                    return  # out-of-class member definition
                if "=" in texts[:pos]:
                    return  # a variable initialised by a call
                params = _count_params(self.toks, s, e)
                names = _param_names(self.toks, s, e)
                calls: tuple[str, ...] = ()
                forwards = ""
                if is_def and bodies:
                    bs, be = bodies[-1]
                    body = self.toks[bs : be + 1]
                    calls = tuple(
                        body[k][1] for k in range(len(body) - 1) if body[k][0] == "ident" and body[k + 1][1] == "("
                    )
                    forwards = _forwarded_to(body[1:-1], names, params)
                add(
                    Decl(
                        cand,
                        "function",
                        namespace=ns,
                        deprecated=deprecated,
                        experimental=experimental,
                        beta=beta,
                        calls=calls,
                        forwards=forwards,
                        params=params,
                        defined=is_def,
                        param_names=names,
                        param_types=_param_types(self.toks, s, e),
                    )
                )
                break

    def tag_name(self, words: list[tuple[str, str]], agg: int) -> str:
        for kind, t in words[agg + 1 :]:
            if kind == "body" or t in (":", ";", "{"):
                return ""
            if (kind == "ident" and not _MACROISH.match(t)) or (kind == "ident" and words[-1][0] != "ident"):
                # skip attribute macros such as __device_builtin__ / CUDNN_DEPRECATED between keyword and tag
                if t.startswith("__") and t.endswith("__"):
                    continue
                if DEPRECATED_WORD.search(t) or t in ("alignas", "__align__", "final"):
                    continue
                return t
        return ""

    def enum_body(self, span: tuple[int, int], parent: str, ns: str) -> None:
        s, e = span
        toks = self.toks[s + 1 : e]
        item: list[tuple[str, str, int]] = []
        depth = 0
        items: list[list[tuple[str, str, int]]] = []
        for tok in toks:
            if tok[1] in "([{":
                depth += 1
            elif tok[1] in ")]}":
                depth -= 1
            if tok[1] == "," and depth == 0:
                items.append(item)
                item = []
            else:
                item.append(tok)
        items.append(item)
        value: int | None = -1
        for it in items:
            idents = [t for t in it if t[0] == "ident"]
            if not idents:
                continue
            name = idents[0][1]
            eq = next((k for k, t in enumerate(it) if t[1] == "="), len(it))
            head = [t[1] for t in it[:eq]]
            value = (
                _int_value([t[1] for t in it[eq + 1 :]]) if eq < len(it) else (value + 1 if value is not None else None)
            )
            self.out.decls.append(
                Decl(
                    name,
                    "enum_constant",
                    parent=parent,
                    namespace=ns,
                    deprecated=_is_deprecated(head[1:]),
                    value="" if value is None else str(value),
                )
            )

    def typedef(
        self,
        words: list[tuple[str, str]],
        texts: list[str],
        bodies: list[tuple[int, int]],
        groups: list[tuple[int, int, int]],
        deprecated: bool,
        experimental: bool,
        ns: str,
    ) -> None:
        add = self.out.decls.append
        agg = next((k for k, w in enumerate(texts) if w in _AGGREGATE), -1)
        body_index = next((k for k, w in enumerate(words) if w[0] == "body"), -1)
        tag = ""
        if agg >= 0:
            tag = self.tag_name(words, agg)
            if tag:
                add(
                    Decl(
                        tag,
                        "enum" if texts[agg] == "enum" else "type",
                        namespace=ns,
                        deprecated=deprecated,
                        experimental=experimental,
                    )
                )
        # function pointer typedef: typedef R (CONV *NAME)(...);
        if groups and groups[0][0] >= 0 and body_index < 0:
            _, s, e = groups[0]
            inner = self.toks[s + 1 : e]
            if any(t[1] == "*" or t[1] == "&" for t in inner):
                pointer_names = [t[1] for t in inner if t[0] == "ident"]
                if pointer_names:
                    add(Decl(pointer_names[-1], "type", namespace=ns, deprecated=deprecated, experimental=experimental))
                return
            # typedef R NAME(args);
        names: list[str] = []
        after = words[body_index + 1 :] if body_index >= 0 else words
        chunk: list[tuple[str, str]] = []
        for w in after + [("punct", ",")]:
            if w[1] == ",":
                ids = [x[1] for x in chunk if x[0] == "ident" and not (DEPRECATED_WORD.search(x[1]))]
                ids = [x for x in ids if x not in _TYPE_WORDS and x != "typedef"]
                if ids:
                    names.append(ids[-1])
                chunk = []
            else:
                chunk.append(w)
        alias = ""
        if body_index < 0 and names:
            base = [
                w[1] for w in words if w[0] == "ident" and w[1] not in _TYPE_WORDS and not DEPRECATED_WORD.search(w[1])
            ]
            if len(base) == 2 and "*" not in texts:
                alias = base[0]
        for name in names:
            add(Decl(name, "type", namespace=ns, deprecated=deprecated, experimental=experimental, alias_of=alias))
        if agg >= 0 and texts[agg] == "enum" and body_index >= 0:
            self.enum_body(bodies[int(words[body_index][1])], names[0] if names else tag, ns)

    def case_pairs(self) -> None:
        toks = self.toks
        for k in range(len(toks) - 5):
            if toks[k][1] == "case" and toks[k + 1][0] == "ident":
                j = k + 2
                if toks[j][1] == ":":
                    j += 1
                    if toks[j][1] == "return" and toks[j + 1][0] == "ident" and toks[j + 2][1] == ";":
                        self.out.case_pairs.append((toks[k + 1][1], toks[j + 1][1]))
                    # case A: out = B; break;
                    elif (
                        j + 4 < len(toks)
                        and toks[j][0] == "ident"
                        and toks[j + 1][1] == "="
                        and toks[j + 2][0] == "ident"
                        and toks[j + 3][1] == ";"
                    ):
                        self.out.case_pairs.append((toks[k + 1][1], toks[j + 2][1]))


def scan_text(text: str) -> HeaderScan:
    return _Scanner(text).run()
